// What members do to posts and comments, each a REST call whose answer is then shown in the feed: adding,
// editing and deleting comments (the comment count follows), saving an edited post, deleting a post; and, for
// anyone, the earlier comments of a post put before the latest ones the feed carried. Comment failures are only
// logged (docs/product.md#8-error-catalogue), except a refusal the member can act on (commenting too quickly,
// no profile yet), which the comment line shows; the caller keeps what the member typed so nothing is lost.
import { refusalOf } from '@rotunda/ui';
import { useMemo } from 'react';
import type { Comment, Post, PostUpdate } from '../api';
import * as api from '../api';
import type { Feed } from './useFeed';

/** A comment sent: added, or not, with the server's refusal to show when it gave one. */
export type CommentOutcome = { added: true } | { added: false; refusal: string | null };

export interface PostActions {
  /** Adds a comment naming the people of `mentions` (profile ids). */
  addComment: (postId: number, body: string, mentions: number[]) => Promise<CommentOutcome>;
  /** Answers whether the change was saved. */
  editComment: (comment: Comment, body: string) => Promise<boolean>;
  /** Answers whether the comment was deleted. */
  deleteComment: (comment: Comment) => Promise<boolean>;
  /**
   * Fetches the comments written before the oldest one shown and puts them first; answers whether there are
   * earlier ones still. Throws when they could not be loaded.
   */
  showEarlierComments: (post: Post) => Promise<boolean>;
  /** Saves the post's edit; throws when it was not saved (the read modal says why). */
  savePost: (update: PostUpdate) => Promise<void>;
  /** Deletes the post, which then leaves the feed; throws when it was not deleted. */
  deletePost: (postId: number) => Promise<void>;
}

export function usePostActions({
  updatePost,
  removePost,
}: Pick<Feed, 'updatePost' | 'removePost'>): PostActions {
  return useMemo(() => {
    const withComments = (postId: number, change: (comments: Comment[]) => Comment[]) =>
      updatePost(postId, (post) => {
        const comments = change(post.PostComments);
        const difference = comments.length - post.PostComments.length;
        return {
          ...post,
          PostComments: comments,
          comments_count: Math.max(0, post.comments_count + difference),
        };
      });

    const logged = (what: string) => (error: unknown) => {
      console.error(what, error);
      return false;
    };

    return {
      addComment: (postId, body, mentions) =>
        api.addComment(postId, body, mentions).then(
          (comment): CommentOutcome => {
            withComments(postId, (comments) => [...comments, comment]);
            return { added: true };
          },
          (error: unknown): CommentOutcome => {
            const refusal = refusalOf(error);
            if (!refusal) console.error('The comment could not be added', error);
            return { added: false, refusal };
          },
        ),

      editComment: (comment, body) =>
        api.updateComment(comment.comment_id, body).then((saved) => {
          withComments(comment.post_id, (comments) =>
            comments.map((c) => (c.comment_id === saved.comment_id ? { ...c, ...saved } : c)),
          );
          return true;
        }, logged('The comment could not be saved')),

      deleteComment: (comment) =>
        api.deleteComment(comment.comment_id).then(() => {
          withComments(comment.post_id, (comments) =>
            comments.filter((c) => c.comment_id !== comment.comment_id),
          );
          return true;
        }, logged('The comment could not be deleted')),

      showEarlierComments: async (post) => {
        const page = await api.fetchEarlierComments(post.post_id, post.PostComments[0]?.comment_id ?? null);
        // Earlier comments do not change the count: the post had them all along.
        updatePost(post.post_id, (current) => {
          const shown = new Set(current.PostComments.map((c) => c.comment_id));
          const earlier = page.comments.filter((c) => !shown.has(c.comment_id));
          return { ...current, PostComments: [...earlier, ...current.PostComments] };
        });
        return page.has_earlier;
      },

      savePost: async (update) => {
        const saved: Post = await api.updatePost(update);
        // The answer carries the latest comments only: the earlier ones the modal fetched stay.
        updatePost(update.post_id, (post) => ({ ...post, ...saved, PostComments: post.PostComments }));
      },

      deletePost: async (postId) => {
        await api.deletePost(postId);
        removePost(postId);
      },
    };
  }, [updatePost, removePost]);
}
