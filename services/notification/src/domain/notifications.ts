// The notification service's rules: which recorded event makes which notification for whom (likes of one post
// within an hour grouped), what is mailed at once, a member's list, read marks and preferences, one-click
// unsubscribe, and the export. Events are handled at least once, so each is marked handled with its change.

import type { EventActor, RecordedEvent } from '@rotunda/events';
import {
  EMAIL_DIGESTS,
  EMAIL_NOW_KINDS,
  type EmailNowKind,
  LIKE_GROUP_MS,
  MARK_READ_MAX,
  NOTIFICATIONS_PAGE,
  type NotificationPreferences,
} from '@rotunda/rules';
import { invalidArgument, type Logger, notFound } from '@rotunda/service-kit';
import { immediateMail } from './mails.ts';
import { type Actor, type NewNotification, type Notification, notificationText } from './notification.ts';
import type { Mailer, Members, NotificationStore, NotificationsPage } from './ports.ts';

export const NOTIFICATION_MESSAGES = {
  limit: `limit must be between 1 and ${NOTIFICATIONS_PAGE.max}`,
  before: 'before must be a notification id',
  markRead: 'Name the notifications to mark read, or all of them.',
  tooMany: `At most ${MARK_READ_MAX} notifications may be marked read at once.`,
  digest: `email_digest must be one of ${EMAIL_DIGESTS.join(', ')}`,
  emailNow: `email_now must say true or false for ${EMAIL_NOW_KINDS.join(', ')}`,
  unknownToken: 'This unsubscribe link is not known. It may have been used by an account that was deleted.',
} as const;

const actorOf = (actor: EventActor): Actor => ({
  userId: actor.user_id,
  profileId: actor.profile_id,
  firstName: actor.first_name,
  lastName: actor.last_name,
});

/** The kind a notification is mailed at once under, if the member may choose that. */
function emailNowKind(notification: Notification): EmailNowKind | null {
  if (notification.kind === 'mention' || notification.kind === 'claim' || notification.kind === 'moderation')
    return notification.kind;
  return null;
}

export interface NotificationsOptions {
  store: NotificationStore;
  members: Members;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}

