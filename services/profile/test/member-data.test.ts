// Notifications and members' data in the profile service against a real PostgreSQL and real gRPC: a
// contributor's claim decision is recorded for the claimant (ADR 0042), a failed one records nothing; a
// deleted account (auth's recorded `account.deleted`, read whenever the service reads it) removes a profile
// the member created and returns one they claimed to unclaimed without its personal details, once, announced
// and searchable as such; "Download my data" holds everything the service keeps about the caller; the
// digests' stream of owners' issue areas answers services only, in user id order.
import { randomUUID } from 'node:crypto';
import { Metadata, status } from '@grpc/grpc-js';
import { type Change, ensureEventTables, listenForChanges, recordEvent } from '@rotunda/events';
import type { MemberIssueAreas } from '@rotunda/protos/profile';
import { type Caller, idempotencyKeyOwner, setCallerMetadata } from '@rotunda/service-kit';
import { refusal, testCallers } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { AUTH_EVENTS, consumeAccountDeletions, PROFILE_EVENTS } from '../src/adapters/profile-events.ts';
import { ISSUE_AREA_BATCH } from '../src/domain/member-data.ts';
import { member, uploadedPicture } from './support/callers.ts';
import { demoOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

const CONTRIBUTOR: Caller = { userId: 'contributor-1', email: 'c1@demo.ca.gov', roles: ['contributor'] };
const NAMES = { claimant_first_name: 'Cleo', claimant_last_name: 'Claimant' };
const LOGIN = 'Access Restricted. Please login.';
const SERVICES_ONLY = 'Only a verified Rotunda service may ask this.';

let service: ProfileUnderTest;
let prisma: PrismaClient;
let rpc: ProfileUnderTest['rpc'];
const heard: Change[] = [];
let listener: ReturnType<typeof listenForChanges>;

const currentJob = {
  title: 'Policy Analyst',
  organization_id: 2,
  street_address: '1215 K Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2022-03-01',
  current_job: true,
};

/** A profile `owner` creates themselves, with a job, an issue area and their personal details. */
async function createdProfile(owner: Caller) {
  const profile = await rpc(
    'createProfile',
    {
      fields: {
        profile_picture: await uploadedPicture(rpc, owner),
        first_name: 'Cora',
        last_name: `Creator ${randomUUID().slice(0, 6)}`,
        work_email: owner.email,
        other_phone: '9165550100',
        personal_email: `home-${randomUUID().slice(0, 6)}@mail.example.com`,
        mobile_phone: '9165550111',
        birthday: '1980-04-05',
      },
    },
    owner,
  );
  const job = await rpc('addJob', { profile_id: profile.profile_id, fields: currentJob }, owner);
  const area = (await rpc('addIssueArea', { issue_name: 'Water' }, owner)).issue_area?.issue_id as number;
  await rpc('addUserIssue', { profile_id: profile.profile_id, issue_id: area }, owner);
  return { profileId: profile.profile_id, lastName: profile.last_name, jobId: job.job_id, area };
}

/** A profile a contributor curated, with personal details, that nobody owns. */
async function curatedProfile(workEmail = `${randomUUID().slice(0, 8)}@example.org`) {
  const row = await prisma.profile.create({
    data: {
      firstName: 'Una',
      lastName: `Curated ${randomUUID().slice(0, 6)}`,
      workEmail,
      otherPhone: '(916) 555-0109',
      personalEmail: 'una.home@mail.example.com',
      mobilePhone: '(916) 555-0122',
      birthday: new Date('1975-01-02T00:00:00Z'),
      profilePicture: await uploadedPicture(rpc, CONTRIBUTOR),
    },
  });
  return row;
}

/** A pending claim by `claimant` on the profile (their email is not its work email), as ListPendingClaims has it. */
async function pendingClaim(profileId: number, claimant: Caller) {
  await rpc('claimProfile', { profile_id: profileId, ...NAMES }, claimant);
  const { claims } = await rpc('listPendingClaims', {}, CONTRIBUTOR);
  return claims.find((claim) => claim.profile_id === profileId)?.claim_id as number;
}

const outbox = async () =>
  prisma.$queryRawUnsafe<{ topic: string; payload: Record<string, unknown> }[]>(
    `SELECT topic, payload FROM "${PROFILE_EVENTS}".outbox ORDER BY id`,
  );

/** What the auth service records when it deletes an account. */
const recordDeletion = (userId: string) =>
  prisma.$transaction((tx) => recordEvent(tx, AUTH_EVENTS, { topic: 'account.deleted', user_id: userId }));

/** Runs the service's reader of deletions over everything recorded so far, as a start of the service would. */
async function readDeletions() {
  const consumer = consumeAccountDeletions({
    databaseUrl: service.databaseUrl,
    logger: service.logger,
    members: service.services.members,
  });
  try {
    await consumer.ready;
    await consumer.drain();
  } finally {
    await consumer.close();
  }
}

const search = (lastName: string, caller: Caller) =>
  rpc('searchDirectory', { search: lastName, group: '', limit: 30, offset: 0 }, caller);

beforeAll(async () => {
  service = await startProfileUnderTest('profile-member-data-test', {
    org: demoOrgData(),
    prepare: ({ orgCopy }) => orgCopy.copyAll(),
  });
  ({ prisma, rpc } = service);
  // The auth service's outbox, as its start makes it.
  await ensureEventTables(service.databaseUrl, AUTH_EVENTS);
  listener = listenForChanges({
    databaseUrl: service.databaseUrl,
    logger: service.logger,
    onChange: (change) => void heard.push(change),
  });
  await listener.ready;
});

afterAll(async () => {
  await listener?.close();
  await service?.close();
});

describe('claim decisions are recorded for the claimant', () => {
  it('a confirmation records claim.decided with the profile’s names', async () => {
    const profile = await curatedProfile();
    const claimant = member();
    const claimId = await pendingClaim(profile.profileId, claimant);
    await rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR);
    expect((await outbox()).at(-1)).toEqual({
      topic: 'claim.decided',
      payload: {
        recipient_user_id: claimant.userId,
        profile_id: profile.profileId,
        first_name: 'Una',
        last_name: profile.lastName,
        decision: 'confirmed',
      },
    });
  });

  it('a rejection records it too; a refused or repeated decision records nothing', async () => {
    const profile = await curatedProfile();
    const claimant = member();
    const claimId = await pendingClaim(profile.profileId, claimant);
    const before = (await outbox()).length;
    // The claimant is no contributor, and a contributor may not decide their own claim.
    expect(
      (await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, claimant))).code,
    ).toBe(status.PERMISSION_DENIED);
    expect(
      (await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'maybe' }, CONTRIBUTOR))).code,
    ).toBe(status.INVALID_ARGUMENT);
    expect(await outbox()).toHaveLength(before);

    await rpc('decideClaim', { claim_id: claimId, decision: 'reject' }, CONTRIBUTOR);
    const events = await outbox();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)?.payload).toMatchObject({
      recipient_user_id: claimant.userId,
      profile_id: profile.profileId,
      decision: 'rejected',
    });

    expect(
      (await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR))).code,
    ).toBe(status.FAILED_PRECONDITION);
    expect(await outbox()).toHaveLength(before + 1);
  });
});

