// What the notification rules need from the outside: the store (notifications, preferences, digest slots,
// recent posts), the members' emails and issue areas (auth and profile services), and a mailer.
import type { NotificationPreferences } from '@rotunda/rules';
import type { Actor, NewNotification, Notification } from './notification.ts';

export interface NotificationsPage {
  items: Notification[];
  unreadCount: number;
}

export interface NewLike {
  userId: string;
  postId: number;
  postTitle: string;
  actor: Actor;
  at: Date;
}

export interface RecentPost {
  postId: number;
  title: string;
  issueAreaIds: number[];
  authorUserId: string;
  createdAt: Date;
}

/** A member's digest bookkeeping, as a run reads it before claiming the slot. */
export interface DigestMember {
  userId: string;
  digest: 'daily' | 'weekly';
  lastDigestAt: Date | null;
  unsubscribeToken: string;
}

/**
 * Every change of a member's notifications happens in one transaction with the mark that its event was handled
 * and the announcement of their new unread count, so a redelivered event changes nothing.
 */
export interface NotificationStore {
  /** Adds the notification unless `eventKey` was handled; answers it, or null for a redelivery. */
  add(eventKey: string, notification: NewNotification): Promise<Notification | null>;
  /** Adds the like to the group of likes of the post that began within `groupMs`, or starts a group. */
  addLike(eventKey: string, like: NewLike, groupMs: number): Promise<void>;
  /** Keeps a published post for the digests (once per event). */
  addRecentPost(eventKey: string, post: RecentPost): Promise<void>;
  /** Removes everything held about the member, and what they did in others' notifications. */
  deleteMember(eventKey: string, userId: string): Promise<void>;
  /** Marks an event handled that changes nothing here. */
  skip(eventKey: string): Promise<void>;

  page(userId: string, before: number, limit: number): Promise<NotificationsPage>;
  markRead(userId: string, ids: number[] | 'all'): Promise<number>;
  unreadCount(userId: string): Promise<number>;

  preferences(userId: string): Promise<NotificationPreferences>;
  setPreferences(userId: string, preferences: NotificationPreferences): Promise<NotificationPreferences>;
  /** The member's unsubscribe token, made with their preferences row when they had none. */
  unsubscribeToken(userId: string): Promise<string>;
  /** Turns every mail off for the token's member; false for an unknown token. */
  unsubscribe(token: string): Promise<boolean>;
  exportMine(
    userId: string,
  ): Promise<{ notifications: Notification[]; preferences: NotificationPreferences }>;

  /** Makes the default preferences of members who have none. */
  ensurePreferences(userIds: string[]): Promise<void>;
  /** Those of `userIds` whose digest is due at `at` (daily: a day since the last, weekly: a week). */
  dueForDigest(userIds: string[], at: Date): Promise<DigestMember[]>;
  /** Members with unread notifications, after `afterUserId` in user id order (for digests). */
  membersWithUnread(afterUserId: string, limit: number): Promise<string[]>;
  unreadSince(userId: string, since: Date, limit: number): Promise<{ items: Notification[]; total: number }>;
  postsSince(
    issueAreaIds: number[],
    since: Date,
    excludeAuthor: string,
    limit: number,
  ): Promise<RecentPost[]>;
  /**
   * Takes the member's digest slot at `at`, only if nobody took it since `previous` was read: of two runs at
   * once, exactly one wins.
   */
  claimDigest(userId: string, previous: Date | null, at: Date): Promise<boolean>;
  /** Gives the slot back when the mail could not be sent. */
  releaseDigest(userId: string, at: Date, previous: Date | null): Promise<void>;
  /** Drops recent posts older than `before` and handled-event marks older than `handledBefore`. */
  prune(before: Date, handledBefore: Date): Promise<void>;
}

export interface MemberIssueAreas {
  userId: string;
  issueAreaIds: number[];
}

export interface Members {
  /** Emails of up to 1000 members; unknown ones left out. */
  emails(userIds: string[]): Promise<Map<string, string>>;
  /** Every member who owns a profile, with their issue areas, in user id order. */
  issueAreas(): AsyncIterable<MemberIssueAreas>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
