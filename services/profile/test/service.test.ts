// The profile service against a real PostgreSQL, a real S3 endpoint (s3rver) and real gRPC, with the org and
// auth services it asks played by small gRPC stand-ins: migrations match schema.prisma, the demo seed, the read
// copy of organization names (whole copy, announced changes, lookups of names not copied yet), and every rule
// and refusal of profiles, claims, pictures, bios, jobs, colleagues, issue areas and authors (profiles and jobs
// made once per Idempotency-Key), and the people directory's search on a real Postgres search index kept in step
// with every write and rename, and rebuilt by the operator's reindex command.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Metadata, status } from '@grpc/grpc-js';
import { type Change, listenForChanges, publishChange } from '@rotunda/events';
import { mediaKeyOf, type ObjectStore, sweepOrphanUploads } from '@rotunda/images';
import { FindUnclaimedMatchesRequest, type ListedProfile, type Profile } from '@rotunda/protos/profile';
import { ELECTED_OFFICIAL_TITLES, ELECTED_OFFICIALS_GROUP } from '@rotunda/rules';
import { type SearchIndex, searchIndexFromConfig } from '@rotunda/search';
import {
  type Caller,
  IDEMPOTENCY_KEY_LEASE_MS,
  IDEMPOTENCY_MESSAGES,
  idempotencyKeys,
  type Logger,
  prismaAdapter,
  setCallerMetadata,
} from '@rotunda/service-kit';
import {
  diesBeforeAnswer,
  diffSchemaAndDatabase,
  type RecordingFake,
  refusal,
} from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { grpcAccountLookup, type grpcOrgDirectory } from '../src/adapters/grpc-clients.ts';
import { keepOrgCopy } from '../src/adapters/org-change-listener.ts';
import { prismaDirectoryQuota } from '../src/adapters/prisma-directory-quota.ts';
import { prismaDirectoryRepository } from '../src/adapters/prisma-directory-repository.ts';
import {
  createPeopleDirectory,
  PEOPLE_INDEX,
  type PeopleDirectory,
  peopleDocumentOf,
} from '../src/domain/directory.ts';
import type { OrgCopy } from '../src/domain/org-copy.ts';
import {
  createProfileService,
  type ProfileService,
  type ProfileServiceDependencies,
} from '../src/domain/profile-service.ts';
import {
  DEMO_ACCOUNT_EMAILS,
  fictionalUserId,
  ISSUE_AREAS,
  NEWBIE_MATCH,
  seedDemoProfiles,
} from '../src/seed/demo-profiles.ts';
import { demoOrgData, type FakeOrgData, startFakeAuth } from './support/fake-services.ts';
import { type ProfileUnderTest, serveProfile, startProfileUnderTest } from './support/profile-under-test.ts';

const CONCIERGE_ID = 'concierge-account-1';
const MEMBER_ID = 'member-account-1';
const CONTRIBUTOR: Caller = { userId: 'contributor-2', email: 'c2@demo.ca.gov', roles: ['contributor'] };
const FORMAT = 'Incorrect image format. Please select only .jpg or .jpeg.';
const TOO_LARGE = 'Image is too large. Please resize or select a smaller image.';
const EDIT_OWN = 'You can only edit your own profile';
const CLAIM_PENDING =
  'Your claim on this profile is waiting for a contributor to confirm it. You can change it once it is confirmed.';
/** The names a claimant's access token carries, which the gateway sends with the claim. */
const CLAIMANT_NAMES = { claimant_first_name: ' Una ', claimant_last_name: 'Claimant' };
const LOGIN = 'Access Restricted. Please login.';

const member = (): Caller => ({ userId: `user-${randomUUID()}`, email: 'someone@demo.ca.gov', roles: [] });

const cheapPicture = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#1d4e89' } })
    .jpeg()
    .toBuffer();
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2a7f62' } })
    .png()
    .toBuffer();

let service: ProfileUnderTest;
let logger: Logger;
let root: string;
let databaseUrl: string;
let prisma: PrismaClient;
let store: ObjectStore;
let orgData: FakeOrgData;
let fakeAuth: RecordingFake;
let directory: ReturnType<typeof grpcOrgDirectory>;
let orgCopy: OrgCopy;
let people: PeopleDirectory;
/** The directory's index: an in-memory copy of the Postgres index, as the service runs by default. */
let searchIndex: SearchIndex;
let rpc: ProfileUnderTest['rpc'];
/** What the composition root wires: the repository, the download counts and the profile rules behind gRPC. */
let serviceDependencies: ProfileServiceDependencies;
let profileService: ProfileService;

/** Every profile ListDirectory streams to `caller`. */
function listDirectory(caller?: Caller): Promise<ListedProfile[]> {
  const metadata = new Metadata();
  if (caller) setCallerMetadata(metadata, caller);
  const profiles: ListedProfile[] = [];
  return new Promise((resolve, reject) =>
    service.client
      .listDirectory({}, metadata)
      .on('data', (profile: ListedProfile) => profiles.push(profile))
      .on('error', reject)
      .on('end', () => resolve(profiles)),
  );
}

/** A picture stored the way create-profile step 1 stores it, before the profile exists. */
async function uploadedPicture(caller: Caller): Promise<string> {
  return (await rpc('uploadPicture', { image: await png(600, 800) }, caller)).url;
}

/** A new profile owned by `caller` with the required fields filled in. */
async function profileOf(caller: Caller, fields: Record<string, string> = {}): Promise<Profile> {
  return rpc(
    'createProfile',
    {
      fields: {
        profile_picture: await uploadedPicture(caller),
        first_name: 'Ada',
        last_name: `Tester ${randomUUID().slice(0, 6)}`,
        work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
        other_phone: '9165550100',
        ...fields,
      },
    },
    caller,
  );
}

/** An unclaimed profile as the seed or a contributor's records would have it. */
async function unclaimedProfile() {
  return prisma.profile.create({
    data: {
      firstName: 'Una',
      lastName: `Claimed ${randomUUID().slice(0, 6)}`,
      workEmail: `${randomUUID().slice(0, 8)}@example.org`,
      otherPhone: '(916) 555-0109',
      profilePicture: await uploadedPicture(CONTRIBUTOR),
    },
  });
}

/**
 * An unclaimed profile with every kind of detail a claimant could change: personal contacts, links, the filer
 * id, a bio, a current and a past job, and an issue.
 */
async function fullUnclaimedProfile() {
  const { profileId } = await unclaimedProfile();
  await rpc(
    'updateProfile',
    {
      profile_id: profileId,
      fields: {
        personal_email: 'una.home@example.net',
        mobile_phone: '2795550142',
        birthday: '1979-09-14',
        pronouns: 'she/her',
        linkedin_url: 'https://www.linkedin.com/in/una-demo',
        lobby_filer_id: '1300777',
      },
    },
    CONTRIBUTOR,
  );
  await rpc('setBio', { profile_id: profileId, user_bio: 'Kept by the concierge desk.' }, CONTRIBUTOR);
  await rpc('addJob', { profile_id: profileId, fields: currentJob(2, { division_id: 21 }) }, CONTRIBUTOR);
  const past = await rpc('addJob', { profile_id: profileId, fields: pastJob(3) }, CONTRIBUTOR);
  const water = (await rpc('addIssueArea', { issue_name: 'Water' }, CONTRIBUTOR)).issue_area?.issue_id;
  const userIssue = await rpc('addUserIssue', { profile_id: profileId, issue_id: water }, CONTRIBUTOR);
  return { profileId, pastJobId: past.job_id, userIssueId: userIssue.id };
}

/** A job form left empty (proto3 sends empty text and 0 as "not given"). */
const NO_JOB = {
  title: '',
  organization_id: 0,
  street_address: '',
  city: '',
  state: '',
  zip_code: '',
  start_date: '',
  current_job: false,
};

const currentJob = (organization_id: number, extra: Record<string, unknown> = {}) => ({
  title: 'Policy Analyst',
  organization_id,
  street_address: '1215 k street of the capitol',
  suite_number: 'suite 200',
  city: 'west sacramento',
  state: 'ca',
  zip_code: '95814',
  start_date: '2022-03-01',
  current_job: true,
  ...extra,
});

const pastJob = (organization_id: number, extra: Record<string, unknown> = {}) =>
  currentJob(organization_id, {
    title: 'Legislative Aide',
    start_date: '2016-01-01',
    end_date: '2019-06-30',
    current_job: false,
    ...extra,
  });

async function objectExists(url: string) {
  return (await store.get(mediaKeyOf(url) as string)) !== null;
}

beforeAll(async () => {
  orgData = demoOrgData();
  service = await startProfileUnderTest('profile-test', {
    org: orgData,
    readPool: true,
    async prepare(parts) {
      fakeAuth = await startFakeAuth({
        [DEMO_ACCOUNT_EMAILS.concierge]: CONCIERGE_ID,
        [DEMO_ACCOUNT_EMAILS.member]: MEMBER_ID,
      });
      const accounts = grpcAccountLookup(fakeAuth.address);
      await seedDemoProfiles({
        prisma: parts.prisma,
        store: parts.store,
        copyOrgNames: () => parts.orgCopy.copyAll(),
        addressOf: (id) => parts.orgDirectory.addressOf(id),
        accountIds: (emails) => accounts.userIdsByEmail(emails),
        logger: parts.logger,
        picture: cheapPicture,
      });
      accounts.close();
      await parts.people.rebuildIfOutOfStep();
    },
  });
  ({ logger, root, databaseUrl, prisma, store, orgCopy, people, searchIndex, rpc } = service);
  directory = service.orgDirectory;
  serviceDependencies = service.profileDependencies;
  profileService = service.services.profiles;
});

afterAll(async () => {
  await service?.close();
  await fakeAuth?.server.shutdown();
});

