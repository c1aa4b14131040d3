// The refresh tokens the Keycloak adapter has exchanged, in the auth schema, so that every auth replica knows
// them: a copy that comes back after its exchange is caught whichever replica it reaches.
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { ExchangedRefreshTokens } from './keycloak-identity.ts';

export function prismaExchangedRefreshTokens(prisma: PrismaClient): ExchangedRefreshTokens {
  return {
    async claim(tokenDigest, sessionId, expiresAt) {
      await prisma.exchangedRefreshToken.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      // INSERT … ON CONFLICT DO NOTHING: of two replicas claiming one token at once, exactly one inserts.
      const { count } = await prisma.exchangedRefreshToken.createMany({
        data: [{ tokenDigest, sessionId, expiresAt }],
        skipDuplicates: true,
      });
      if (count === 1) return null;
      const earlier = await prisma.exchangedRefreshToken.findUnique({ where: { tokenDigest } });
      // Gone between the two statements (released after a refused exchange): the claim is free again.
      return earlier ? earlier.sessionId : this.claim(tokenDigest, sessionId, expiresAt);
    },

    async release(tokenDigest) {
      await prisma.exchangedRefreshToken.deleteMany({ where: { tokenDigest } });
    },
  };
}
