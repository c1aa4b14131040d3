// A list the Moderation screen shows: loading, then ready or failed (logged, with a retry); `update` changes the
// items on screen in place (a decision's answer), `reload` asks again, keeping what is shown until the answer.
import { useCallback, useEffect, useRef, useState } from 'react';

export type Loaded<T> = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; items: T };

export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, failure: string) {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef({ load, failure });
  latest.current = { load, failure };

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const controller = new AbortController();
    latest.current.load(controller.signal).then(
      (items) => setState({ status: 'ready', items }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(latest.current.failure, error);
        setState({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => {
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    setAttempt((n) => n + 1);
  }, []);
  const update = useCallback(
    (change: (items: T) => T) =>
      setState((current) =>
        current.status === 'ready' ? { status: 'ready', items: change(current.items) } : current,
      ),
    [],
  );
  return { state, reload, update };
}