describe('data and seed', () => {
  it('has a migrated database that matches schema.prisma', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'profile',
      }),
    ).toEqual([]);
  });

  it('seeds once: demo accounts own their profiles, newbie’s match is unclaimed, a handful unclaimed', async () => {
    expect(
      await seedDemoProfiles({
        prisma,
        store,
        copyOrgNames: () => orgCopy.copyAll(),
        addressOf: (id) => directory.addressOf(id),
        accountIds: async () => new Map(),
        logger,
        picture: cheapPicture,
      }),
    ).toBe(0);
    const concierge = await prisma.profile.findUniqueOrThrow({ where: { userId: CONCIERGE_ID } });
    expect(concierge).toMatchObject({
      firstName: 'Camila',
      lastName: 'Reyes',
      workEmail: 'concierge@demo.ca.gov',
    });
    const memberProfile = await prisma.profile.findUniqueOrThrow({
      where: { userId: MEMBER_ID },
      include: { jobs: true },
    });
    expect(memberProfile).toMatchObject({ firstName: 'Marcus', lastName: 'Chen' });
    expect(memberProfile.jobs.some((job) => !job.currentJob && job.endDate)).toBe(true);
    const newbie = await prisma.profile.findMany({ where: { workEmail: NEWBIE_MATCH.workEmail } });
    expect(newbie).toHaveLength(1);
    expect(newbie[0]).toMatchObject({ firstName: 'Nora', lastName: 'Whitfield', userId: null });
    const unclaimed = await prisma.profile.count({ where: { userId: null } });
    expect(unclaimed).toBeGreaterThanOrEqual(2);
    // Everyone else belongs to a made-up account, the same on every fresh demo.
    const senator = await prisma.profile.findFirstOrThrow({
      where: { firstName: 'Elena', lastName: 'Marquez' },
    });
    expect(senator.userId).toBe(fictionalUserId(senator.workEmail));
    expect(senator.userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('seeds elected officials, lobbyists with filer ids, issue areas, pictures and jobs at the copied organizations', async () => {
    const rows = await prisma.profile.findMany({ include: { jobs: true, issues: true } });
    const titles = new Set(rows.flatMap((row) => row.jobs.filter((j) => j.currentJob).map((j) => j.title)));
    for (const title of [
      'Senator',
      'Assemblymember',
      'Governor',
      'Lt. Governor',
      'President pro Tempore',
      'Speaker',
    ])
      expect(titles.has(title) && (ELECTED_OFFICIAL_TITLES as readonly string[]).includes(title)).toBe(true);
    const lobbyists = rows.filter((row) => row.jobs.some((j) => j.currentJob && j.organizationId === 1));
    expect(lobbyists.length).toBeGreaterThanOrEqual(2);
    for (const lobbyist of lobbyists) expect(lobbyist.lobbyFilerId).toMatch(/^\d{7}$/);
    expect(await prisma.issueArea.count()).toBe(ISSUE_AREAS.length);
    expect(ISSUE_AREAS.length).toBeGreaterThanOrEqual(30);
    expect(rows.every((row) => row.issues.length >= 2)).toBe(true);
    const pictured = rows.filter((row) => row.profilePicture);
    expect(pictured.length).toBeGreaterThan(rows.length / 2);
    expect(await objectExists(pictured[0]?.profilePicture as string)).toBe(true);
    const known = new Set(orgData.exported.map((o) => o.organization_id));
    expect(rows.flatMap((row) => row.jobs).every((job) => known.has(job.organizationId))).toBe(true);
    // A job without a division sits at its organization's address, as the org service has it.
    const lobbyJob = lobbyists[0]?.jobs.find((j) => j.currentJob && j.divisionId === null);
    if (lobbyJob) expect(lobbyJob.streetAddress).toBe('1201 k street');
    // The read copy holds every exported organization and division.
    expect(await prisma.organization.count()).toBe(orgData.exported.length);
    expect(fakeAuth.callsTo('findUserIdsByEmail')).not.toEqual([]);
  });

  it('draws a real JPEG portrait with sharp', async () => {
    const { renderAvatar } = await import('../src/seed/avatar.ts');
    const meta = await sharp(await renderAvatar('Nora', 'Whitfield')).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 300, height: 400 });
  });
});

describe('reading profiles', () => {
  it('refuses every member call without a caller', async () => {
    expect(await refusal(listDirectory())).toEqual({ code: status.UNAUTHENTICATED, details: LOGIN });
    expect(await refusal(rpc('getProfile', { profile_id: 1 }))).toEqual({
      code: status.UNAUTHENTICATED,
      details: LOGIN,
    });
    expect((await refusal(rpc('createProfile', { fields: {} }))).code).toBe(status.UNAUTHENTICATED);
    expect((await refusal(rpc('listIssueAreas', {}))).code).toBe(status.UNAUTHENTICATED);
  });

  it('GetProfile answers every field, current jobs first then newest, issues by name', async () => {
    const owner = member();
    const created = await profileOf(owner, {
      first_name: 'Grace',
      pronouns: 'she/her',
      birthday: '1988-04-12',
      linkedin_url: 'www.linkedin.com/in/grace-demo',
    });
    const id = created.profile_id;
    await rpc('addJob', { profile_id: id, fields: pastJob(3) }, owner);
    await rpc(
      'addJob',
      { profile_id: id, fields: pastJob(4, { start_date: '2019-07-01', end_date: '2021-12-31' }) },
      owner,
    );
    await rpc('addJob', { profile_id: id, fields: currentJob(2, { division_id: 21 }) }, owner);
    const housing = (await rpc('addIssueArea', { issue_name: 'housing' }, owner)).issue_area?.issue_id;
    const water = (await rpc('addIssueArea', { issue_name: 'Water' }, owner)).issue_area?.issue_id;
    await rpc('addUserIssue', { profile_id: id, issue_id: water }, owner);
    await rpc('addUserIssue', { profile_id: id, issue_id: housing }, owner);
    const profile = await rpc('getProfile', { profile_id: id }, member());
    expect(profile).toMatchObject({
      profile_id: id,
      user_id: owner.userId,
      first_name: 'Grace',
      pronouns: 'She/Her',
      birthday: '1988-04-12',
      other_phone: '(916) 555-0100',
      linkedin_url: 'https://www.linkedin.com/in/grace-demo',
      claim_pending: false,
    });
    expect(profile.job_experiences.map((j) => [j.organization_id, j.current_job])).toEqual([
      [2, true],
      [4, false],
      [3, false],
    ]);
    expect(profile.job_experiences[0]).toMatchObject({
      organization: {
        organization_id: 2,
        organization_name: 'Department of Water Stewardship',
        group_type: 'Agencies',
      },
      division: { division_id: 21, division_name: 'Groundwater Management Division', organization_id: 2 },
    });
    expect(profile.job_experiences[0]?.end_date).toBeUndefined();
    expect(profile.user_issues.map((i) => i.issue_area?.issue_name)).toEqual(['Housing', 'Water']);
  });

  it('answers NOT_FOUND for an unknown profile', async () => {
    for (const profile_id of [0, -1, 999_999])
      expect(await refusal(rpc('getProfile', { profile_id }, member()))).toEqual({
        code: status.NOT_FOUND,
        details: 'Profile not found',
      });
  });

  it('ListDirectory streams every profile with only its current jobs, by last name, first name and id', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    await rpc('addJob', { profile_id, fields: currentJob(1) }, owner);
    await rpc('addJob', { profile_id, fields: pastJob(3) }, owner);
    const profiles = await listDirectory(member());
    expect(profiles.length).toBe(await prisma.profile.count());
    const key = (p: ListedProfile) => [p.last_name, p.first_name];
    const ordered = [...profiles].sort(
      (a, b) =>
        (key(a)[0] as string).localeCompare(key(b)[0] as string, 'en') ||
        (key(a)[1] as string).localeCompare(key(b)[1] as string, 'en') ||
        a.profile_id - b.profile_id,
    );
    expect(profiles.map((p) => p.profile_id)).toEqual(ordered.map((p) => p.profile_id));
    const listed = profiles.find((p) => p.profile_id === profile_id);
    expect(listed?.job_experiences.map((j) => j.organization_id)).toEqual([1]);
    expect(profiles.flatMap((p) => p.job_experiences).every((j) => j.current_job)).toBe(true);
  });

  it('UserCheck answers the caller’s own profile only', async () => {
    const owner = member();
    expect((await rpc('userCheck', {}, owner)).profiles).toEqual([]);
    const { profile_id } = await profileOf(owner);
    expect((await rpc('userCheck', {}, owner)).profiles).toEqual([
      { user_id: owner.userId, profile_id, claim_pending: false },
    ]);
  });

  it('FindUnclaimedMatches finds unclaimed profiles by all three (any case), never a claimed one nor one a claim waits on', async () => {
    const caller = member();
    const found = await rpc(
      'findUnclaimedMatches',
      { first_name: ' nora ', last_name: 'WHITFIELD', email: 'Newbie@Demo.ca.gov' },
      caller,
    );
    expect(found.profiles.map((p) => [p.first_name, p.last_name, p.work_email, p.user_id])).toEqual([
      ['Nora', 'Whitfield', 'newbie@demo.ca.gov', undefined],
    ]);
    for (const request of [
      { first_name: 'Nora', last_name: 'Whitfield', email: 'other@demo.ca.gov' },
      { first_name: 'Norah', last_name: 'Whitfield', email: 'newbie@demo.ca.gov' },
      { first_name: '', last_name: '', email: '' },
    ])
      expect((await rpc('findUnclaimedMatches', request, caller)).profiles).toEqual([]);
    // A claimed profile with the same details is never answered (it would expose someone's account).
    const claimed = member();
    await profileOf(claimed, {
      first_name: 'Nora',
      last_name: 'Whitfield',
      work_email: 'newbie@demo.ca.gov',
    });
    expect(
      (
        await rpc(
          'findUnclaimedMatches',
          { first_name: 'Nora', last_name: 'Whitfield', email: 'newbie@demo.ca.gov' },
          caller,
        )
      ).profiles.map((p) => p.user_id),
    ).toEqual([undefined]);
    const waiting = await unclaimedProfile();
    await rpc('claimProfile', { profile_id: waiting.profileId }, member());
    expect(
      (
        await rpc(
          'findUnclaimedMatches',
          { first_name: waiting.firstName, last_name: waiting.lastName, email: waiting.workEmail },
          caller,
        )
      ).profiles,
    ).toEqual([]);
  });
});

describe('creating a profile', () => {
  it('answers a create sent again with its Idempotency-Key with the same profile, making one (ADR 0046)', async () => {
    const owner = member();
    const request = {
      fields: {
        profile_picture: await uploadedPicture(owner),
        first_name: 'Noor',
        last_name: `Keyed ${randomUUID().slice(0, 6)}`,
        work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
        other_phone: '9165550100',
      },
    };
    const first = await rpc('createProfile', request, owner, 'profile-key-01');
    const again = await rpc('createProfile', request, owner, 'profile-key-01');
    expect(again).toEqual(first);
    expect((await rpc('userCheck', {}, owner)).profiles).toEqual([
      { user_id: owner.userId, profile_id: first.profile_id, claim_pending: false },
    ]);
  });

  it('makes the caller the owner, formats the fields and ignores a sent filer id', async () => {
    const owner = member();
    const picture = await uploadedPicture(owner);
    const created = await rpc(
      'createProfile',
      {
        fields: {
          profile_picture: picture,
          first_name: '  Imani ',
          last_name: 'Okafor',
          work_email: 'Imani.Okafor@Agency.Example.org',
          personal_email: '',
          other_phone: '916 555 0123',
          mobile_phone: '2795550188',
          pronouns: 'THEY/THEM',
          lobby_filer_id: '1234567',
          bluesky_url: 'https://bsky.app/profile/imani-demo.bsky.social',
        },
      },
      owner,
    );
    expect(created).toMatchObject({
      user_id: owner.userId,
      first_name: 'Imani',
      work_email: 'imani.okafor@agency.example.org',
      other_phone: '(916) 555-0123',
      mobile_phone: '(279) 555-0188',
      pronouns: 'They/Them',
      profile_picture: picture,
      bluesky_url: 'https://bsky.app/profile/imani-demo.bsky.social',
      job_experiences: [],
      user_issues: [],
    });
    expect(created.lobby_filer_id).toBeUndefined();
    expect(created.personal_email).toBeUndefined();
  });

  it('lists the missing required fields in the spec’s order', async () => {
    expect(
      await refusal(rpc('createProfile', { fields: { first_name: 'Ada', other_phone: ' ' } }, member())),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'Please provide entries for the following required fields: Profile Picture, Last Name, Work Email, Office Phone',
    });
  });

  it('refuses a second profile', async () => {
    const owner = member();
    await profileOf(owner);
    expect(await refusal(profileOf(owner))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'You already have a profile',
    });
  });

  it('refuses bad values: links, emails, dates, pronouns, a picture from elsewhere', async () => {
    const owner = member();
    const picture = await uploadedPicture(owner);
    const base = {
      profile_picture: picture,
      first_name: 'Ada',
      last_name: 'Lovelace',
      work_email: 'ada@agency.example.org',
      other_phone: '9165550100',
    };
    const cases: [Record<string, string>, string][] = [
      [
        { twitter_url: 'javascript:alert(1)' },
        'Twitter/X must be a web address starting with http:// or https://.',
      ],
      [{ work_email: 'not-an-email' }, 'Work Email must be a valid email address.'],
      [{ birthday: '1990-02-30' }, 'Birthday must be a date written YYYY-MM-DD.'],
      [{ pronouns: 'Xe/Xem' }, 'Pronouns must be one of They/Them, She/Her, He/Him.'],
      [
        { profile_picture: 'https://tracker.example.com/pixel.jpg' },
        'Profile Picture must be an image uploaded to Rotunda.',
      ],
    ];
    for (const [fields, details] of cases)
      expect(await refusal(rpc('createProfile', { fields: { ...base, ...fields } }, owner))).toEqual({
        code: status.INVALID_ARGUMENT,
        details,
      });
    expect((await rpc('userCheck', {}, owner)).profiles).toEqual([]);
  });

  it('announces the new profile in its transaction', async () => {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const owner = member();
    const created = await profileOf(owner, { first_name: 'Announced' });
    await expect
      .poll(() => heard.find((c) => c.kind === 'profile' && c.profile_id === created.profile_id))
      .toEqual({
        kind: 'profile',
        profile_id: created.profile_id,
        user_id: owner.userId,
        first_name: 'Announced',
        last_name: created.last_name,
        profile_picture: created.profile_picture,
        issue_area_ids: [],
      });
    await listener.close();
  });
});

