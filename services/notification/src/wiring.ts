// Builds the notification service from its configuration: the Prisma store on its own schema, the auth and
// profile services as members, the SMTP mailer, the rules over them, the unread count listener, and the consumer
// of the post, profile and auth services' recorded events (its cursors in notification_events). The digest job
// (send-digests.ts) builds only the store, members and mailer, and the digests over them.
import { consumeEvents, ensureEventTables } from '@rotunda/events';
import { createSmtpMailer, type Logger, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { grpcMembers } from './adapters/grpc-members.ts';
import { grpcNotificationService } from './adapters/grpc-notification-service.ts';
import { prismaNotificationStore } from './adapters/prisma-store.ts';
import { watchUnreadCounts } from './adapters/unread-watch.ts';
import type { NotificationConfig } from './config.ts';
import { createDigests, type Digests } from './domain/digests.ts';
import { createNotifications } from './domain/notifications.ts';
import type { Mailer, Members } from './domain/ports.ts';

/** The consumer's own events schema, and the producers whose outboxes it reads (ADR 0042). */
export const EVENTS_SCHEMA = 'notification_events';
export const EVENT_SOURCES = ['post_events', 'profile_events', 'auth_events'];

type Overrides = { members?: Members; mailer?: Mailer };

/** What the service and the digest job share: the store, the members (auth and profile services), the mailer. */
function wireMailing(config: NotificationConfig, overrides: Overrides) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const store = prismaNotificationStore(prisma, config.DATABASE_SCHEMA);
  const grpc = overrides.members
    ? undefined
    : grpcMembers({
        authAddress: config.AUTH_SERVICE_ADDR,
        profileAddress: config.PROFILE_SERVICE_ADDR,
        deadlineMs: config.GRPC_DEADLINE_MS,
      });
  const members = overrides.members ?? (grpc as Members);
  // Digests go out one after another: connections kept open carry them all.
  const smtp = overrides.mailer
    ? undefined
    : createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, pool: { maxConnections: 2 } });
  const mailer = overrides.mailer ?? (smtp as Mailer);
  return {
    prisma,
    store,
    members,
    mailer,
    async close() {
      grpc?.close();
      smtp?.close();
      await prisma.$disconnect();
    },
  };
}

/** The digests and what they need, for one run of the digest job (or a test of it). */
export function wireDigests(
  config: NotificationConfig,
  logger: Logger,
  overrides: Overrides = {},
): { digests: Digests; close: () => Promise<void> } {
  const { store, members, mailer, close } = wireMailing(config, overrides);
  return { digests: createDigests({ store, members, mailer, publicUrl: config.PUBLIC_URL, logger }), close };
}

export async function wireNotification(
  config: NotificationConfig,
  logger: Logger,
  overrides: Overrides = {},
) {
  const mailing = wireMailing(config, overrides);
  const { prisma, store, members, mailer } = mailing;
  const notifications = createNotifications({ store, members, mailer, publicUrl: config.PUBLIC_URL, logger });
  const unread = watchUnreadCounts({
    databaseUrl: config.DATABASE_URL,
    logger,
    unreadCount: (userId) => store.unreadCount(userId),
  });
  await ensureEventTables(config.DATABASE_URL, EVENTS_SCHEMA);
  const consumer = consumeEvents({
    databaseUrl: config.DATABASE_URL,
    logger,
    schema: EVENTS_SCHEMA,
    sources: EVENT_SOURCES,
    onEvent: (event) => notifications.handleEvent(event),
    pollMs: config.EVENTS_POLL_MS,
  });
  return {
    prisma,
    store,
    notifications,
    unread,
    consumer,
    implementation: grpcNotificationService(notifications, unread, logger),
    /** Ends the watchers' streams first, so a draining server is not held up by them. */
    endStreams: () => unread.close(),
    async close() {
      await consumer.close();
      await unread.close();
      await mailing.close();
    },
  };
}
