// Notification rules shared by the screens, the gateway and the services (ADR 0042): the kinds, the digest
// choices and their labels, the kinds a member may have mailed at once, the page bounds, and mentions' limit.

/** What a notification is about (docs/product.md#notifications). */
export const NOTIFICATION_KINDS = ['comment', 'like', 'mention', 'claim', 'moderation'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How often a member's digest is mailed. */
export const EMAIL_DIGESTS = ['off', 'daily', 'weekly'] as const;
export type EmailDigest = (typeof EMAIL_DIGESTS)[number];

export const EMAIL_DIGEST_LABELS: Readonly<Record<EmailDigest, string>> = {
  off: 'Never',
  daily: 'Daily',
  weekly: 'Weekly',
};

/** The kinds a member may have mailed as they happen; comments and likes wait for the digest. */
export const EMAIL_NOW_KINDS = ['mention', 'claim', 'moderation'] as const;
export type EmailNowKind = (typeof EMAIL_NOW_KINDS)[number];

export const EMAIL_NOW_LABELS: Readonly<Record<EmailNowKind, string>> = {
  mention: 'Someone mentions me',
  claim: 'My claim of a profile is decided',
  moderation: 'A contributor decides about my post, comment or report',
};

export interface NotificationPreferences {
  email_digest: EmailDigest;
  email_now: Record<EmailNowKind, boolean>;
}

/** A new member's choices: a weekly digest, and every kind that concerns them directly mailed at once. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  email_digest: 'weekly',
  email_now: { mention: true, claim: true, moderation: true },
};

/** Notifications per page: by default, and at most. */
export const NOTIFICATIONS_PAGE = { default: 30, max: 100 } as const;

/** The most notifications one "mark read" may name. */
export const MARK_READ_MAX = 100;

/** The most people one post or comment may mention. */
export const MENTIONS_MAX = 10;

export const TOO_MANY_MENTIONS = `A post or comment may mention at most ${MENTIONS_MAX} people.`;

/** Likes of one post within this long make one notification ("Dana Lee and 2 others liked…"). */
export const LIKE_GROUP_MS = 60 * 60 * 1000;