describe('editing a profile', () => {
  it('lets the owner edit: absent fields kept, blank optional ones cleared', async () => {
    const owner = member();
    const created = await profileOf(owner, { mobile_phone: '2795550101', twitter_url: 'https://x.com/ada' });
    const updated = await rpc(
      'updateProfile',
      { profile_id: created.profile_id, fields: { first_name: 'Adeline', twitter_url: '' } },
      owner,
    );
    expect(updated).toMatchObject({
      first_name: 'Adeline',
      last_name: created.last_name,
      mobile_phone: '(279) 555-0101',
    });
    expect(updated.twitter_url).toBeUndefined();
  });

  it('refuses blanking a required field', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect(
      await refusal(rpc('updateProfile', { profile_id, fields: { work_email: '', other_phone: '' } }, owner)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Work Email, Office Phone',
    });
  });

  it('refuses another member, and a contributor on someone’s profile', async () => {
    const { profile_id } = await profileOf(member());
    for (const caller of [member(), CONTRIBUTOR])
      expect(
        await refusal(rpc('updateProfile', { profile_id, fields: { first_name: 'Hijacked' } }, caller)),
      ).toEqual({
        code: status.PERMISSION_DENIED,
        details: EDIT_OWN,
      });
  });

  it('lets a contributor edit an unclaimed profile, filer id included; a member may not', async () => {
    const { profileId } = await unclaimedProfile();
    expect(
      await refusal(rpc('updateProfile', { profile_id: profileId, fields: { first_name: 'X' } }, member())),
    ).toEqual({ code: status.PERMISSION_DENIED, details: EDIT_OWN });
    const updated = await rpc(
      'updateProfile',
      { profile_id: profileId, fields: { first_name: 'Concierged', lobby_filer_id: ' 1300099 ' } },
      CONTRIBUTOR,
    );
    expect(updated).toMatchObject({ first_name: 'Concierged', lobby_filer_id: '1300099' });
    expect(updated.user_id).toBeUndefined();
  });

  it('changes the filer id only for a contributor; the unchanged value sent back is fine', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect(
      await refusal(rpc('updateProfile', { profile_id, fields: { lobby_filer_id: '1300100' } }, owner)),
    ).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Only a Concierge can set the lobbyist filer id',
    });
    await rpc('updateProfile', { profile_id, fields: { lobby_filer_id: '', first_name: 'Same' } }, owner);
    const contributorOwner: Caller = { ...member(), roles: ['contributor'] };
    const own = await profileOf(contributorOwner);
    const set = await rpc(
      'updateProfile',
      { profile_id: own.profile_id, fields: { lobby_filer_id: '1300101' } },
      contributorOwner,
    );
    expect(set.lobby_filer_id).toBe('1300101');
  });

  it('removes the replaced picture’s object when the form names a new one', async () => {
    const owner = member();
    const created = await profileOf(owner);
    const next = await uploadedPicture(owner);
    const updated = await rpc(
      'updateProfile',
      { profile_id: created.profile_id, fields: { profile_picture: next } },
      owner,
    );
    expect(updated.profile_picture).toBe(next);
    expect(await objectExists(next)).toBe(true);
    expect(await objectExists(created.profile_picture as string)).toBe(false);
  });
});

