// The gRPC face of the post service (rotunda.post.v1.PostService): translates messages to the rules' calls and
// the rules' answers back, null fields becoming absent ones. Every write method refuses a suspended member
// before anything else of the call (ADR 0041).
import {
  AddCommentRequest,
  AddPostRequest,
  type AuthorInfo,
  Comment as CommentMessage,
  type Moderation as ModerationMessage,
  Post as PostMessage,
  type PostServiceServer,
  type Suspension as SuspensionMessage,
} from '@rotunda/protos/post';
import {
  type AlwaysGivenPostField,
  EDITABLE_POST_FIELDS,
  POST_FIELD_NAMES,
  type PostFieldKeyOf,
  type PostFieldName,
  type PostFieldValue,
  postFieldKey,
} from '@rotunda/rules';
import { type IdempotencyKeys, type Logger, type UnaryHandler, unary } from '@rotunda/service-kit';
import type { Comments } from '../domain/comments.ts';
import type { LikesAndReads } from '../domain/likes-and-reads.ts';
import type { MembersData } from '../domain/members-data.ts';
import type { Moderation } from '../domain/moderation.ts';
import type { Suspension } from '../domain/moderation-records.ts';
import type { AuthorName, Comment, Mention, Post } from '../domain/post.ts';
import type { PostEdit, PostService } from '../domain/post-service.ts';
import type { PostTypes } from '../domain/post-types.ts';
import type { ReadCopies } from '../domain/read-copies.ts';
import type { ModerationMark } from '../domain/visibility.ts';

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

/** Present only on a hidden post or comment (which only its author and contributors are answered). */
function moderationMessage(mark: ModerationMark): ModerationMessage | undefined {
  return mark.state === 'hidden'
    ? { state: 'hidden', reason: mark.reason ?? '', automatic: mark.automatic }
    : undefined;
}

function mentionMessage(mention: Mention) {
  return { profile_id: mention.profileId, first_name: mention.firstName, last_name: mention.lastName };
}

function suspensionMessage(suspension: Suspension): SuspensionMessage {
  return {
    user_id: suspension.userId,
    until: suspension.until,
    reason: suspension.reason,
    created_at: suspension.createdAt,
    suspended_by: suspension.suspendedBy,
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
    moderation: moderationMessage(comment.moderation),
    mentions: comment.mentions.map(mentionMessage),
  };
}

/**
 * A message's post fields under the service's names (POST_FIELDS): `names` are the ones the message carries, and
 * a row the message lacks does not compile.
 */
function postFieldsOf<N extends PostFieldName, Message extends { [K in N]?: PostFieldValue<K> }>(
  names: readonly N[],
  message: Message & Record<Exclude<N, keyof Message>, never>,
): { [K in N as PostFieldKeyOf<K>]: Message[K] } {
  const fields: Record<string, unknown> = {};
  for (const name of names) fields[postFieldKey(name)] = message[name];
  return fields as { [K in N as PostFieldKeyOf<K>]: Message[K] };
}

type PostFieldMessages = {
  [N in PostFieldName]: N extends AlwaysGivenPostField ? PostFieldValue<N> : PostFieldValue<N> | undefined;
};

/** A post's written fields as the message carries them: an event field a post lacks is absent. */
function postFieldMessages(post: Post): PostFieldMessages {
  const fields: Partial<Record<PostFieldName, unknown>> = {};
  for (const name of POST_FIELD_NAMES) fields[name] = opt(post[postFieldKey(name)]);
  return fields as PostFieldMessages;
}

export function postMessage(post: Post): PostMessage {
  return {
    ...postFieldMessages(post),
    post_id: post.postId,
    post_author: post.authorId,
    user_id: post.userId,
    organization_id: opt(post.organizationId),
    division_id: opt(post.divisionId),
    organization_name: opt(post.organizationName),
    division_name: opt(post.divisionName),
    post_type: post.postType,
    event_type: opt(post.eventType),
    created_at: post.createdAt,
    updated_at: post.updatedAt,
    likes_count: post.likesCount,
    reads: post.reads,
    comments_count: post.commentsCount,
    author: { ...authorInfo(post.authorId, post.author), user_id: post.author?.userId ?? post.userId },
    comments: post.comments.map(commentMessage),
    moderation: moderationMessage(post.moderation),
    mentions: post.mentions.map(mentionMessage),
  };
}

/** The rules' modules the contract reaches (wired in wiring.ts). */
export interface PostRules {
  types: PostTypes;
  posts: PostService;
  comments: Comments;
  likes: LikesAndReads;
  moderation: Moderation;
  membersData: MembersData;
  copies: Pick<ReadCopies, 'profileInfo'>;
}

/**
 * The contract's handlers; `keys` makes each create answer a repeat of its Idempotency-Key with its first answer
 * instead of creating again (ADR 0046).
 */
