// The org service's curation history against a real PostgreSQL, S3 endpoint (s3rver) and real gRPC: each kind
// of change (creating an organization, a contributor's edit, a logo, a division) is recorded with who, when and
// each field's old and new value, newest first; a refused change records nothing; the history is read by
// contributors only (PERMISSION_DENIED for a member, UNAUTHENTICATED for a visitor, NOT_FOUND for an unknown id)
// and paged by `before_id`.
import { status } from '@grpc/grpc-js';
import type { Caller } from '@rotunda/service-kit';
import { refusal } from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRIBUTOR, MEMBER, type OrgUnderTest, startOrgUnderTest } from './support/org-under-test.ts';

let service: OrgUnderTest;
let rpc: OrgUnderTest['rpc'];

const history = async (organizationId: number, more: { before_id?: number; limit?: number } = {}) =>
  (
    await rpc(
      'listOrganizationHistory',
      { organization_id: organizationId, before_id: 0, limit: 0, ...more },
      CONTRIBUTOR,
    )
  ).entries;

/** A new organization, added by `caller`, with a street address so contributors may edit it. */
async function added(name: string, caller: Caller = CONTRIBUTOR) {
  const answer = await rpc(
    'addOrganization',
    {
      organization_name: name,
      group_type: 'Associations',
      fields: { street_address: '1 K St', city: 'Sacramento' },
    },
    caller,
  );
  return answer.organization?.organization_id as number;
}

