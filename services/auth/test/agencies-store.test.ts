// The agencies' stores on a real PostgreSQL: an agency and its domains are kept together or not at all, a domain
// belongs to one agency only and is found by exact match, removal takes its domains too; a started sign-in is
// taken once (two completions at once: one wins) and not after its time.
import { randomUUID } from 'node:crypto';
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaAgencies, prismaAgencySignIns } from '../src/adapters/prisma-agencies.ts';

let prisma: PrismaClient;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger: createLogger('test', 'silent'),
  });
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
}, 60_000);
afterAll(() => prisma.$disconnect());

const agency = (alias: string, domains: string[], protocol: 'oidc' | 'saml' = 'oidc') => ({
  alias,
  name: `Agency ${alias}`,
  protocol,
  domains,
  metadataUrl: `https://${alias}.example/.well-known/openid-configuration`,
  clientId: protocol === 'oidc' ? 'rotunda' : '',
});

describe('agencies', () => {
  it('keeps an agency with its domains, found by exact domain only, and removes both', async () => {
    const store = prismaAgencies(prisma);
    const added = await store.add(agency('dof', ['dof.ca.gov', 'finance.ca.gov']));
    expect(added).toMatchObject({
      alias: 'dof',
      protocol: 'oidc',
      domains: ['dof.ca.gov', 'finance.ca.gov'],
      clientId: 'rotunda',
      createdAt: expect.any(Date),
    });
    expect((await store.byDomain('finance.ca.gov'))?.alias).toBe('dof');
    expect(await store.byDomain('sub.dof.ca.gov')).toBeNull();
    expect(await store.byDomain('ca.gov')).toBeNull();
    expect((await store.find('dof'))?.domains).toEqual(['dof.ca.gov', 'finance.ca.gov']);
    expect((await store.list()).map((a) => a.alias)).toContain('dof');

    expect(await store.remove('dof')).toBe(true);
    expect(await store.remove('dof')).toBe(false);
    expect(await store.byDomain('dof.ca.gov')).toBeNull();
    // Its domains are free for another agency at once.
    expect(await store.add(agency('dof-new', ['dof.ca.gov']))).toMatchObject({ alias: 'dof-new' });
  });

  it('answers which key was taken, keeping nothing of the refused agency', async () => {
    const store = prismaAgencies(prisma);
    await store.add(agency('ftb', ['ftb.ca.gov'], 'saml'));
    expect(await store.add(agency('ftb', ['other.ca.gov']))).toEqual({ taken: 'alias' });
    expect(await store.add(agency('ftb-2', ['new.ca.gov', 'ftb.ca.gov']))).toEqual({ taken: 'ftb.ca.gov' });
    expect(await store.find('ftb-2')).toBeNull();
    expect(await store.byDomain('new.ca.gov')).toBeNull();
    expect(await store.byDomain('other.ca.gov')).toBeNull();
  });
});

describe('started sign-ins', () => {
  const signIn = { codeVerifier: 'v', nonce: 'n', alias: 'dof', email: 'jane@dof.ca.gov' };

  it('are taken once, with when they began', async () => {
    const signIns = prismaAgencySignIns(prisma, { schema: 'auth' });
    const state = randomUUID();
    await signIns.begin(state, signIn);
    expect(await signIns.take(state, 600)).toEqual({ ...signIn, startedAt: expect.any(Date) });
    expect(await signIns.take(state, 600)).toBeNull();
    expect(await signIns.take(randomUUID(), 600)).toBeNull();
  });

  it('let only one of two completions at once take the same state', async () => {
    const signIns = prismaAgencySignIns(prisma, { schema: 'auth' });
    const state = randomUUID();
    await signIns.begin(state, signIn);
    const taken = await Promise.all(Array.from({ length: 5 }, () => signIns.take(state, 600)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('are refused after their time, and spent all the same', async () => {
    const signIns = prismaAgencySignIns(prisma, { schema: 'auth' });
    const state = randomUUID();
    await signIns.begin(state, signIn);
    await prisma.agencySignIn.update({
      where: { stateDigest: state },
      data: { createdAt: new Date(Date.now() - 601_000) },
    });
    expect(await signIns.take(state, 600)).toBeNull();
    expect(await prisma.agencySignIn.findUnique({ where: { stateDigest: state } })).toBeNull();
  });
});