export function grpcPostService(
  { types, posts, comments, likes, moderation, membersData, copies }: PostRules,
  logger: Logger,
  keys: IdempotencyKeys,
): PostServiceServer {
  /** A write method: a suspended caller is refused before any other check. */
  const write = <Request, Response>(method: string, handler: UnaryHandler<Request, Response>) =>
    unary<Request, Response>(logger, method, async (request, context) => {
      await moderation.refuseSuspended(context.caller);
      return handler(request, context);
    });

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
    exportMine: unary(logger, 'ExportMine', async (_request, context) => ({
      json: await membersData.exportMine(context.caller),
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
    addPost: write(
      'AddPost',
      keys.create(
        'AddPost',
        { request: AddPostRequest, response: PostMessage },
        async (request, context) =>
          postMessage(
            await posts.addPost(context.caller, postFieldsOf(POST_FIELD_NAMES, request), request.mentions),
          ),
        async (made, context) => postMessage(await posts.getPost(context.caller, Number(made))),
      ),
    ),
    updatePost: write('UpdatePost', async (request, context) => {
      const edit: PostEdit = postFieldsOf(EDITABLE_POST_FIELDS, request);
      return postMessage(await posts.updatePost(context.caller, request.post_id, edit));
    }),
    deletePost: write('DeletePost', async (request, context) => {
      await posts.deletePost(context.caller, request.post_id);
      return {};
    }),
    listComments: unary(logger, 'ListComments', async (request, context) => {
      const page = await comments.listComments(context.caller, {
        postId: request.post_id,
        beforeCommentId: request.before_comment_id,
        limit: request.limit,
      });
      return { comments: page.comments.map(commentMessage), has_earlier: page.hasEarlier };
    }),
    getPost: unary(logger, 'GetPost', async (request, context) =>
      postMessage(await posts.getPost(context.caller, request.post_id)),
    ),
    listPostAddresses: unary(logger, 'ListPostAddresses', async (request) => ({
      posts: (await posts.listPostAddresses(request.limit)).map((address) => ({
        post_id: address.postId,
        updated_at: address.updatedAt,
      })),
    })),
    addComment: write(
      'AddComment',
      keys.create(
        'AddComment',
        { request: AddCommentRequest, response: CommentMessage },
        async (request, context) =>
          commentMessage(
            await comments.addComment(
              context.caller,
              request.post_id,
              request.comment_body,
              request.mentions,
            ),
          ),
        async (made, context) => commentMessage(await comments.getComment(context.caller, Number(made))),
      ),
    ),
    updateComment: write('UpdateComment', async (request, context) =>
      commentMessage(await comments.updateComment(context.caller, request.comment_id, request.comment_body)),
    ),
    deleteComment: write('DeleteComment', async (request, context) => {
      await comments.deleteComment(context.caller, request.comment_id);
      return {};
    }),
    setLike: write('SetLike', async (request, context) => {
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
    addRead: unary(logger, 'AddRead', async (request, context) => ({
      post_id: request.post_id,
      reads: await likes.addRead(context.caller, request.post_id),
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
    addReport: write('AddReport', async (request, context) => ({
      report_id: await moderation.addReport(context.caller, {
        targetType: request.target_type,
        targetId: request.target_id,
        reason: request.reason,
        note: request.note,
      }),
    })),
    listReports: unary(logger, 'ListReports', async (request, context) => ({
      targets: (await moderation.listReports(context.caller, request.status)).map((target) => ({
        target_type: target.type,
        target_id: target.id,
        reports_count: target.reportsCount,
        reasons: target.reasons,
        state: target.moderation.state,
        first_reported_at: target.firstReportedAt,
        excerpt: target.excerpt,
        author: {
          user_id: target.author.userId,
          profile_id: target.author.profileId,
          first_name: target.author.firstName ?? '',
          last_name: target.author.lastName ?? '',
        },
        notes: target.notes,
        automatic: target.moderation.automatic,
        post_id: target.postId,
      })),
    })),
    listMyReports: unary(logger, 'ListMyReports', async (_request, context) => ({
      reports: (await moderation.myReports(context.caller)).map((report) => ({
        report_id: report.reportId,
        target_type: report.type,
        target_id: report.id,
        post_id: report.postId,
        reason: report.reason,
        note: report.note,
        created_at: report.createdAt,
        status: report.status,
        outcome: report.outcome ?? '',
        decided_at: opt(report.decidedAt),
        excerpt: report.excerpt,
      })),
    })),
    decideReports: write('DecideReports', async (request, context) => {
      const decision = await moderation.decideReports(context.caller, {
        targetType: request.target_type,
        targetId: request.target_id,
        action: request.action,
        reason: request.reason,
      });
      return { state: decision.state, closed_reports: decision.closedReports };
    }),
    suspendMember: write('SuspendMember', async (request, context) =>
      suspensionMessage(
        await moderation.suspendMember(context.caller, {
          userId: request.user_id,
          days: request.days,
          reason: request.reason,
        }),
      ),
    ),
    liftSuspension: write('LiftSuspension', async (request, context) => {
      await moderation.liftSuspension(context.caller, request.user_id);
      return {};
    }),
    listModerationLog: unary(logger, 'ListModerationLog', async (request, context) => ({
      entries: (
        await moderation.moderationLog(context.caller, { before: request.before, limit: request.limit })
      ).map((entry) => ({
        id: entry.id,
        at: entry.at,
        actor_user_id: entry.actorUserId,
        actor_first_name: entry.actorFirstName ?? '',
        actor_last_name: entry.actorLastName ?? '',
        action: entry.action,
        target_type: entry.targetType,
        target_id: entry.targetId,
        user_id: entry.userId,
        reason: entry.reason,
      })),
    })),
    getModerationSnapshot: unary(logger, 'GetModerationSnapshot', async () => {
      const snapshot = await moderation.snapshot();
      return {
        suspensions: snapshot.suspensions.map(suspensionMessage),
        hidden_authors: snapshot.hiddenAuthors,
      };
    }),
  };
}
