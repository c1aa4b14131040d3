// The refresh tokens the Keycloak adapter has exchanged, in the auth schema, so that every auth replica knows
// them: a copy that comes back after its exchange is caught whichever replica it reaches. A claim is pending
// while its exchange is in flight and counts for nothing until Keycloak has exchanged the token; a copy meanwhile
// waits for the outcome. The answer Keycloak gave is kept sealed for the grace period only (ADR 0036).
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ExchangedRefreshTokens } from './keycloak-identity.ts';
import { REQUEST_TIMEOUT_MS } from './keycloak-oidc.ts';

export interface ExchangedRefreshTokensOptions {
  /** How long after its exchange a copy of the token is answered the same successor (while that is unused). */
  graceSeconds: number;
  now?: () => Date;
}

// An exchange in flight ends within Keycloak's request timeout; a claim older than this was left by a replica
// that stopped mid-exchange, and may be taken over.
const PENDING_MS = REQUEST_TIMEOUT_MS + 5_000;
// How often a copy looks again whether the exchange in flight has ended.
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function prismaExchangedRefreshTokens(
  prisma: PrismaClient,
  options: ExchangedRefreshTokensOptions,
): ExchangedRefreshTokens {
  const now = options.now ?? (() => new Date());
  const table = prisma.exchangedRefreshToken;

  return {
    async claim(tokenDigest, sessionId, expiresAt) {
      const started = now();
      const waitUntil = performance.now() + PENDING_MS;
      await table.deleteMany({ where: { expiresAt: { lt: started } } });
      // A sealed answer is kept no longer than its grace period.
      await table.updateMany({
        where: { graceUntil: { lte: started } },
        data: { successorSealed: null, graceUntil: null },
      });
      for (;;) {
        const at = now();
        // INSERT … ON CONFLICT DO NOTHING: of two replicas claiming one token at once, exactly one inserts.
        const { count } = await table.createMany({
          data: [{ tokenDigest, sessionId, expiresAt, claimedAt: at }],
          skipDuplicates: true,
        });
        if (count === 1) {
          // This token is the successor an earlier exchange answered: it is used now, so that earlier token's
          // copies no longer get it. Only its holder can match the digest.
          await table.updateMany({
            where: { successorDigest: tokenDigest },
            data: { successorSealed: null, graceUntil: null },
          });
          return { kind: 'claimed' };
        }
        const earlier = await table.findUnique({ where: { tokenDigest } });
        // Gone between the two statements (released after a refused exchange): the claim is free again.
        if (!earlier) continue;
        if (earlier.exchangedAt) {
          // One read decides: the successor's first use clears the sealed answer in a single statement.
          return earlier.successorSealed && earlier.graceUntil && earlier.graceUntil > at
            ? { kind: 'grace', sealed: new Uint8Array(earlier.successorSealed) }
            : { kind: 'reused', sessionId: earlier.sessionId };
        }
        if (earlier.claimedAt.getTime() <= at.getTime() - PENDING_MS) {
          // Left by a replica that stopped mid-exchange: taken over, by exactly one of those asking.
          const { count: taken } = await table.updateMany({
            where: { tokenDigest, exchangedAt: null, claimedAt: earlier.claimedAt },
            data: { claimedAt: at, sessionId, expiresAt },
          });
          if (taken === 1) return { kind: 'claimed' };
          continue;
        }
        if (performance.now() > waitUntil)
          throw new Error('refresh: an exchange of the same token is still in flight');
        await sleep(POLL_MS);
      }
    },

    async exchanged(tokenDigest, exchange) {
      const at = now();
      await table.updateMany({
        where: { tokenDigest },
        data: {
          sessionId: exchange.sessionId,
          exchangedAt: at,
          successorDigest: exchange.successorDigest,
          successorSealed: Buffer.from(exchange.sealed),
          graceUntil: new Date(at.getTime() + options.graceSeconds * 1000),
        },
      });
    },

    async release(tokenDigest) {
      await table.deleteMany({ where: { tokenDigest, exchangedAt: null } });
    },

    async sessionOf(tokenDigest) {
      // A renewal of the token may be in flight (a logout crossing it): its outcome decides, as for a copy.
      const waitUntil = performance.now() + PENDING_MS;
      for (;;) {
        const row = await table.findUnique({ where: { tokenDigest } });
        if (!row) return null;
        if (row.exchangedAt) return row.expiresAt > now() ? row.sessionId : null;
        if (row.claimedAt.getTime() <= now().getTime() - PENDING_MS || performance.now() > waitUntil)
          return null;
        await sleep(POLL_MS);
      }
    },
  };
}
