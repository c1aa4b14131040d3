// The auth service's Postgres stores through Prisma: one-time link tokens (hashed), the registration access
// lists and the log of their changes, spent captcha challenges, and the sessions that ended.
import { createHash, randomBytes } from 'node:crypto';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.ts';
import type {
  AccessListName,
  AccessLists,
  AdminLog,
  AdminLogEntry,
  EndedSessions,
  OneTimeTokens,
} from '../domain/ports.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function prismaOneTimeTokens(prisma: PrismaClient, now: () => Date = () => new Date()): OneTimeTokens {
  return {
    async issue({ userId, email }, purpose, ttlSeconds) {
      // 256 bits of randomness; only the hash is stored, so a database leak reveals no working link.
      const token = randomBytes(32).toString('base64url');
      await prisma.oneTimeToken.create({
        data: {
          userId,
          email,
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
        select: { userId: true, email: true },
      });
      return spent[0] ?? null;
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
      const { count } = await prisma.accessListEntry.createMany({
        data: [{ list, value: normalized }],
        skipDuplicates: true,
      });
      return { value: normalized, changed: count === 1 };
    },
    async remove(list, value) {
      const normalized = normalize(list, value);
      const { count } = await prisma.accessListEntry.deleteMany({ where: { list, value: normalized } });
      return { value: normalized, changed: count > 0 };
    },
  };
}

export function prismaAdminLog(prisma: PrismaClient): AdminLog {
  return {
    async record(entry) {
      await prisma.adminLogEntry.create({
        data: {
          actorUserId: entry.actor.userId,
          actorEmail: entry.actor.email,
          action: entry.action,
          subject: entry.subject,
          value: entry.value,
        },
      });
    },
    async page(before, limit) {
      const rows = await prisma.adminLogEntry.findMany({
        where: before > 0 ? { id: { lt: BigInt(before) } } : {},
        orderBy: { id: 'desc' },
        take: limit,
      });
      return rows.map((row) => ({
        id: Number(row.id),
        at: row.at,
        actor: { userId: row.actorUserId, email: row.actorEmail },
        action: row.action as AdminLogEntry['action'],
        subject: row.subject,
        value: row.value,
      }));
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

/**
 * Ends overlap: the last page's cursor lies this far before the moment it was read, so an end recorded by a write
 * still in flight then (its ended_at is when the write began) is in the next answer. Ids may come twice.
 */
const ENDED_OVERLAP_MS = 5_000;
/** The most ids one answer carries (~40 kB), far below gRPC's 4 MB whatever the table holds. */
export const ENDED_PAGE_SIZE = 1000;

/**
 * A cursor: milliseconds since the epoch, and after a full page the last id answered (pages run in the order
 * ended_at, session_id). The id is a UUID, a legacy built-in one or Keycloak 26's base64url one; anything else
 * reads as none.
 */
const CURSOR = /^(\d{1,15})(?::([0-9A-Za-z_-]{1,64}))?$/;

/**
 * Ended sessions in the ended_sessions table, timed by the database's clock only, so auth replicas whose
 * clocks differ still agree. Rows are dropped once no access token of theirs can be valid: `retainSeconds`
 * answers how long that is, as the identity provider's access-token lifespan stands now.
 */
export function prismaEndedSessions(
  prisma: PrismaClient,
  options: { schema: string; retainSeconds: () => Promise<number> },
): EndedSessions {
  const table = Prisma.raw(`"${options.schema}"."ended_sessions"`);
  return {
    async record(sessionIds) {
      if (sessionIds.length === 0) return;
      await prisma.$executeRaw`
        INSERT INTO ${table} (session_id) SELECT unnest(${sessionIds}::text[])
        ON CONFLICT (session_id) DO NOTHING`;
      const retainSeconds = await options.retainSeconds();
      await prisma.$executeRaw`
        DELETE FROM ${table} WHERE ended_at < now() - make_interval(secs => ${2 * retainSeconds}::float8)`;
    },

    async since(cursor, limit = ENDED_PAGE_SIZE) {
      const retainSeconds = await options.retainSeconds();
      const size = Math.min(Math.max(1, Math.floor(limit) || ENDED_PAGE_SIZE), ENDED_PAGE_SIZE);
      const parsed = CURSOR.exec(cursor);
      const from = parsed ? Number(parsed[1]) : null;
      const after = parsed?.[2] ?? '';
      const [read] = await prisma.$queryRaw<{ read_at: number }[]>`
        SELECT floor(extract(epoch FROM now()) * 1000)::float8 AS read_at`;
      // One more row than the page holds tells whether another page follows.
      const rows = await prisma.$queryRaw<{ session_id: string; ended_ms: number }[]>`
        SELECT session_id, floor(extract(epoch FROM ended_at) * 1000)::float8 AS ended_ms
        FROM ${table}
        WHERE ended_at > now() - make_interval(secs => ${retainSeconds}::float8)
          AND (ended_at, session_id) > (
            coalesce(to_timestamp(${from}::float8 / 1000), '-infinity'::timestamptz), ${after}::text)
        ORDER BY ended_at, session_id
        LIMIT ${size + 1}`;
      if (!read) throw new Error('ended sessions: the query answered no row');
      const page = rows.slice(0, size);
      const more = rows.length > size;
      const last = page.at(-1);
      return {
        sessionIds: page.map((row) => row.session_id),
        // A full page goes on exactly after its last row; the last page steps back by the overlap.
        cursor:
          more && last ? `${last.ended_ms}:${last.session_id}` : String(read.read_at - ENDED_OVERLAP_MS),
        retainSeconds,
        more,
      };
    },
  };
}
