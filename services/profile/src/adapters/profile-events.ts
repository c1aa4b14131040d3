// The profile service's recorded events (ADR 0042): its own outbox (`profile_events`, claim decisions), kept 14
// days, and the auth service's it reads, where a deleted account tells it to forget the member, whenever it reads
// it (a deletion recorded while this service was down is handled when it comes back).
import { consumeEvents, type EventConsumer, eventsSchemaOf, pruneOutbox } from '@rotunda/events';
import type { Logger } from '@rotunda/service-kit';
import type { MemberData } from '../domain/member-data.ts';

export const PROFILE_EVENTS = eventsSchemaOf('profile');
export const AUTH_EVENTS = eventsSchemaOf('auth');

/** How long the outbox keeps an event: the longest a consumer may be down and still read it. */
const OUTBOX_RETENTION_MS = 14 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

export interface ProfileEventsOptions {
  databaseUrl: string;
  logger: Logger;
  members: Pick<MemberData, 'accountDeleted'>;
  pollMs?: number;
}

/** Reads the auth service's events from this service's cursor on: each `account.deleted` forgets the member. */
export function consumeAccountDeletions({ databaseUrl, logger, members, pollMs }: ProfileEventsOptions) {
  return consumeEvents({
    databaseUrl,
    logger,
    schema: PROFILE_EVENTS,
    sources: [AUTH_EVENTS],
    ...(pollMs === undefined ? {} : { pollMs }),
    onEvent: async (event) => {
      if (event.topic === 'account.deleted') await members.accountDeleted(event.user_id);
    },
  });
}

/**
 * Prunes the outbox (wireProfile made it) now and daily, and starts reading deletions; `close` stops both.
 */
export async function startProfileEvents(
  options: ProfileEventsOptions,
): Promise<{ consumer: EventConsumer; close: () => Promise<void> }> {
  const { databaseUrl, logger } = options;
  const prune = () =>
    pruneOutbox(databaseUrl, PROFILE_EVENTS, OUTBOX_RETENTION_MS).catch((error: unknown) =>
      logger.warn({ err: error }, 'pruning the profile outbox failed; the next day tries again'),
    );
  await prune();
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  const consumer = consumeAccountDeletions(options);
  return {
    consumer,
    close: async () => {
      clearInterval(timer);
      await consumer.close();
    },
  };
}
