// Each post's own address (/public-square/post/:id): the read dialog follows the address bar. Opening a post from
// the feed goes to its address (a new history entry, so Back closes it); closing goes back to the square. A post
// reached by its address alone (a shared link) and not in the feed is taken from the page the gateway drew, or
// asked of the server (GET /api/posts/:id); one it does not show (hidden, removed, unknown: a 404) is missing, and
// the square shows its 404 panel instead; one that could not be asked for (the network) has failed, and the square
// offers to try again.
import { useUser } from '@rotunda/session';
import { ApiError } from '@rotunda/ui';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { fetchPost, type Post } from '../api';
import type { Feed } from '../feed/useFeed';

export const SQUARE_PATH = '/public-square';
export const postPath = (postId: number) => `${SQUARE_PATH}/post/${postId}`;
/** The address to share: absolute, on this site. */
export const postLink = (postId: number) => new URL(postPath(postId), window.location.origin).toString();

/** Set on the history entry of a post opened from the square: closing it is going back. */
const FROM_SQUARE = 'fromSquare';

type Fetched =
  | { postId: number; status: 'loading' }
  | { postId: number; status: 'shown'; post: Post }
  | { postId: number; status: 'missing' }
  | { postId: number; status: 'failed' };

export interface PostAddress {
  /** The post whose address this is, once known; null on the square itself. */
  reading: Post | null;
  /** The address names a post that is being fetched. */
  loading: boolean;
  /** The address names a post the server does not show (it answered 404). */
  missing: boolean;
  /** The post could not be asked for (the network, or the server failing): trying again may show it. */
  failed: boolean;
  retry: () => void;
  open: (post: Post) => void;
  close: () => void;
  /** The feed's changes, applied to a post fetched by its address too. */
  updatePost: Feed['updatePost'];
  removePost: Feed['removePost'];
}

/** The id in the address: a whole number, or NaN for anything else (never a post). */
const idOf = (param: string | undefined) =>
  param === undefined ? null : /^\d{1,9}$/.test(param) ? Number(param) : Number.NaN;

export function usePostAddress(
  feed: Pick<Feed, 'items' | 'updatePost' | 'removePost'>,
  onOpened: (postId: number) => void,
): PostAddress {
  const { id } = useParams();
  const member = useUser() !== null;
  const navigate = useNavigate();
  const location = useLocation();
  const postId = idOf(id);
  const inFeed = postId === null ? undefined : feed.items.find((post) => post.post_id === postId);
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // The post its author just deleted here: its dialog is closing, nothing is to be asked or said of it.
  const [deleted, setDeleted] = useState<number | null>(null);
  const gone = postId !== null && postId === deleted;
  // The post to ask the server for: one the address names that the feed does not hold.
  const wanted = postId !== null && !inFeed && !gone ? postId : null;

  // `attempt` is a dependency on purpose: bumping it asks again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the request
  useEffect(() => {
    if (wanted === null) return;
    if (Number.isNaN(wanted) || wanted < 1) {
      setFetched({ postId: wanted, status: 'missing' });
      return;
    }
    setFetched((current) =>
      current?.postId === wanted && current.status === 'shown'
        ? current
        : { postId: wanted, status: 'loading' },
    );
    const controller = new AbortController();
    fetchPost(wanted, member, controller.signal).then(
      (post) => setFetched({ postId: wanted, status: 'shown', post }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Only the server's word that there is no such post is "not found"; anything else may pass.
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
          setFetched({ postId: wanted, status: 'missing' });
          return;
        }
        console.error('The post could not be loaded', error);
        setFetched({ postId: wanted, status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [wanted, member, attempt]);

  // Every opening is one more read, by the feed's button or by the address
  // (docs/product.md#4-states-and-transitions).
  useEffect(() => {
    if (postId !== null && postId > 0) onOpened(postId);
  }, [postId, onOpened]);

  const own = fetched?.postId === postId ? fetched : null;
  const reading = inFeed ?? (own?.status === 'shown' ? own.post : null);

  const { updatePost: updateFeed, removePost: removeFromFeed } = feed;
  const updatePost = useCallback<Feed['updatePost']>(
    (changed, change) => {
      updateFeed(changed, change);
      setFetched((current) =>
        current?.status === 'shown' && current.post.post_id === changed
          ? { ...current, post: change(current.post) }
          : current,
      );
    },
    [updateFeed],
  );
  const removePost = useCallback<Feed['removePost']>(
    (removed) => {
      removeFromFeed(removed);
      setDeleted(removed);
      setFetched((current) => (current?.postId === removed ? null : current));
    },
    [removeFromFeed],
  );

  const open = useCallback(
    (post: Post) => navigate(postPath(post.post_id), { state: { [FROM_SQUARE]: true } }),
    [navigate],
  );
  const fromSquare = (location.state as Record<string, unknown> | null)?.[FROM_SQUARE] === true;
  const close = useCallback(() => {
    if (fromSquare) navigate(-1);
    else navigate(SQUARE_PATH, { replace: true });
  }, [fromSquare, navigate]);

  return {
    reading,
    loading: wanted !== null && (own === null || own.status === 'loading'),
    missing: wanted !== null && own?.status === 'missing',
    failed: wanted !== null && own?.status === 'failed',
    retry,
    open,
    close,
    updatePost,
    removePost,
  };
}
