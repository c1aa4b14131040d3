// The organization list's data: the first 30 matches for the applied filters, then 30 more each time the
// screen asks, only while the server's `total` says more remain (spec §4, §9). A change of filters starts
// over; answers to superseded requests are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchOrganizationPage, type Organization, PAGE_SIZE } from '../api';

export interface OrganizationPages {
  /** 'loading' until the first page for the current filters arrives. */
  status: 'loading' | 'ready' | 'error';
  organizations: Organization[];
  total: number;
  /** A next page is being fetched. */
  loadingMore: boolean;
  /** The last attempt to fetch the next page failed. */
  moreFailed: boolean;
  hasMore: boolean;
  /** Fetches the next 30, unless one is on its way or none remain. */
  loadMore: () => void;
  /** Fetches the first page again (after a failure). */
  retry: () => void;
}

interface State {
  status: 'loading' | 'ready' | 'error';
  organizations: Organization[];
  total: number;
  loadingMore: boolean;
  moreFailed: boolean;
}

const INITIAL: State = {
  status: 'loading',
  organizations: [],
  total: 0,
  loadingMore: false,
  moreFailed: false,
};

export function useOrganizationPages(search: string, group: string): OrganizationPages {
  const [state, setState] = useState<State>(INITIAL);
  const [attempt, setAttempt] = useState(0);
  // Which filters the data belongs to; a page fetched for older filters is ignored.
  const generation = useRef(0);
  const stateRef = useRef(state);
  stateRef.current = state;
  const moreController = useRef<AbortController | null>(null);

  // `attempt` is a dependency on purpose: bumping it (retry) fetches the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const current = ++generation.current;
    moreController.current?.abort();
    const controller = new AbortController();
    // Keep the previous cards on screen (dimmed) while the new filters load, rather than flashing empty.
    setState((previous) => ({ ...previous, status: 'loading', loadingMore: false, moreFailed: false }));
    fetchOrganizationPage({ search, group, offset: 0, limit: PAGE_SIZE }, controller.signal).then(
      (page) => {
        if (generation.current !== current) return;
        setState({
          status: 'ready',
          organizations: page.organizations,
          total: page.total,
          loadingMore: false,
          moreFailed: false,
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('Organizations could not be loaded', error);
        setState({ ...INITIAL, status: 'error' });
      },
    );
    return () => controller.abort();
  }, [search, group, attempt]);

  const loadMore = useCallback(() => {
    const { status, loadingMore, organizations, total } = stateRef.current;
    if (status !== 'ready' || loadingMore || organizations.length >= total) return;
    const current = generation.current;
    const controller = new AbortController();
    moreController.current = controller;
    // Marked at once (not only in React state), so a second call before the re-render does not fetch twice.
    stateRef.current = { ...stateRef.current, loadingMore: true };
    setState((previous) => ({ ...previous, loadingMore: true, moreFailed: false }));
    fetchOrganizationPage(
      { search, group, offset: organizations.length, limit: PAGE_SIZE },
      controller.signal,
    ).then(
      (page) => {
        if (generation.current !== current) return;
        setState((previous) => {
          // An organization added or renamed meanwhile can shift the pages; never show one twice.
          const seen = new Set(previous.organizations.map((o) => o.organization_id));
          const added = page.organizations.filter((o) => !seen.has(o.organization_id));
          return {
            ...previous,
            organizations: [...previous.organizations, ...added],
            // With nothing new, stop asking: the list has reached its end whatever total said.
            total: added.length === 0 ? previous.organizations.length : page.total,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('More organizations could not be loaded', error);
        setState((previous) => ({ ...previous, loadingMore: false, moreFailed: true }));
      },
    );
  }, [search, group]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return {
    ...state,
    hasMore: state.status === 'ready' && state.organizations.length < state.total,
    loadMore,
    retry,
  };
}
