// ADR 0037 against a real PostgreSQL, S3 endpoint (s3rver) and real gRPC: a website's host counts for the
// Verified employer badge only once a contributor set or confirmed it (a member's organization announces
// none; the history says who confirmed), never a shared domain (ca.gov, www.ca.gov; oig.ca.gov counts); names
// are composed and refuse unseen characters, naming the field; a name that reads like another organization's
// is refused with that one named, also when two are added at the same moment; and the migration keys and
// confirms existing rows.
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { type Change, listenForChanges } from '@rotunda/events';
import { foldName } from '@rotunda/rules';
import { type Caller, type Logger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase, refusal } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaOrganizationRepository } from '../src/adapters/prisma-organization-repository.ts';
import { CONTRIBUTOR, MEMBER, type OrgUnderTest, startOrgUnderTest } from './support/org-under-test.ts';

const UNSEEN = 'must not contain invisible, control or replacement characters.';

let service: OrgUnderTest;
let logger: Logger;
let databaseUrl: string;
let prisma: PrismaClient;
let root: string;
let rpc: OrgUnderTest['rpc'];

const add = (name: string, caller: Caller, website?: string) =>
  rpc(
    'addOrganization',
    {
      organization_name: name,
      group_type: 'Agencies',
      fields: { street_address: '1515 K St', city: 'Sacramento', ...(website ? { website } : {}) },
    },
    caller,
  );

const idOf = async (answer: ReturnType<typeof add>) => (await answer).organization?.organization_id as number;

/** The domains that count, as the org service announces them to the profile service's read copy. */
const counted = async (organizationId: number) =>
  (await rpc('exportNames', {})).organizations.find((o) => o.organization_id === organizationId)
    ?.email_domains;

