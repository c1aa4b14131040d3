// The built-in identity provider: accounts in the auth schema with argon2id password hashes, and RS256
// tokens shaped like Keycloak's (same claims, same token response), signed by keys kept in the database
// and rotatable, so the gateway and the browser treat it exactly like Keycloak. Refresh tokens rotate as with
// Keycloak's revokeRefreshToken: each works once, and one used again ends its session, except a copy used within
// a few seconds of its rotation while its successor is still unused (two tabs, a reload mid-renewal): that one is
// answered the same successor again (ADR 0036).
import { randomUUID } from 'node:crypto';
import { DomainError, unauthenticated } from '@rotunda/service-kit';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import {
  type IdentityProvider,
  type IdentityUser,
  RefreshTokenReused,
  type TokenSet,
} from '../domain/ports.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';

export interface BuiltinIdentityOptions {
  prisma: PrismaClient;
  /** The issuer URL, …/realms/<realm>, as the gateway serves it. */
  issuer: string;
  clientId: string;
  accessTokenSeconds: number;
  /** A session ends when not refreshed for this long (Keycloak's SSO session idle). */
  sessionIdleSeconds: number;
  /** …and at the latest after this long (Keycloak's SSO session max). */
  sessionMaxSeconds: number;
  /** A refresh token used again this soon after its rotation, its successor unused, is answered that successor. */
  reuseGraceSeconds?: number;
  now?: () => Date;
}

export interface BuiltinIdentity extends IdentityProvider {
  /** Starts signing with a new key; the old ones keep verifying until their tokens have expired. */
  rotateSigningKey(): Promise<string>;
}

const SCOPE = 'openid email profile';
/** Two tabs renewing at once, or a reload that cut a renewal short, come back within this. */
export const REUSE_GRACE_SECONDS = 10;
/** Session ids are UUIDs; anything else names no session of ours. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
type SigningKeyMaterial = Awaited<ReturnType<typeof importJWK>>;

/**
 * The sessions of the account that may still hold an unexpired access token: ended before their time, the
 * gateways must be told. Older ones are left out.
 */
const liveSessionsOf = (userId: string, at: Date, accessTokenSeconds: number) => {
  const liveSince = new Date(at.getTime() - accessTokenSeconds * 1000);
  return {
    userId,
    revokedAt: null,
    idleExpiresAt: { gt: liveSince },
    maxExpiresAt: { gt: liveSince },
  } satisfies Prisma.SessionWhereInput;
};

/**
 * The built-in provider's part of deleting an account, inside the caller's transaction: the account with its
 * roles and sessions. Answers the ids of its sessions that may still hold an unexpired access token.
 */
export async function deleteBuiltinAccount(
  tx: Prisma.TransactionClient,
  userId: string,
  accessTokenSeconds: number,
): Promise<string[]> {
  if (!UUID.test(userId)) return [];
  const live = await tx.session.findMany({
    where: liveSessionsOf(userId, new Date(), accessTokenSeconds),
    select: { id: true },
  });
  // Roles and sessions go with it (ON DELETE CASCADE).
  await tx.user.deleteMany({ where: { id: userId } });
  return live.map((session) => session.id);
}

