// The identity contract against the built-in provider on a real PostgreSQL (the same suite Keycloak must
// pass), plus what only the built-in provider does: key rotation with the old key still verifying, password
// checks that open no session, and refresh-token rotation under concurrency and for sessions older than it.
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBuiltinIdentity } from '../src/adapters/builtin-identity.ts';
import { RefreshTokenReused } from '../src/domain/ports.ts';
import { identityContract } from './identity-contract.ts';

const root = new URL('..', import.meta.url).pathname;

async function builtin() {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: `${root}prisma/migrations`,
    logger: createLogger('t', 'silent'),
  });
  const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
  const provider = createBuiltinIdentity({
    prisma,
    issuer: 'http://localhost:8080/realms/rotunda',
    clientId: 'rotunda-web',
    accessTokenSeconds: 300,
    sessionIdleSeconds: 1800,
    sessionMaxSeconds: 36_000,
  });
  return { provider, prisma, cleanup: () => prisma.$disconnect() };
}

identityContract('builtin', builtin);

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

  it('of two refreshes with the same token at once, at most one succeeds, and a reuse ends the session', async () => {
    const { provider, cleanup } = await builtin();
    await provider.createUser({
      email: 'race@dof.ca.gov',
      firstName: 'R',
      lastName: 'C',
      password: 'Race#Pw2026xx',
    });
    const tokens = await provider.passwordGrant('race@dof.ca.gov', 'Race#Pw2026xx');
    const outcomes = await Promise.allSettled([
      provider.refresh(tokens?.refreshToken as string),
      provider.refresh(tokens?.refreshToken as string),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeLessThanOrEqual(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(RefreshTokenReused);
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled')
        await expect(provider.refresh(outcome.value.refreshToken)).rejects.toMatchObject({
          kind: 'unauthenticated',
        });
    }
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
    await expect(provider.refresh(tokens?.refreshToken as string)).rejects.toBeInstanceOf(RefreshTokenReused);
    await expect(provider.refresh(renewed.refreshToken)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await cleanup();
  });
});
