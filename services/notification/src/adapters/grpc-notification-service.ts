// rotunda.notification.v1.NotificationService over gRPC: a member's own notifications, read marks, unread count
// and preferences (a member caller), one-click unsubscribe (anyone holding the token), and the stream of every
// unread count change (the gateway workers). Digests are sent by a job, not a call (send-digests.ts).
import { Metadata, type ServerWritableStream, status } from '@grpc/grpc-js';
import type {
  Notification as NotificationMessage,
  NotificationServiceServer,
  Preferences as PreferencesMessage,
  UnreadCountChanged,
  WatchUnreadCountsRequest,
} from '@rotunda/protos/notification';
import type { NotificationPreferences } from '@rotunda/rules';
import {
  ACCESS_MESSAGES,
  callerFromMetadata,
  callerServiceFromMetadata,
  type Logger,
  requireMember,
  unary,
} from '@rotunda/service-kit';
import { type Notification, notificationText } from '../domain/notification.ts';
import type { Notifications } from '../domain/notifications.ts';
import type { UnreadWatch } from './unread-watch.ts';

export function notificationMessage(notification: Notification): NotificationMessage {
  const { actor, target } = notification;
  return {
    id: notification.id,
    kind: notification.kind,
    created_at: notification.createdAt,
    read: notification.read,
    ...(actor
      ? {
          actor: { profile_id: actor.profileId ?? 0, first_name: actor.firstName, last_name: actor.lastName },
        }
      : {}),
    target: { type: target.type, id: target.id, post_id: target.postId ?? 0 },
    text: notificationText(notification),
  };
}

const preferencesMessage = (preferences: NotificationPreferences): PreferencesMessage => ({
  email_digest: preferences.email_digest,
  email_now: { ...preferences.email_now },
});

/**
 * Who may watch every member's unread count: a caller the gateway signed (its workers open the stream) or a
 * verified Rotunda service; a call without a verified caller never gets one.
 */
function mayWatch(metadata: Metadata): boolean {
  return callerFromMetadata(metadata) !== undefined || callerServiceFromMetadata(metadata) !== undefined;
}

export function grpcNotificationService(
  notifications: Notifications,
  unread: UnreadWatch,
  logger: Logger,
): NotificationServiceServer {
  return {
    listNotifications: unary(logger, 'ListNotifications', async (request, { caller }) => {
      const page = await notifications.list(requireMember(caller).userId, request.before, request.limit);
      return { items: page.items.map(notificationMessage), unread_count: page.unreadCount };
    }),
    markRead: unary(logger, 'MarkRead', async (request, { caller }) => ({
      unread_count: await notifications.markRead(requireMember(caller).userId, request.ids, request.all),
    })),
    getUnreadCount: unary(logger, 'GetUnreadCount', async (_request, { caller }) => ({
      unread_count: await notifications.unreadCount(requireMember(caller).userId),
    })),
    watchUnreadCounts(call: ServerWritableStream<WatchUnreadCountsRequest, UnreadCountChanged>) {
      if (!mayWatch(call.metadata)) {
        call.emit('error', { code: status.UNAUTHENTICATED, details: ACCESS_MESSAGES.servicesOnly });
        return;
      }
      logger.debug('unread count watcher joined');
      // Messages are a few bytes each: a slow watcher's buffer grows a little rather than holding up the others.
      const stop = unread.watch({
        onChange: (change) => {
          if (!call.cancelled) call.write({ user_id: change.userId, unread_count: change.unreadCount });
        },
        onEnd: () => call.end(),
      });
      call.on('cancelled', stop);
      call.on('close', stop);
      // Headers now, not with the first change: they tell the gateway this watch listens, so it sends the counts
      // it may have missed while it had none (gateway/src/http/unread-streams.ts).
      call.sendMetadata(new Metadata());
    },
    getPreferences: unary(logger, 'GetPreferences', async (_request, { caller }) =>
      preferencesMessage(await notifications.preferences(requireMember(caller).userId)),
    ),
    setPreferences: unary(logger, 'SetPreferences', async (request, { caller }) => {
      const member = requireMember(caller);
      return preferencesMessage(await notifications.setPreferences(member.userId, request.preferences));
    }),
    unsubscribe: unary(logger, 'Unsubscribe', async (request) => {
      await notifications.unsubscribe(request.token);
      return {};
    }),
    exportMine: unary(logger, 'ExportMine', async (_request, { caller }) => ({
      json: await notifications.exportMine(requireMember(caller).userId),
    })),
  };
}