beforeAll(async () => {
  service = await startOrgUnderTest('org-trust-names-test');
  ({ logger, databaseUrl, prisma, root, rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('a website counts for the badge only once a contributor confirmed it', () => {
  it("a member's organization named like an office, at their own domain, verifies no one", async () => {
    const id = await idOf(
      add('Office of Inspector General Review Unit', MEMBER, 'https://member.example.org'),
    );
    const { organization } = await rpc('getOrganization', { organization_id: id }, MEMBER);
    expect(organization?.website).toBe('https://member.example.org');
    expect(organization?.website_confirmed).toBe(false);
    expect(await counted(id)).toEqual([]);
    const row = await prisma.organization.findUniqueOrThrow({ where: { organizationId: id } });
    expect([row.websiteConfirmedBy, row.websiteConfirmedAt]).toEqual([null, null]);
  });

  it("a contributor's save confirms it, says who and when, and is in the history; clearing it clears both", async () => {
    const id = await idOf(add('Board of Equalization Liaison', MEMBER, 'https://boe.example.org'));
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const answer = await rpc(
      'updateOrganization',
      { organization_id: id, fields: { website: 'https://boe.example.org' } },
      CONTRIBUTOR,
    );
    expect(answer.website_confirmed).toBe(true);
    await expect.poll(() => heard.length).toBe(1);
    await listener.close();
    expect(heard[0]).toMatchObject({ organization_id: id, email_domains: ['boe.example.org'] });
    const row = await prisma.organization.findUniqueOrThrow({ where: { organizationId: id } });
    expect(row.websiteConfirmedBy).toBe(CONTRIBUTOR.userId);
    expect(Date.now() - (row.websiteConfirmedAt as Date).getTime()).toBeLessThan(60_000);
    const { entries } = await rpc(
      'listOrganizationHistory',
      { organization_id: id, before_id: 0, limit: 0 },
      CONTRIBUTOR,
    );
    expect(entries[0]).toMatchObject({
      actor_user_id: CONTRIBUTOR.userId,
      action: 'organization_edited',
      changes: [{ field: 'website_confirmed', from: 'No', to: 'Yes' }],
    });

    await rpc('updateOrganization', { organization_id: id, fields: { website: '' } }, CONTRIBUTOR);
    const cleared = await prisma.organization.findUniqueOrThrow({ where: { organizationId: id } });
    expect([cleared.website, cleared.websiteConfirmedBy, cleared.websiteConfirmedAt]).toEqual([
      null,
      null,
      null,
    ]);
    expect(await counted(id)).toEqual([]);
  });

  it("an edit that leaves the website out keeps it unconfirmed: only a contributor's save of it confirms", async () => {
    const id = await idOf(add('Capitol Parking Office', MEMBER, 'https://parking.example.org'));
    await rpc('updateOrganization', { organization_id: id, fields: { city: 'Davis' } }, CONTRIBUTOR);
    expect(await counted(id)).toEqual([]);
  });

  it("never counts a state's umbrella domain, with or without www.; an agency's own host below it counts", async () => {
    for (const [name, website, expected] of [
      ['California Office of Inspector General Desk', 'https://ca.gov', []],
      ['California Office of Inspector General Annex', 'https://www.ca.gov/agencies', []],
      ['Office of the Inspector General', 'https://www.oig.ca.gov/', ['oig.ca.gov']],
    ] as const) {
      const id = await idOf(add(name, CONTRIBUTOR, website));
      expect(await counted(id), website).toEqual(expected);
    }
  });
});

describe('names', () => {
  it.each([
    ['a word joiner', 'Office of Senator Elena\u2060 Marquez'],
    ['a zero-width space', 'Office of\u200B Senator Elena Marquez'],
    ['a right-to-left override', 'Budget \u202EyciloP'],
    ['an ANSI escape', '\u001b[31mBudget Office'],
    ['a replacement character', 'Budget Office \uFFFD'],
  ])('refuses an organization name with %s, naming the field, and adds nothing', async (_, name) => {
    const before = await prisma.organization.count();
    expect(await refusal(add(name, MEMBER))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: `Organization Name ${UNSEEN}`,
    });
    expect(await prisma.organization.count()).toBe(before);
  });

  it('refuses unseen characters in a rename and in a division name', async () => {
    const id = await idOf(add('Office of Tax Appeals', CONTRIBUTOR));
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, organization_name: 'Office\u200B of Tax' },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: `Organization Name ${UNSEEN}` });
    expect(
      await refusal(rpc('addDivision', { organization_id: id, division_name: 'Appeals\u2066 Desk' }, MEMBER)),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: `Division Name ${UNSEEN}` });
  });

  it('stores a name in composed form', async () => {
    const answer = await add('Cafe\u0301 Society Association', MEMBER);
    expect(answer.organization?.organization_name).toBe('Caf\u00e9 Society Association');
  });

  it('refuses a name that reads like an existing one, naming it; the same spelling is answered with it', async () => {
    const real = await idOf(add('Office of Senator Elena Marquez', CONTRIBUTOR));
    const exists = 'An organization named "Office of Senator Elena Marquez" already exists.';
    for (const twin of ['Office of Senator Élena Márquez', 'Office of Senator Ele\u0301na Marquez'])
      expect(await refusal(add(twin, MEMBER)), twin).toEqual({
        code: status.ALREADY_EXISTS,
        details: exists,
      });
    for (const same of ['office of senator elena marquez ', 'Office  of Senator Elena\u00a0Marquez']) {
      const answer = await add(same, MEMBER);
      expect([answer.created, answer.organization?.organization_id], same).toEqual([false, real]);
    }

    const other = await idOf(add('Office of Senator Elena Marques', CONTRIBUTOR));
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: other, organization_name: 'OFFICE OF SENATOR ÉLENA MARQUEZ' },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({ code: status.ALREADY_EXISTS, details: exists });
  });

  it('two names that read alike added at the same moment: one is made, the other refused naming it', async () => {
    for (const [a, b] of [
      ['Café Policy Group', 'Cafe Policy Group'],
      ['Sierra Núñez Partners', 'Sierra Nunez Partners'],
      ['Delta Öko Institute', 'Delta Oko  Institute'],
    ] as const) {
      const outcomes = await Promise.allSettled([add(a, MEMBER), add(b, MEMBER)]);
      const made = outcomes.flatMap((o) => (o.status === 'fulfilled' && o.value.created ? [o.value] : []));
      const refused = outcomes.flatMap((o) =>
        o.status === 'rejected' ? [o.reason as { code: number; details: string }] : [],
      );
      expect(made).toHaveLength(1);
      expect(refused.map((r) => [r.code, r.details])).toEqual([
        [
          status.ALREADY_EXISTS,
          `An organization named "${made[0]?.organization?.organization_name}" already exists.`,
        ],
      ]);
      expect(await prisma.organization.count({ where: { nameKey: foldName(a) } })).toBe(1);
    }
  });
});

