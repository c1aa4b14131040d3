// The member's likes: which posts they like (POST get-likes/<user_id>), and the heart's optimistic toggle
// (docs/product.md#4-states-and-transitions: filled at once, count and heart put back if the server refuses,
// with no message, #8-error-catalogue). A visitor likes nothing and their clicks are ignored
// (docs/product.md#6-roles-and-permissions).
import type { AuthUser } from '@rotunda/session';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchLikedPostIds, type Post, setLike } from '../api';

export interface Likes {
  isLiked: (postId: number) => boolean;
  toggle: (post: Post) => void;
}

type UpdatePost = (postId: number, change: (post: Post) => Post) => void;

export function useLikes(user: AuthUser | null, updatePost: UpdatePost): Likes {
  const [liked, setLiked] = useState<ReadonlySet<number>>(() => new Set());
  const likedRef = useRef(liked);
  likedRef.current = liked;
  // Posts whose like is on its way: a second click waits for the answer rather than racing it.
  const pending = useRef(new Set<number>());
  const userId = user?.user_id ?? null;

  useEffect(() => {
    setLiked(new Set());
    if (!userId) return;
    const controller = new AbortController();
    fetchLikedPostIds(userId, controller.signal).then(
      (ids) => setLiked(new Set(ids)),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error('Your likes could not be loaded', error);
      },
    );
    return () => controller.abort();
  }, [userId]);

  const mark = useCallback((postId: number, on: boolean) => {
    setLiked((current) => {
      const next = new Set(current);
      if (on) next.add(postId);
      else next.delete(postId);
      likedRef.current = next;
      return next;
    });
  }, []);

  const toggle = useCallback(
    (post: Post) => {
      const postId = post.post_id;
      if (!userId || pending.current.has(postId)) return;
      const wasLiked = likedRef.current.has(postId);
      const countBefore = post.likes_count;
      pending.current.add(postId);
      mark(postId, !wasLiked);
      updatePost(postId, (p) => ({ ...p, likes_count: Math.max(0, countBefore + (wasLiked ? -1 : 1)) }));
      setLike(postId, !wasLiked)
        .then(
          (answer) => updatePost(postId, (p) => ({ ...p, likes_count: answer.likes_count })),
          (error: unknown) => {
            console.error('The like could not be saved', error);
            mark(postId, wasLiked);
            updatePost(postId, (p) => ({ ...p, likes_count: countBefore }));
          },
        )
        .finally(() => pending.current.delete(postId));
    },
    [userId, mark, updatePost],
  );

  const isLiked = useCallback((postId: number) => liked.has(postId), [liked]);

  return { isLiked, toggle };
}