beforeAll(async () => {
  service = await startOrgUnderTest('org-history-test');
  ({ rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('recording', () => {
  it('records a new organization with who, when and the fields it was given', async () => {
    const before = Date.now();
    const id = await added('Capitol Curators', MEMBER);
    const [entry, ...rest] = await history(id);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ actor_user_id: MEMBER.userId, action: 'organization_created' });
    expect(entry?.at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(entry?.at?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(entry?.changes).toEqual([
      { field: 'organization_name', to: 'Capitol Curators' },
      { field: 'group_type', to: 'Associations' },
      { field: 'street_address', to: '1 K St' },
      { field: 'city', to: 'Sacramento' },
    ]);
  });

  it('records a contributor’s edit with each changed field’s old and new value, unchanged fields left out, newest first', async () => {
    const id = await added('Delta Stewards');
    await rpc(
      'updateOrganization',
      {
        organization_id: id,
        organization_name: 'Delta Stewards League',
        fields: { city: 'Davis', street_address: '1 K St', main_phone: '9165550100' },
      },
      CONTRIBUTOR,
    );
    await rpc('updateOrganization', { organization_id: id, fields: { city: '' } }, CONTRIBUTOR);
    const entries = await history(id);
    expect(entries.map((e) => e.action)).toEqual([
      'organization_edited',
      'organization_edited',
      'organization_created',
    ]);
    expect(entries[0]?.changes).toEqual([{ field: 'city', from: 'Davis' }]);
    expect(entries[1]).toMatchObject({ actor_user_id: CONTRIBUTOR.userId });
    expect(entries[1]?.changes).toEqual([
      { field: 'city', from: 'Sacramento', to: 'Davis' },
      { field: 'main_phone', to: '(916) 555-0100' },
      { field: 'organization_name', from: 'Delta Stewards', to: 'Delta Stewards League' },
    ]);
  });

  it('records nothing for an edit that changes nothing', async () => {
    const id = await added('Quiet Quorum');
    await rpc('updateOrganization', { organization_id: id, fields: { city: 'Sacramento' } }, CONTRIBUTOR);
    expect((await history(id)).map((e) => e.action)).toEqual(['organization_created']);
  });

  it('records a logo with the old and new URL', async () => {
    const id = await added('Logo Guild');
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const first = (await rpc('setOrganizationLogo', { organization_id: id, image }, CONTRIBUTOR)).url;
    const second = (await rpc('setOrganizationLogo', { organization_id: id, image }, CONTRIBUTOR)).url;
    const [latest, earlier] = await history(id);
    expect(latest).toMatchObject({
      action: 'logo_changed',
      changes: [{ field: 'logo', from: first, to: second }],
    });
    expect(earlier).toMatchObject({ action: 'logo_changed', changes: [{ field: 'logo', to: first }] });
  });

  it('records a division added on the organization, and nothing for one of a name it has', async () => {
    const id = await added('Division Hall');
    await rpc(
      'addDivision',
      { organization_id: id, division_name: 'North Office', division_type: '', city: 'Redding' },
      MEMBER,
    );
    await rpc(
      'addDivision',
      { organization_id: id, division_name: 'north office', division_type: '' },
      MEMBER,
    );
    const entries = await history(id);
    expect(entries.map((e) => e.action)).toEqual(['division_added', 'organization_created']);
    expect(entries[0]).toMatchObject({ actor_user_id: MEMBER.userId });
    expect(entries[0]?.changes).toEqual([
      { field: 'division_name', to: 'North Office' },
      { field: 'division_type', to: 'Division' },
      { field: 'city', to: 'Redding' },
    ]);
  });

  it('records nothing for refused changes (a member’s edit, a missing street address, a taken name, a bad image) nor for adding a name that exists', async () => {
    const id = await added('Refusal Works');
    await added('Taken Name Inc');
    expect(
      (await refusal(rpc('updateOrganization', { organization_id: id, fields: { city: 'Fresno' } }, MEMBER)))
        .code,
    ).toBe(status.PERMISSION_DENIED);
    expect(
      (
        await refusal(
          rpc('updateOrganization', { organization_id: id, fields: { street_address: '' } }, CONTRIBUTOR),
        )
      ).code,
    ).toBe(status.INVALID_ARGUMENT);
    expect(
      (
        await refusal(
          rpc(
            'updateOrganization',
            { organization_id: id, organization_name: 'taken name inc' },
            CONTRIBUTOR,
          ),
        )
      ).code,
    ).toBe(status.ALREADY_EXISTS);
    expect(
      (
        await refusal(
          rpc(
            'setOrganizationLogo',
            { organization_id: id, image: Buffer.from('not an image') },
            CONTRIBUTOR,
          ),
        )
      ).code,
    ).toBe(status.INVALID_ARGUMENT);
    expect(
      (await rpc('addOrganization', { organization_name: 'refusal works', group_type: 'Other' }, MEMBER))
        .created,
    ).toBe(false);
    expect((await history(id)).map((e) => e.action)).toEqual(['organization_created']);
  });
});

describe('reading', () => {
  it('is for contributors only: PERMISSION_DENIED for a member, UNAUTHENTICATED for a visitor, NOT_FOUND for an unknown id', async () => {
    const id = await added('Readers Circle');
    expect(
      await refusal(rpc('listOrganizationHistory', { organization_id: id, before_id: 0, limit: 0 }, MEMBER)),
    ).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Contributors only',
    });
    expect(
      (await refusal(rpc('listOrganizationHistory', { organization_id: id, before_id: 0, limit: 0 }))).code,
    ).toBe(status.UNAUTHENTICATED);
    expect(
      await refusal(
        rpc('listOrganizationHistory', { organization_id: 999_999, before_id: 0, limit: 0 }, CONTRIBUTOR),
      ),
    ).toEqual({
      code: status.NOT_FOUND,
      details: 'Organization not found',
    });
  });

  it('pages newest first with limit and before_id', async () => {
    const id = await added('Paging Partners');
    for (const city of ['A City', 'B City', 'C City'])
      await rpc('updateOrganization', { organization_id: id, fields: { city } }, CONTRIBUTOR);
    const all = await history(id);
    expect(all.map((e) => e.changes[0]?.to)).toEqual(['C City', 'B City', 'A City', 'Paging Partners']);
    const first = await history(id, { limit: 2 });
    expect(first.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const next = await history(id, { before_id: first[1]?.id as number, limit: 2 });
    expect(next.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
  });
});
