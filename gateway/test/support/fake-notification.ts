// Test double for the notification service: a recording fake NotificationService (service-kit's) with canned
// answers, and each member's unread count kept here: `announce` changes one and streams the change to every open
// WatchUnreadCounts (whose headers, sent at once as the replicas send them, say it listens), and `endWatches`
// ends those streams, as a restarting service would.
import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import {
  type Notification,
  NotificationServiceService,
  type UnreadCountChanged,
} from '@rotunda/protos/notification';
import { DomainError } from '@rotunda/service-kit';
import { type FakeAnswer, type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';

export const COMMENT_NOTIFICATION: Notification = {
  id: 12,
  kind: 'comment',
  created_at: new Date('2026-11-30T10:00:00.000Z'),
  read: false,
  actor: { profile_id: 205, first_name: 'Dana', last_name: 'Lee' },
  target: { type: 'comment', id: 31, post_id: 7 },
  text: 'Dana Lee commented on your post “Hearing on rural broadband”',
};

export const MODERATION_NOTIFICATION: Notification = {
  id: 11,
  kind: 'moderation',
  created_at: new Date('2026-11-29T10:00:00.000Z'),
  read: true,
  target: { type: 'post', id: 8, post_id: 0 },
  text: 'A contributor hid your post “Water plan adopted”: Off topic',
};

export const PREFERENCES = {
  email_digest: 'weekly',
  email_now: { mention: true, claim: true, moderation: false },
};

/** The one token the fake's Unsubscribe knows. */
export const UNSUBSCRIBE_TOKEN = 'k3Yq-unsubscribe-token';

export interface FakeNotification extends RecordingFake {
  /** Each member's unread count, as GetUnreadCount answers it (0 when absent). */
  unread: Map<string, number>;
  /** Sets a member's count and streams the change to every open watch. */
  announce: (userId: string, count: number) => void;
  /** Watches open now (one per gateway process that opened its watch). */
  watches: () => number;
  /** Ends every open watch, as a service going away does. */
  endWatches: () => void;
  reset: () => void;
}

export async function startFakeNotification(): Promise<FakeNotification> {
  const unread = new Map<string, number>();
  const watches = new Set<ServerWritableStream<unknown, UnreadCountChanged>>();
  const defaults: Record<string, FakeAnswer> = {
    listNotifications: async () => ({
      items: [COMMENT_NOTIFICATION, MODERATION_NOTIFICATION],
      unread_count: 1,
    }),
    markRead: async () => ({ unread_count: 0 }),
    getUnreadCount: async (_request, context) => ({
      unread_count: unread.get(context.caller?.userId ?? '') ?? 0,
    }),
    getPreferences: async () => PREFERENCES,
    setPreferences: async (request) => request.preferences as object,
    unsubscribe: async (request) => {
      if (request.token !== UNSUBSCRIBE_TOKEN)
        throw new DomainError('not_found', 'This unsubscribe link is not known');
      return {};
    },
    exportMine: async () => ({
      json: JSON.stringify({ notifications: [{ id: 12, kind: 'comment' }], preferences: PREFERENCES }),
    }),
  };
  const recording = await startRecordingFake({
    definition: NotificationServiceService,
    defaults,
    handlers: {
      watchUnreadCounts: (call: ServerWritableStream<unknown, UnreadCountChanged>) => {
        watches.add(call);
        call.on('cancelled', () => watches.delete(call));
        call.sendMetadata(new Metadata());
      },
    },
  });
  return {
    ...recording,
    unread,
    announce: (userId, count) => {
      unread.set(userId, count);
      for (const watch of watches) watch.write({ user_id: userId, unread_count: count });
    },
    watches: () => watches.size,
    endWatches: () => {
      for (const watch of watches) watch.end();
      watches.clear();
    },
    reset: () => {
      recording.reset();
      unread.clear();
    },
  };
}
