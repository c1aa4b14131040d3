// What members do to posts and comments, each a REST call whose answer is then shown in the feed: adding,
// editing and deleting comments (the comment count follows), saving an edited post, deleting a post.
// Comment failures are only logged (spec §8); the caller keeps what the member typed so nothing is lost.
import { useMemo } from 'react';
import type { Comment, Post, PostUpdate } from '../api';
import * as api from '../api';
import type { Feed } from './useFeed';

export interface PostActions {
  /** Answers whether the comment was added. */
  addComment: (postId: number, body: string) => Promise<boolean>;
  /** Answers whether the change was saved. */
  editComment: (comment: Comment, body: string) => Promise<boolean>;
  /** Answers whether the comment was deleted. */
  deleteComment: (comment: Comment) => Promise<boolean>;
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
      addComment: (postId, body) =>
        api.addComment(postId, body).then((comment) => {
          withComments(postId, (comments) => [...comments, comment]);
          return true;
        }, logged('The comment could not be added')),

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

      savePost: async (update) => {
        const saved: Post = await api.updatePost(update);
        updatePost(update.post_id, (post) => ({ ...post, ...saved }));
      },

      deletePost: async (postId) => {
        await api.deletePost(postId);
        removePost(postId);
      },
    };
  }, [updatePost, removePost]);
}
