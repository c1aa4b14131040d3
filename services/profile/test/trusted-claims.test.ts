// ADR 0037 against a real PostgreSQL, S3 endpoint (s3rver) and real gRPC: a contributor cannot hand an
// unowned profile to someone by editing its work email (the claim that follows waits, and only another
// contributor may decide it), a work email that settled 30 days ago still confirms at once, a contributor's
// own claim always waits, and every change of owner is in the profile's history; people's names and issue
// areas are composed and refuse unseen characters, naming the field; the migration fills who last changed a
// work email from the history.
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import type { HistoryEntry } from '@rotunda/protos/profile';
import { type Caller, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase, refusal } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { member, uploadedPicture } from './support/callers.ts';
import { demoOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

const CONTRIBUTOR: Caller = { userId: 'contributor-1', email: 'c1@demo.ca.gov', roles: ['contributor'] };
const OTHER_CONTRIBUTOR: Caller = {
  userId: 'contributor-2',
  email: 'c2@demo.ca.gov',
  roles: ['contributor'],
};
const UNSEEN = 'must not contain invisible, control or replacement characters.';
const DAY_MS = 24 * 60 * 60 * 1000;

let service: ProfileUnderTest;
let prisma: PrismaClient;
let rpc: ProfileUnderTest['rpc'];

const NAMES = { claimant_first_name: 'Cleo', claimant_last_name: 'Claimant' };

/** An unclaimed profile as the seed would have it: its work email never changed since. */
async function unclaimedProfile(workEmail = `${randomUUID().slice(0, 8)}@example.org`) {
  const row = await prisma.profile.create({
    data: {
      firstName: 'Una',
      lastName: `Claimable ${randomUUID().slice(0, 6)}`,
      workEmail,
      otherPhone: '(916) 555-0109',
      profilePicture: await uploadedPicture(rpc, CONTRIBUTOR),
    },
  });
  return row.profileId;
}

const setWorkEmail = (profileId: number, email: string, caller: Caller = CONTRIBUTOR) =>
  rpc('updateProfile', { profile_id: profileId, fields: { work_email: email } }, caller);

const ownerOf = async (profileId: number) =>
  (await prisma.profile.findUniqueOrThrow({ where: { profileId } })).userId;

const history = async (profileId: number) =>
  (await rpc('listProfileHistory', { profile_id: profileId, before_id: 0, limit: 0 }, CONTRIBUTOR)).entries;

const changesOf = (entry: HistoryEntry | undefined) =>
  Object.fromEntries((entry?.changes ?? []).map((c) => [c.field, [c.from ?? null, c.to ?? null]]));

const pendingClaimOn = async (profileId: number) =>
  (await rpc('listPendingClaims', {}, OTHER_CONTRIBUTOR)).claims.find((c) => c.profile_id === profileId)
    ?.claim_id as number;

beforeAll(async () => {
  service = await startProfileUnderTest('profile-trusted-claims-test', {
    org: demoOrgData(),
    prepare: ({ orgCopy }) => orgCopy.copyAll(),
  });
  ({ prisma, rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('claims after a work email changed', () => {
  it("a contributor's edit of the work email no longer hands the profile over: the claim waits", async () => {
    const profileId = await unclaimedProfile();
    const target = member();
    await setWorkEmail(profileId, target.email.toUpperCase());
    const row = await prisma.profile.findUniqueOrThrow({ where: { profileId } });
    expect(row.workEmailChangedBy).toBe(CONTRIBUTOR.userId);
    expect(Date.now() - (row.workEmailChangedAt as Date).getTime()).toBeLessThan(60_000);

    const claimed = await rpc('claimProfile', { profile_id: profileId, ...NAMES }, target);
    expect(claimed.claim_pending).toBe(true);
    expect(await ownerOf(profileId)).toBeNull();
    const claimId = await pendingClaimOn(profileId);
    expect(claimId).toBeGreaterThan(0);

    // The contributor who changed the email may not decide it; another one may.
    expect(
      await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, CONTRIBUTOR)),
    ).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'You changed this profile’s work email: another contributor decides claims on it.',
    });
    expect(await ownerOf(profileId)).toBeNull();
    await rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, OTHER_CONTRIBUTOR);
    expect(await ownerOf(profileId)).toBe(target.userId);

    const [confirmed, edited] = await history(profileId);
    expect(confirmed).toMatchObject({ actor_user_id: OTHER_CONTRIBUTOR.userId, action: 'claim_confirmed' });
    expect(changesOf(confirmed)).toEqual({ claim: ['pending', 'confirmed'], owner: [null, 'Cleo Claimant'] });
    expect(edited).toMatchObject({ actor_user_id: CONTRIBUTOR.userId, action: 'profile_edited' });
  });

  it('a work email that has not changed in 30 days confirms at once, and the change of owner is in the history', async () => {
    const target = member();
    const profileId = await unclaimedProfile();
    await setWorkEmail(profileId, target.email);
    await prisma.profile.update({
      where: { profileId },
      data: { workEmailChangedAt: new Date(Date.now() - 30 * DAY_MS - 60_000) },
    });
    const claimed = await rpc('claimProfile', { profile_id: profileId, ...NAMES }, target);
    expect(claimed.claim_pending).toBe(false);
    expect(await ownerOf(profileId)).toBe(target.userId);
    const [entry] = await history(profileId);
    expect(entry).toMatchObject({ actor_user_id: target.userId, action: 'claim_confirmed' });
    expect(changesOf(entry)).toEqual({ claim: [null, 'confirmed'], owner: [null, 'Cleo Claimant'] });
  });

  it('a seeded work email never changed confirms at once, recorded the same way', async () => {
    const target = member();
    const profileId = await unclaimedProfile(target.email);
    expect((await rpc('claimProfile', { profile_id: profileId, ...NAMES }, target)).claim_pending).toBe(
      false,
    );
    expect((await history(profileId)).map((e) => e.action)).toEqual(['claim_confirmed']);
  });

  it("a contributor's own claim always waits for another contributor, even at their own email", async () => {
    const own: Caller = { userId: 'contributor-3', email: 'c3@demo.ca.gov', roles: ['contributor'] };
    const profileId = await unclaimedProfile(own.email);
    expect((await rpc('claimProfile', { profile_id: profileId, ...NAMES }, own)).claim_pending).toBe(true);
    expect(await ownerOf(profileId)).toBeNull();
    const claimId = await pendingClaimOn(profileId);
    expect((await refusal(rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, own))).code).toBe(
      status.PERMISSION_DENIED,
    );
    await rpc('decideClaim', { claim_id: claimId, decision: 'confirm' }, OTHER_CONTRIBUTOR);
    expect(await ownerOf(profileId)).toBe(own.userId);
  });

  it('a claim racing the contributor’s email edit is never confirmed at once on the new email', async () => {
    for (let round = 0; round < 5; round++) {
      const target = member();
      const profileId = await unclaimedProfile();
      const [, claimed] = await Promise.all([
        setWorkEmail(profileId, target.email),
        rpc('claimProfile', { profile_id: profileId, ...NAMES }, target),
      ]);
      expect(claimed.claim_pending).toBe(true);
      expect(await ownerOf(profileId)).toBeNull();
    }
  });
});

