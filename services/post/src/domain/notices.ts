// What the post service's writes record for other services to act on (ADR 0042, packages/events events.ts): the
// events of a comment, a like, mentions, a moderation decision and a new post, each naming the members it concerns
// by user id, resolved here, with the names shown at the time. Nobody is told about their own doing.
import type {
  ContentModerated,
  DomainEvent,
  EventActor,
  MemberMentioned,
  ReportDecided,
} from '@rotunda/events';
import { MENTIONS_MAX, type ModerationAction, TOO_MANY_MENTIONS } from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import type { DecidedTarget } from './ports.ts';
import type { AuthorName } from './post.ts';

export const MENTION_MESSAGES = {
  tooMany: TOO_MANY_MENTIONS,
  notAProfile: 'A mention must name a profile.',
} as const;

/** The profile ids a post or comment names: each once, in the order first written, at most MENTIONS_MAX. */
export function checkMentions(profileIds: readonly number[]): number[] {
  if (profileIds.some((id) => !Number.isSafeInteger(id) || id <= 0))
    throw invalidArgument(MENTION_MESSAGES.notAProfile);
  const unique = [...new Set(profileIds)];
  if (unique.length > MENTIONS_MAX) throw invalidArgument(MENTION_MESSAGES.tooMany);
  return unique;
}

/** The member who acted, with the names of their profile (empty when they have none). */
export function eventActor(
  userId: string,
  profile: Pick<AuthorName, 'profileId' | 'firstName' | 'lastName'> | null,
): EventActor {
  return {
    user_id: userId,
    profile_id: profile?.profileId ?? null,
    first_name: profile?.firstName ?? '',
    last_name: profile?.lastName ?? '',
  };
}

/** One event per mentioned person who owns their profile, never the one who wrote it. */
export function mentionEvents(
  mentioned: readonly AuthorName[],
  where: { postId: number; postTitle: string; commentId: number | null },
  actor: EventActor,
): MemberMentioned[] {
  return mentioned.flatMap((person) =>
    person.userId && person.userId !== actor.user_id
      ? [
          {
            topic: 'member.mentioned' as const,
            post_id: where.postId,
            post_title: where.postTitle,
            comment_id: where.commentId,
            recipient_user_id: person.userId,
            recipient_profile_id: person.profileId,
            actor,
          },
        ]
      : [],
  );
}

/** A comment tells the post's author, unless they wrote it; and the people it mentions. */
export function commentEvents(
  post: { postId: number; title: string; userId: string },
  commentId: number,
  mentioned: readonly AuthorName[],
  actor: EventActor,
): DomainEvent[] {
  const events: DomainEvent[] =
    post.userId === actor.user_id
      ? []
      : [
          {
            topic: 'post.commented',
            post_id: post.postId,
            post_title: post.title,
            comment_id: commentId,
            recipient_user_id: post.userId,
            actor,
          },
        ];
  return [
    ...events,
    ...mentionEvents(mentioned, { postId: post.postId, postTitle: post.title, commentId }, actor),
  ];
}

/** A like tells the post's author, unless they liked their own. */
export function likeEvents(post: { postId: number; title: string; userId: string }, actor: EventActor) {
  return post.userId === actor.user_id
    ? []
    : [
        {
          topic: 'post.liked' as const,
          post_id: post.postId,
          post_title: post.title,
          recipient_user_id: post.userId,
          actor,
        },
      ];
}

/**
 * A decision tells the target's author what became of it (hide, restore, remove; not a dismissal, nor a decision
 * about the contributor's own), and each member whose report it closed; the automatic hiding tells the author.
 */
export function moderationEvents(
  target: { type: 'post' | 'comment'; id: number },
  decided: DecidedTarget,
  decision: { action: ModerationAction | 'auto_hide'; reason: string; actorUserId: string },
): DomainEvent[] {
  const events: DomainEvent[] = [];
  const authorAction =
    decision.action === 'auto_hide' ? 'hide' : decision.action === 'dismiss' ? null : decision.action;
  if (authorAction && decided.authorUserId !== decision.actorUserId) {
    const moderated: ContentModerated = {
      topic: 'content.moderated',
      recipient_user_id: decided.authorUserId,
      target_type: target.type,
      target_id: target.id,
      post_id: decided.postId,
      post_title: decided.postTitle,
      action: authorAction,
      reason: decision.reason,
      automatic: decision.action === 'auto_hide',
    };
    events.push(moderated);
  }
  if (decision.action !== 'auto_hide') {
    const action = decision.action;
    for (const reporter of decided.reporterIds) {
      const reported: ReportDecided = {
        topic: 'report.decided',
        recipient_user_id: reporter,
        target_type: target.type,
        target_id: target.id,
        post_id: decided.postId,
        action,
      };
      events.push(reported);
    }
  }
  return events;
}
