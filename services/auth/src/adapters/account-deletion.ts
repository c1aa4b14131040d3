// Deleting an account for good (ADR 0042) in one transaction of the auth schema: the identity provider's part
// (the built-in provider's rows in it; Keycloak's user through its admin API while it is open, so a refusal
// there rolls the rest back), the account's one-time links and exchanged refresh tokens, its sessions on the
// ended list the gateways read (their tokens stop working at the next poll) and `account.deleted` in the outbox,
// on which every other service deletes its part.
import { recordEvent } from '@rotunda/events';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type { AccountDeletion } from '../domain/ports.ts';

/** The identity provider's part, inside the transaction: answers the ids of the sessions it ended. */
export type AccountRemover = (tx: Prisma.TransactionClient, userId: string) => Promise<string[]>;

export interface AccountDeletionOptions {
  /** The auth schema (its ended_sessions table). */
  schema: string;
  /** The auth service's events schema, whose outbox the other services read. */
  eventsSchema: string;
  remove: AccountRemover;
}

// A Keycloak call inside the transaction may take its time: long enough, never forever.
const TRANSACTION_TIMEOUT_MS = 30_000;

export function prismaAccountDeletion(
  prisma: PrismaClient,
  options: AccountDeletionOptions,
): AccountDeletion {
  const endedTable = Prisma.raw(`"${options.schema}"."ended_sessions"`);
  return {
    deleteAccount: (userId) =>
      prisma.$transaction(
        async (tx) => {
          const ended = await options.remove(tx, userId);
          await tx.oneTimeToken.deleteMany({ where: { userId } });
          if (ended.length > 0) {
            await tx.exchangedRefreshToken.deleteMany({ where: { sessionId: { in: ended } } });
            // Timed when written, not when the transaction began (a Keycloak call may come between): the
            // gateways' cursor steps back only a few seconds.
            await tx.$executeRaw`
              INSERT INTO ${endedTable} (session_id, ended_at)
              SELECT unnest(${ended}::text[]), clock_timestamp()
              ON CONFLICT (session_id) DO UPDATE SET ended_at = excluded.ended_at`;
          }
          await recordEvent(tx, options.eventsSchema, { topic: 'account.deleted', user_id: userId });
          return ended;
        },
        { timeout: TRANSACTION_TIMEOUT_MS, maxWait: TRANSACTION_TIMEOUT_MS },
      ),
  };
}