describe('names', () => {
  it.each([
    ['first_name', 'First Name', 'Ele\u2060na'],
    ['last_name', 'Last Name', 'Mar\u200Bquez'],
    ['last_name', 'Last Name', 'Marquez\u202E'],
    ['first_name', 'First Name', '\u001b[31mElena'],
    ['first_name', 'First Name', 'El\uFFFDna'],
  ])(
    'refuses a %s with an unseen character, naming the field, changing nothing',
    async (field, label, name) => {
      const profileId = await unclaimedProfile();
      expect(
        await refusal(
          rpc('updateProfile', { profile_id: profileId, fields: { [field]: name } }, CONTRIBUTOR),
        ),
      ).toEqual({ code: status.INVALID_ARGUMENT, details: `${label} ${UNSEEN}` });
      expect((await prisma.profile.findUniqueOrThrow({ where: { profileId } })).firstName).toBe('Una');
    },
  );

  it('stores a person’s name composed', async () => {
    const profileId = await unclaimedProfile();
    const updated = await rpc(
      'updateProfile',
      { profile_id: profileId, fields: { first_name: 'Rene\u0301e' } },
      CONTRIBUTOR,
    );
    expect(updated.first_name).toBe('Ren\u00e9e');
  });

  it('refuses an issue area with control, format or replacement characters; stores one composed', async () => {
    const before = await prisma.issueArea.count();
    for (const name of ['Water\u0007', '\u001b[2JHousing', 'Tax\u202Eation', 'Bud\u200Bget', 'Health \uFFFD'])
      expect(await refusal(rpc('addIssueArea', { issue_name: name }, member())), name).toEqual({
        code: status.INVALID_ARGUMENT,
        details: `Issue Name ${UNSEEN}`,
      });
    expect(await prisma.issueArea.count()).toBe(before);
    const added = await rpc('addIssueArea', { issue_name: 'Acce\u0301s to Justice' }, member());
    expect(added.issue_area?.issue_name).toBe('Acc\u00e9s to Justice');
  });
});

describe('the migration', () => {
  it('fills who last changed a work email, and when, from the curation history', async () => {
    const url = await createTestDatabase();
    const migrations = `${service.root}prisma/migrations`;
    const before = await mkdtemp(join(tmpdir(), 'profile-migrations-'));
    for (const name of await readdir(migrations))
      if (name < '20261228040000') await cp(join(migrations, name), join(before, name), { recursive: true });
    await migrate({ databaseUrl: url, schema: 'profile', migrationsDir: before, logger: service.logger });
    const db = new PrismaClient({ adapter: prismaAdapter(url, 'profile') });
    const profile = async () =>
      (
        await db.$queryRaw<{ profile_id: number }[]>`
          INSERT INTO profile.profiles (first_name, last_name, work_email, updated_at)
          VALUES ('Una', 'Migrated', 'una@example.org', now()) RETURNING profile_id`
      )[0]?.profile_id as number;
    const changed = await profile();
    const untouched = await profile();
    const entry = (id: number, actor: string, changes: object, at: string) =>
      db.$executeRaw`INSERT INTO profile.profile_history (profile_id, actor_user_id, action, changes, at)
        VALUES (${id}, ${actor}, 'profile_edited', ${JSON.stringify(changes)}::jsonb, ${at}::timestamptz)`;
    await entry(
      changed,
      'contributor-5',
      [{ field: 'work_email', from: 'a@x.org', to: 'b@x.org' }],
      '2026-01-02',
    );
    await entry(changed, 'contributor-6', [{ field: 'city', from: 'Davis', to: 'Sacramento' }], '2026-01-03');
    await entry(untouched, 'contributor-6', [{ field: 'first_name', from: 'U', to: 'Una' }], '2026-01-03');

    await migrate({ databaseUrl: url, schema: 'profile', migrationsDir: migrations, logger: service.logger });
    const rows = await db.profile.findMany({ orderBy: { profileId: 'asc' } });
    expect(
      rows.map((r) => [r.profileId, r.workEmailChangedBy, r.workEmailChangedAt?.toISOString() ?? null]),
    ).toEqual([
      [changed, 'contributor-5', '2026-01-02T00:00:00.000Z'],
      [untouched, null, null],
    ]);
    await db.$disconnect();
  });
});
