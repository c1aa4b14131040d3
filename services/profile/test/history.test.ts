// The profile service's curation history against a real PostgreSQL, S3 endpoint (s3rver) and real gRPC: each
// kind of contributor edit of a profile nobody owns (fields, bio, picture, jobs, issue areas) and each claim
// decision is recorded with who, when and each field's old and new value, newest first; a refused edit records
// nothing; an owner's edits of their own profile are not curation and are not recorded; only contributors read
// the history (PERMISSION_DENIED for a member, UNAUTHENTICATED for a visitor, NOT_FOUND for an unknown id); the
// owners' names by user id for the page's actors.
import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { HistoryEntry } from '@rotunda/protos/profile';
import type { Caller } from '@rotunda/service-kit';
import { refusal } from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { demoOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

const CONTRIBUTOR: Caller = { userId: 'contributor-7', email: 'c7@demo.ca.gov', roles: ['contributor'] };
const member = (): Caller => ({ userId: `user-${randomUUID()}`, email: 'someone@demo.ca.gov', roles: [] });

let service: ProfileUnderTest;
let prisma: PrismaClient;
let rpc: ProfileUnderTest['rpc'];

const picture = async (caller: Caller, background = '#1d4e89') =>
  (
    await rpc(
      'uploadPicture',
      {
        image: await sharp({ create: { width: 8, height: 8, channels: 3, background } })
          .jpeg()
          .toBuffer(),
      },
      caller,
    )
  ).url;

/** An unclaimed profile as the seed or a contributor's records would have it. */
async function unclaimedProfile() {
  const row = await prisma.profile.create({
    data: {
      firstName: 'Una',
      lastName: `Curated ${randomUUID().slice(0, 6)}`,
      workEmail: `${randomUUID().slice(0, 8)}@example.org`,
      otherPhone: '(916) 555-0109',
      profilePicture: await picture(CONTRIBUTOR),
    },
  });
  return row.profileId;
}

const history = async (profileId: number, more: { before_id?: number; limit?: number } = {}) =>
  (await rpc('listProfileHistory', { profile_id: profileId, before_id: 0, limit: 0, ...more }, CONTRIBUTOR))
    .entries;

/** An entry's changes as { field: [from, to] }, absent values as null. */
const changesOf = (entry: HistoryEntry | undefined) =>
  Object.fromEntries((entry?.changes ?? []).map((c) => [c.field, [c.from ?? null, c.to ?? null]]));

const job = (organization_id: number, extra: Record<string, unknown> = {}) => ({
  title: 'Policy Analyst',
  organization_id,
  street_address: '715 P Street',
  suite_number: '',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2022-03-01',
  end_date: '',
  current_job: true,
  ...extra,
});

beforeAll(async () => {
  service = await startProfileUnderTest('profile-history-test', {
    org: demoOrgData(),
    readPool: true,
    prepare: ({ orgCopy }) => orgCopy.copyAll(),
  });
  ({ prisma, rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('recording contributors’ edits of unclaimed profiles', () => {
  it('records a profile edit: who, when, and only the changed fields with their old and new values', async () => {
    const profileId = await unclaimedProfile();
    const before = Date.now();
    await rpc(
      'updateProfile',
      {
        profile_id: profileId,
        fields: { first_name: 'Unity', other_phone: '(916) 555-0109', mobile_phone: '2795550142' },
      },
      CONTRIBUTOR,
    );
    const [entry, ...rest] = await history(profileId);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ actor_user_id: CONTRIBUTOR.userId, action: 'profile_edited' });
    expect(entry?.at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(entry?.at?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(changesOf(entry)).toEqual({
      first_name: ['Una', 'Unity'],
      mobile_phone: [null, '(279) 555-0142'],
    });
  });

  it('records the bio and the picture with their old and new values, newest first', async () => {
    const profileId = await unclaimedProfile();
    await rpc('setBio', { profile_id: profileId, user_bio: 'First words.' }, CONTRIBUTOR);
    await rpc('setBio', { profile_id: profileId, user_bio: 'Better words.' }, CONTRIBUTOR);
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#345678' } })
      .jpeg()
      .toBuffer();
    const { profilePicture: first } = await prisma.profile.findUniqueOrThrow({ where: { profileId } });
    const { url } = await rpc('uploadPicture', { profile_id: profileId, image }, CONTRIBUTOR);
    const entries = await history(profileId);
    expect(entries.map((e) => e.action)).toEqual(['picture_changed', 'bio_edited', 'bio_edited']);
    expect(changesOf(entries[0])).toEqual({ profile_picture: [first, url] });
    expect(changesOf(entries[1])).toEqual({ user_bio: ['First words.', 'Better words.'] });
    expect(changesOf(entries[2])).toEqual({ user_bio: [null, 'First words.'] });
  });

  it('records jobs added, edited and deleted, places by name', async () => {
    const profileId = await unclaimedProfile();
    await rpc('addJob', { profile_id: profileId, fields: job(2, { division_id: 21 }) }, CONTRIBUTOR);
    const past = await rpc(
      'addJob',
      {
        profile_id: profileId,
        fields: job(3, {
          title: 'Aide',
          start_date: '2016-01-01',
          end_date: '2019-06-30',
          current_job: false,
        }),
      },
      CONTRIBUTOR,
    );
    await rpc(
      'updateJob',
      {
        job_id: past.job_id,
        fields: job(3, {
          title: 'Senior Aide',
          start_date: '2016-01-01',
          end_date: '2019-06-30',
          current_job: false,
        }),
      },
      CONTRIBUTOR,
    );
    await rpc('deleteJob', { job_id: past.job_id }, CONTRIBUTOR);
    const entries = await history(profileId);
    expect(entries.map((e) => e.action)).toEqual(['job_deleted', 'job_edited', 'job_added', 'job_added']);
    expect(changesOf(entries[3])).toEqual({
      title: [null, 'Policy Analyst'],
      organization: [null, 'Department of Water Stewardship'],
      division: [null, 'Groundwater Management Division'],
      street_address: [null, '715 P Street'],
      city: [null, 'Sacramento'],
      state: [null, 'CA'],
      zip_code: [null, '95814'],
      start_date: [null, '2022-03-01'],
      current_job: [null, 'Yes'],
    });
    expect(changesOf(entries[1])).toEqual({ title: ['Aide', 'Senior Aide'] });
    expect(changesOf(entries[0])).toMatchObject({
      title: ['Senior Aide', null],
      organization: ['Office of Senator Elena Marquez', null],
      end_date: ['2019-06-30', null],
    });
  });

  it('records issue areas added and removed, by name', async () => {
    const profileId = await unclaimedProfile();
    const water = (await rpc('addIssueArea', { issue_name: 'Water' }, CONTRIBUTOR)).issue_area?.issue_id;
    const added = await rpc('addUserIssue', { profile_id: profileId, issue_id: water }, CONTRIBUTOR);
    await rpc('deleteUserIssue', { id: added.id }, CONTRIBUTOR);
    const entries = await history(profileId);
    expect(entries.map((e) => [e.action, changesOf(e)])).toEqual([
      ['issue_removed', { issue_area: ['Water', null] }],
      ['issue_added', { issue_area: [null, 'Water'] }],
    ]);
  });

  it('records nothing for refused edits: a member’s, a required field emptied, an unknown issue, the only job deleted', async () => {
    const profileId = await unclaimedProfile();
    const only = await rpc('addJob', { profile_id: profileId, fields: job(2) }, CONTRIBUTOR);
    const recorded = (await history(profileId)).length;
    expect(
      (await refusal(rpc('updateProfile', { profile_id: profileId, fields: { first_name: 'X' } }, member())))
        .code,
    ).toBe(status.PERMISSION_DENIED);
    expect(
      (await refusal(rpc('setBio', { profile_id: profileId, user_bio: 'Not mine to write.' }, member())))
        .code,
    ).toBe(status.PERMISSION_DENIED);
    expect(
      (
        await refusal(
          rpc('updateProfile', { profile_id: profileId, fields: { work_email: '' } }, CONTRIBUTOR),
        )
      ).code,
    ).toBe(status.INVALID_ARGUMENT);
    expect(
      (await refusal(rpc('addUserIssue', { profile_id: profileId, issue_id: 999_999 }, CONTRIBUTOR))).code,
    ).toBe(status.NOT_FOUND);
    expect((await refusal(rpc('deleteJob', { job_id: only.job_id }, CONTRIBUTOR))).code).toBe(
      status.FAILED_PRECONDITION,
    );
    expect((await history(profileId)).length).toBe(recorded);
    expect(await prisma.profile.findUniqueOrThrow({ where: { profileId } })).toMatchObject({
      firstName: 'Una',
    });
  });
});

describe('claims and owners', () => {
  it('records a confirmed and a rejected claim, with the contributor and the claimant', async () => {
    const confirmed = await unclaimedProfile();
    const rejected = await unclaimedProfile();
    const names = { claimant_first_name: 'Cleo', claimant_last_name: 'Claimant' };
    await rpc('claimProfile', { profile_id: confirmed, ...names }, member());
    await rpc('claimProfile', { profile_id: rejected, ...names }, member());
    const { claims } = await rpc('listPendingClaims', {}, CONTRIBUTOR);
    const claimOn = (profileId: number) => claims.find((c) => c.profile_id === profileId)?.claim_id;
    await rpc('decideClaim', { claim_id: claimOn(confirmed), decision: 'confirm' }, CONTRIBUTOR);
    await rpc('decideClaim', { claim_id: claimOn(rejected), decision: 'reject' }, CONTRIBUTOR);
    const [yes] = await history(confirmed);
    expect(yes).toMatchObject({ actor_user_id: CONTRIBUTOR.userId, action: 'claim_confirmed' });
    expect(changesOf(yes)).toEqual({ claim: ['pending', 'confirmed'], owner: [null, 'Cleo Claimant'] });
    const [no] = await history(rejected);
    expect(no).toMatchObject({ actor_user_id: CONTRIBUTOR.userId, action: 'claim_rejected' });
    expect(changesOf(no)).toEqual({ claim: ['pending', 'rejected'], claimant: ['Cleo Claimant', null] });
  });

  it('records nothing of an owner’s edits of their own profile', async () => {
    const owner = member();
    const mine = await rpc(
      'createProfile',
      {
        fields: {
          profile_picture: await picture(owner),
          first_name: 'Olive',
          last_name: 'Owner',
          work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
          other_phone: '9165550100',
        },
      },
      owner,
    );
    await rpc('updateProfile', { profile_id: mine.profile_id, fields: { first_name: 'Olivia' } }, owner);
    await rpc('setBio', { profile_id: mine.profile_id, user_bio: 'My own words.' }, owner);
    await rpc('addJob', { profile_id: mine.profile_id, fields: job(2) }, owner);
    expect(await history(mine.profile_id)).toEqual([]);
  });
});

describe('reading', () => {
  it('is for contributors only: PERMISSION_DENIED for a member, UNAUTHENTICATED for a visitor, NOT_FOUND for an unknown id', async () => {
    const profileId = await unclaimedProfile();
    const request = { profile_id: profileId, before_id: 0, limit: 0 };
    expect(await refusal(rpc('listProfileHistory', request, member()))).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Contributors only',
    });
    expect((await refusal(rpc('listProfileHistory', request))).code).toBe(status.UNAUTHENTICATED);
    expect(
      await refusal(rpc('listProfileHistory', { ...request, profile_id: 999_999 }, CONTRIBUTOR)),
    ).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
  });

  it('pages newest first with limit and before_id', async () => {
    const profileId = await unclaimedProfile();
    for (const pronouns of ['she/her', 'they/them', 'he/him'])
      await rpc('updateProfile', { profile_id: profileId, fields: { pronouns } }, CONTRIBUTOR);
    const all = await history(profileId);
    expect(all.map((e) => changesOf(e).pronouns?.[1])).toEqual(['He/Him', 'They/Them', 'She/Her']);
    const first = await history(profileId, { limit: 2 });
    expect(first.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const next = await history(profileId, { before_id: first[1]?.id as number, limit: 2 });
    expect(next.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });

  it('names the owners of profiles by user id, leaving out members who own none', async () => {
    const owner = member();
    await rpc(
      'createProfile',
      {
        fields: {
          profile_picture: await picture(owner),
          first_name: 'Nora',
          last_name: 'Named',
          work_email: `${randomUUID().slice(0, 8)}@agency.example.org`,
          other_phone: '9165550100',
        },
      },
      owner,
    );
    const { authors } = await rpc('getAuthorsByUsers', { user_ids: [owner.userId, 'nobody-owns-this'] });
    expect(authors.map((a) => [a.user_id, a.first_name, a.last_name])).toEqual([
      [owner.userId, 'Nora', 'Named'],
    ]);
  });
});