describe('a deleted account', () => {
  it('removes the profile the member created, with its jobs, issue areas and kept keys, from the directory too', async () => {
    const owner = member();
    const searcher = member();
    const { profileId, lastName, jobId } = await createdProfile(owner);
    expect((await search(lastName, searcher)).profiles).toHaveLength(1);
    // A job added with an Idempotency-Key: its kept answer goes with the account too (ADR 0046).
    await rpc('addJob', { profile_id: profileId, fields: currentJob }, owner, 'job-key-of-a-leaver');
    const keys = () => prisma.idempotencyKey.count({ where: { owner: idempotencyKeyOwner(owner.userId) } });
    expect(await keys()).toBe(1);

    await recordDeletion(owner.userId);
    await readDeletions();

    expect(await keys()).toBe(0);
    expect(await prisma.profile.findUnique({ where: { profileId } })).toBeNull();
    expect(await prisma.jobExperience.findUnique({ where: { jobId } })).toBeNull();
    expect(await prisma.userIssue.count({ where: { profileId } })).toBe(0);
    expect((await search(lastName, searcher)).profiles).toEqual([]);
    expect((await refusal(rpc('getProfile', { profile_id: profileId }, searcher))).code).toBe(
      status.NOT_FOUND,
    );
    // Read copies (the post service's authors) hear that nobody owns it any more.
    await expect
      .poll(() => heard.find((c) => c.kind === 'profile' && c.profile_id === profileId && c.user_id === null))
      .toBeTruthy();
  });

  it('returns a claimed profile to unclaimed without its personal details, claimable and searchable', async () => {
    const workEmail = `${randomUUID().slice(0, 8)}@agency.example.org`;
    const profile = await curatedProfile(workEmail);
    const owner = member(workEmail);
    // Their account email is the work email: the claim is confirmed at once.
    const claimed = await rpc('claimProfile', { profile_id: profile.profileId, ...NAMES }, owner);
    expect(claimed.user_id).toBe(owner.userId);
    await rpc(
      'updateProfile',
      { profile_id: profile.profileId, fields: { personal_email: 'mine@mail.example.com' } },
      owner,
    );

    await recordDeletion(owner.userId);
    await readDeletions();

    const row = await prisma.profile.findUniqueOrThrow({ where: { profileId: profile.profileId } });
    expect(row).toMatchObject({
      userId: null,
      ownerEmailDomain: null,
      personalEmail: null,
      mobilePhone: null,
      birthday: null,
      firstName: 'Una',
      lastName: profile.lastName,
      workEmail,
      otherPhone: '(916) 555-0109',
    });
    expect(await prisma.profileClaim.count({ where: { userId: owner.userId } })).toBe(0);
    await expect
      .poll(() =>
        heard.find((c) => c.kind === 'profile' && c.profile_id === profile.profileId && c.user_id === null),
      )
      .toBeTruthy();

    // Unclaimed again: found by the claim step, in the directory without an owner's badge, claimable.
    const next = member(workEmail);
    const matches = await rpc(
      'findUnclaimedMatches',
      { first_name: 'Una', last_name: profile.lastName, email: workEmail },
      next,
    );
    expect(matches.profiles.map((p) => p.profile_id)).toEqual([profile.profileId]);
    const [card] = (await search(profile.lastName, next)).profiles;
    expect(card).toMatchObject({ profile_id: profile.profileId, verified_employer: false });
    const reclaimed = await rpc('claimProfile', { profile_id: profile.profileId, ...NAMES }, next);
    expect(reclaimed.user_id).toBe(next.userId);
  });

  it('drops a pending claim, leaving the profile free for another claim', async () => {
    const profile = await curatedProfile();
    const claimant = member();
    await pendingClaim(profile.profileId, claimant);

    await recordDeletion(claimant.userId);
    await readDeletions();

    expect(await prisma.profileClaim.count({ where: { profileId: profile.profileId } })).toBe(0);
    const other = member();
    expect(await pendingClaim(profile.profileId, other)).toBeGreaterThan(0);
  });

  it('is handled once: a second delivery changes nothing', async () => {
    const workEmail = `${randomUUID().slice(0, 8)}@agency.example.org`;
    const profile = await curatedProfile(workEmail);
    const owner = member(workEmail);
    await rpc('claimProfile', { profile_id: profile.profileId, ...NAMES }, owner);
    await recordDeletion(owner.userId);
    await readDeletions();
    const after = await prisma.profile.findUniqueOrThrow({ where: { profileId: profile.profileId } });
    const announcements = () =>
      heard.filter((c) => c.kind === 'profile' && c.profile_id === profile.profileId).length;
    await expect.poll(announcements).toBeGreaterThan(0);
    const announced = announcements();

    // The same event again (delivery is at least once): handled directly, and recorded and read anew.
    await service.services.members.accountDeleted(owner.userId);
    await recordDeletion(owner.userId);
    await readDeletions();

    expect(await prisma.profile.findUniqueOrThrow({ where: { profileId: profile.profileId } })).toEqual(
      after,
    );
    // A change would have been announced by now (announcements arrive within milliseconds here).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(announcements()).toBe(announced);
  });

  it('recorded while the service was down is handled when it comes back', async () => {
    // The service's reader ran before and stopped (its cursor is past everything so far).
    await readDeletions();
    const owner = member();
    const { profileId } = await createdProfile(owner);
    await recordDeletion(owner.userId);
    expect(await prisma.profile.findUnique({ where: { profileId } })).not.toBeNull();

    await readDeletions();
    expect(await prisma.profile.findUnique({ where: { profileId } })).toBeNull();
  });
});

