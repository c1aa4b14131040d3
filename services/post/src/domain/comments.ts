// A post's comments (docs/product.md#5-validation-rules, #6-roles-and-permissions): read by anyone a page at
// a time (the feed carries only the latest), written by members with a profile within each member's
// allowance, changed or deleted by their author only; the feed version moved after each write. Hidden
// comments (and posts) only for their authors and contributors (visibility.ts).
import { POST_COMMENTS, waitInWords } from '@rotunda/rules';
import { type Caller, DomainError, invalidArgument, notFound, requireMember } from '@rotunda/service-kit';
import {
  commentOrThrow,
  MESSAGES,
  requireAuthor,
  visibleCommentOrThrow,
  visiblePostOrThrow,
} from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import { checkMentions, commentEvents, eventActor } from './notices.ts';
import type { CommentAllowance, CommentStore, PostStore } from './ports.ts';
import type { Comment, CommentsPage } from './post.ts';
import type { ReadCopies } from './read-copies.ts';
import { cleanCommentText } from './rules.ts';
import { viewerOf } from './visibility.ts';

/** The refusal past a member's comment allowance; the gateway reads the seconds for Retry-After. */
export function commentingTooQuickly(waitMs: number): string {
  return `You are commenting too quickly. Please try again in ${waitInWords(waitMs / 1000, Number.POSITIVE_INFINITY)}.`;
}

export interface ListCommentsInput {
  postId: number;
  /** 0: the latest. */
  beforeCommentId: number;
  /** 0: the default page. */
  limit: number;
}

export interface CommentsDependencies {
  comments: CommentStore;
  posts: Pick<PostStore, 'findStored'>;
  authors: Pick<ReadCopies, 'authorOf' | 'mentioned'>;
  /** Each member's comments: a burst, then a steady rate (configuration). */
  commentAllowance: CommentAllowance;
  feedVersion: Pick<FeedVersion, 'changed'>;
}

function checkCommentBody(body: string): string {
  const text = cleanCommentText(body);
  if (!text) throw invalidArgument(MESSAGES.emptyComment);
  return text;
}

export function createComments({
  comments,
  posts,
  authors,
  commentAllowance,
  feedVersion,
}: CommentsDependencies) {
  return {
    /** Public, as the feed is: a post's comments written before one of them (the read modal's earlier ones). */
    async listComments(caller: Caller | undefined, input: ListCommentsInput): Promise<CommentsPage> {
      const viewer = viewerOf(caller);
      const limit =
        input.limit > 0
          ? Math.min(Math.floor(input.limit), POST_COMMENTS.page.max)
          : POST_COMMENTS.page.default;
      await visiblePostOrThrow(posts, input.postId, viewer);
      let before: Comment | null = null;
      if (input.beforeCommentId !== 0) {
        // A comment the viewer may not see still marks a place in the order; it is only not shown.
        before = await commentOrThrow(comments, input.beforeCommentId);
        if (before.postId !== input.postId) throw notFound(MESSAGES.commentNotFound);
      }
      return comments.commentsBefore(input.postId, before, limit, viewer);
    },

    /**
     * A member with a profile, within their allowance (a burst, then a steady rate; a refused comment spends
     * none); an empty comment is refused (docs/product.md#5-validation-rules). The post's author and the
     * people it mentions are told (ADR 0042).
     */
    async addComment(
      caller: Caller | undefined,
      postId: number,
      body: string,
      mentionIds: readonly number[] = [],
    ): Promise<Comment> {
      const member = requireMember(caller);
      const text = checkCommentBody(body);
      const wanted = checkMentions(mentionIds);
      const post = await visiblePostOrThrow(posts, postId, viewerOf(member));
      const author = await authors.authorOf(member, MESSAGES.profileRequiredToComment);
      const mentioned = await authors.mentioned(wanted);
      const waitMs = await comments.spendCommentAllowance(member.userId, commentAllowance);
      if (waitMs > 0) throw new DomainError('resource_exhausted', commentingTooQuickly(waitMs));
      const commentId = await comments.addComment(
        { postId, authorId: author.profileId, userId: member.userId, body: text },
        {
          mentions: mentioned.map((person) => person.profileId),
          events: ({ commentId }) =>
            commentEvents(post, commentId, mentioned, eventActor(member.userId, author)),
        },
      );
      if (commentId === null) throw notFound(MESSAGES.postNotFound);
      await feedVersion.changed();
      return commentOrThrow(comments, commentId);
    },

    /** A comment the caller may see: what a repeated keyed create answers once its row was made. */
    async getComment(caller: Caller | undefined, commentId: number): Promise<Comment> {
      return visibleCommentOrThrow(comments, posts, commentId, viewerOf(requireMember(caller)));
    },

    async updateComment(caller: Caller | undefined, commentId: number, body: string): Promise<Comment> {
      const member = requireMember(caller);
      requireAuthor(
        member,
        await visibleCommentOrThrow(comments, posts, commentId, viewerOf(member)),
        MESSAGES.onlyAuthorComment,
      );
      const text = checkCommentBody(body);
      if (!(await comments.updateComment(commentId, text))) throw notFound(MESSAGES.commentNotFound);
      await feedVersion.changed();
      return commentOrThrow(comments, commentId);
    },

    async deleteComment(caller: Caller | undefined, commentId: number): Promise<void> {
      const member = requireMember(caller);
      requireAuthor(
        member,
        await visibleCommentOrThrow(comments, posts, commentId, viewerOf(member)),
        MESSAGES.onlyAuthorDeleteComment,
      );
      if (!(await comments.deleteComment(commentId))) throw notFound(MESSAGES.commentNotFound);
      await feedVersion.changed();
    },
  };
}

export type Comments = ReturnType<typeof createComments>;
