// The gRPC face of the post service (rotunda.post.v1.PostService): translates messages to the rules' calls and
// the rules' answers back, null fields becoming absent ones.
import type {
  AuthorInfo,
  Comment as CommentMessage,
  Post as PostMessage,
  PostServiceServer,
} from '@rotunda/protos/post';
import { type Logger, unary } from '@rotunda/service-kit';
import type { Comments } from '../domain/comments.ts';
import type { LikesAndReads } from '../domain/likes-and-reads.ts';
import type { AuthorName, Comment, Post } from '../domain/post.ts';
import type { PostEdit, PostService } from '../domain/post-service.ts';
import type { PostTypes } from '../domain/post-types.ts';
import type { ReadCopies } from '../domain/read-copies.ts';

/** null (none) becomes absent, which the REST answer shows as null. */
const opt = <T>(value: T | null): T | undefined => value ?? undefined;

/** An author the read copy does not know (yet) still has an id; the names stay empty until it does. */
function authorInfo(profileId: number, author: AuthorName | null): AuthorInfo {
  return {
    profile_id: profileId,
    first_name: author?.firstName ?? '',
    last_name: author?.lastName ?? '',
    user_id: author?.userId ?? '',
  };
}

export function commentMessage(comment: Comment): CommentMessage {
  return {
    comment_id: comment.commentId,
    post_id: comment.postId,
    comment_author: comment.authorId,
    comment_body: comment.body,
    user_id: comment.userId,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author: authorInfo(comment.authorId, comment.author),
  };
}

export function postMessage(post: Post): PostMessage {
  return {
    post_id: post.postId,
    post_title: post.title,
    post_body: post.body,
    post_author: post.authorId,
    user_id: post.userId,
    organization_id: opt(post.organizationId),
    division_id: opt(post.divisionId),
    organization_name: opt(post.organizationName),
    division_name: opt(post.divisionName),
    posttype_id: post.postTypeId,
    post_type: post.postType,
    eventtype_id: opt(post.eventTypeId),
    event_type: opt(post.eventType),
    event_location: opt(post.eventLocation),
    event_date: opt(post.eventDate),
    event_start: opt(post.eventStart),
    event_end: opt(post.eventEnd),
    created_at: post.createdAt,
    updated_at: post.updatedAt,
    likes_count: post.likesCount,
    reads: post.reads,
    comments_count: post.commentsCount,
    author: { ...authorInfo(post.authorId, post.author), user_id: post.author?.userId ?? post.userId },
    comments: post.comments.map(commentMessage),
  };
}

/** The rules' modules the contract reaches (wired in wiring.ts). */
export interface PostRules {
  types: PostTypes;
  posts: PostService;
  comments: Comments;
  likes: LikesAndReads;
  copies: Pick<ReadCopies, 'profileInfo'>;
}

export function grpcPostService(
  { types, posts, comments, likes, copies }: PostRules,
  logger: Logger,
): PostServiceServer {
  return {
    listPosts: unary(logger, 'ListPosts', async (request, context) => ({
      posts: (
        await posts.listPosts(context.caller, {
          offset: request.offset,
          limit: request.limit,
          sort: request.sort,
          seed: request.seed,
          postTypeId: request.posttype_id,
          search: request.search,
          myIssues: request.my_issues,
        })
      ).map(postMessage),
    })),
    listPostTypes: unary(logger, 'ListPostTypes', async () => ({
      post_types: (await types.listPostTypes()).map((type) => ({
        posttype_id: type.postTypeId,
        post_type: type.postType,
      })),
    })),
    listEventTypes: unary(logger, 'ListEventTypes', async () => ({
      event_types: (await types.listEventTypes()).map((type) => ({
        eventtype_id: type.eventTypeId,
        event_type: type.eventType,
      })),
    })),
    getPostType: unary(logger, 'GetPostType', async (request) => {
      const type = await types.getPostType(request.posttype_id);
      return { posttype_id: type.postTypeId, post_type: type.postType };
    }),
    getEventType: unary(logger, 'GetEventType', async (request) => {
      const type = await types.getEventType(request.eventtype_id);
      return { eventtype_id: type.eventTypeId, event_type: type.eventType };
    }),
    addPost: unary(logger, 'AddPost', async (request, context) =>
      postMessage(
        await posts.addPost(context.caller, {
          title: request.post_title,
          body: request.post_body,
          postTypeId: request.posttype_id,
          eventLocation: request.event_location,
          eventDate: request.event_date,
          eventStart: request.event_start,
          eventEnd: request.event_end,
          eventTypeId: request.eventtype_id,
        }),
      ),
    ),
    updatePost: unary(logger, 'UpdatePost', async (request, context) => {
      const edit: PostEdit = {
        title: request.post_title,
        body: request.post_body,
        eventLocation: request.event_location,
        eventDate: request.event_date,
        eventStart: request.event_start,
        eventEnd: request.event_end,
        eventTypeId: request.eventtype_id,
      };
      return postMessage(await posts.updatePost(context.caller, request.post_id, edit));
    }),
    deletePost: unary(logger, 'DeletePost', async (request, context) => {
      await posts.deletePost(context.caller, request.post_id);
      return {};
    }),
    listComments: unary(logger, 'ListComments', async (request) => {
      const page = await comments.listComments({
        postId: request.post_id,
        beforeCommentId: request.before_comment_id,
        limit: request.limit,
      });
      return { comments: page.comments.map(commentMessage), has_earlier: page.hasEarlier };
    }),
    addComment: unary(logger, 'AddComment', async (request, context) =>
      commentMessage(await comments.addComment(context.caller, request.post_id, request.comment_body)),
    ),
    updateComment: unary(logger, 'UpdateComment', async (request, context) =>
      commentMessage(await comments.updateComment(context.caller, request.comment_id, request.comment_body)),
    ),
    deleteComment: unary(logger, 'DeleteComment', async (request, context) => {
      await comments.deleteComment(context.caller, request.comment_id);
      return {};
    }),
    setLike: unary(logger, 'SetLike', async (request, context) => {
      const like = await likes.setLike(context.caller, request.post_id, request.liked);
      return {
        post_id: like.postId,
        liked: like.liked,
        user_id: like.userId,
        likes_count: like.likesCount,
      };
    }),
    listMyLikes: unary(logger, 'ListMyLikes', async (_request, context) => ({
      post_ids: await likes.listMyLikes(context.caller),
    })),
    addRead: unary(logger, 'AddRead', async (request) => ({
      post_id: request.post_id,
      reads: await likes.addRead(request.post_id),
    })),
    getFeedVersion: unary(logger, 'GetFeedVersion', async () => ({ version: await posts.feedVersion() })),
    getProfileInfo: unary(logger, 'GetProfileInfo', async (_request, context) => {
      const author = await copies.profileInfo(context.caller);
      return {
        profile_id: author.profileId,
        first_name: author.firstName,
        last_name: author.lastName,
        user_id: author.userId,
        organization_id: opt(author.organizationId),
        division_id: opt(author.divisionId),
        has_issue_areas: (author.issueAreaIds?.length ?? 0) > 0,
      };
    }),
  };
}