describe('claiming a profile', () => {
  it('confirms at once a claim whose confirmed account email is the profile’s work email, any case', async () => {
    const profile = await unclaimedProfile();
    const caller: Caller = {
      userId: `user-${randomUUID()}`,
      email: profile.workEmail.toUpperCase(),
      roles: [],
    };
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const claimed = await rpc('claimProfile', { profile_id: profile.profileId, ...CLAIMANT_NAMES }, caller);
    expect(claimed).toMatchObject({
      profile_id: profile.profileId,
      user_id: caller.userId,
      claim_pending: false,
      claimed_by_caller: false,
    });
    expect(claimed.claim_id).toBeUndefined();
    expect(await prisma.profileClaim.findMany({ where: { profileId: profile.profileId } })).toMatchObject([
      {
        userId: caller.userId,
        status: 'confirmed',
        decidedAt: expect.any(Date),
        claimantFirstName: 'Una',
        claimantLastName: 'Claimant',
        claimantEmail: profile.workEmail,
      },
    ]);
    await expect
      .poll(() => heard.find((c) => c.kind === 'profile' && c.profile_id === profile.profileId))
      .toMatchObject({ user_id: caller.userId });
    await listener.close();
    expect((await rpc('userCheck', {}, caller)).profiles).toEqual([
      { user_id: caller.userId, profile_id: profile.profileId, claim_pending: false },
    ]);
    expect((await rpc('getAuthorByUser', { user_id: caller.userId })).profile_id).toBe(profile.profileId);
    // The owner's now: they edit it, and a contributor no longer may.
    await rpc('setBio', { profile_id: profile.profileId, user_bio: 'Mine, confirmed.' }, caller);
    expect(
      await refusal(
        rpc('updateProfile', { profile_id: profile.profileId, fields: { first_name: 'X' } }, CONTRIBUTOR),
      ),
    ).toEqual({ code: status.PERMISSION_DENIED, details: EDIT_OWN });
  });

  it('leaves any other claim pending: the profile stays unowned, and only its claimant is told it is theirs', async () => {
    const profile = await unclaimedProfile();
    const claimant = member();
    const claimed = await rpc('claimProfile', { profile_id: profile.profileId, ...CLAIMANT_NAMES }, claimant);
    expect(claimed).toMatchObject({
      profile_id: profile.profileId,
      claim_pending: true,
      claimed_by_caller: true,
    });
    expect(claimed.user_id).toBeUndefined();
    expect(claimed.claimant).toBeUndefined();
    expect((await prisma.profile.findUniqueOrThrow({ where: { profileId: profile.profileId } })).userId).toBe(
      null,
    );
    expect(await prisma.profileClaim.findMany({ where: { profileId: profile.profileId } })).toMatchObject([
      { claimId: claimed.claim_id, userId: claimant.userId, status: 'pending', decidedAt: null },
    ]);
    // The create flow sends the claimant to the profile their claim waits on.
    expect((await rpc('userCheck', {}, claimant)).profiles).toEqual([
      { user_id: claimant.userId, profile_id: profile.profileId, claim_pending: true },
    ]);
    const seenByMember = await rpc('getProfile', { profile_id: profile.profileId }, member());
    expect(seenByMember).toMatchObject({
      claim_pending: true,
      claim_id: claimed.claim_id,
      claimed_by_caller: false,
    });
    expect(seenByMember.claimant).toBeUndefined();
    const seenByContributor = await rpc('getProfile', { profile_id: profile.profileId }, CONTRIBUTOR);
    expect(seenByContributor.claimant).toEqual({
      user_id: claimant.userId,
      first_name: 'Una',
      last_name: 'Claimant',
      email: claimant.email,
      claimed_at: expect.any(Date),
    });
  });

  it('refuses every change by the claimant and every post as the profile while the claim waits', async () => {
    const target = await fullUnclaimedProfile();
    const before = await rpc('getProfile', { profile_id: target.profileId }, CONTRIBUTOR);
    const claimant = member();
    await rpc('claimProfile', { profile_id: target.profileId, ...CLAIMANT_NAMES }, claimant);
    const profile_id = target.profileId;
    const housing = (await rpc('addIssueArea', { issue_name: 'Housing' }, claimant)).issue_area?.issue_id;
    const image = await png(20, 20);
    const attempts: [string, () => Promise<unknown>][] = [
      [
        'updateProfile',
        () =>
          rpc(
            'updateProfile',
            {
              profile_id,
              fields: {
                first_name: 'Senator',
                personal_email: 'me@example.net',
                linkedin_url: 'https://x.example',
              },
            },
            claimant,
          ),
      ],
      ['setBio', () => rpc('setBio', { profile_id, user_bio: 'Now it is mine.' }, claimant)],
      ['uploadPicture', () => rpc('uploadPicture', { image, profile_id }, claimant)],
      ['addJob', () => rpc('addJob', { profile_id, fields: currentJob(1) }, claimant)],
      [
        'updateJob',
        () =>
          rpc('updateJob', { job_id: target.pastJobId, fields: pastJob(3, { title: 'Changed' }) }, claimant),
      ],
      ['deleteJob', () => rpc('deleteJob', { job_id: target.pastJobId }, claimant)],
      ['addUserIssue', () => rpc('addUserIssue', { profile_id, issue_id: housing }, claimant)],
      ['deleteUserIssue', () => rpc('deleteUserIssue', { id: target.userIssueId }, claimant)],
    ];
    for (const [name, attempt] of attempts)
      expect(await refusal(attempt()), name).toEqual({
        code: status.PERMISSION_DENIED,
        details: CLAIM_PENDING,
      });
    // Nobody posts as it: the post service asks for the member's author and gets none.
    expect(await refusal(rpc('getAuthorByUser', { user_id: claimant.userId }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
    expect((await rpc('getAuthors', { profile_ids: [profile_id] })).authors[0]?.user_id).toBe('');
    const owned = await rpc('listAuthors', { after_profile_id: profile_id - 1, limit: 1 });
    expect(owned.authors.map((a) => a.profile_id)).not.toContain(profile_id);
    // Nor a profile of their own while the claim waits.
    expect(await refusal(profileOf(claimant))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'Your claim on a profile is waiting for a contributor to confirm it.',
    });
    const after = await rpc('getProfile', { profile_id }, CONTRIBUTOR);
    const { claim_pending: _p, claim_id: _c, claimant: _who, ...unchanged } = after;
    const { claim_pending: _bp, claim_id: _bc, claimant: _bw, ...original } = before;
    for (const field of Object.keys(original) as (keyof typeof original)[])
      expect(unchanged[field], field).toEqual(original[field]);
  });

  it('refuses a member who owns a profile or has a claim waiting, a profile owned or claimed, an unknown one', async () => {
    const owner = member();
    await profileOf(owner);
    const { profileId } = await unclaimedProfile();
    expect(await refusal(rpc('claimProfile', { profile_id: profileId }, owner))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'Users can only claim one profile',
    });
    const claimant = member();
    await rpc('claimProfile', { profile_id: profileId }, claimant);
    expect(await refusal(rpc('claimProfile', { profile_id: profileId }, member()))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'This profile has already been claimed',
    });
    const other = await unclaimedProfile();
    expect(await refusal(rpc('claimProfile', { profile_id: other.profileId }, claimant))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'Users can only claim one profile',
    });
    const { profile_id: owned } = await profileOf(member());
    expect(await refusal(rpc('claimProfile', { profile_id: owned }, member()))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'This profile has already been claimed',
    });
    expect(await refusal(rpc('claimProfile', { profile_id: 999_999 }, member()))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
    expect(await prisma.profileClaim.count({ where: { profileId: other.profileId } })).toBe(0);
  });

  it('records one claim of a profile claimed by three at once, and one claim of a member claiming two', async () => {
    const { profileId } = await unclaimedProfile();
    const answers = await Promise.allSettled([
      rpc('claimProfile', { profile_id: profileId }, member()),
      rpc('claimProfile', { profile_id: profileId }, member()),
      rpc('claimProfile', { profile_id: profileId }, member()),
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await prisma.profileClaim.count({ where: { profileId } })).toBe(1);
    const caller = member();
    const [a, b] = await Promise.all([unclaimedProfile(), unclaimedProfile()]);
    const both = await Promise.allSettled([
      rpc('claimProfile', { profile_id: a.profileId }, caller),
      rpc('claimProfile', { profile_id: b.profileId }, caller),
    ]);
    expect(both.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    expect(await prisma.profileClaim.count({ where: { userId: caller.userId } })).toBe(1);
  });

  it('lets contributors keep editing a profile whose claim waits, except the contributor who claims it', async () => {
    const { profileId } = await unclaimedProfile();
    const claimingContributor: Caller = { ...member(), roles: ['contributor'] };
    await rpc('claimProfile', { profile_id: profileId }, claimingContributor);
    expect(
      await refusal(rpc('setBio', { profile_id: profileId, user_bio: 'Mine.' }, claimingContributor)),
    ).toEqual({ code: status.PERMISSION_DENIED, details: CLAIM_PENDING });
    const edited = await rpc('setBio', { profile_id: profileId, user_bio: 'Kept by the desk.' }, CONTRIBUTOR);
    expect(edited).toMatchObject({ user_bio: 'Kept by the desk.', claim_pending: true });
  });
});

describe('deciding claims', () => {
  const CONTRIBUTORS_ONLY = 'Contributors only';

  /** An unclaimed profile claimed by a new member: the profile, the member and the pending claim's id. */
  async function claimed() {
    const profile = await unclaimedProfile();
    const claimant = member();
    const answer = await rpc('claimProfile', { profile_id: profile.profileId, ...CLAIMANT_NAMES }, claimant);
    return { profile, claimant, claimId: answer.claim_id as number };
  }

  it('lists the pending claims oldest first, with the claimed profile’s names and who claims', async () => {
    const first = await claimed();
    const second = await claimed();
    const { claims } = await rpc('listPendingClaims', {}, CONTRIBUTOR);
    const times = claims.map((claim) => claim.created_at?.getTime() ?? 0);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const ours = claims.filter((claim) => [first.claimId, second.claimId].includes(claim.claim_id));
    expect(ours).toEqual(
      [first, second].map(({ profile, claimant, claimId }) => ({
        claim_id: claimId,
        profile_id: profile.profileId,
        user_id: claimant.userId,
        first_name: profile.firstName,
        last_name: profile.lastName,
        work_email: profile.workEmail,
        created_at: expect.any(Date),
        claimant: {
          user_id: claimant.userId,
          first_name: 'Una',
          last_name: 'Claimant',
          email: claimant.email,
          claimed_at: expect.any(Date),
        },
      })),
    );
    expect(await rpc('getProfile', { profile_id: first.profile.profileId }, member())).toMatchObject({
      claim_pending: true,
      claim_id: first.claimId,
    });
  });

  it('refuses members, visitors, and a contributor deciding their own claim', async () => {
    const { claimId } = await claimed();
    expect(await refusal(rpc('listPendingClaims', {}, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: CONTRIBUTORS_ONLY,
    });
    expect(await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: CONTRIBUTORS_ONLY,
    });
    expect((await refusal(rpc('listPendingClaims', {}))).code).toBe(status.UNAUTHENTICATED);
    expect((await prisma.profileClaim.findUniqueOrThrow({ where: { claimId } })).status).toBe('pending');
    const { profileId } = await unclaimedProfile();
    const claimingContributor: Caller = { ...member(), roles: ['contributor'] };
    const own = await rpc('claimProfile', { profile_id: profileId }, claimingContributor);
    expect(
      await refusal(rpc('decideClaim', { claim_id: own.claim_id, decision: 'confirm' }, claimingContributor)),
    ).toEqual({ code: status.PERMISSION_DENIED, details: 'A contributor cannot decide their own claim' });
    expect((await prisma.profile.findUniqueOrThrow({ where: { profileId } })).userId).toBeNull();
  });

  it('confirms a claim: the claimant owns the profile now (announced), changes it and posts as it', async () => {
    const { profile, claimant, claimId } = await claimed();
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const before = Date.now();
    const answer = await rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR);
    expect(answer).toEqual({
      claim_id: claimId,
      profile_id: profile.profileId,
      status: 'confirmed',
      decided_at: expect.any(Date),
    });
    expect(answer.decided_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await prisma.profileClaim.findUniqueOrThrow({ where: { claimId } })).toMatchObject({
      status: 'confirmed',
      decidedAt: answer.decided_at,
    });
    await expect
      .poll(() => heard.find((c) => c.kind === 'profile' && c.profile_id === profile.profileId))
      .toMatchObject({ user_id: claimant.userId });
    await listener.close();
    const after = await rpc('getProfile', { profile_id: profile.profileId }, claimant);
    expect(after).toMatchObject({ user_id: claimant.userId, claim_pending: false, claimed_by_caller: false });
    expect(after.claim_id).toBeUndefined();
    expect((await rpc('userCheck', {}, claimant)).profiles).toEqual([
      { user_id: claimant.userId, profile_id: profile.profileId, claim_pending: false },
    ]);
    expect(
      (await rpc('setBio', { profile_id: profile.profileId, user_bio: 'Mine now.' }, claimant)).user_bio,
    ).toBe('Mine now.');
    expect((await rpc('getAuthorByUser', { user_id: claimant.userId })).profile_id).toBe(profile.profileId);
    expect((await rpc('listPendingClaims', {}, CONTRIBUTOR)).claims.map((c) => c.claim_id)).not.toContain(
      claimId,
    );
  });

  it('rejects a claim: the profile is exactly as it was, unclaimed, found and claimable again', async () => {
    const target = await fullUnclaimedProfile();
    const profile_id = target.profileId;
    const rows = async () => ({
      profile: await prisma.profile.findUniqueOrThrow({ where: { profileId: profile_id } }),
      jobs: await prisma.jobExperience.findMany({
        where: { profileId: profile_id },
        orderBy: { jobId: 'asc' },
      }),
      issues: await prisma.userIssue.findMany({ where: { profileId: profile_id }, orderBy: { id: 'asc' } }),
    });
    const stored = await rows();
    const before = await rpc('getProfile', { profile_id }, CONTRIBUTOR);
    const claimant = member();
    const { claim_id } = await rpc('claimProfile', { profile_id, ...CLAIMANT_NAMES }, claimant);
    await refusal(rpc('updateProfile', { profile_id, fields: { first_name: 'Senator' } }, claimant));
    await refusal(rpc('deleteJob', { job_id: target.pastJobId }, claimant));
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const answer = await rpc('decideClaim', { claim_id, decision: 'reject' }, CONTRIBUTOR);
    expect(answer).toMatchObject({ claim_id, profile_id, status: 'rejected' });
    expect(
      await prisma.profileClaim.findUniqueOrThrow({ where: { claimId: claim_id as number } }),
    ).toMatchObject({ status: 'rejected', decidedAt: answer.decided_at });
    const after = await rpc('getProfile', { profile_id }, CONTRIBUTOR);
    for (const field of Object.keys(before) as (keyof typeof before)[])
      expect(after[field], field).toEqual(before[field]);
    expect(after.user_id).toBeUndefined();
    // Not a single write reached the profile, its jobs or its issues (their update times included).
    expect(await rows()).toEqual(stored);
    await listener.close();
    expect(heard.filter((c) => c.kind === 'profile' && c.profile_id === profile_id)).toEqual([]);
    expect((await rpc('userCheck', {}, claimant)).profiles).toEqual([]);
    const matches = await rpc(
      'findUnclaimedMatches',
      { first_name: before.first_name, last_name: before.last_name, email: before.work_email },
      member(),
    );
    expect(matches.profiles.map((p) => p.profile_id)).toEqual([profile_id]);
    // Unclaimed again: another member may claim it, making a new pending claim.
    const next = member();
    const reclaimed = await rpc('claimProfile', { profile_id }, next);
    expect(reclaimed).toMatchObject({ claim_pending: true, claimed_by_caller: true });
    expect(reclaimed.claim_id).not.toBe(claim_id);
  });

  it('refuses deciding twice, an unknown claim and a decision that is neither confirm nor reject', async () => {
    const { claimId } = await claimed();
    await rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR);
    for (const decision of ['confirm', 'reject'])
      expect(await refusal(rpc('decideClaim', { claim_id: claimId, decision }, CONTRIBUTOR))).toEqual({
        code: status.FAILED_PRECONDITION,
        details: 'This claim has already been decided',
      });
    for (const claim_id of [0, -1, 999_999])
      expect(await refusal(rpc('decideClaim', { claim_id, decision: 'reject' }, CONTRIBUTOR))).toEqual({
        code: status.NOT_FOUND,
        details: 'Claim not found',
      });
    const other = await claimed();
    for (const decision of ['', 'approve', 'Confirm', 'toString'])
      expect(await refusal(rpc('decideClaim', { claim_id: other.claimId, decision }, CONTRIBUTOR))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'decision must be confirm or reject',
      });
    expect((await prisma.profileClaim.findUniqueOrThrow({ where: { claimId: other.claimId } })).status).toBe(
      'pending',
    );
  });

  it('lets one of two decisions made at once through', async () => {
    const { profile, claimant, claimId } = await claimed();
    const answers = await Promise.allSettled([
      rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR),
      rpc('decideClaim', { claim_id: claimId, decision: 'reject' }, CONTRIBUTOR),
    ]);
    const decided = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value.status] : []));
    expect(decided).toHaveLength(1);
    const owner = (await prisma.profile.findUniqueOrThrow({ where: { profileId: profile.profileId } }))
      .userId;
    expect(owner).toBe(decided[0] === 'confirmed' ? claimant.userId : null);
  });
});

