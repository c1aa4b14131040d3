// The profile service's recorded events (ADR 0042): its own outbox (`profile_events`, claim decisions; main.ts
// keeps it), and the auth service's it reads, where a deleted account tells it to forget the member, whenever it
// reads it (a deletion recorded while this service was down is handled when it comes back).
import { consumeEvents, eventsSchemaOf } from '@rotunda/events';
import type { Logger } from '@rotunda/service-kit';
import type { MemberData } from '../domain/member-data.ts';

export const PROFILE_EVENTS = eventsSchemaOf('profile');
export const AUTH_EVENTS = eventsSchemaOf('auth');

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