describe('the migration', () => {
  it('confirms websites a contributor edited or the seed wrote, keys names, and keeps rows that already read alike', async () => {
    const url = await createTestDatabase();
    const migrations = `${root}prisma/migrations`;
    const before = await mkdtemp(join(tmpdir(), 'org-migrations-'));
    for (const name of await readdir(migrations))
      if (name < '20261228010000') await cp(join(migrations, name), join(before, name), { recursive: true });
    await migrate({ databaseUrl: url, schema: 'org', migrationsDir: before, logger });
    // Raw statements: the client generated for the current schema would read columns not there yet.
    const db = new PrismaClient({ adapter: prismaAdapter(url, 'org') });
    await db.$executeRaw`INSERT INTO org.groups (group_id, group_name) VALUES (2, 'Agencies')`;
    const organization = async (name: string, website: string | null) =>
      (
        await db.$queryRaw<{ organization_id: number }[]>`
          INSERT INTO org.organizations (organization_name, group_id, website, updated_at)
          VALUES (${name}, 2, ${website}, now()) RETURNING organization_id`
      )[0]?.organization_id as number;
    const history = (id: number, actor: string, action: string) =>
      db.$executeRaw`INSERT INTO org.organization_history (organization_id, actor_user_id, action, changes)
        VALUES (${id}, ${actor}, ${action}, '[]'::jsonb)`;
    const seeded = await organization('Seeded Agency', 'https://seeded.example.org');
    const memberMade = await organization('Member Agency', 'https://member.example.org');
    await history(memberMade, 'member-7', 'organization_created');
    const edited = await organization('Edited Agency', 'https://edited.example.org');
    await history(edited, 'member-7', 'organization_created');
    await history(edited, 'concierge-3', 'organization_edited');
    const first = await organization('Río Verde Association', null);
    const twin = await organization('RIO  VERDE ASSOCIATION', null);
    const greek = await organization('Ωmega Partners', null);

    await migrate({ databaseUrl: url, schema: 'org', migrationsDir: migrations, logger });
    const rows = await db.organization.findMany({ orderBy: { organizationId: 'asc' } });
    const row = (id: number) => rows.find((r) => r.organizationId === id);
    expect(row(seeded)?.websiteConfirmedBy).toBe('seed');
    expect(row(memberMade)?.websiteConfirmedBy).toBeNull();
    expect(row(edited)?.websiteConfirmedBy).toBe('concierge-3');
    expect(row(first)?.nameKey).toBe(foldName('Río Verde Association'));
    expect(row(twin)?.nameKey).toBeNull();

    // The service's start keys what SQL could not fold as foldName does; the later twin keeps no key.
    const repository = prismaOrganizationRepository(db, 'org');
    await repository.rekeyNames();
    const after = await db.organization.findMany({ orderBy: { organizationId: 'asc' } });
    expect(after.find((r) => r.organizationId === greek)?.nameKey).toBe(foldName('Ωmega Partners'));
    expect(after.find((r) => r.organizationId === twin)?.nameKey).toBeNull();
    expect(after.every((r) => r.organizationId === twin || r.nameKey === foldName(r.organizationName))).toBe(
      true,
    );
    await db.$disconnect();
  });
});
