// The "Verified employer" badge: the rule over a profile's owner and current jobs (unit), then the profile service
// against a real PostgreSQL, a real S3 endpoint and real gRPC with a stand-in org service: the badge on the
// profile answer and the directory card as the owner's email domain changes, as the job changes (ended, elsewhere),
// through claims (confirmed at once, pending, confirmed by a contributor), and as the organization's domains
// change through the org service's change notification; and the migration that fills the owner's email domain of
// profiles owned through a confirmed claim.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishChange } from '@rotunda/events';
import type { Organization } from '@rotunda/protos/org';
import { type Caller, type Logger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { keepOrgCopy } from '../src/adapters/org-change-listener.ts';
import { isVerifiedEmployer } from '../src/domain/verified-employer.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

const CONTRIBUTOR: Caller = {
  userId: 'contributor-9',
  email: 'desk@rotunda.example.org',
  roles: ['contributor'],
};

/** Organizations as the org service has them: ids, websites and listed domains. */
const SENATE = 1;
const FINANCE = 2;
const CAFE = 3;
const organization = (
  id: number,
  name: string,
  website: string | undefined,
  domains: string[],
): Organization => ({
  organization_id: id,
  organization_name: name,
  group_id: 4,
  group_type: 'Legislature',
  street_address: '1021 O Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  website,
  email_domains: domains,
  // A contributor confirmed each website here; an unconfirmed one is the org service's test to show.
  website_confirmed: website !== undefined,
});

describe('isVerifiedEmployer', () => {
  it('verifies an email at a current organization domain, or under it', () => {
    expect(isVerifiedEmployer('sen.ca.gov', [['sen.ca.gov']])).toBe(true);
    expect(isVerifiedEmployer('district3.sen.ca.gov', [['other.org'], ['sen.ca.gov']])).toBe(true);
  });
  it('never for a parent of the domain, webmail, no owner or no current job', () => {
    expect(isVerifiedEmployer('ca.gov', [['sen.ca.gov']])).toBe(false);
    expect(isVerifiedEmployer('gmail.com', [['gmail.com']])).toBe(false);
    expect(isVerifiedEmployer(null, [['sen.ca.gov']])).toBe(false);
    expect(isVerifiedEmployer('sen.ca.gov', [])).toBe(false);
  });
});

let service: ProfileUnderTest;
let databaseUrl: string;
let root: string;
let prisma: PrismaClient;
let logger: Logger;
let rpc: ProfileUnderTest['rpc'];
let listener: { close: () => Promise<void> };

const someone = (email: string): Caller => ({ userId: `user-${randomUUID()}`, email, roles: [] });
const VIEWER = someone('viewer@gmail.com');
const tag = () => `Verif${randomUUID().replace(/\D/g, '').slice(0, 8)}`;

const job = (organization_id: number, extra: Record<string, unknown> = {}) => ({
  title: 'Policy Consultant',
  organization_id,
  street_address: '1021 O Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2023-01-09',
  current_job: true,
  ...extra,
});

async function ownProfile(owner: Caller, lastName: string) {
  const picture = await rpc(
    'uploadPicture',
    {
      image: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } })
        .jpeg()
        .toBuffer(),
    },
    owner,
  );
  return rpc(
    'createProfile',
    {
      fields: {
        first_name: 'Vera',
        last_name: lastName,
        work_email: `vera.${randomUUID().slice(0, 6)}@example.org`,
        other_phone: '9165550100',
        profile_picture: picture.url,
      },
    },
    owner,
  );
}

const badge = async (profileId: number, viewer: Caller = VIEWER) =>
  (await rpc('getProfile', { profile_id: profileId }, viewer)).verified_employer;

const cardBadge = async (lastName: string) => {
  const page = await rpc('searchDirectory', { search: lastName, group: '', limit: 5, offset: 0 }, VIEWER);
  expect(page.profiles).toHaveLength(1);
  return page.profiles[0]?.verified_employer;
};

