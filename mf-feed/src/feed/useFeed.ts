// The feed's data: the first 20 posts for the current order, type, search and "My issue areas", then the next 20 each time the
// screen asks, only while the last page held exactly 20 (spec §4, §9). A change of query starts over, and
// answers to superseded requests are dropped. The screen's own changes (likes, comments, edits, deletions)
// are applied to the posts in place.
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchPosts, PAGE_SIZE, type Post, type SortMode } from '../api';

export interface FeedFilters {
  sort: SortMode;
  seed: number;
  posttypeId: number | null;
  search: string;
  myIssues: boolean;
}

export interface Feed {
  /** 'loading' until the first page for the current query arrives. */
  status: 'loading' | 'ready' | 'error';
  posts: Post[];
  loadingMore: boolean;
  /** The last attempt to fetch the next page failed. */
  moreFailed: boolean;
  /** The last page held a full 20, so there may be more. */
  hasMore: boolean;
  /** Fetches the next 20, unless one is on its way or the last page was short. */
  loadMore: () => void;
  /** Fetches the first page again (after a failure, or after posting). */
  reload: () => void;
  /** Replaces one post with what `change` makes of it. */
  updatePost: (postId: number, change: (post: Post) => Post) => void;
  removePost: (postId: number) => void;
}

interface State {
  status: 'loading' | 'ready' | 'error';
  posts: Post[];
  lastPageSize: number;
  loadingMore: boolean;
  moreFailed: boolean;
}

const INITIAL: State = {
  status: 'loading',
  posts: [],
  lastPageSize: 0,
  loadingMore: false,
  moreFailed: false,
};

export function useFeed({ sort, seed, posttypeId, search, myIssues }: FeedFilters): Feed {
  const [state, setState] = useState<State>(INITIAL);
  const [attempt, setAttempt] = useState(0);
  // Which query the data belongs to; a page fetched for an older one is ignored.
  const generation = useRef(0);
  const stateRef = useRef(state);
  stateRef.current = state;
  const moreController = useRef<AbortController | null>(null);

  // `attempt` is a dependency on purpose: bumping it (retry, reload) fetches the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const current = ++generation.current;
    moreController.current?.abort();
    const controller = new AbortController();
    // The previous posts stay on screen (dimmed) while the new query loads, rather than flashing empty.
    setState((previous) => ({ ...previous, status: 'loading', loadingMore: false, moreFailed: false }));
    fetchPosts({ offset: 0, sort, seed, posttypeId, search, myIssues }, controller.signal).then(
      (posts) => {
        if (generation.current !== current) return;
        setState({
          status: 'ready',
          posts,
          lastPageSize: posts.length,
          loadingMore: false,
          moreFailed: false,
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('Posts could not be loaded', error);
        setState({ ...INITIAL, status: 'error' });
      },
    );
    return () => controller.abort();
  }, [sort, seed, posttypeId, search, myIssues, attempt]);

  const loadMore = useCallback(() => {
    const { status, loadingMore, posts, lastPageSize } = stateRef.current;
    if (status !== 'ready' || loadingMore || lastPageSize !== PAGE_SIZE) return;
    const current = generation.current;
    const controller = new AbortController();
    moreController.current = controller;
    // Marked at once (not only in React state), so a second call before the re-render does not fetch twice.
    stateRef.current = { ...stateRef.current, loadingMore: true };
    setState((previous) => ({ ...previous, loadingMore: true, moreFailed: false }));
    // The offset is what is shown: a post deleted here has left the server's list too.
    fetchPosts({ offset: posts.length, sort, seed, posttypeId, search, myIssues }, controller.signal).then(
      (page) => {
        if (generation.current !== current) return;
        setState((previous) => {
          // A post added meanwhile shifts the pages by one; never show a post twice.
          const seen = new Set(previous.posts.map((post) => post.post_id));
          const added = page.filter((post) => !seen.has(post.post_id));
          return {
            ...previous,
            posts: [...previous.posts, ...added],
            lastPageSize: page.length,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted || generation.current !== current) return;
        console.error('More posts could not be loaded', error);
        setState((previous) => ({ ...previous, loadingMore: false, moreFailed: true }));
      },
    );
  }, [sort, seed, posttypeId, search, myIssues]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  const updatePost = useCallback((postId: number, change: (post: Post) => Post) => {
    setState((previous) => ({
      ...previous,
      posts: previous.posts.map((post) => (post.post_id === postId ? change(post) : post)),
    }));
  }, []);

  const removePost = useCallback((postId: number) => {
    setState((previous) => ({
      ...previous,
      posts: previous.posts.filter((post) => post.post_id !== postId),
    }));
  }, []);

  return {
    status: state.status,
    posts: state.posts,
    loadingMore: state.loadingMore,
    moreFailed: state.moreFailed,
    hasMore: state.status === 'ready' && state.lastPageSize === PAGE_SIZE,
    loadMore,
    reload,
    updatePost,
    removePost,
  };
}
