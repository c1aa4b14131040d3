// A server-paged list's data (the directory, the organization list, the feed): the first page for the current
// query, then one more page each time the screen asks, only while more remain
// (docs/product.md#4-states-and-transitions, #9-business-constants-and-limits) — as the server's `total`
// says, or, for a list without a total (the feed), while the last page was full. A new query (a new `key`)
// starts over; answers to superseded requests are dropped, so a slow answer for old filters never replaces
// the list for new ones.
import { useCallback, useEffect, useRef, useState } from 'react';

export interface PageAnswer<T> {
  items: T[];
  /** Every match; left out by a list that has no count (then a full page means there may be more). */
  total?: number;
  /** The server stopped counting: at least `total` match. */
  totalIsLowerBound?: boolean;
}

/** Fetches `limit` items from `offset` for the current query. */
export type PageFetcher<T> = (offset: number, limit: number, signal: AbortSignal) => Promise<PageAnswer<T>>;

export interface Pages<T> {
  /** 'loading' until the first page for the current query arrives. */
  status: 'loading' | 'ready' | 'error';
  items: T[];
  /** Every match (a list without a count: the items shown). */
  total: number;
  /** At least `total` match (the server counts broad searches only so far). */
  totalIsLowerBound: boolean;
  /** Why the first page failed, when status is 'error'. */
  error: unknown;
  /** A next page is being fetched. */
  loadingMore: boolean;
  /** The last attempt to fetch the next page failed. */
  moreFailed: boolean;
  hasMore: boolean;
  /** Fetches the next page, unless one is on its way or none remain. */
  loadMore: () => void;
  /** Fetches the first page again (after a failure, or after the screen added an item). */
  retry: () => void;
  /** Changes the items in place (the screen's own edits and deletions), keeping the paging as it is. */
  update: (change: (items: T[]) => T[]) => void;
}

interface State<T> {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  /** The server's count, or null for a list without one. */
  total: number | null;
  /** Items in the last page fetched (what tells a list without a total that more may remain). */
  lastPageSize: number;
  totalIsLowerBound: boolean;
  error: unknown;
  loadingMore: boolean;
  moreFailed: boolean;
}

const initial = <T>(): State<T> => ({
  status: 'loading',
  items: [],
  total: null,
  lastPageSize: 0,
  totalIsLowerBound: false,
  error: null,
  loadingMore: false,
  moreFailed: false,
});

/** More may remain: fewer items than the server's total, or, without a total, a full last page. */
function mayHaveMore<T>(state: State<T>, pageSize: number): boolean {
  return state.total === null ? state.lastPageSize === pageSize : state.items.length < state.total;
}

/**
 * `key` names the query (e.g. the filters joined); `fetchPage` fetches for the query of the latest render;
 * `idOf` tells items apart, so an item that shifted between pages is never shown twice.
 */
export function usePages<T>(
  key: string,
  fetchPage: PageFetcher<T>,
  idOf: (item: T) => string | number,
  pageSize: number,
): Pages<T> {
  const [state, setState] = useState<State<T>>(initial);
  const [attempt, setAttempt] = useState(0);
  // Which query the data belongs to; a page fetched for an older one is ignored.
  const generation = useRef(0);
  const stateRef = useRef(state);
  stateRef.current = state;
  const latest = useRef({ fetchPage, idOf });
  latest.current = { fetchPage, idOf };
  const moreController = useRef<AbortController | null>(null);

  // `key` and `attempt` are the triggers on purpose: a new query, or a retry, fetches the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: key and attempt re-trigger the load
  useEffect(() => {
    const current = ++generation.current;
    const controller = new AbortController();
    // Keep the previous cards on screen (dimmed) while the new query loads, rather than flashing empty.
    setState((previous) => ({ ...previous, status: 'loading', loadingMore: false, moreFailed: false }));
    latest.current.fetchPage(0, pageSize, controller.signal).then(
      (page) => {
        if (generation.current !== current) return;
        setState({
          ...initial<T>(),
          status: 'ready',
          items: page.items,
          total: page.total ?? null,
          lastPageSize: page.items.length,
          totalIsLowerBound: page.totalIsLowerBound === true,
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('The list could not be loaded', error);
        setState({ ...initial<T>(), status: 'error', error });
      },
    );
    return () => {
      controller.abort();
      moreController.current?.abort();
    };
  }, [key, attempt, pageSize]);

  const loadMore = useCallback(() => {
    const { status, loadingMore, items } = stateRef.current;
    if (status !== 'ready' || loadingMore || !mayHaveMore(stateRef.current, pageSize)) return;
    const current = generation.current;
    const controller = new AbortController();
    moreController.current = controller;
    // Marked at once (not only in React state), so a second call before the re-render does not fetch twice.
    stateRef.current = { ...stateRef.current, loadingMore: true };
    setState((previous) => ({ ...previous, loadingMore: true, moreFailed: false }));
    latest.current.fetchPage(items.length, pageSize, controller.signal).then(
      (page) => {
        if (generation.current !== current) return;
        const { idOf } = latest.current;
        setState((previous) => {
          // A record added or renamed meanwhile can shift the pages; never show one twice.
          const seen = new Set(previous.items.map(idOf));
          const added = page.items.filter((item) => !seen.has(idOf(item)));
          return {
            ...previous,
            items: [...previous.items, ...added],
            // With nothing new, stop asking: the list has reached its end whatever total said.
            total: page.total === undefined ? null : added.length === 0 ? previous.items.length : page.total,
            lastPageSize: page.items.length,
            totalIsLowerBound: added.length > 0 && page.totalIsLowerBound === true,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('More of the list could not be loaded', error);
        setState((previous) => ({ ...previous, loadingMore: false, moreFailed: true }));
      },
    );
  }, [pageSize]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const update = useCallback((change: (items: T[]) => T[]) => {
    setState((previous) => ({ ...previous, items: change(previous.items) }));
  }, []);

  return {
    ...state,
    total: state.total ?? state.items.length,
    hasMore: state.status === 'ready' && mayHaveMore(state, pageSize),
    loadMore,
    retry,
    update,
  };
}