export function createBuiltinIdentity(options: BuiltinIdentityOptions): BuiltinIdentity {
  const { prisma } = options;
  const now = options.now ?? (() => new Date());
  const graceMs = (options.reuseGraceSeconds ?? REUSE_GRACE_SECONDS) * 1000;
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  // Compared against when the email is unknown, so a login takes as long either way (no enumeration).
  const decoyHash = hashPassword(randomUUID());

  const toUser = (row: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    emailVerified: boolean;
    roles: { role: string }[];
  }): IdentityUser => ({
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    emailVerified: row.emailVerified,
    roles: row.roles.map((r) => r.role).sort(),
  });
  const withRoles = { roles: { select: { role: true } } } as const;

  async function signingKey(): Promise<{ kid: string; key: SigningKeyMaterial }> {
    let row = await prisma.signingKey.findFirst({
      where: { retiredAt: null },
      orderBy: { createdAt: 'desc' },
    });
    if (!row) {
      await rotateSigningKey();
      row = await prisma.signingKey.findFirstOrThrow({
        where: { retiredAt: null },
        orderBy: { createdAt: 'desc' },
      });
    }
    return { kid: row.kid, key: await importJWK(row.privateJwk as JWK, 'RS256') };
  }

  async function rotateSigningKey(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
    await prisma.$transaction([
      prisma.signingKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: now() } }),
      prisma.signingKey.create({ data: { kid, publicJwk, privateJwk } }),
    ]);
    return kid;
  }

  async function jwks(): Promise<JSONWebKeySet> {
    // Retired keys stay published for as long as a token they signed can live.
    const since = new Date(now().getTime() - options.sessionMaxSeconds * 1000);
    const rows = await prisma.signingKey.findMany({
      where: { OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
      orderBy: { createdAt: 'desc' },
    });
    return { keys: rows.map((row) => row.publicJwk as JWK) };
  }

  /** Signs the session's tokens; `refreshTokenId` is the refresh token's jti, the one the session now accepts. */
  async function issueTokens(
    user: IdentityUser,
    session: { id: string; idleExpiresAt: Date; refreshTokenId: string },
    issuedAt: Date,
  ): Promise<TokenSet> {
    const { kid, key } = await signingKey();
    const accessExpires = seconds(issuedAt) + options.accessTokenSeconds;
    const accessToken = await new SignJWT({
      typ: 'Bearer',
      azp: options.clientId,
      sid: session.id,
      scope: SCOPE,
      email_verified: user.emailVerified,
      name: `${user.firstName} ${user.lastName}`.trim(),
      preferred_username: user.email,
      given_name: user.firstName,
      family_name: user.lastName,
      email: user.email,
      realm_access: { roles: user.roles },
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .setIssuer(options.issuer)
      .setAudience('account')
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(seconds(issuedAt))
      .setExpirationTime(accessExpires)
      .sign(key);
    const refreshToken = await new SignJWT({
      typ: 'Refresh',
      azp: options.clientId,
      sid: session.id,
      scope: SCOPE,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
      .setIssuer(options.issuer)
      .setAudience(options.issuer)
      .setSubject(user.id)
      .setJti(session.refreshTokenId)
      .setIssuedAt(seconds(issuedAt))
      .setExpirationTime(seconds(session.idleExpiresAt))
      .sign(key);
    return {
      accessToken,
      expiresIn: options.accessTokenSeconds,
      refreshToken,
      refreshExpiresIn: Math.max(0, seconds(session.idleExpiresAt) - seconds(issuedAt)),
      tokenType: 'Bearer',
      sessionState: session.id,
      scope: SCOPE,
    };
  }

  /** The session a refresh token belongs to, if the token is ours, unexpired and of type Refresh. */
  async function sessionOf(refreshToken: string, checkExpiry: boolean) {
    try {
      const { payload } = await jwtVerify(refreshToken, createLocalJWKSet(await jwks()), {
        issuer: options.issuer,
        algorithms: ['RS256'],
        currentDate: checkExpiry ? now() : new Date(0),
      });
      if (payload.typ !== 'Refresh' || typeof payload.sid !== 'string' || typeof payload.jti !== 'string')
        return null;
      return { sid: payload.sid, userId: payload.sub, jti: payload.jti };
    } catch {
      return null;
    }
  }

  const sessionEnded = () => unauthenticated('Session not active');

  /** The account when this is its password, else null; an unknown email costs a hash check all the same. */
  async function accountWithPassword(email: string, password: string) {
    const row = await prisma.user.findUnique({
      where: { email: email.trim().toLowerCase() },
      include: withRoles,
    });
    const matches = await verifyPassword(row?.passwordHash ?? (await decoyHash), password);
    return row && matches ? row : null;
  }

  /** Revokes the session if it is still open; answers whether this call ended it. */
  async function endSession(id: string): Promise<boolean> {
    const { count } = await prisma.session.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: now() },
    });
    return count > 0;
  }

  /**
   * A refresh token that is no longer the session's: the very token rotated away from last, within the grace
   * period, while its successor is unused, is answered that successor again (re-signed, same jti, same issue
   * time); any other use ends the session. One conditional update decides, under the session row's lock, so a
   * rotation by another replica at the same moment is either seen or has not happened yet.
   */
  async function answerSuccessor(
    sessionId: string,
    jti: string,
    at: Date,
    user: () => Promise<IdentityUser>,
  ): Promise<TokenSet> {
    const [successor] = await prisma.session.updateManyAndReturn({
      where: {
        id: sessionId,
        revokedAt: null,
        refreshTokenId: { not: null },
        previousRefreshTokenId: jti,
        rotatedAt: { gt: new Date(at.getTime() - graceMs) },
      },
      // Writes nothing new: the update is there for its row lock and its re-check of the row.
      data: { previousRefreshTokenId: jti },
      select: { refreshTokenId: true, idleExpiresAt: true, rotatedAt: true },
    });
    if (!successor?.refreshTokenId || !successor.rotatedAt) {
      await endSession(sessionId);
      throw new RefreshTokenReused(sessionId);
    }
    return issueTokens(
      await user(),
      { id: sessionId, idleExpiresAt: successor.idleExpiresAt, refreshTokenId: successor.refreshTokenId },
      successor.rotatedAt,
    );
  }

  return {
    rotateSigningKey,

    async createUser(user) {
      const email = user.email.trim().toLowerCase();
      const passwordHash = await hashPassword(user.password);
      try {
        const row = await prisma.user.create({
          data: {
            email,
            firstName: user.firstName,
            lastName: user.lastName,
            passwordHash,
            emailVerified: user.emailVerified ?? false,
          },
          include: withRoles,
        });
        return toUser(row);
      } catch (error) {
        if ((error as { code?: string }).code === 'P2002') {
          throw new DomainError('already_exists', 'An account with this email already exists');
        }
        throw error;
      }
    },

    async findUserByEmail(email) {
      const row = await prisma.user.findUnique({
        where: { email: email.trim().toLowerCase() },
        include: withRoles,
      });
      return row ? toUser(row) : null;
    },

    async findUserById(id) {
      const row = await prisma.user.findUnique({ where: { id }, include: withRoles }).catch(() => null);
      return row ? toUser(row) : null;
    },

    async emailsOf(ids) {
      const rows = await prisma.user.findMany({
        where: { id: { in: ids.filter((id) => UUID.test(id)) } },
        select: { id: true, email: true },
      });
      return rows.map((row) => ({ userId: row.id, email: row.email }));
    },

    async createdAt(id) {
      if (!UUID.test(id)) return null;
      const row = await prisma.user.findUnique({ where: { id }, select: { createdAt: true } });
      return row?.createdAt ?? null;
    },

    async setEmailVerified(userId, verified) {
      await prisma.user.update({ where: { id: userId }, data: { emailVerified: verified } });
    },

    async setPassword(userId, password) {
      await prisma.user.update({
        where: { id: userId },
        data: { passwordHash: await hashPassword(password) },
      });
    },

    async passwordGrant(email, password) {
      const row = await accountWithPassword(email, password);
      if (!row) return null;
      const start = now();
      const refreshTokenId = randomUUID();
      const session = await prisma.session.create({
        data: {
          userId: row.id,
          idleExpiresAt: new Date(start.getTime() + options.sessionIdleSeconds * 1000),
          maxExpiresAt: new Date(start.getTime() + options.sessionMaxSeconds * 1000),
          refreshTokenId,
        },
      });
      return issueTokens(toUser(row), { ...session, refreshTokenId }, start);
    },

    async checkPassword(email, password) {
      return (await accountWithPassword(email, password)) !== null;
    },

    async refresh(refreshToken) {
      const found = await sessionOf(refreshToken, true);
      if (!found) throw sessionEnded();
      const session = await prisma.session.findUnique({ where: { id: found.sid } });
      const at = now();
      if (
        !session ||
        session.userId !== found.userId ||
        session.revokedAt ||
        session.idleExpiresAt <= at ||
        session.maxExpiresAt <= at
      ) {
        throw sessionEnded();
      }
      const user = async () => {
        const row = await prisma.user.findUnique({ where: { id: session.userId }, include: withRoles });
        if (!row) throw sessionEnded();
        return toUser(row);
      };
      // Sessions opened before rotation existed accept their one refresh token once more, then rotate.
      if (session.refreshTokenId !== null && session.refreshTokenId !== found.jti)
        return answerSuccessor(session.id, found.jti, at, user);
      const idle = new Date(
        Math.min(at.getTime() + options.sessionIdleSeconds * 1000, session.maxExpiresAt.getTime()),
      );
      const next = randomUUID();
      // Swapped only if no one else used this token meanwhile: of two concurrent uses, the other one is a copy,
      // answered the successor within the grace period.
      const { count } = await prisma.session.updateMany({
        where: { id: session.id, refreshTokenId: session.refreshTokenId, revokedAt: null },
        data: { idleExpiresAt: idle, refreshTokenId: next, previousRefreshTokenId: found.jti, rotatedAt: at },
      });
      if (count === 0) return answerSuccessor(session.id, found.jti, at, user);
      return issueTokens(await user(), { id: session.id, idleExpiresAt: idle, refreshTokenId: next }, at);
    },

    async logout(refreshToken) {
      const found = await sessionOf(refreshToken, false);
      if (!found) return null;
      return (await endSession(found.sid)) ? found.sid : null;
    },

    async endSessions(userId, keep) {
      // Only sessions that may still hold an unexpired access token matter; older ones are left as they are.
      const ended = await prisma.session.updateManyAndReturn({
        where: {
          ...liveSessionsOf(userId, now(), options.accessTokenSeconds),
          ...(keep && UUID.test(keep) ? { id: { not: keep } } : {}),
        },
        data: { revokedAt: now() },
        select: { id: true },
      });
      return ended.map((session) => session.id);
    },

    async grantRole(userId, role) {
      await prisma.userRole.upsert({
        where: { userId_role: { userId, role } },
        create: { userId, role },
        update: {},
      });
    },

    async revokeRole(userId, role) {
      await prisma.userRole.deleteMany({ where: { userId, role } });
    },

    jwks: async () => ({ keys: (await jwks()).keys as unknown as Record<string, unknown>[] }),

    accessTokenSeconds: async () => options.accessTokenSeconds,
  };
}