describe('bio', () => {
  it('sets the owner’s bio; refuses a blank one and another member', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect((await rpc('setBio', { profile_id, user_bio: '  Policy person.  ' }, owner)).user_bio).toBe(
      'Policy person.',
    );
    expect(await refusal(rpc('setBio', { profile_id, user_bio: '   ' }, owner))).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'Please provide a brief discription about who you are and your expertise to finalize your profile.',
    });
    expect(await refusal(rpc('setBio', { profile_id, user_bio: 'Mine now' }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    expect(await refusal(rpc('setBio', { profile_id: 999_999, user_bio: 'x' }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
  });
});

describe('pictures', () => {
  it('stores an upload without a profile under a new key, resized', async () => {
    const url = await uploadedPicture(member());
    expect(url).toMatch(/^\/media\/pictures\/\d{4}\/\d\d\/[0-9a-f-]{36}\.png$/);
    const stored = await store.get(mediaKeyOf(url) as string);
    const chunks: Buffer[] = [];
    for await (const chunk of stored?.stream ?? []) chunks.push(chunk as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ width: 450, height: 600 });
  });

  it('sets the owner’s picture and removes the replaced one; a contributor sets an unclaimed one', async () => {
    const owner = member();
    const created = await profileOf(owner);
    const { url } = await rpc(
      'uploadPicture',
      { image: await png(100, 100), profile_id: created.profile_id },
      owner,
    );
    expect((await rpc('getProfile', { profile_id: created.profile_id }, owner)).profile_picture).toBe(url);
    expect(await objectExists(created.profile_picture as string)).toBe(false);
    const { profileId } = await unclaimedProfile();
    const set = await rpc('uploadPicture', { image: await png(50, 50), profile_id: profileId }, CONTRIBUTOR);
    expect((await prisma.profile.findUniqueOrThrow({ where: { profileId } })).profilePicture).toBe(set.url);
  });

  it('refuses another member’s profile and an unknown profile', async () => {
    const { profile_id } = await profileOf(member());
    expect(await refusal(rpc('uploadPicture', { image: await png(10, 10), profile_id }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    expect(
      await refusal(rpc('uploadPicture', { image: await png(10, 10), profile_id: 999_999 }, member())),
    ).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
  });

  it('refuses the wrong type by content, an oversize or empty upload', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    expect(await refusal(rpc('uploadPicture', { image: gif }, member()))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: FORMAT,
    });
    const oversize = Buffer.concat([await png(10, 10), Buffer.alloc(11 * 1024 * 1024)]);
    expect(await refusal(rpc('uploadPicture', { image: oversize }, member()))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: TOO_LARGE,
    });
    expect(await refusal(rpc('uploadPicture', { image: Buffer.alloc(0) }, member()))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please select an image to upload.',
    });
    expect((await refusal(rpc('uploadPicture', { image: gif }))).code).toBe(status.UNAUTHENTICATED);
  });
});

describe('keyed creates whose process died between their commit and keeping their answer (ADR 0057)', () => {
  it('answers the repeat, past the lease, with the profile and the job made, making neither twice', async () => {
    // A replica whose process dies right after each create's commit, before its answer is kept.
    const dying = await serveProfile(
      { ...service.services, keys: idempotencyKeys(diesBeforeAnswer(prisma), 'profile') },
      logger,
    );
    const owner = member();
    try {
      const request = {
        fields: {
          profile_picture: await uploadedPicture(owner),
          first_name: 'Noor',
          last_name: `Died ${randomUUID().slice(0, 6)}`,
          work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
          other_phone: '9165550100',
        },
      };
      expect(await refusal(dying.rpc('createProfile', request, owner, 'died-profile-1'))).toMatchObject({
        code: status.INTERNAL,
      });
      const [{ profile_id } = { profile_id: 0 }] = (await rpc('userCheck', {}, owner)).profiles;
      const job = { profile_id, fields: currentJob(1, { division_id: 11 }) };
      expect(await refusal(dying.rpc('addJob', job, owner, 'died-job-0001'))).toMatchObject({
        code: status.INTERNAL,
      });
      // The repeats come after the dead calls' lease: before, such a key was taken over and created again.
      await prisma.$executeRawUnsafe(
        `UPDATE profile.idempotency_keys SET created_at = now() - ${IDEMPOTENCY_KEY_LEASE_MS + 1000} * interval '1 millisecond' WHERE key IN ('died-profile-1', 'died-job-0001')`,
      );
      expect(await rpc('createProfile', request, owner, 'died-profile-1')).toMatchObject({
        profile_id,
        last_name: request.fields.last_name,
      });
      const [made] = (await rpc('getProfile', { profile_id }, owner)).job_experiences;
      expect(await rpc('addJob', job, owner, 'died-job-0001')).toEqual(made);
      expect((await rpc('userCheck', {}, owner)).profiles).toHaveLength(1);
      expect((await rpc('getProfile', { profile_id }, owner)).job_experiences).toHaveLength(1);
    } finally {
      await dying.close();
    }
  });
});

describe('jobs', () => {
  it('adds one job for an Idempotency-Key sent three times, each repeat answered the first job (ADR 0046)', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const request = { profile_id, fields: currentJob(1, { division_id: 11 }) };
    const first = await rpc('addJob', request, owner, 'job-key-0001');
    expect(await rpc('addJob', request, owner, 'job-key-0001')).toEqual(first);
    expect(await rpc('addJob', request, owner, 'job-key-0001')).toEqual(first);
    expect((await rpc('getProfile', { profile_id }, owner)).job_experiences).toHaveLength(1);
    expect(await refusal(rpc('addJob', { profile_id, fields: pastJob(3) }, owner, 'job-key-0001'))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: IDEMPOTENCY_MESSAGES.reused,
    });
    await rpc('addJob', request, owner, 'job-key-0002');
    expect((await rpc('getProfile', { profile_id }, owner)).job_experiences).toHaveLength(2);
  });

  it('adds a job formatted, a current one without an end date, with names from the read copy', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const job = await rpc(
      'addJob',
      { profile_id, fields: currentJob(1, { division_id: 11, end_date: '2023-01-01' }) },
      owner,
    );
    expect(job).toMatchObject({
      profile_id,
      title: 'Policy Analyst',
      street_address: '1215 K Street of the Capitol',
      suite_number: 'Suite 200',
      city: 'West Sacramento',
      state: 'CA',
      current_job: true,
      organization: {
        organization_id: 1,
        organization_name: 'Capitol Bridge Advocates',
        group_type: 'Lobbyists',
      },
      division: { division_id: 11, division_name: 'Government Affairs', division_phone: '(916) 555-0142' },
    });
    expect(job.end_date).toBeUndefined();
  });

  it('lists the missing required fields, then asks for an end date or the current box', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect(
      await refusal(
        rpc('addJob', { profile_id, fields: { ...NO_JOB, title: 'Aide', city: 'Davis' } }, owner),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'Please provide entries for the following required fields: Company, Address, State, Zip Code, Start Date',
    });
    expect(
      await refusal(rpc('addJob', { profile_id, fields: currentJob(1, { current_job: false }) }, owner)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please give an end date or mark the position as current',
    });
    expect(
      await refusal(rpc('addJob', { profile_id, fields: pastJob(1, { end_date: '2010-01-01' }) }, owner)),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: 'The end date cannot be before the start date.' });
  });

  it('refuses an unknown organization or division, and a division of another organization', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect(await refusal(rpc('addJob', { profile_id, fields: currentJob(777) }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Organization not found',
    });
    expect(
      await refusal(rpc('addJob', { profile_id, fields: currentJob(2, { division_id: 999 }) }, owner)),
    ).toEqual({
      code: status.NOT_FOUND,
      details: 'Division not found',
    });
    expect(
      await refusal(rpc('addJob', { profile_id, fields: currentJob(2, { division_id: 11 }) }, owner)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'The division belongs to another organization.',
    });
  });

  it('looks up an organization added after the copy at the org service, and copies it', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    expect(await prisma.organization.findUnique({ where: { organizationId: 50 } })).toBeNull();
    const job = await rpc('addJob', { profile_id, fields: currentJob(50, { division_id: 51 }) }, owner);
    expect(job.organization?.organization_name).toBe('Harbor Lights Coalition');
    expect(job.division?.division_name).toBe('Harbor Office');
    expect(await prisma.organization.findUnique({ where: { organizationId: 50 } })).not.toBeNull();
  });

  it('refuses another member; lets a contributor add to an unclaimed profile', async () => {
    const { profile_id } = await profileOf(member());
    expect(await refusal(rpc('addJob', { profile_id, fields: currentJob(1) }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    expect(await refusal(rpc('addJob', { profile_id: 999_999, fields: currentJob(1) }, member()))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
    const { profileId } = await unclaimedProfile();
    expect(
      (await rpc('addJob', { profile_id: profileId, fields: currentJob(1) }, CONTRIBUTOR)).profile_id,
    ).toBe(profileId);
  });

  it('updates a job under the same rules; refuses another member and an unknown job', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const job = await rpc('addJob', { profile_id, fields: pastJob(3) }, owner);
    const updated = await rpc(
      'updateJob',
      { job_id: job.job_id, fields: pastJob(3, { title: 'Senior Aide', end_date: '2020-01-31' }) },
      owner,
    );
    expect(updated).toMatchObject({
      job_id: job.job_id,
      title: 'Senior Aide',
      end_date: '2020-01-31',
      current_job: false,
    });
    const current = await rpc(
      'updateJob',
      { job_id: job.job_id, fields: pastJob(3, { current_job: true }) },
      owner,
    );
    expect(current.current_job).toBe(true);
    expect(current.end_date).toBeUndefined();
    expect(
      await refusal(rpc('updateJob', { job_id: job.job_id, fields: { ...NO_JOB, title: 'X' } }, owner)),
    ).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await refusal(rpc('updateJob', { job_id: job.job_id, fields: pastJob(3) }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    expect(await refusal(rpc('updateJob', { job_id: 999_999, fields: pastJob(3) }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Job not found',
    });
  });

  it('deletes a past job when there are others; refuses a current job, the only job, another member', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const past = await rpc('addJob', { profile_id, fields: pastJob(3) }, owner);
    expect(await refusal(rpc('deleteJob', { job_id: past.job_id }, owner))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'The only position on a profile cannot be deleted',
    });
    const current = await rpc('addJob', { profile_id, fields: currentJob(1) }, owner);
    expect(await refusal(rpc('deleteJob', { job_id: current.job_id }, owner))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'A current position cannot be deleted',
    });
    expect(await refusal(rpc('deleteJob', { job_id: past.job_id }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    await rpc('deleteJob', { job_id: past.job_id }, owner);
    expect((await rpc('getProfile', { profile_id }, owner)).job_experiences.map((j) => j.job_id)).toEqual([
      current.job_id,
    ]);
    expect(await refusal(rpc('deleteJob', { job_id: past.job_id }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Job not found',
    });
  });

  it('never leaves a profile without a position when two deletes race', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const a = await rpc('addJob', { profile_id, fields: pastJob(3) }, owner);
    const b = await rpc('addJob', { profile_id, fields: pastJob(4) }, owner);
    const answers = await Promise.allSettled([
      rpc('deleteJob', { job_id: a.job_id }, owner),
      rpc('deleteJob', { job_id: b.job_id }, owner),
    ]);
    expect(answers.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    expect(await prisma.jobExperience.count({ where: { profileId: profile_id } })).toBe(1);
  });
});

describe('colleagues', () => {
  it('answers people with a current job there once each, shuffled, the caller included, past staff left out', async () => {
    const caller = member();
    const own = await profileOf(caller);
    await rpc('addJob', { profile_id: own.profile_id, fields: currentJob(9) }, caller);
    const colleagues: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const owner = member();
      const { profile_id } = await profileOf(owner);
      await rpc('addJob', { profile_id, fields: currentJob(9, { title: `Analyst ${i}` }) }, owner);
      colleagues.push(profile_id);
    }
    // Two current jobs at one organization: still one entry.
    const twice = member();
    const twiceProfile = await profileOf(twice);
    await rpc(
      'addJob',
      { profile_id: twiceProfile.profile_id, fields: currentJob(9, { start_date: '2020-01-01' }) },
      twice,
    );
    await rpc(
      'addJob',
      { profile_id: twiceProfile.profile_id, fields: currentJob(9, { title: 'Lead' }) },
      twice,
    );
    colleagues.push(twiceProfile.profile_id);
    const former = member();
    const formerProfile = await profileOf(former);
    await rpc('addJob', { profile_id: formerProfile.profile_id, fields: pastJob(9) }, former);
    const seeded = await prisma.jobExperience.findMany({ where: { organizationId: 9, currentJob: true } });
    const expected = new Set([...colleagues, ...seeded.map((j) => j.profileId)]);
    expect(expected.has(own.profile_id)).toBe(true);

    const orders = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      const { colleagues: answer } = await rpc('listOrganizationColleagues', { organization_id: 9 }, caller);
      expect(new Set(answer.map((c) => c.profile_id))).toEqual(expected);
      expect(answer).toHaveLength(expected.size);
      orders.add(answer.map((c) => c.profile_id).join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
    const { colleagues: answer } = await rpc('listOrganizationColleagues', { organization_id: 9 }, caller);
    expect(answer.find((c) => c.profile_id === twiceProfile.profile_id)).toMatchObject({
      title: 'Lead',
      city: 'West Sacramento',
      state: 'CA',
      profile_info: { profile_id: twiceProfile.profile_id, first_name: 'Ada', other_phone: '(916) 555-0100' },
    });
  });

  it('answers a division’s colleagues with the division filled in from the copy', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    await rpc('addJob', { profile_id, fields: currentJob(2, { division_id: 22 }) }, owner);
    const { colleagues } = await rpc('listDivisionColleagues', { division_id: 22 }, member());
    const entry = colleagues.find((c) => c.profile_id === profile_id);
    expect(entry?.division).toMatchObject({
      division_id: 22,
      division_name: 'Dam Safety Division',
      active_division: true,
    });
    // The screens leave out whom they need to (the profile on screen, the member's own): the answer has everyone.
    expect(
      (await rpc('listDivisionColleagues', { division_id: 22 }, owner)).colleagues.map((c) => c.profile_id),
    ).toContain(profile_id);
  });
});

describe('issue areas', () => {
  it('lists issue areas by name, any case', async () => {
    await rpc('addIssueArea', { issue_name: 'aviation' }, member());
    const names = (await rpc('listIssueAreas', {}, member())).issue_areas.map((i) => i.issue_name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).toContain('aviation');
  });

  it('adds an issue area once; the same name in any case answers the existing one; blank refused', async () => {
    const added = await rpc('addIssueArea', { issue_name: '  Ports  and Harbors ' }, member());
    expect(added).toMatchObject({ created: true, issue_area: { issue_name: 'Ports and Harbors' } });
    const again = await rpc('addIssueArea', { issue_name: 'PORTS AND HARBORS' }, member());
    expect(again).toEqual({ created: false, issue_area: added.issue_area });
    expect(await refusal(rpc('addIssueArea', { issue_name: '  ' }, member()))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Issue Name',
    });
  });

  it('adds an issue to the owner’s profile once; refuses a duplicate, another member, unknown ids', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const issue_id = (await rpc('addIssueArea', { issue_name: 'Insurance' }, owner)).issue_area
      ?.issue_id as number;
    const added = await rpc('addUserIssue', { profile_id, issue_id }, owner);
    expect(added).toMatchObject({ profile_id, issue_id, issue_area: { issue_id, issue_name: 'Insurance' } });
    expect(await refusal(rpc('addUserIssue', { profile_id, issue_id }, owner))).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'You already cover this issue.',
    });
    expect(await refusal(rpc('addUserIssue', { profile_id, issue_id }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    expect(await refusal(rpc('addUserIssue', { profile_id, issue_id: 999_999 }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Issue not found',
    });
    expect(await refusal(rpc('addUserIssue', { profile_id: 999_999, issue_id }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
  });

  it('removes an issue from the owner’s profile; refuses another member and an unknown id', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const issue_id = (await rpc('addIssueArea', { issue_name: 'Tribal Affairs' }, owner)).issue_area
      ?.issue_id;
    const { id } = await rpc('addUserIssue', { profile_id, issue_id }, owner);
    expect(await refusal(rpc('deleteUserIssue', { id }, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: EDIT_OWN,
    });
    await rpc('deleteUserIssue', { id }, owner);
    expect((await rpc('getProfile', { profile_id }, owner)).user_issues).toEqual([]);
    expect(await refusal(rpc('deleteUserIssue', { id }, owner))).toEqual({
      code: status.NOT_FOUND,
      details: 'Issue not found',
    });
  });
});

describe('issue areas announced with the profile (the public square’s "My issue areas")', () => {
  /** Waits until the last announcement heard of the profile carries these issue areas. */
  async function lastAnnounced(heard: Change[], profileId: number, expected: number[]) {
    await expect
      .poll(
        () =>
          heard.filter((c) => c.kind === 'profile' && c.profile_id === profileId).at(-1) as
            | (Change & { issue_area_ids?: number[] })
            | undefined,
      )
      .toMatchObject({ issue_area_ids: expected });
  }

  it('announces the profile’s issue areas on each change of them: added, removed, by the owner or a contributor, and with a rename', async () => {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const issue = async (name: string) =>
      (await rpc('addIssueArea', { issue_name: name }, owner)).issue_area?.issue_id as number;
    const [budget, courts] = [await issue('Announced Budget'), await issue('Announced Courts')];
    const first = await rpc('addUserIssue', { profile_id, issue_id: courts }, owner);
    await lastAnnounced(heard, profile_id, [courts]);
    await rpc('addUserIssue', { profile_id, issue_id: budget }, owner);
    await lastAnnounced(
      heard,
      profile_id,
      [budget, courts].sort((a, b) => a - b),
    );
    await rpc('deleteUserIssue', { id: first.id }, owner);
    await lastAnnounced(heard, profile_id, [budget]);
    await rpc('updateProfile', { profile_id, fields: { first_name: 'Renamed' } }, owner);
    await expect
      .poll(() => heard.filter((c) => c.kind === 'profile' && c.profile_id === profile_id).at(-1))
      .toMatchObject({ first_name: 'Renamed', issue_area_ids: [budget] });

    const { profileId } = await unclaimedProfile();
    const kept = await rpc('addUserIssue', { profile_id: profileId, issue_id: courts }, CONTRIBUTOR);
    await lastAnnounced(heard, profileId, [courts]);
    await rpc('deleteUserIssue', { id: kept.id }, CONTRIBUTOR);
    await lastAnnounced(heard, profileId, []);
    await listener.close();
  });

  it('announces nothing for a refused change of issue areas', async () => {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const issue_id = (await rpc('addIssueArea', { issue_name: 'Announced Ports' }, owner)).issue_area
      ?.issue_id;
    const added = await rpc('addUserIssue', { profile_id, issue_id }, owner);
    await lastAnnounced(heard, profile_id, [issue_id as number]);
    const before = heard.length;
    await refusal(rpc('addUserIssue', { profile_id, issue_id }, owner));
    await refusal(rpc('addUserIssue', { profile_id, issue_id }, member()));
    await refusal(rpc('deleteUserIssue', { id: added.id }, member()));
    // A later announcement of another profile proves the listener has heard everything before it.
    const other = await profileOf(member());
    await expect
      .poll(() => heard.some((c) => c.kind === 'profile' && c.profile_id === other.profile_id))
      .toBe(true);
    expect(heard.slice(before).filter((c) => c.kind === 'profile' && c.profile_id === profile_id)).toEqual(
      [],
    );
    await listener.close();
  });

  it('keeps every issue area in the last announcement when two are added at once', async () => {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const ids = await Promise.all(
      ['Concurrent A', 'Concurrent B', 'Concurrent C'].map(
        async (name) =>
          (await rpc('addIssueArea', { issue_name: name }, owner)).issue_area?.issue_id as number,
      ),
    );
    await Promise.all(ids.map((issue_id) => rpc('addUserIssue', { profile_id, issue_id }, owner)));
    await lastAnnounced(
      heard,
      profile_id,
      [...ids].sort((a, b) => a - b),
    );
    await listener.close();
  });

  it('GetAuthorByUser, GetAuthors and ListAuthors answer each author’s issue areas, ascending', async () => {
    const owner = member();
    const { profile_id } = await profileOf(owner);
    const bare = await profileOf(member());
    const ids: number[] = [];
    for (const name of ['Authors Zoning', 'Authors Agriculture']) {
      const issue_id = (await rpc('addIssueArea', { issue_name: name }, owner)).issue_area
        ?.issue_id as number;
      await rpc('addUserIssue', { profile_id, issue_id }, owner);
      ids.push(issue_id);
    }
    const sorted = [...ids].sort((a, b) => a - b);
    expect((await rpc('getAuthorByUser', { user_id: owner.userId })).issue_areas).toEqual({
      issue_area_ids: sorted,
    });
    const { authors } = await rpc('getAuthors', { profile_ids: [profile_id, bare.profile_id] });
    expect(authors.map((a) => [a.profile_id, a.issue_areas?.issue_area_ids])).toEqual([
      [profile_id, sorted],
      [bare.profile_id, []],
    ]);
    const listed = await rpc('listAuthors', { after_profile_id: profile_id - 1, limit: 1 });
    expect(listed.authors.map((a) => a.issue_areas?.issue_area_ids)).toEqual([sorted]);
  });
});

describe('authors (internal)', () => {
  it('GetAuthorByUser answers the member’s profile with the current job’s organization and division', async () => {
    const owner = member();
    const { profile_id, first_name, last_name, profile_picture } = await profileOf(owner);
    await rpc('addJob', { profile_id, fields: pastJob(3) }, owner);
    await rpc('addJob', { profile_id, fields: currentJob(2, { division_id: 21 }) }, owner);
    expect(await rpc('getAuthorByUser', { user_id: owner.userId })).toEqual({
      profile_id,
      user_id: owner.userId,
      first_name,
      last_name,
      profile_picture,
      organization_id: 2,
      division_id: 21,
      issue_areas: { issue_area_ids: [] },
    });
    expect(await refusal(rpc('getAuthorByUser', { user_id: 'nobody' }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
  });

  it('GetAuthors answers known ids, unclaimed ones with an empty user id; at most 1000', async () => {
    const owner = member();
    const mine = await profileOf(owner);
    const { profileId } = await unclaimedProfile();
    const { authors } = await rpc('getAuthors', { profile_ids: [mine.profile_id, profileId, 999_999] });
    expect(authors.map((a) => [a.profile_id, a.user_id])).toEqual([
      [mine.profile_id, owner.userId],
      [profileId, ''],
    ]);
    expect(
      (await refusal(rpc('getAuthors', { profile_ids: Array.from({ length: 1001 }, (_, i) => i + 1) }))).code,
    ).toBe(status.INVALID_ARGUMENT);
  });

  it('ListAuthors pages through owned profiles by id', async () => {
    const first = await rpc('listAuthors', { after_profile_id: 0, limit: 5 });
    expect(first.authors).toHaveLength(5);
    expect(first.authors.every((a) => a.user_id !== '')).toBe(true);
    const next = await rpc('listAuthors', { after_profile_id: first.authors[4]?.profile_id, limit: 1000 });
    const ids = [...first.authors, ...next.authors].map((a) => a.profile_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.length).toBe(await prisma.profile.count({ where: { userId: { not: null } } }));
  });
});

describe('read copy of organization names', () => {
  it('copies everything on connecting, then follows announced organization and division changes', async () => {
    orgData.exported.push({
      organization_id: 60,
      organization_name: 'Copied On Connect Council',
      group_id: 0,
      group_type: 'Other',
      email_domains: [],
      website_confirmed: false,
    });
    const listener = keepOrgCopy({ databaseUrl, logger, orgCopy });
    await listener.ready;
    expect(
      (await prisma.organization.findUniqueOrThrow({ where: { organizationId: 60 } })).organizationName,
    ).toBe('Copied On Connect Council');
    const owner = member();
    const { profile_id } = await profileOf(owner);
    await rpc('addJob', { profile_id, fields: currentJob(2, { division_id: 22 }) }, owner);

    // The org service announces inside its own write transaction; here, the same statement on the database.
    const announcer = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'public') });
    await announcer.$transaction(async (tx) => {
      await publishChange(tx, {
        kind: 'organization',
        organization_id: 2,
        organization_name: 'Department of Water Resilience',
        group_type: 'Agencies',
        logo: null,
      });
      await publishChange(tx, {
        kind: 'division',
        division_id: 22,
        division_name: 'Dam and Levee Safety Division',
        division_type: 'Division',
        active_division: false,
        organization_id: 2,
        street_address: '1416 9th Street',
        suite_number: null,
        city: 'Sacramento',
        state: 'CA',
        zip_code: '95814',
        division_phone: null,
        website: null,
      });
    });
    await announcer.$disconnect();
    await expect
      .poll(async () => (await rpc('getProfile', { profile_id }, owner)).job_experiences[0])
      .toMatchObject({
        organization: { organization_id: 2, organization_name: 'Department of Water Resilience' },
        division: {
          division_id: 22,
          division_name: 'Dam and Levee Safety Division',
          active_division: false,
          street_address: '1416 9th Street',
          city: 'Sacramento',
          zip_code: '95814',
        },
      });
    const { division } = (await rpc('getProfile', { profile_id }, owner)).job_experiences[0] ?? {};
    expect(division?.suite_number).toBeUndefined();
    await listener.close();
  });
});

describe('people directory search', () => {
  /** A word no seeded or other test's profile holds, so a search for it finds only this test's people. */
  const token = () => `zq${randomUUID().slice(0, 8).replaceAll('-', '')}`;
  const search = (query: Record<string, unknown>, caller: Caller = member()) =>
    rpc('searchDirectory', { search: '', group: '', limit: 30, offset: 0, ...query }, caller);
  const namesOf = (page: { profiles: { first_name: string; last_name: string }[] }) =>
    page.profiles.map((card) => `${card.first_name} ${card.last_name}`);

  it('finds a person only when every word is in a name or a current title, organization or division', async () => {
    const owner = member();
    const tag = token();
    const { profile_id } = await profileOf(owner, { first_name: 'Quillon', last_name: `Marsh ${tag}` });
    await rpc(
      'addJob',
      { profile_id, fields: currentJob(2, { title: 'Hydrology Lead', division_id: 21 }) },
      owner,
    );
    await rpc('addJob', { profile_id, fields: pastJob(1, { title: 'Docket Clerk' }) }, owner);
    const found = [`QUILLON ${tag}`, `hydrology ${tag}`, `${tag} groundwater department`, `${tag} marsh`];
    for (const text of found)
      expect(namesOf(await search({ search: text })), text).toEqual([`Quillon Marsh ${tag}`]);
    // A past job's title and organization are not what the directory searches; every word must match.
    for (const text of [`docket ${tag}`, `${tag} bridge`, `${tag} nobody`])
      expect((await search({ search: text })).total, text).toBe(0);
  });

  it('answers cards from the latest current job, and none for someone without one', async () => {
    const owner = member();
    const tag = token();
    const { profile_id } = await profileOf(owner, { first_name: 'Cardia', last_name: tag });
    expect((await search({ search: tag })).profiles).toEqual([
      expect.objectContaining({ profile_id, first_name: 'Cardia', last_name: tag }),
    ]);
    expect((await search({ search: tag })).profiles[0]?.title).toBeUndefined();
    await rpc(
      'addJob',
      { profile_id, fields: currentJob(2, { title: 'Analyst', start_date: '2019-01-01' }) },
      owner,
    );
    const branch = await rpc(
      'addJob',
      {
        profile_id,
        fields: currentJob(2, { title: 'Branch Chief', division_id: 22, start_date: '2023-05-01' }),
      },
      owner,
    );
    const [card] = (await search({ search: tag })).profiles;
    expect(card).toMatchObject({
      profile_id,
      title: 'Branch Chief',
      organization_name: expect.stringMatching(/^Department of Water/),
      division_name: expect.stringMatching(/Division$/),
      group_type: 'Agencies',
      city: 'West Sacramento',
      state: 'CA',
    });
    expect(card?.profile_picture).toMatch(/^\/media\/pictures\//);

    // The card follows a new picture and an edited job at once.
    const { url } = await rpc('uploadPicture', { image: await png(100, 100), profile_id }, owner);
    expect((await search({ search: tag })).profiles[0]?.profile_picture).toBe(url);
    await rpc(
      'updateJob',
      {
        job_id: branch.job_id,
        fields: currentJob(2, { title: 'Deputy Director', division_id: 22, start_date: '2023-05-01' }),
      },
      owner,
    );
    expect((await search({ search: tag })).profiles[0]?.title).toBe('Deputy Director');
  });

  it('reads the cards of people indexed before their documents stored one from the tables', async () => {
    const owner = member();
    const tag = token();
    const { profile_id } = await profileOf(owner, { first_name: 'Olden', last_name: tag });
    await rpc('addJob', { profile_id, fields: currentJob(2, { title: 'Archivist' }) }, owner);
    const expected = (await search({ search: tag })).profiles[0];
    const { stored: _card, ...unstored } = peopleDocumentOf({
      profileId: profile_id,
      firstName: 'Olden',
      lastName: tag,
      profilePicture: null,
      ownerEmailDomain: null,
      currentJobs: [],
      issueIds: [],
    });
    await searchIndex.upsert([unstored]);
    expect((await search({ search: tag })).profiles).toEqual([expected]);
    expect(expected).toMatchObject({ first_name: 'Olden', title: 'Archivist' });
  });

  it('filters by a current job’s group, by Elected Officials titles, and by issue area, combined', async () => {
    const tag = token();
    const senatorOwner = member();
    const senator = await profileOf(senatorOwner, { first_name: 'Sena', last_name: tag });
    await rpc(
      'addJob',
      { profile_id: senator.profile_id, fields: currentJob(3, { title: 'Senator' }) },
      senatorOwner,
    );
    const staffOwner = member();
    const staff = await profileOf(staffOwner, { first_name: 'Stef', last_name: tag });
    await rpc(
      'addJob',
      { profile_id: staff.profile_id, fields: currentJob(3, { title: 'Chief of Staff' }) },
      staffOwner,
    );
    const lobbyOwner = member();
    const lobbyist = await profileOf(lobbyOwner, { first_name: 'Lobo', last_name: tag });
    await rpc(
      'addJob',
      { profile_id: lobbyist.profile_id, fields: currentJob(1, { title: 'Partner' }) },
      lobbyOwner,
    );

    expect(namesOf(await search({ search: tag, group: 'Legislature' }))).toEqual([
      `Sena ${tag}`,
      `Stef ${tag}`,
    ]);
    expect(namesOf(await search({ search: tag, group: ELECTED_OFFICIALS_GROUP }))).toEqual([`Sena ${tag}`]);
    expect(namesOf(await search({ search: tag, group: 'Lobbyists' }))).toEqual([`Lobo ${tag}`]);
    expect((await search({ search: tag, group: 'Unions' })).total).toBe(0);

    const issueId = (await rpc('addIssueArea', { issue_name: `Tidelands ${tag}` }, member())).issue_area
      ?.issue_id;
    const covered = await rpc(
      'addUserIssue',
      { profile_id: staff.profile_id, issue_id: issueId },
      staffOwner,
    );
    await rpc('addUserIssue', { profile_id: lobbyist.profile_id, issue_id: issueId }, lobbyOwner);
    expect(namesOf(await search({ search: tag, issue_id: issueId }))).toEqual([`Lobo ${tag}`, `Stef ${tag}`]);
    expect(namesOf(await search({ search: tag, issue_id: issueId, group: 'Legislature' }))).toEqual([
      `Stef ${tag}`,
    ]);
    await rpc('deleteUserIssue', { id: covered.id }, staffOwner);
    expect(namesOf(await search({ search: tag, issue_id: issueId }))).toEqual([`Lobo ${tag}`]);
  });

  it('pages in a stable order by last name, then first name, with the total of every match', async () => {
    const tag = token();
    for (const [first, last] of [
      ['Bea', `${tag}b`],
      ['Abe', `${tag}c`],
      ['Cal', `${tag}a`],
      ['Ada', `${tag}b`],
    ])
      await profileOf(member(), { first_name: first as string, last_name: last as string });
    const first = await search({ search: tag, limit: 3 });
    const second = await search({ search: tag, limit: 3, offset: 3 });
    expect(first.total).toBe(4);
    expect([...namesOf(first), ...namesOf(second)]).toEqual([
      `Cal ${tag}a`,
      `Ada ${tag}b`,
      `Bea ${tag}b`,
      `Abe ${tag}c`,
    ]);
  });

  it('finds people under their new name, and under their organization’s or division’s new name', async () => {
    const owner = member();
    const tag = token();
    const { profile_id } = await profileOf(owner, { first_name: 'Renata', last_name: tag });
    await rpc('addJob', { profile_id, fields: currentJob(50, { division_id: 51 }) }, owner);
    expect(namesOf(await search({ search: `${tag} harbor lights` }))).toEqual([`Renata ${tag}`]);

    await rpc('updateProfile', { profile_id, fields: { first_name: 'Renée' } }, owner);
    expect((await search({ search: `renata ${tag}` })).total).toBe(0);
    expect(namesOf(await search({ search: `renée ${tag}` }))).toEqual([`Renée ${tag}`]);

    await orgCopy.organizationChanged({
      organizationId: 50,
      organizationName: 'Harbor Beacon Coalition',
      groupType: 'Associations',
      logo: null,
      emailDomains: [],
    });
    expect((await search({ search: `${tag} lights` })).total).toBe(0);
    expect(namesOf(await search({ search: `${tag} beacon` }))).toEqual([`Renée ${tag}`]);
    expect((await search({ search: tag })).profiles[0]).toMatchObject({
      organization_name: 'Harbor Beacon Coalition',
      group_type: 'Associations',
    });
    const office = orgData.divisions.find((d) => d.division_id === 51);
    await orgCopy.divisionChanged({
      divisionId: 51,
      divisionName: 'Port Liaison Office',
      divisionType: 'Office',
      activeDivision: true,
      organizationId: 50,
      streetAddress: office?.street_address ?? null,
      suiteNumber: null,
      city: 'Sacramento',
      state: 'CA',
      zipCode: '95814',
      divisionPhone: null,
      website: null,
    });
    expect(namesOf(await search({ search: `${tag} liaison` }))).toEqual([`Renée ${tag}`]);
    expect((await search({ search: tag })).profiles[0]?.division_name).toBe('Port Liaison Office');
  });

  it('counts up to a bound, or one past the page asked for, and says the total is a lower bound', async () => {
    const tag = token();
    for (const first of ['Ana', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay'])
      await profileOf(member(), { first_name: first, last_name: tag });
    const index = searchIndexFromConfig(
      { DATABASE_URL: databaseUrl, SEARCH_SCHEMA: 'profile_search', SEARCH_INDEX: 'people' },
      PEOPLE_INDEX,
    );
    const bounded = createPeopleDirectory({
      repository: prismaDirectoryRepository(prisma, 'profile'),
      index,
      countUpTo: 3,
    });
    const query = { search: tag, group: '', issueId: null, offset: 0, limit: 2 };
    try {
      expect(await bounded.search(member(), query)).toMatchObject({ total: 3, totalIsLowerBound: true });
      expect(await bounded.search(member(), { ...query, offset: 2, limit: 2 })).toMatchObject({
        total: 5,
        totalIsLowerBound: true,
      });
      expect(await bounded.search(member(), { ...query, offset: 4, limit: 2 })).toMatchObject({
        total: 6,
        totalIsLowerBound: false,
      });
      expect(await search({ search: tag })).toMatchObject({ total: 6, total_is_lower_bound: false });
    } finally {
      await index.close();
    }
  });

  it('rebuilds an index that lost step with the tables, and leaves one in step alone', async () => {
    // Profiles written straight to the table (as some tests here do) are not in the index until a rebuild.
    await people.rebuildIfOutOfStep();
    expect(await people.rebuildIfOutOfStep()).toBe(0);
    const orphan = await prisma.profile.create({
      data: { firstName: 'Written', lastName: `Past ${token()}`, workEmail: 'past@example.org' },
    });
    expect(await people.rebuildIfOutOfStep()).toBe(await prisma.profile.count());
    expect(namesOf(await search({ search: orphan.lastName }))).toEqual([`Written ${orphan.lastName}`]);
  });

  it('rebuilds on `reindex people` an index holding wrong documents, which the count alone does not notice', async () => {
    await people.rebuildIfOutOfStep();
    const tag = token();
    const renamed = await profileOf(member(), { first_name: 'Renamed', last_name: tag });
    const missing = await profileOf(member(), { first_name: 'Missing', last_name: tag });
    const document = (profileId: number, firstName: string) =>
      peopleDocumentOf({
        profileId,
        firstName,
        lastName: tag,
        profilePicture: null,
        ownerEmailDomain: null,
        currentJobs: [],
        issueIds: [],
      });
    // As a restored database leaves it: as many documents as profiles, but one stale, one missing, one a ghost.
    await searchIndex.upsert([document(renamed.profile_id, 'Stale'), document(999_999_999, 'Ghost')]);
    await searchIndex.remove([String(missing.profile_id)]);
    expect(await people.rebuildIfOutOfStep()).toBe(0);
    expect((await search({ search: `stale ${tag}` })).total).toBe(1);

    const { stdout } = await promisify(execFile)(process.execPath, [`${root}src/reindex.ts`], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    });
    expect(stdout).toMatch(
      new RegExp(
        `^people: the index now holds ${await prisma.profile.count()} documents \\(rebuilt in [\\d.]+ s\\)\n$`,
      ),
    );
    // The rebuild ran in another process: this one's copy hears of it moments later.
    await expect
      .poll(async () => namesOf(await search({ search: tag })))
      .toEqual([`Missing ${tag}`, `Renamed ${tag}`]);
    expect((await search({ search: `stale ${tag}` })).total).toBe(0);
    expect((await search({ search: tag })).total).toBe(2);
  });

  it('refuses a visitor and bad paging or search values', async () => {
    expect(await refusal(rpc('searchDirectory', { search: '', group: '', offset: 0, limit: 30 }))).toEqual({
      code: status.UNAUTHENTICATED,
      details: LOGIN,
    });
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { offset: 99_990, limit: 30 }])
      expect((await refusal(search(query))).code, JSON.stringify(query)).toBe(status.INVALID_ARGUMENT);
    expect(await refusal(search({ search: 'a b c d e f g h i j k' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Search with at most 10 words.',
    });
  });
});

describe('personal contact details', () => {
  const PERSONAL = {
    personal_email: 'grace.home@example.net',
    mobile_phone: '2795550199',
    birthday: '1981-11-02',
  };

  /** The bytes of every message a server-streaming or unary call answers, as they travel. */
  function rawStream(method: string, caller: Caller): Promise<Buffer> {
    const metadata = new Metadata();
    setCallerMetadata(metadata, caller);
    const chunks: Buffer[] = [];
    return new Promise((resolve, reject) =>
      service.client
        .makeServerStreamRequest(
          `/rotunda.profile.v1.ProfileService/${method}`,
          () => Buffer.alloc(0),
          (bytes: Buffer) => bytes,
          {},
          metadata,
        )
        .on('data', (bytes: Buffer) => chunks.push(bytes))
        .on('error', reject)
        .on('end', () => resolve(Buffer.concat(chunks))),
    );
  }

  function rawUnary(method: string, request: Uint8Array, caller: Caller): Promise<Buffer> {
    const metadata = new Metadata();
    setCallerMetadata(metadata, caller);
    return new Promise((resolve, reject) =>
      service.client.makeUnaryRequest(
        `/rotunda.profile.v1.ProfileService/${method}`,
        () => Buffer.from(request),
        (bytes: Buffer) => bytes,
        {},
        metadata,
        (error, bytes) => (error || !bytes ? reject(error) : resolve(bytes)),
      ),
    );
  }

  const carries = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text));

  it('GetProfile answers them; the whole directory never carries them, not even in its bytes', async () => {
    const owner = member();
    const created = await profileOf(owner, PERSONAL);
    expect(await rpc('getProfile', { profile_id: created.profile_id }, member())).toMatchObject({
      personal_email: PERSONAL.personal_email,
      mobile_phone: '(279) 555-0199',
      birthday: PERSONAL.birthday,
    });
    const listed = (await listDirectory(member())).find((p) => p.profile_id === created.profile_id);
    expect(listed).toMatchObject({ first_name: 'Ada', work_email: created.work_email });
    for (const field of ['personal_email', 'mobile_phone', 'birthday'])
      expect(listed).not.toHaveProperty(field);
    const bytes = await rawStream('ListDirectory', member());
    expect(carries(bytes, created.work_email)).toBe(true);
    for (const value of [PERSONAL.personal_email, '(279) 555-0199', PERSONAL.birthday])
      expect(carries(bytes, value), value).toBe(false);
    // Not one of the seeded people's either.
    const seeded = await prisma.profile.findMany({
      where: { personalEmail: { not: null } },
      select: { personalEmail: true },
    });
    expect(seeded.length).toBeGreaterThan(0);
    for (const { personalEmail } of seeded) expect(carries(bytes, personalEmail as string)).toBe(false);
  });

  it('FindUnclaimedMatches never carries them either', async () => {
    const target = await fullUnclaimedProfile();
    const profile = await prisma.profile.findUniqueOrThrow({ where: { profileId: target.profileId } });
    const request = FindUnclaimedMatchesRequest.encode({
      first_name: profile.firstName,
      last_name: profile.lastName,
      email: profile.workEmail,
    }).finish();
    const bytes = await rawUnary('FindUnclaimedMatches', request, member());
    expect(carries(bytes, profile.workEmail)).toBe(true);
    for (const value of ['una.home@example.net', '(279) 555-0142', '1979-09-14'])
      expect(carries(bytes, value), value).toBe(false);
  });
});

describe('whole directory downloads', () => {
  const TOO_MANY = /^Too many downloads of the whole directory\. Try again in (\d+) seconds\.$/;

  it('allows a member 20 in 10 minutes, then says when to come back; other members are not held back', async () => {
    const downloader = member();
    for (let i = 0; i < 20; i++) expect((await listDirectory(downloader)).length).toBeGreaterThan(0);
    const refused = await refusal(listDirectory(downloader));
    expect(refused.code).toBe(status.RESOURCE_EXHAUSTED);
    const seconds = Number(TOO_MANY.exec(refused.details)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(600);
    expect((await listDirectory(member())).length).toBeGreaterThan(0);
    // Another replica (its own database client) sees the same count.
    const replica = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'profile') });
    try {
      expect(
        await prismaDirectoryQuota(replica, 'profile').take(downloader.userId, {
          downloads: 20,
          windowSeconds: 600,
        }),
      ).toBeGreaterThan(0);
    } finally {
      await replica.$disconnect();
    }
    // Once the window has passed, the member downloads again.
    await prisma.directoryDownload.update({
      where: { userId: downloader.userId },
      data: { windowStartedAt: new Date(Date.now() - 601_000) },
    });
    expect((await listDirectory(downloader)).length).toBeGreaterThan(0);
    expect(
      (await prisma.directoryDownload.findUniqueOrThrow({ where: { userId: downloader.userId } })).downloads,
    ).toBe(1);
  });
});

describe('uploads no profile took', () => {
  const EXPIRED = 'Your picture was uploaded too long ago. Please select it again.';

  it('lets a profile name an upload only while it is young; a missing or old one is refused clearly', async () => {
    const owner = member();
    const missing = `/media/pictures/2026/01/${randomUUID()}.jpg`;
    expect(await refusal(profileOf(owner, { profile_picture: missing }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: EXPIRED,
    });
    // 56 minutes on, an upload is too old to name: a sweep may be about to remove it.
    const later = createProfileService({ ...serviceDependencies, now: () => Date.now() + 56 * 60_000 });
    const old = await uploadedPicture(owner);
    await expect(
      later.createProfile(owner, {
        profilePicture: old,
        firstName: 'Ada',
        lastName: 'Late',
        workEmail: 'ada.late@agency.example.org',
        otherPhone: '9165550100',
      }),
    ).rejects.toMatchObject({ kind: 'invalid_argument', message: EXPIRED });
    expect((await rpc('userCheck', {}, owner)).profiles).toEqual([]);
    const created = await profileOf(owner);
    expect(
      await refusal(
        rpc('updateProfile', { profile_id: created.profile_id, fields: { profile_picture: missing } }, owner),
      ),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: EXPIRED });
    // The profile's own picture sent back unchanged, however old, is no change.
    const same = await later.updateProfile(owner, created.profile_id, {
      profilePicture: created.profile_picture,
      firstName: 'Adele',
    });
    expect(same.profilePicture).toBe(created.profile_picture);
  });

  it('the sweep the service runs removes pictures no profile shows after an hour, and keeps every shown one', async () => {
    const orphan = await uploadedPicture(member());
    const owned = await profileOf(member());
    const unclaimed = await unclaimedProfile();
    const seeded = await prisma.profile.findFirstOrThrow({
      where: { userId: MEMBER_ID },
      select: { profilePicture: true },
    });
    const { removed } = await sweepOrphanUploads({
      store,
      kind: 'pictures',
      referenced: (keys) => profileService.picturesInUse(keys),
      now: () => Date.now() + 2 * 60 * 60_000,
    });
    expect(removed).toContain(mediaKeyOf(orphan));
    expect(await objectExists(orphan)).toBe(false);
    for (const url of [owned.profile_picture, unclaimed.profilePicture, seeded.profilePicture])
      expect(await objectExists(url as string), url as string).toBe(true);
  });
});