/** The badge on the profile answer and on the directory card agree, and are `expected`. */
async function expectBadge(profileId: number, lastName: string, expected: boolean) {
  expect(await badge(profileId)).toBe(expected);
  expect(await cardBadge(lastName)).toBe(expected);
}

beforeAll(async () => {
  service = await startProfileUnderTest('verified-employer-test', {
    org: {
      exported: [
        organization(SENATE, 'California State Senate', 'https://www.senate.ca.gov/', ['sen.ca.gov']),
        organization(FINANCE, 'Department of Finance', undefined, []),
        organization(CAFE, 'Capitol Cafe', 'https://capitolcafe.example.com', []),
      ],
      later: [],
      divisions: [],
    },
    async prepare({ databaseUrl, logger, orgCopy }) {
      const keeper = keepOrgCopy({ databaseUrl, logger, orgCopy });
      await keeper.ready;
      listener = keeper;
    },
  });
  ({ databaseUrl, root, logger, prisma, rpc } = service);
});

afterAll(async () => {
  await listener?.close();
  await service?.close();
});

describe('the Verified employer badge', () => {
  it('shows for an owner whose email is at a current organization domain (listed, website host, subdomain)', async () => {
    const name = tag();
    const owner = someone('Vera.Staff@District3.SEN.ca.gov');
    const { profile_id } = await ownProfile(owner, name);
    expect(profile_id).toBeGreaterThan(0);
    await expectBadge(profile_id, name, false);
    await rpc('addJob', { profile_id, fields: job(SENATE) }, owner);
    await expectBadge(profile_id, name, true);

    const hosted = tag();
    const webOwner = someone('press@www.senate.ca.gov');
    const web = await ownProfile(webOwner, hosted);
    await rpc('addJob', { profile_id: web.profile_id, fields: job(SENATE) }, webOwner);
    await expectBadge(web.profile_id, hosted, true);
  });

  it('goes when the job ends or the current job is elsewhere, and comes back with a current job there', async () => {
    const name = tag();
    const owner = someone('ana@sen.ca.gov');
    const { profile_id } = await ownProfile(owner, name);
    const senate = await rpc('addJob', { profile_id, fields: job(SENATE) }, owner);
    await expectBadge(profile_id, name, true);

    await rpc('addJob', { profile_id, fields: job(CAFE, { start_date: '2024-05-01' }) }, owner);
    await rpc(
      'updateJob',
      { job_id: senate.job_id, fields: job(SENATE, { current_job: false, end_date: '2024-04-30' }) },
      owner,
    );
    await expectBadge(profile_id, name, false);

    await rpc('addJob', { profile_id, fields: job(SENATE, { start_date: '2025-02-01' }) }, owner);
    await expectBadge(profile_id, name, true);
  });

  it("follows the owner's account email (brought up to date when the owner reads the profile), never a viewer's", async () => {
    const name = tag();
    const owner = someone('lee@gmail.com');
    const { profile_id } = await ownProfile(owner, name);
    await rpc('addJob', { profile_id, fields: job(SENATE) }, owner);
    await expectBadge(profile_id, name, false);
    // A member at the Senate looking at the profile changes nothing.
    expect(await badge(profile_id, someone('other@sen.ca.gov'))).toBe(false);

    const moved = { ...owner, email: 'lee@sen.ca.gov' };
    expect(await badge(profile_id, moved)).toBe(true);
    await expectBadge(profile_id, name, true);
    expect(await badge(profile_id, { ...owner, email: 'lee@ca.gov' })).toBe(false);
    await expectBadge(profile_id, name, false);
  });

  it('follows the organization: domains added or removed through its change notification', async () => {
    const name = tag();
    const owner = someone('omar@dof.ca.gov');
    const { profile_id } = await ownProfile(owner, name);
    await rpc('addJob', { profile_id, fields: job(FINANCE) }, owner);
    await expectBadge(profile_id, name, false);

    const announcer = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'public') });
    const announce = (email_domains: string[]) =>
      announcer.$transaction((tx) =>
        publishChange(tx, {
          kind: 'organization',
          organization_id: FINANCE,
          organization_name: 'Department of Finance',
          group_type: 'Agencies',
          logo: null,
          email_domains,
        }),
      );
    await announce(['dof.ca.gov']);
    await expect.poll(() => badge(profile_id)).toBe(true);
    await expect.poll(() => cardBadge(name)).toBe(true);

    await announce(['ebudget.ca.gov']);
    await expect.poll(() => badge(profile_id)).toBe(false);
    await expect.poll(() => cardBadge(name)).toBe(false);
    await announcer.$disconnect();
  });

  it('comes with a claim confirmed at once, and with a pending claim only once a contributor confirms it', async () => {
    const unclaimed = async (lastName: string, workEmail: string) => {
      const { profileId } = await prisma.profile.create({
        data: { firstName: 'Una', lastName, workEmail, otherPhone: '(916) 555-0109' },
      });
      await rpc('addJob', { profile_id: profileId, fields: job(SENATE) }, CONTRIBUTOR);
      return profileId;
    };
    const atOnce = tag();
    const first = await unclaimed(atOnce, 'una@sen.ca.gov');
    await expectBadge(first, atOnce, false);
    const names = { claimant_first_name: 'Una', claimant_last_name: atOnce };
    await rpc('claimProfile', { profile_id: first, ...names }, someone('UNA@sen.ca.gov'));
    await expectBadge(first, atOnce, true);

    const later = tag();
    const second = await unclaimed(later, 'una.office@example.org');
    await rpc(
      'claimProfile',
      { profile_id: second, claimant_first_name: 'Una', claimant_last_name: later },
      someone('una2@sen.ca.gov'),
    );
    await expectBadge(second, later, false);
    const claim = await prisma.profileClaim.findFirstOrThrow({
      where: { profileId: second, status: 'pending' },
    });
    await rpc('decideClaim', { claim_id: claim.claimId, decision: 'confirm' }, CONTRIBUTOR);
    await expectBadge(second, later, true);
  });
});