describe('Download my data (ExportMine)', () => {
  it('holds the caller’s profile with its personal fields, jobs, issue areas and claims', async () => {
    const owner = member();
    const { profileId, lastName, jobId, area } = await createdProfile(owner);
    // A claim they made earlier, rejected before they created their own profile.
    const rejectedOn = await curatedProfile();
    await prisma.profileClaim.create({
      data: {
        profileId: rejectedOn.profileId,
        userId: owner.userId,
        status: 'rejected',
        claimantFirstName: 'Cora',
        claimantLastName: 'Creator',
        claimantEmail: owner.email,
        decidedAt: new Date(),
      },
    });

    const exported = JSON.parse((await rpc('exportMine', {}, owner)).json);
    expect(exported.profile).toMatchObject({
      profile_id: profileId,
      user_id: owner.userId,
      first_name: 'Cora',
      last_name: lastName,
      work_email: owner.email,
      mobile_phone: '(916) 555-0111',
      birthday: '1980-04-05',
      other_phone: '(916) 555-0100',
    });
    expect(exported.profile.personal_email).toMatch(/^home-.*@mail\.example\.com$/);
    expect(exported.profile).not.toHaveProperty('work_email_changed_by');
    expect(exported.jobs).toEqual([
      expect.objectContaining({
        job_id: jobId,
        title: 'Policy Analyst',
        organization_id: 2,
        organization_name: expect.any(String),
        start_date: '2022-03-01',
        end_date: null,
        current_job: true,
      }),
    ]);
    expect(exported.issue_areas).toEqual([{ issue_id: area, issue_name: 'Water' }]);
    expect(exported.claims).toEqual([
      expect.objectContaining({
        profile_id: rejectedOn.profileId,
        status: 'rejected',
        claimant_email: owner.email,
        decided_at: expect.any(String),
      }),
    ]);
  });

  it('is empty for a member who holds nothing here, and refused to a visitor', async () => {
    expect(JSON.parse((await rpc('exportMine', {}, member())).json)).toEqual({
      profile: null,
      jobs: [],
      issue_areas: [],
      claims: [],
    });
    expect(await refusal(rpc('exportMine', {}))).toEqual({ code: status.UNAUTHENTICATED, details: LOGIN });
  });
});

