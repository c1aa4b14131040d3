// What a notification is and what it says: the facts stored for each kind, and the one place their words are
// written (plain English, titles quoted), so the list, the live count's page and the mails all say the same.
import type { NotificationKind } from '@rotunda/rules';

export interface Actor {
  userId: string;
  profileId: number | null;
  firstName: string;
  lastName: string;
}

export interface Target {
  type: 'post' | 'comment' | 'profile';
  id: number;
  /** The post a comment is on. */
  postId: number | null;
}

/** What only some kinds need for their words. */
export type Details =
  | { kind: 'comment' }
  | { kind: 'like'; others: number }
  | { kind: 'mention'; inComment: boolean }
  | { kind: 'claim'; firstName: string; lastName: string; decision: 'confirmed' | 'rejected' }
  | {
      kind: 'moderated';
      action: 'hide' | 'restore' | 'remove';
      reason: string;
      automatic: boolean;
    }
  | { kind: 'report'; action: 'dismiss' | 'hide' | 'restore' | 'remove' };

export interface Notification {
  id: number;
  userId: string;
  kind: NotificationKind;
  createdAt: Date;
  read: boolean;
  actor: Actor | null;
  target: Target;
  postTitle: string;
  details: Details;
}

/** A notification before it is stored: whom it is for and what happened. */
export type NewNotification = Omit<Notification, 'id' | 'read' | 'createdAt'> & { at: Date };

const quoted = (title: string) => `“${title}”`;
const nameOf = (actor: Actor | null) => (actor ? `${actor.firstName} ${actor.lastName}`.trim() : 'Someone');

const MODERATION_PAST: Record<'hide' | 'restore' | 'remove', string> = {
  hide: 'hidden',
  restore: 'restored',
  remove: 'removed',
};

const REPORT_OUTCOME: Record<'dismiss' | 'hide' | 'restore' | 'remove', string> = {
  dismiss: 'reviewed, and no action was needed',
  hide: 'reviewed and hidden',
  restore: 'reviewed and restored',
  remove: 'reviewed and removed',
};

/** The notification in words ("Dana Lee and 2 others liked your post “Budget hearing”"). */
export function notificationText(
  notification: Pick<Notification, 'actor' | 'target' | 'postTitle' | 'details'>,
) {
  const { actor, target, postTitle, details } = notification;
  const who = nameOf(actor);
  switch (details.kind) {
    case 'comment':
      return `${who} commented on your post ${quoted(postTitle)}`;
    case 'like': {
      const others =
        details.others === 0 ? '' : ` and ${details.others} ${details.others === 1 ? 'other' : 'others'}`;
      return `${who}${others} liked your post ${quoted(postTitle)}`;
    }
    case 'mention':
      return details.inComment
        ? `${who} mentioned you in a comment on ${quoted(postTitle)}`
        : `${who} mentioned you in the post ${quoted(postTitle)}`;
    case 'claim': {
      const profile = `${details.firstName} ${details.lastName}`.trim();
      return details.decision === 'confirmed'
        ? `Your claim of the profile of ${profile} was confirmed`
        : `Your claim of the profile of ${profile} was not accepted`;
    }
    case 'moderated': {
      const what =
        target.type === 'comment' ? `Your comment on ${quoted(postTitle)}` : `Your post ${quoted(postTitle)}`;
      const how = details.automatic ? ' automatically after reports' : ' by a contributor';
      const why = details.reason ? `. Reason: ${details.reason}` : '';
      return `${what} was ${MODERATION_PAST[details.action]}${how}${why}`;
    }
    case 'report': {
      const what = target.type === 'comment' ? 'The comment you reported' : 'The post you reported';
      return `${what} was ${REPORT_OUTCOME[details.action]}`;
    }
  }
}