describe('the migration', () => {
  it("fills the owner's email domain of profiles owned through a confirmed claim, and of no other", async () => {
    const url = await createTestDatabase();
    const migrations = `${root}prisma/migrations`;
    const before = await mkdtemp(join(tmpdir(), 'profile-migrations-'));
    for (const name of await readdir(migrations))
      if (name < '20261212040000') await cp(join(migrations, name), join(before, name), { recursive: true });
    await migrate({ databaseUrl: url, schema: 'profile', migrationsDir: before, logger });
    // Raw statements: the client generated for the current schema would read columns not there yet.
    const db = new PrismaClient({ adapter: prismaAdapter(url, 'profile') });
    const profile = async (userId: string | null) =>
      (
        await db.$queryRaw<{ profile_id: number }[]>`
          INSERT INTO profile.profiles (user_id, first_name, last_name, work_email, updated_at)
          VALUES (${userId}, 'Pat', 'Migrated', 'pat@example.org', now()) RETURNING profile_id`
      )[0]?.profile_id as number;
    const claim = (profileId: number, userId: string, status: string, email: string) =>
      db.$executeRaw`
        INSERT INTO profile.profile_claims (profile_id, user_id, status, claimant_email)
        VALUES (${profileId}, ${userId}, ${status}, ${email})`;
    const claimed = await profile('owner-1');
    await claim(claimed, 'owner-1', 'confirmed', 'Pat@WWW.Sen.CA.gov');
    const created = await profile('owner-2');
    const rejected = await profile(null);
    await claim(rejected, 'owner-3', 'rejected', 'pat@sen.ca.gov');

    await migrate({ databaseUrl: url, schema: 'profile', migrationsDir: migrations, logger });
    const rows = await db.$queryRaw<{ profile_id: number; owner_email_domain: string | null }[]>`
      SELECT profile_id, owner_email_domain FROM profile.profiles ORDER BY profile_id`;
    await db.$disconnect();
    expect(rows).toEqual([
      { profile_id: claimed, owner_email_domain: 'sen.ca.gov' },
      { profile_id: created, owner_email_domain: null },
      { profile_id: rejected, owner_email_domain: null },
    ]);
  });
});
