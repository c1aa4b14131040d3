// The /api/posts/* answers (docs/api.md's posts, docs/product.md#7-the-calls-it-makes): the post
// service's posts and comments shaped with the spec's names (the as-built client's createdAt and ProfileInfo
// among them), null for fields not given. A hidden post or comment, which only its author and contributors
// are sent, carries `moderation` (ADR 0041); any other answer has no such key, so it stays as it was.
import type { Comment, Mention, Moderation, Post } from '@rotunda/protos/post';
import {
  COMMENT_FIELD_NAMES,
  type CommentFieldName,
  POST_FIELD_NAMES,
  POST_FIELDS,
  type PostFieldAnswers,
  type PostFieldName,
} from '@rotunda/rules';
import { instant, orNull } from '../http/answers.ts';

/** The people a post or comment names, shown as links to their profiles. */
const mentionsJson = (mentions: Mention[] | undefined) =>
  (mentions ?? []).map((mention) => ({
    profile_id: mention.profile_id,
    first_name: mention.first_name,
    last_name: mention.last_name,
  }));

/** The `moderation` key of a hidden post or comment; nothing for any other. */
function moderationOf(moderation: Moderation | undefined) {
  return moderation
    ? {
        moderation: {
          state: moderation.state,
          reason: moderation.reason,
          automatic: moderation.automatic,
        },
      }
    : {};
}

/** A post's written fields (POST_FIELDS), null where the post has none (an event's fields on any other). */
function postFieldsJson(post: Post) {
  const fields: Partial<Record<PostFieldName, unknown>> = {};
  for (const name of POST_FIELD_NAMES)
    fields[name] = POST_FIELDS[name].required === 'always' ? post[name] : orNull(post[name]);
  return fields as PostFieldAnswers;
}

const commentFieldsJson = (comment: Comment) =>
  Object.fromEntries(COMMENT_FIELD_NAMES.map((name) => [name, comment[name]])) as Record<
    CommentFieldName,
    string
  >;

export function commentJson(comment: Comment) {
  return {
    comment_id: comment.comment_id,
    post_id: comment.post_id,
    comment_author: comment.comment_author,
    ...commentFieldsJson(comment),
    user_id: comment.user_id,
    createdAt: instant(comment.created_at),
    updatedAt: instant(comment.updated_at),
    ProfileInfo: {
      profile_id: comment.comment_author,
      first_name: comment.author?.first_name ?? '',
      last_name: comment.author?.last_name ?? '',
    },
    mentions: mentionsJson(comment.mentions),
    ...moderationOf(comment.moderation),
  };
}

export function postJson(post: Post) {
  return {
    post_id: post.post_id,
    ...postFieldsJson(post),
    post_author: post.post_author,
    user_id: post.user_id,
    organization_id: orNull(post.organization_id),
    division_id: orNull(post.division_id),
    organization_name: orNull(post.organization_name),
    division_name: orNull(post.division_name),
    post_type: post.post_type,
    event_type: orNull(post.event_type),
    created_at: instant(post.created_at),
    updated_at: instant(post.updated_at),
    likes_count: post.likes_count,
    reads: post.reads,
    comments_count: post.comments_count,
    ProfileInfo: {
      profile_id: post.post_author,
      first_name: post.author?.first_name ?? '',
      last_name: post.author?.last_name ?? '',
      user_id: post.author?.user_id || post.user_id,
    },
    mentions: mentionsJson(post.mentions),
    PostComments: post.comments.map(commentJson),
    ...moderationOf(post.moderation),
  };
}