export function createNotifications({ store, members, mailer, publicUrl, logger }: NotificationsOptions) {
  /** The notification an event makes, or null for an event that makes none for anyone. */
  function notificationOf(event: RecordedEvent, at: Date): NewNotification | null {
    switch (event.topic) {
      case 'post.commented':
        return {
          userId: event.recipient_user_id,
          kind: 'comment',
          at,
          actor: actorOf(event.actor),
          target: { type: 'post', id: event.post_id, postId: null },
          postTitle: event.post_title,
          details: { kind: 'comment' },
        };
      case 'member.mentioned':
        return {
          userId: event.recipient_user_id,
          kind: 'mention',
          at,
          actor: actorOf(event.actor),
          target:
            event.comment_id === null
              ? { type: 'post', id: event.post_id, postId: null }
              : { type: 'comment', id: event.comment_id, postId: event.post_id },
          postTitle: event.post_title,
          details: { kind: 'mention', inComment: event.comment_id !== null },
        };
      case 'claim.decided':
        return {
          userId: event.recipient_user_id,
          kind: 'claim',
          at,
          actor: null,
          target: { type: 'profile', id: event.profile_id, postId: null },
          postTitle: '',
          details: {
            kind: 'claim',
            firstName: event.first_name,
            lastName: event.last_name,
            decision: event.decision,
          },
        };
      case 'content.moderated':
        return {
          userId: event.recipient_user_id,
          kind: 'moderation',
          at,
          actor: null,
          target: {
            type: event.target_type,
            id: event.target_id,
            postId: event.target_type === 'comment' ? event.post_id : null,
          },
          postTitle: event.post_title,
          details: {
            kind: 'moderated',
            action: event.action,
            reason: event.reason,
            automatic: event.automatic,
          },
        };
      case 'report.decided':
        return {
          userId: event.recipient_user_id,
          kind: 'moderation',
          at,
          actor: null,
          target: {
            type: event.target_type,
            id: event.target_id,
            postId: event.target_type === 'comment' ? event.post_id : null,
          },
          postTitle: '',
          details: { kind: 'report', action: event.action },
        };
      default:
        return null;
    }
  }

  /** Mails a new notification at once when its member chose that kind; a failed mail is logged, not retried. */
  async function mailAtOnce(notification: Notification): Promise<void> {
    const kind = emailNowKind(notification);
    if (!kind) return;
    const preferences = await store.preferences(notification.userId);
    if (!preferences.email_now[kind]) return;
    try {
      const email = (await members.emails([notification.userId])).get(notification.userId);
      if (!email) return;
      const unsubscribeToken = await store.unsubscribeToken(notification.userId);
      await mailer.send({ to: email, ...immediateMail(notification, { publicUrl, unsubscribeToken }) });
    } catch (error) {
      // The notification stands; handling the event again would not send a second mail but would hold up the
      // events after it, so the mail is given up and said so.
      logger.error(
        { err: error, kind, notificationId: notification.id },
        'immediate notification mail failed',
      );
    }
  }

  return {
    /** Handles one recorded event; idempotent, as delivery is at least once. */
    async handleEvent(event: RecordedEvent): Promise<void> {
      const key = `${event.topic}:${event.event_id}`;
      const at = new Date(event.recorded_at);
      switch (event.topic) {
        case 'account.deleted':
          return store.deleteMember(key, event.user_id);
        case 'post.published':
          return store.addRecentPost(key, {
            postId: event.post_id,
            title: event.title,
            issueAreaIds: event.issue_area_ids,
            authorUserId: event.author_user_id,
            createdAt: new Date(event.created_at),
          });
        case 'post.liked':
          if (event.recipient_user_id === event.actor.user_id) return store.skip(key);
          return store.addLike(
            key,
            {
              userId: event.recipient_user_id,
              postId: event.post_id,
              postTitle: event.post_title,
              actor: actorOf(event.actor),
              at,
            },
            LIKE_GROUP_MS,
          );
      }
      const notification = notificationOf(event, at);
      if (!notification) return store.skip(key);
      if (notification.actor && notification.actor.userId === notification.userId) return store.skip(key);
      const added = await store.add(key, notification);
      if (added) await mailAtOnce(added);
    },

    async list(userId: string, before: number, limit: number): Promise<NotificationsPage> {
      if (!Number.isSafeInteger(before) || before < 0) throw invalidArgument(NOTIFICATION_MESSAGES.before);
      if (!Number.isSafeInteger(limit) || limit < 0 || limit > NOTIFICATIONS_PAGE.max)
        throw invalidArgument(NOTIFICATION_MESSAGES.limit);
      return store.page(userId, before, limit === 0 ? NOTIFICATIONS_PAGE.default : limit);
    },

    async markRead(userId: string, ids: number[], all: boolean): Promise<number> {
      if (all === ids.length > 0) throw invalidArgument(NOTIFICATION_MESSAGES.markRead);
      if (ids.length > MARK_READ_MAX) throw invalidArgument(NOTIFICATION_MESSAGES.tooMany);
      if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0))
        throw invalidArgument(NOTIFICATION_MESSAGES.markRead);
      return store.markRead(userId, all ? 'all' : ids);
    },

    unreadCount: (userId: string) => store.unreadCount(userId),

    preferences: (userId: string) => store.preferences(userId),

    async setPreferences(userId: string, preferences: unknown): Promise<NotificationPreferences> {
      return store.setPreferences(userId, validPreferences(preferences));
    },

    async unsubscribe(token: string): Promise<void> {
      if (!token || !(await store.unsubscribe(token))) throw notFound(NOTIFICATION_MESSAGES.unknownToken);
    },

    async exportMine(userId: string): Promise<string> {
      const { notifications, preferences } = await store.exportMine(userId);
      return JSON.stringify({
        notifications: notifications.map((n) => ({
          id: n.id,
          kind: n.kind,
          created_at: n.createdAt.toISOString(),
          read: n.read,
          actor: n.actor && {
            profile_id: n.actor.profileId,
            first_name: n.actor.firstName,
            last_name: n.actor.lastName,
          },
          target: {
            type: n.target.type,
            id: n.target.id,
            ...(n.target.postId ? { post_id: n.target.postId } : {}),
          },
          text: notificationText(n),
        })),
        preferences,
      });
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;

/** The preferences a member sent, checked here too (the gateway checks first): INVALID_ARGUMENT otherwise. */
export function validPreferences(value: unknown): NotificationPreferences {
  const given = value as Partial<NotificationPreferences> | undefined;
  const digest = given?.email_digest;
  if (typeof digest !== 'string' || !(EMAIL_DIGESTS as readonly string[]).includes(digest))
    throw invalidArgument(NOTIFICATION_MESSAGES.digest);
  const emailNow = given?.email_now;
  if (!emailNow || EMAIL_NOW_KINDS.some((kind) => typeof emailNow[kind] !== 'boolean'))
    throw invalidArgument(NOTIFICATION_MESSAGES.emailNow);
  return {
    email_digest: digest as NotificationPreferences['email_digest'],
    email_now: {
      mention: emailNow.mention,
      claim: emailNow.claim,
      moderation: emailNow.moderation,
    },
  };
}
