// The identity contract against the built-in provider on a real PostgreSQL (the same suite Keycloak must
// pass), plus what only the built-in provider does: key rotation with the old key still verifying, password
// checks that open no session, and refresh-token rotation under concurrency (two auth replicas on one database),
// its grace period on a moved clock, and sessions older than rotation.
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBuiltinIdentity } from '../src/adapters/builtin-identity.ts';
import { RefreshTokenReused } from '../src/domain/ports.ts';
import { identityContract } from './identity-contract.ts';

const root = new URL('..', import.meta.url).pathname;

async function builtin(options: { reuseGraceSeconds?: number; now?: () => Date } = {}) {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: `${root}prisma/migrations`,
    logger: createLogger('t', 'silent'),
  });
  const clients: PrismaClient[] = [];
  /** One auth replica: its own Prisma Client on the shared database. */
  const replica = () => {
    const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
    clients.push(prisma);
    return createBuiltinIdentity({
      prisma,
      issuer: 'http://localhost:8080/realms/rotunda',
      clientId: 'rotunda-web',
      accessTokenSeconds: 300,
      sessionIdleSeconds: 1800,
      sessionMaxSeconds: 36_000,
      ...options,
    });
  };
  const provider = replica();
  const prisma = clients[0] as PrismaClient;
  const cleanup = async () => {
    await Promise.all(clients.map((client) => client.$disconnect()));
  };
  return { provider, replica, prisma, cleanup };
}

identityContract('builtin', async () => ({
  ...(await builtin({ reuseGraceSeconds: 1 })),
  reuseGraceSeconds: 1,
}));

describe('built-in identity provider', () => {
  it('rotates its signing key; tokens signed before still verify, new ones carry the new kid', async () => {
    const { provider, cleanup } = await builtin();
    await provider.createUser({
      email: 'rotate@dof.ca.gov',
      firstName: 'R',
      lastName: 'K',
      password: 'Rotate#Key2026',
      emailVerified: true,
    });
    const before = await provider.passwordGrant('rotate@dof.ca.gov', 'Rotate#Key2026');
    const kid = await provider.rotateSigningKey();
    const after = await provider.passwordGrant('rotate@dof.ca.gov', 'Rotate#Key2026');
    const keys = createLocalJWKSet((await provider.jwks()) as never);
    const old = await jwtVerify(before?.accessToken as string, keys);
    const fresh = await jwtVerify(after?.accessToken as string, keys);
    expect(fresh.protectedHeader.kid).toBe(kid);
    expect(old.protectedHeader.kid).not.toBe(kid);
    expect((await provider.jwks()).keys).toHaveLength(2);
    await cleanup();
  });

  it('checks a password without opening a session', async () => {
    const { provider, prisma, cleanup } = await builtin();
    await provider.createUser({
      email: 'check@dof.ca.gov',
      firstName: 'C',
      lastName: 'P',
      password: 'Check#Pw2026x',
    });
    expect(await provider.checkPassword('check@dof.ca.gov', 'Check#Pw2026x')).toBe(true);
    expect(await prisma.session.count()).toBe(0);
    await cleanup();
  });

  it('answers a refresh token sent at once to two replicas (two tabs) with one successor; the session lives', async () => {
    const { provider, replica, cleanup } = await builtin();
    const other = replica();
    await provider.createUser({
      email: 'race@dof.ca.gov',
      firstName: 'R',
      lastName: 'C',
      password: 'Race#Pw2026xx',
    });
    const tokens = await provider.passwordGrant('race@dof.ca.gov', 'Race#Pw2026xx');
    const refreshToken = tokens?.refreshToken as string;
    const answers = await Promise.all([
      provider.refresh(refreshToken),
      other.refresh(refreshToken),
      provider.refresh(refreshToken),
      other.refresh(refreshToken),
    ]);
    expect(new Set(answers.map((answer) => answer.refreshToken)).size).toBe(1);
    const next = await other.refresh(answers[0]?.refreshToken as string);
    expect(next.sessionState).toBe(tokens?.sessionState);
    await cleanup();
  });

  it('ends the session for a copy used 10 s after its rotation, or once its successor was used', async () => {
    let clock = Date.now();
    const { provider, cleanup } = await builtin({ now: () => new Date(clock) });
    await provider.createUser({
      email: 'late@dof.ca.gov',
      firstName: 'L',
      lastName: 'C',
      password: 'Late#Pw2026xx',
    });
    const grant = async () =>
      (await provider.passwordGrant('late@dof.ca.gov', 'Late#Pw2026xx'))?.refreshToken as string;
    // Within the grace period, the successor again.
    const first = await grant();
    const second = await provider.refresh(first);
    clock += 9_000;
    expect((await provider.refresh(first)).refreshToken).toBe(second.refreshToken);
    // Past it: a reuse.
    clock += 1_500;
    await expect(provider.refresh(first)).rejects.toBeInstanceOf(RefreshTokenReused);
    await expect(provider.refresh(second.refreshToken)).rejects.toMatchObject({ kind: 'unauthenticated' });
    // Within it, but after the successor was used: a reuse too.
    const other = await grant();
    const successor = await provider.refresh(other);
    await provider.refresh(successor.refreshToken);
    await expect(provider.refresh(other)).rejects.toBeInstanceOf(RefreshTokenReused);
    await cleanup();
  });

  it('a session opened before rotation takes its refresh token once more, then rotates', async () => {
    const { provider, prisma, cleanup } = await builtin();
    await provider.createUser({
      email: 'old@dof.ca.gov',
      firstName: 'O',
      lastName: 'S',
      password: 'Older#Pw2026x',
    });
    const tokens = await provider.passwordGrant('old@dof.ca.gov', 'Older#Pw2026x');
    await prisma.session.updateMany({ data: { refreshTokenId: null } });
    const renewed = await provider.refresh(tokens?.refreshToken as string);
    const next = await provider.refresh(renewed.refreshToken);
    await expect(provider.refresh(tokens?.refreshToken as string)).rejects.toBeInstanceOf(RefreshTokenReused);
    await expect(provider.refresh(next.refreshToken)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await cleanup();
  });
});
