// The record a page shows by the id in its address (/profile/:id, /organization/:id): loading, then ready, or
// not found (an id that is not a number, or the server's 404 or 400), or failed (logged). Reloading after a change
// keeps what is on screen when it fails, rather than hiding it; another id starts over with a spinner.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';

export type RecordState<T> =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error' }
  | { status: 'ready'; record: T };

export interface RecordPage<T> {
  state: RecordState<T>;
  /** Fetches the record again (a retry, or after a change). */
  reload: () => void;
  /** Puts the record as it is now on screen (a save's answer). */
  show: (record: T) => void;
  /** Changes the record on screen in place (say, a new picture). */
  update: (change: (record: T) => T) => void;
}

/**
 * `load` fetches the record of an id; `failure` is logged with an error that is not a not-found; `onNewId` lets
 * the page start over too (close its dialogs, reset its tab) when the id changes.
 */
export function useRecord<T>(
  id: string,
  load: (id: string, signal: AbortSignal) => Promise<T>,
  failure: string,
  onNewId?: () => void,
): RecordPage<T> {
  const [state, setState] = useState<RecordState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const shownId = useRef<string | null>(null);
  const latest = useRef({ load, failure, onNewId });
  latest.current = { load, failure, onNewId };

  // `attempt` is a dependency on purpose: bumping it (retry, or after a change) fetches again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    if (shownId.current !== id) {
      shownId.current = id;
      setState({ status: 'loading' });
      latest.current.onNewId?.();
    }
    if (!/^\d+$/.test(id)) {
      setState({ status: 'not-found' });
      return;
    }
    const controller = new AbortController();
    latest.current.load(id, controller.signal).then(
      (record) => setState({ status: 'ready', record }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
          setState({ status: 'not-found' });
          return;
        }
        console.error(latest.current.failure, error);
        setState((previous) => (previous.status === 'ready' ? previous : { status: 'error' }));
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const show = useCallback((record: T) => setState({ status: 'ready', record }), []);
  const update = useCallback(
    (change: (record: T) => T) =>
      setState((previous) =>
        previous.status === 'ready' ? { status: 'ready', record: change(previous.record) } : previous,
      ),
    [],
  );
  return { state, reload, show, update };
}
