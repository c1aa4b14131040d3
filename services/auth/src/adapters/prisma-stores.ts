// The auth service's Postgres stores through Prisma: one-time link tokens (hashed), the registration access
// lists, and spent captcha challenges.
import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { AccessListName, AccessLists, OneTimeTokens } from '../domain/ports.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function prismaOneTimeTokens(prisma: PrismaClient, now: () => Date = () => new Date()): OneTimeTokens {
  return {
    async issue(userId, purpose, ttlSeconds) {
      // 256 bits of randomness; only the hash is stored, so a database leak reveals no working link.
      const token = randomBytes(32).toString('base64url');
      await prisma.oneTimeToken.create({
        data: {
          userId,
          purpose,
          tokenHash: sha256(token),
          expiresAt: new Date(now().getTime() + ttlSeconds * 1000),
        },
      });
      return token;
    },
    async consume(token, purpose) {
      const at = now();
      // One conditional update both checks and spends the token, so two concurrent uses cannot both win.
      const spent = await prisma.oneTimeToken.updateManyAndReturn({
        where: { tokenHash: sha256(token), purpose, usedAt: null, expiresAt: { gt: at } },
        data: { usedAt: at },
        select: { userId: true },
      });
      return spent[0]?.userId ?? null;
    },
    async revokeAll(userId, purpose) {
      await prisma.oneTimeToken.updateMany({
        where: { userId, purpose, usedAt: null },
        data: { usedAt: now() },
      });
    },
  };
}

export function prismaAccessLists(prisma: PrismaClient): AccessLists {
  const values = async (list: AccessListName) =>
    (await prisma.accessListEntry.findMany({ where: { list }, orderBy: { value: 'asc' } })).map(
      (row) => row.value,
    );
  const normalize = (list: AccessListName, value: string) => {
    const trimmed = value.trim().toLowerCase();
    return list === 'approved-domain' ? trimmed.replace(/^@/, '') : trimmed;
  };
  return {
    approvedDomains: () => values('approved-domain'),
    approvedEmails: () => values('approved-email'),
    betaEmails: () => values('beta-email'),
    async add(list, value) {
      const normalized = normalize(list, value);
      await prisma.accessListEntry.upsert({
        where: { list_value: { list, value: normalized } },
        create: { list, value: normalized },
        update: {},
      });
      return normalized;
    },
    async remove(list, value) {
      const normalized = normalize(list, value);
      await prisma.accessListEntry.deleteMany({ where: { list, value: normalized } });
      return normalized;
    },
  };
}

/** For the captcha adapter: true when the challenge was not spent before (and now is). */
export function prismaSpentCaptchas(prisma: PrismaClient, now: () => Date = () => new Date()) {
  return async (id: string, expiresAt: Date): Promise<boolean> => {
    await prisma.spentCaptcha.deleteMany({ where: { expiresAt: { lt: now() } } });
    const { count } = await prisma.spentCaptcha.createMany({
      data: [{ id, expiresAt }],
      skipDuplicates: true,
    });
    return count === 1;
  };
}
