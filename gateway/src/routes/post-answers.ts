// The /api/posts/* answers (docs/api.md's posts, docs/product.md#7-the-calls-it-makes): the post
// service's posts and comments shaped with the spec's names (the as-built client's createdAt and ProfileInfo
// among them), null for fields not given. A hidden post or comment, which only its author and contributors
// are sent, carries `moderation` (ADR 0041); any other answer has no such key, so it stays as it was.
import type { Comment, Mention, Moderation, Post } from '@rotunda/protos/post';
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

export function commentJson(comment: Comment) {
  return {
    comment_id: comment.comment_id,
    post_id: comment.post_id,
    comment_author: comment.comment_author,
    comment_body: comment.comment_body,
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
    post_title: post.post_title,
    post_body: post.post_body,
    post_author: post.post_author,
    user_id: post.user_id,
    organization_id: orNull(post.organization_id),
    division_id: orNull(post.division_id),
    organization_name: orNull(post.organization_name),
    division_name: orNull(post.division_name),
    posttype_id: post.posttype_id,
    post_type: post.post_type,
    eventtype_id: orNull(post.eventtype_id),
    event_type: orNull(post.event_type),
    event_location: orNull(post.event_location),
    event_date: orNull(post.event_date),
    event_start: orNull(post.event_start),
    event_end: orNull(post.event_end),
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
