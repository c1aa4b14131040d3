// The identity contract against the built-in provider on a real PostgreSQL (the same suite Keycloak must
// pass), plus what only the built-in provider does: key rotation with the old key still verifying.
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBuiltinIdentity } from '../src/adapters/builtin-identity.ts';
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
  return { provider, cleanup: () => prisma.$disconnect() };
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
});