describe('ListMemberIssueAreas', () => {
  /** Every message of the stream, called as a service, as a member, or unsigned (null). */
  function listMemberIssueAreas(as: 'service' | Caller | null): Promise<MemberIssueAreas[]> {
    const metadata = new Metadata();
    if (as !== null && as !== 'service') setCallerMetadata(metadata, as);
    const stream =
      as === 'service'
        ? service.client.listMemberIssueAreas({}, metadata, {
            interceptors: [testCallers.asService('notification')],
          })
        : service.client.listMemberIssueAreas({}, metadata);
    return new Promise((resolve, reject) => {
      const messages: MemberIssueAreas[] = [];
      stream.on('data', (message: MemberIssueAreas) => messages.push(message));
      stream.on('error', reject);
      stream.on('end', () => resolve(messages));
    });
  }

  it('is refused to a member and to an unsigned call', async () => {
    expect(await refusal(listMemberIssueAreas(member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: SERVICES_ONLY,
    });
    expect(await refusal(listMemberIssueAreas(null))).toEqual({
      code: status.UNAUTHENTICATED,
      details: SERVICES_ONLY,
    });
  });

  it('streams every owned profile’s issue areas in user id order, past one batch', async () => {
    const owner = member();
    const { profileId, area } = await createdProfile(owner);
    const second = (await rpc('addIssueArea', { issue_name: 'Housing' }, owner)).issue_area
      ?.issue_id as number;
    await rpc('addUserIssue', { profile_id: profileId, issue_id: second }, owner);
    const unowned = await curatedProfile();
    // More owners than one batch holds, without issue areas.
    await prisma.profile.createMany({
      data: Array.from({ length: ISSUE_AREA_BATCH + 5 }, (_, i) => ({
        userId: `bulk-${String(i).padStart(5, '0')}`,
        firstName: 'Bulk',
        lastName: `Owner ${i}`,
        workEmail: `bulk-${i}@example.org`,
      })),
    });

    const streamed = await listMemberIssueAreas('service');
    const owners = await prisma.profile.findMany({
      where: { userId: { not: null } },
      select: { userId: true },
    });
    expect(streamed).toHaveLength(owners.length);
    const ids = streamed.map((m) => m.user_id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(streamed.some((m) => m.profile_id === unowned.profileId)).toBe(false);
    expect(streamed.find((m) => m.user_id === owner.userId)).toEqual({
      user_id: owner.userId,
      profile_id: profileId,
      issue_area_ids: [area, second].sort((a, b) => a - b),
    });
    expect(streamed.find((m) => m.user_id === 'bulk-00000')?.issue_area_ids).toEqual([]);
  });
});
