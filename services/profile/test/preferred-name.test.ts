// The preferred name end to end in the profile service, against a real PostgreSQL and real gRPC: stored trimmed
// when a member creates or edits their profile, cleared when sent empty and kept when not sent, refused past 100
// characters or holding unseen characters (in the field's label), answered on the profile and on the directory's
// card, found by a directory search for either name, and in "Download my data".
import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { Caller } from '@rotunda/service-kit';
import { refusal } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member, uploadedPicture } from './support/callers.ts';
import { demoOrgData } from './support/fake-services.ts';
import { type ProfileUnderTest, startProfileUnderTest } from './support/profile-under-test.ts';

let service: ProfileUnderTest;
let rpc: ProfileUnderTest['rpc'];

/** A profile `owner` creates with this preferred name, under a last name no other test uses. */
async function created(owner: Caller, preferredName: string | undefined) {
  const lastName = `Warren${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 8)}`;
  return rpc(
    'createProfile',
    {
      fields: {
        profile_picture: await uploadedPicture(rpc, owner),
        first_name: 'Margaret',
        last_name: lastName,
        work_email: owner.email,
        other_phone: '9165550100',
        ...(preferredName === undefined ? {} : { preferred_name: preferredName }),
      },
    },
    owner,
  );
}

const search = (text: string, caller: Caller) =>
  rpc('searchDirectory', { search: text, group: '', limit: 30, offset: 0 }, caller);

beforeAll(async () => {
  service = await startProfileUnderTest('profile-preferred-name-test', {
    org: demoOrgData(),
    prepare: ({ orgCopy }) => orgCopy.copyAll(),
  });
  ({ rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('the preferred name', () => {
  it('is stored trimmed and answered on the profile, the directory card and the member’s export', async () => {
    const owner = member();
    const profile = await created(owner, '  Peggy ');
    expect(profile.preferred_name).toBe('Peggy');
    expect(profile.first_name).toBe('Margaret');
    expect((await rpc('getProfile', { profile_id: profile.profile_id }, member())).preferred_name).toBe(
      'Peggy',
    );

    const byPreferred = await search(`Peggy ${profile.last_name}`, member());
    expect(
      byPreferred.profiles.map((card) => [card.profile_id, card.first_name, card.preferred_name]),
    ).toEqual([[profile.profile_id, 'Margaret', 'Peggy']]);
    const byLegal = await search(`Margaret ${profile.last_name}`, member());
    expect(byLegal.profiles.map((card) => card.profile_id)).toEqual([profile.profile_id]);

    const exported = JSON.parse((await rpc('exportMine', {}, owner)).json);
    expect(exported.profile).toMatchObject({ first_name: 'Margaret', preferred_name: 'Peggy' });
  });

  it('is kept when an edit leaves it out, cleared when sent empty, and the card follows', async () => {
    const owner = member();
    const profile = await created(owner, 'Peggy');
    const kept = await rpc(
      'updateProfile',
      { profile_id: profile.profile_id, fields: { pronouns: 'She/Her' } },
      owner,
    );
    expect(kept.preferred_name).toBe('Peggy');
    const cleared = await rpc(
      'updateProfile',
      { profile_id: profile.profile_id, fields: { preferred_name: '   ' } },
      owner,
    );
    expect(cleared.preferred_name).toBeUndefined();
    expect((await search(profile.last_name, member())).profiles[0]?.preferred_name).toBeUndefined();
    expect((await search(`Peggy ${profile.last_name}`, member())).profiles).toEqual([]);

    const set = await rpc(
      'updateProfile',
      { profile_id: profile.profile_id, fields: { preferred_name: 'Maggie' } },
      owner,
    );
    expect(set.preferred_name).toBe('Maggie');
    expect((await search(`Maggie ${profile.last_name}`, member())).profiles[0]?.preferred_name).toBe(
      'Maggie',
    );
  });

  it('is optional, and refused past 100 characters or holding unseen characters, naming the field', async () => {
    const owner = member();
    const profile = await created(owner, undefined);
    expect(profile.preferred_name).toBeUndefined();
    const update = (preferred_name: string) =>
      rpc('updateProfile', { profile_id: profile.profile_id, fields: { preferred_name } }, owner);
    expect(await refusal(update('L'.repeat(101)))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Preferred Name must be at most 100 characters.',
    });
    expect(await refusal(update('Peg\u200Bgy'))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Preferred Name must not contain invisible, control or replacement characters.',
    });
  });
});
