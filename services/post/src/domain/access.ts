// Who may do what to posts and comments (docs/product.md#6-roles-and-permissions): members only to write, a
// member with a profile to post or comment, the author alone to change or delete what they wrote. The refusal
// texts the post service answers with, and the lookups that answer NOT_FOUND for an id that names nothing, or
// a post or comment the viewer may not see (hidden or removed by moderation, visibility.ts).
import { ACCESS_MESSAGES, type Caller, notFound, permissionDenied } from '@rotunda/service-kit';
import type { CommentStore, PostStore, StoredPost } from './ports.ts';
import { type Comment, SORTS } from './post.ts';
import { canSee, type Viewer } from './visibility.ts';

export const MESSAGES = {
  loginRequired: ACCESS_MESSAGES.loginRequired,
  profileRequired: 'Please create your profile before posting',
  profileRequiredToComment: 'Please create your profile before commenting',
  profileNotFound: 'Profile not found',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  postTypeNotFound: 'Post type not found',
  eventTypeNotFound: 'Event type not found',
  onlyAuthorPost: 'Only the author can change this post',
  onlyAuthorDeletePost: 'Only the author can delete this post',
  onlyAuthorComment: 'Only the author can change this comment',
  onlyAuthorDeleteComment: 'Only the author can delete this comment',
  emptyComment: 'Please write a comment first',
  unknownPostType: 'Please choose one of the types of post.',
  unknownEventType: 'Please choose one of the types of event.',
  unknownSort: `Sort by ${SORTS.join(', ')}.`,
} as const;

export const isId = (id: number) => Number.isSafeInteger(id) && id > 0;

/** What a member wrote is theirs alone to change or delete; `refusal` says which. */
export function requireAuthor(member: Caller, written: { userId: string }, refusal: string): void {
  if (written.userId !== member.userId) throw permissionDenied(refusal);
}

/** The row an id names, or NOT_FOUND with `message` (ids out of range name none, and need no query to say so). */
async function foundOrThrow<T>(
  id: number,
  find: (id: number) => Promise<T | null>,
  message: string,
): Promise<T> {
  const row = isId(id) ? await find(id) : null;
  if (!row) throw notFound(message);
  return row;
}

export const storedPostOrThrow = (
  posts: Pick<PostStore, 'findStored'>,
  postId: number,
): Promise<StoredPost> => foundOrThrow(postId, (id) => posts.findStored(id), MESSAGES.postNotFound);

export const commentOrThrow = (
  comments: Pick<CommentStore, 'findComment'>,
  commentId: number,
): Promise<Comment> => foundOrThrow(commentId, (id) => comments.findComment(id), MESSAGES.commentNotFound);

/** The stored post, NOT_FOUND also when `viewer` may not see it. */
export async function visiblePostOrThrow(
  posts: Pick<PostStore, 'findStored'>,
  postId: number,
  viewer: Viewer,
): Promise<StoredPost> {
  const post = await storedPostOrThrow(posts, postId);
  if (!canSee(viewer, { userId: post.userId, state: post.moderationState }))
    throw notFound(MESSAGES.postNotFound);
  return post;
}

/** The comment, NOT_FOUND also when `viewer` may not see it or the post it is on. */
export async function visibleCommentOrThrow(
  comments: Pick<CommentStore, 'findComment'>,
  posts: Pick<PostStore, 'findStored'>,
  commentId: number,
  viewer: Viewer,
): Promise<Comment> {
  const comment = await commentOrThrow(comments, commentId);
  const post = await posts.findStored(comment.postId);
  if (
    !canSee(viewer, { userId: comment.userId, state: comment.moderation.state }) ||
    !post ||
    !canSee(viewer, { userId: post.userId, state: post.moderationState })
  )
    throw notFound(MESSAGES.commentNotFound);
  return comment;
}
