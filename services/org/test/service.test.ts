// The org service against a real PostgreSQL (its schema and the Postgres search index), a real S3 endpoint
// (s3rver) and real gRPC: migrations match schema.prisma, the demo seed, the list searched and paged on the
// server with the product's own organization never listed, a rename found at once, the 5-result lookups, and
// every refusal (visitor, member updating, missing name or address, a name without letters, a member's
// Cal-Access ID, a Cal-Access ID outside its groups or not a filer number, unknown id, bad links, wrong image
// type, oversize image, pixel bomb), and the index rebuilt by the operator's reindex command.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { status } from '@grpc/grpc-js';
import { type Change, listenForChanges } from '@rotunda/events';
import { mediaKeyOf, type ObjectStore } from '@rotunda/images';
import type { SearchIndex } from '@rotunda/search';
import type { Logger } from '@rotunda/service-kit';
import { diffSchemaAndDatabase, refusal } from '@rotunda/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { EXPORT_NAMES_MAX_LIMIT, type OrgService } from '../src/domain/org-service.ts';
import { GROUPS } from '../src/domain/organization.ts';
import { searchDocumentOf } from '../src/domain/organization-search.ts';
import type { OrganizationRepository } from '../src/domain/ports.ts';
import { DEMO_ORGANIZATIONS, seedDemoOrganizations } from '../src/seed/demo-organizations.ts';
import { CONTRIBUTOR, MEMBER, type OrgUnderTest, startOrgUnderTest } from './support/org-under-test.ts';

const FORMAT = 'Incorrect image format. Please select only .jpg or .jpeg.';
const TOO_LARGE = 'Image is too large. Please resize or select a smaller image.';

// A tiny logo instead of the real drawing keeps the seed fast; the real one is covered below.
const cheapLogo = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#1d4e89' } })
    .png()
    .toBuffer();

let service: OrgUnderTest;
let logger: Logger;
let root: string;
let databaseUrl: string;
let prisma: PrismaClient;
let repository: OrganizationRepository;
let index: SearchIndex;
let store: ObjectStore;
let org: OrgService;
let rpc: OrgUnderTest['rpc'];

const idOf = async (name: string) =>
  (await prisma.organization.findFirstOrThrow({ where: { organizationName: name } })).organizationId;

beforeAll(async () => {
  service = await startOrgUnderTest('org-test', (parts) =>
    seedDemoOrganizations({ ...parts, logo: cheapLogo }),
  );
  ({ logger, root, databaseUrl, prisma, repository, index, store, org, rpc } = service);
});

afterAll(async () => {
  await service?.close();
});

describe('data and seed', () => {
  it('has a migrated database that matches schema.prisma', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'org',
      }),
    ).toEqual([]);
  });

  it('seeds once: every group, Cal-Access ids only where they apply, divisions of several types, logos', async () => {
    expect(await seedDemoOrganizations({ repository, store, logo: cheapLogo })).toBe(0);
    const rows = await prisma.organization.findMany({ include: { group: true, divisions: true } });
    expect(rows).toHaveLength(DEMO_ORGANIZATIONS.length);
    expect(rows.length).toBeGreaterThanOrEqual(35);
    expect(new Set(rows.map((row) => row.group.groupName))).toEqual(new Set(GROUPS.map((g) => g.groupName)));
    for (const row of rows.filter((r) => r.lobbyFilerId))
      expect(['Lobbyists', 'Associations', 'Unions']).toContain(row.group.groupName);
    expect(rows.filter((r) => r.group.groupName === 'Lobbyists').every((r) => r.lobbyFilerId)).toBe(true);
    const types = new Set(rows.flatMap((row) => row.divisions.map((d) => d.divisionType)));
    expect([...types]).toEqual(expect.arrayContaining(['Office', 'Division', 'Board']));
    expect(rows.filter((r) => r.group.groupName === 'Agencies').some((r) => r.divisions.length >= 3)).toBe(
      true,
    );
    for (const row of rows) {
      expect(row.mainPhone).toMatch(/^\(916\) 555-01\d\d$/);
      expect(row.website).toMatch(/^https:\/\/[a-z0-9]+\.example\.org$/);
    }
    const rotunda = rows.find((row) => row.organizationName === 'Rotunda');
    expect(rotunda?.hidden).toBe(true);
    expect(rows.filter((row) => row.hidden)).toHaveLength(1);
    const withLogo = rows.find((row) => row.logo);
    const key = mediaKeyOf(withLogo?.logo ?? '');
    expect(key).toMatch(/^logos\//);
    expect(await store.get(key as string)).not.toBeNull();
  });

  it('draws a real PNG logo with sharp', async () => {
    const { renderLogo } = await import('../src/seed/logo.ts');
    const png = await renderLogo('Capitol Bridge Advocates');
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 240, height: 240 });
  });
});

describe('reading over gRPC', () => {
  it('ListGroups answers the eight groups', async () => {
    const { groups } = await rpc('listGroups', {});
    expect(groups.map((g: { group_name: string }) => g.group_name)).toEqual([
      'Associations',
      'Agencies',
      "Governor's Office",
      'Legislature',
      'Lobbyists',
      'Unions',
      'Campaigns',
      'Other',
    ]);
  });

  it('ListOrganizations answers every listed organization, the hidden one left out', async () => {
    const { organizations } = await rpc('listOrganizations', {});
    expect(organizations).toHaveLength(DEMO_ORGANIZATIONS.length - 1);
    expect(organizations.map((o: { organization_name: string }) => o.organization_name)).not.toContain(
      'Rotunda',
    );
  });

  it('SearchOrganizations pages through the list by name with a total', async () => {
    const all = await rpc('searchOrganizations', { text: '', group: '', offset: 0, limit: 100 });
    expect(all.total).toBe(DEMO_ORGANIZATIONS.length - 1);
    const names: string[] = all.organizations.map((o: { organization_name: string }) => o.organization_name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const first = await rpc('searchOrganizations', { text: '', group: '', offset: 0, limit: 10 });
    const second = await rpc('searchOrganizations', { text: '', group: '', offset: 10, limit: 10 });
    expect(first.total).toBe(all.total);
    expect([...first.organizations, ...second.organizations].map((o) => o.organization_name)).toEqual(
      names.slice(0, 20),
    );
    // No limit: the first 30 (docs/product.md#9-business-constants-and-limits).
    expect(
      (await rpc('searchOrganizations', { text: '', group: '', offset: 0, limit: 0 })).organizations,
    ).toHaveLength(30);
  });

  it('matches every word as a substring, any case, and filters by group', async () => {
    const found = await rpc('searchOrganizations', { text: 'VALLEY ass', group: '', offset: 0, limit: 30 });
    expect(found.organizations.map((o: { organization_name: string }) => o.organization_name)).toEqual([
      'Sierra Valley Growers Association',
    ]);
    const lobbyists = await rpc('searchOrganizations', {
      text: '',
      group: 'Lobbyists',
      offset: 0,
      limit: 30,
    });
    expect(lobbyists.total).toBe(DEMO_ORGANIZATIONS.filter((o) => o.group === 'Lobbyists').length);
    expect(lobbyists.organizations.every((o: { group_type: string }) => o.group_type === 'Lobbyists')).toBe(
      true,
    );
    const capitolUnions = await rpc('searchOrganizations', {
      text: 'capitol',
      group: 'Unions',
      offset: 0,
      limit: 30,
    });
    expect(
      capitolUnions.organizations.map((o: { organization_name: string }) => o.organization_name),
    ).toEqual(['Capitol Transit Workers Local 4417']);
  });

  it('never lists the product’s own organization, but finds it by id and by name lookup', async () => {
    expect(
      (await rpc('searchOrganizations', { text: 'rotunda', group: '', offset: 0, limit: 30 })).total,
    ).toBe(0);
    expect(
      (
        await rpc('searchOrganizations', { text: '', group: 'Other', offset: 0, limit: 30 })
      ).organizations.map((o: { organization_name: string }) => o.organization_name),
    ).not.toContain('Rotunda');
    const id = await idOf('Rotunda');
    expect((await rpc('getOrganization', { organization_id: id })).organization?.organization_name).toBe(
      'Rotunda',
    );
    const { organizations } = await rpc('findOrganizationsByName', { name: 'rotunda' });
    expect(organizations.map((o: { organization_name: string }) => o.organization_name)).toEqual(['Rotunda']);
  });

  it('refuses an unknown group', async () => {
    expect(
      await refusal(rpc('searchOrganizations', { text: '', group: 'Pirates', offset: 0, limit: 30 })),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: expect.stringContaining('Unknown type of organization "Pirates"'),
    });
  });

  it('GetOrganization answers every field and the divisions by name', async () => {
    const id = await idOf('Department of Water Stewardship');
    const { organization, divisions } = await rpc('getOrganization', { organization_id: id });
    expect(organization).toMatchObject({
      organization_id: id,
      organization_name: 'Department of Water Stewardship',
      group_type: 'Agencies',
      street_address: '715 P Street',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      main_phone: '(916) 555-0108',
      website: 'https://waterstewardship.example.org',
      linkedin_url: 'https://www.linkedin.com/company/waterstewardship-demo',
      logo: expect.stringMatching(/^\/media\/logos\/\d{4}\/\d\d\/[0-9a-f-]{36}\.png$/),
    });
    expect(organization?.lobby_filer_id).toBeUndefined();
    expect(divisions.map((d: { division_name: string }) => d.division_name)).toEqual([
      'Central Valley Flood Safety Board',
      'Dam Safety Division',
      'Drought Response Unit',
      'Groundwater Management Division',
      'Office of Tribal Affairs',
      'Office of the Director',
    ]);
    expect(
      divisions.find((d: { division_name: string }) => d.division_name === 'Drought Response Unit'),
    ).toMatchObject({
      active_division: false,
      organization_id: id,
      organization_name: 'Department of Water Stewardship',
    });
  });

  it('answers NOT_FOUND for an unknown organization', async () => {
    for (const organization_id of [0, -3, 999_999]) {
      expect(await refusal(rpc('getOrganization', { organization_id }))).toEqual({
        code: status.NOT_FOUND,
        details: 'Organization not found',
      });
    }
    expect(await refusal(rpc('listDivisions', { organization_id: 999_999 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Organization not found',
    });
  });

  it('name lookups answer at most 5, every word matching, by name', async () => {
    const many = await rpc('findOrganizationsByName', { name: 'a' });
    expect(many.organizations).toHaveLength(5);
    // Six names hold both words; the first five by name are answered.
    const capped = await rpc('findOrganizationsByName', { name: 'office of' });
    expect(capped.organizations.map((o: { organization_name: string }) => o.organization_name)).toEqual([
      "Governor's Office of Planning and Innovation",
      'Office of Assemblymember David Okafor',
      'Office of Digital Services',
      'Office of Senator Elena Marquez',
      'Office of the Governor',
    ]);
    const one = await rpc('findOrganizationsByName', { name: 'SENATOR office' });
    expect(one.organizations.map((o: { organization_name: string }) => o.organization_name)).toEqual([
      'Office of Senator Elena Marquez',
    ]);
    expect((await rpc('findOrganizationsByName', { name: '  ' })).organizations).toEqual([]);
    // LIKE wildcards are literal characters, never "anything".
    expect((await rpc('findDivisionsByName', { name: '%' })).divisions).toEqual([]);
    const divisions = await rpc('findDivisionsByName', { name: 'office' });
    expect(divisions.divisions).toHaveLength(5);
    const board = await rpc('findDivisionsByName', { name: 'FLOOD board' });
    expect(board.divisions.map((d: { division_name: string }) => d.division_name)).toEqual([
      'Central Valley Flood Safety Board',
    ]);
    // Inactive divisions are not offered.
    expect((await rpc('findDivisionsByName', { name: 'drought' })).divisions).toEqual([]);
  });
});

describe('adding over gRPC', () => {
  it('lets any member add an organization, formatted, found in the list at once', async () => {
    const { organization, created } = await rpc(
      'addOrganization',
      {
        organization_name: '  Harbor Lights Coalition ',
        group_type: 'associations',
        fields: {
          street_address: '1 capitol mall',
          city: 'sacramento',
          state: 'ca',
          main_phone: '9165550177',
        },
      },
      MEMBER,
    );
    expect(created).toBe(true);
    expect(organization).toMatchObject({
      organization_name: 'Harbor Lights Coalition',
      group_type: 'Associations',
      street_address: '1 Capitol Mall',
      city: 'Sacramento',
      state: 'CA',
      main_phone: '(916) 555-0177',
    });
    const found = await rpc('searchOrganizations', {
      text: 'harbor lights',
      group: '',
      offset: 0,
      limit: 30,
    });
    expect(found.organizations.map((o: { organization_id: number }) => o.organization_id)).toEqual([
      organization?.organization_id,
    ]);
  });

  it('answers the existing organization when the name is taken (any case)', async () => {
    const id = await idOf('Delta Policy Lab');
    const again = await rpc(
      'addOrganization',
      { organization_name: 'delta policy LAB', group_type: 'Other' },
      MEMBER,
    );
    expect(again).toMatchObject({ created: false, organization: { organization_id: id } });
  });

  it('makes one organization when two members add the same name at once', async () => {
    const add = () =>
      rpc('addOrganization', { organization_name: 'Twin Add Test Council', group_type: 'Other' }, MEMBER);
    const answers = await Promise.all([add(), add(), add()]);
    expect(new Set(answers.map((a) => a.organization?.organization_id)).size).toBe(1);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
  });

  it('refuses a visitor, a missing name or type, an unknown type, and a link that is not http(s)', async () => {
    expect(await refusal(rpc('addOrganization', { organization_name: 'X', group_type: 'Other' }))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'Access Restricted. Please login.',
    });
    expect(await refusal(rpc('addOrganization', { organization_name: ' ', group_type: '' }, MEMBER))).toEqual(
      {
        code: status.INVALID_ARGUMENT,
        details:
          'Please provide entries for the following required fields: Organization Name, Type of Organization',
      },
    );
    expect(
      (await refusal(rpc('addOrganization', { organization_name: 'X', group_type: 'Guilds' }, MEMBER))).code,
    ).toBe(status.INVALID_ARGUMENT);
    expect(
      await refusal(
        rpc(
          'addOrganization',
          {
            organization_name: 'New Agency',
            group_type: 'Agencies',
            fields: { website: 'javascript:alert(1)' },
          },
          MEMBER,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Website must be a web address starting with http:// or https://.',
    });
  });

  it('refuses a name without letters ("0", "1e+308", "----"), for members and contributors, adding nothing', async () => {
    const before = await prisma.organization.count();
    for (const organization_name of ['0', '1e+308', ' ---- ', '0x1F'])
      for (const caller of [MEMBER, CONTRIBUTOR])
        expect(
          await refusal(rpc('addOrganization', { organization_name, group_type: 'Other' }, caller)),
        ).toEqual({
          code: status.INVALID_ARGUMENT,
          details: 'Organization Name must contain letters, not only numbers or symbols.',
        });
    expect(await prisma.organization.count()).toBe(before);
    const { organization } = await rpc(
      'addOrganization',
      { organization_name: '3M', group_type: 'Other' },
      MEMBER,
    );
    expect(organization?.organization_name).toBe('3M');
  });

  it('refuses a member’s Cal-Access ID, adding nothing; a member sending it blank adds the organization without one', async () => {
    const before = await prisma.organization.count();
    expect(
      await refusal(
        rpc(
          'addOrganization',
          {
            organization_name: 'Sierra Hops Growers',
            group_type: 'Associations',
            fields: { lobby_filer_id: '9100555' },
          },
          MEMBER,
        ),
      ),
    ).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Only contributors can set or correct a Cal-Access ID.',
    });
    expect(await prisma.organization.count()).toBe(before);
    const { organization, created } = await rpc(
      'addOrganization',
      {
        organization_name: 'Sierra Hops Growers',
        group_type: 'Associations',
        fields: { lobby_filer_id: ' ' },
      },
      MEMBER,
    );
    expect(created).toBe(true);
    expect(organization?.lobby_filer_id).toBeUndefined();
  });

  it('lets a contributor add an organization with a Cal-Access ID, for its groups and as a filer number only', async () => {
    const { organization, created } = await rpc(
      'addOrganization',
      {
        organization_name: 'Redwood Advocacy Group',
        group_type: 'Lobbyists',
        fields: { lobby_filer_id: ' 1401234 ' },
      },
      CONTRIBUTOR,
    );
    expect(created).toBe(true);
    expect(organization?.lobby_filer_id).toBe('1401234');
    const before = await prisma.organization.count();
    expect(
      await refusal(
        rpc(
          'addOrganization',
          { organization_name: 'New Agency', group_type: 'Agencies', fields: { lobby_filer_id: '123' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'A Cal-Access ID applies only to Lobbyists, Associations and Unions.',
    });
    for (const lobby_filer_id of ['1e+308', 'F-12', '1234567890'])
      expect(
        await refusal(
          rpc(
            'addOrganization',
            { organization_name: 'Pine Lobby Partners', group_type: 'Lobbyists', fields: { lobby_filer_id } },
            CONTRIBUTOR,
          ),
        ),
      ).toEqual({
        code: status.INVALID_ARGUMENT,
        details:
          'The Cal-Access ID is the filer number from the lobbying disclosure site: digits only, e.g. 1234567.',
      });
    expect(await prisma.organization.count()).toBe(before);
  });

  it('lets any member add a division; same name answers the existing one; unknown organization, blank name or one without letters refused', async () => {
    const id = await idOf('Coastal Lands Commission');
    const { division, created } = await rpc(
      'addDivision',
      {
        organization_id: id,
        division_name: 'Office of Public Access',
        division_type: '',
        city: 'sacramento',
        state: 'ca',
        division_phone: '9165550188',
      },
      MEMBER,
    );
    expect(created).toBe(true);
    expect(division).toMatchObject({
      division_name: 'Office of Public Access',
      division_type: 'Division',
      active_division: true,
      organization_id: id,
      organization_name: 'Coastal Lands Commission',
      city: 'Sacramento',
      state: 'CA',
      division_phone: '(916) 555-0188',
    });
    const again = await rpc(
      'addDivision',
      { organization_id: id, division_name: 'office of public ACCESS' },
      MEMBER,
    );
    expect(again).toMatchObject({ created: false, division: { division_id: division?.division_id } });
    expect((await rpc('listDivisions', { organization_id: id })).divisions).toHaveLength(1);
    expect(
      await refusal(rpc('addDivision', { organization_id: 999_999, division_name: 'X' }, MEMBER)),
    ).toEqual({
      code: status.NOT_FOUND,
      details: 'Organization not found',
    });
    expect(await refusal(rpc('addDivision', { organization_id: id, division_name: '' }, MEMBER))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Division Name',
    });
    for (const division_name of ['0', '1e+308', '----'])
      expect(await refusal(rpc('addDivision', { organization_id: id, division_name }, MEMBER))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'Division Name must contain letters, not only numbers or symbols.',
      });
    expect((await rpc('listDivisions', { organization_id: id })).divisions).toHaveLength(1);
    expect((await refusal(rpc('addDivision', { organization_id: id, division_name: 'Y' }))).code).toBe(
      status.UNAUTHENTICATED,
    );
  });
});

describe('updating over gRPC', () => {
  it('refuses a member, and a visitor', async () => {
    const id = await idOf('Two Rivers Legal Aid');
    const request = { organization_id: id, organization_name: 'Hijacked' };
    expect(await refusal(rpc('updateOrganization', request, MEMBER))).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Contributors only',
    });
    expect((await refusal(rpc('updateOrganization', request))).code).toBe(status.UNAUTHENTICATED);
    expect((await rpc('getOrganization', { organization_id: id })).organization?.organization_name).toBe(
      'Two Rivers Legal Aid',
    );
  });

  it('refuses a missing name or street address, an unknown id', async () => {
    const id = await idOf('Two Rivers Legal Aid');
    const before = (await rpc('getOrganization', { organization_id: id })).organization;
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, organization_name: '  ', fields: { street_address: '1 Capitol Mall' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Organization Name',
    });
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, organization_name: 'Two Rivers Legal Aid', fields: { street_address: '' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Street Address',
    });
    expect((await rpc('getOrganization', { organization_id: id })).organization).toEqual(before);
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, organization_name: '', fields: { street_address: ' ' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide entries for the following required fields: Organization Name, Street Address',
    });
    expect(
      await refusal(
        rpc('updateOrganization', { organization_id: 999_999, organization_name: 'X' }, CONTRIBUTOR),
      ),
    ).toEqual({ code: status.NOT_FOUND, details: 'Organization not found' });
  });

  it('formats and stores the edit; absent fields are kept, empty ones cleared', async () => {
    const id = await idOf('Two Rivers Legal Aid');
    const updated = await rpc(
      'updateOrganization',
      {
        organization_id: id,
        fields: {
          street_address: '515 twelfth street of the river',
          suite_number: 'suite 5',
          state: 'ca',
          main_phone: '916 555 0136',
          website: 'www.tworivers.example.org',
          facebook_url: '',
          tiktok_url: 'https://www.tiktok.com/@tworiversdemo',
        },
      },
      CONTRIBUTOR,
    );
    expect(updated).toMatchObject({
      organization_name: 'Two Rivers Legal Aid',
      street_address: '515 Twelfth Street of the River',
      suite_number: 'Suite 5',
      city: 'Sacramento',
      state: 'CA',
      main_phone: '(916) 555-0136',
      website: 'https://www.tworivers.example.org',
      tiktok_url: 'https://www.tiktok.com/@tworiversdemo',
    });
    expect(updated.facebook_url).toBeUndefined();
    // The list's card comes from the search index's stored copy: it shows the edit at once.
    const listed = await rpc('searchOrganizations', { text: 'two rivers', group: '', offset: 0, limit: 5 });
    expect(listed.organizations).toEqual([updated]);
  });

  it('refuses links that are not http(s)', async () => {
    const id = await idOf('Two Rivers Legal Aid');
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, fields: { linkedin_url: 'javascript:alert(1)' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'LinkedIn must be a web address starting with http:// or https://.',
    });
  });

  it('lets a contributor set, correct and clear a Cal-Access ID for Lobbyists, Associations and Unions', async () => {
    const union = await idOf('Valley Teachers Federation');
    const filerId = async () =>
      (await rpc('getOrganization', { organization_id: union })).organization?.lobby_filer_id;
    const set = await rpc(
      'updateOrganization',
      { organization_id: union, fields: { lobby_filer_id: ' 9100129 ' } },
      CONTRIBUTOR,
    );
    expect(set.lobby_filer_id).toBe('9100129');
    // Not sending it keeps it.
    await rpc('updateOrganization', { organization_id: union, fields: { city: 'Davis' } }, CONTRIBUTOR);
    expect(await filerId()).toBe('9100129');
    const corrected = await rpc(
      'updateOrganization',
      { organization_id: union, fields: { lobby_filer_id: '9100192' } },
      CONTRIBUTOR,
    );
    expect(corrected.lobby_filer_id).toBe('9100192');
    await rpc('updateOrganization', { organization_id: union, fields: { lobby_filer_id: '' } }, CONTRIBUTOR);
    expect(await filerId()).toBeUndefined();
    await rpc(
      'updateOrganization',
      { organization_id: union, fields: { lobby_filer_id: '9100129' } },
      CONTRIBUTOR,
    );
    expect(await filerId()).toBe('9100129');
  });

  it('refuses a Cal-Access ID that is not a filer number or outside its groups, and a member’s, changing nothing', async () => {
    const union = await idOf('Valley Teachers Federation');
    const before = (await rpc('getOrganization', { organization_id: union })).organization;
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: union, fields: { lobby_filer_id: '91-00129' } },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details:
        'The Cal-Access ID is the filer number from the lobbying disclosure site: digits only, e.g. 1234567.',
    });
    expect(
      await refusal(
        rpc('updateOrganization', { organization_id: union, fields: { lobby_filer_id: '1' } }, MEMBER),
      ),
    ).toEqual({ code: status.PERMISSION_DENIED, details: 'Contributors only' });
    expect((await rpc('getOrganization', { organization_id: union })).organization).toEqual(before);
    const agency = await idOf('Coastal Lands Commission');
    expect(
      await refusal(
        rpc('updateOrganization', { organization_id: agency, fields: { lobby_filer_id: '1' } }, CONTRIBUTOR),
      ),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'A Cal-Access ID applies only to Lobbyists, Associations and Unions.',
    });
    expect(
      (await rpc('getOrganization', { organization_id: agency })).organization?.lobby_filer_id,
    ).toBeUndefined();
  });

  it('refuses a rename to a name without letters, changing nothing', async () => {
    const id = await idOf('Delta Policy Lab');
    const before = (await rpc('getOrganization', { organization_id: id })).organization;
    for (const organization_name of ['0', '1e+308', '----'])
      expect(
        await refusal(rpc('updateOrganization', { organization_id: id, organization_name }, CONTRIBUTOR)),
      ).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'Organization Name must contain letters, not only numbers or symbols.',
      });
    expect((await rpc('getOrganization', { organization_id: id })).organization).toEqual(before);
  });

  it('finds a renamed organization by its new name at once, and no longer by the old one', async () => {
    const id = await idOf('Golden Poppy Research Center');
    await rpc(
      'updateOrganization',
      { organization_id: id, organization_name: 'Marigold Civic Research' },
      CONTRIBUTOR,
    );
    const byNew = await rpc('searchOrganizations', {
      text: 'marigold civic',
      group: '',
      offset: 0,
      limit: 30,
    });
    expect(byNew.organizations.map((o: { organization_id: number }) => o.organization_id)).toEqual([id]);
    expect((await rpc('searchOrganizations', { text: 'poppy', group: '', offset: 0, limit: 30 })).total).toBe(
      0,
    );
    expect((await rpc('findOrganizationsByName', { name: 'marigold' })).organizations).toHaveLength(1);
  });

  it('refuses a rename to another organization’s name, naming it as it is written', async () => {
    const id = await idOf('Delta Policy Lab');
    expect(
      await refusal(
        rpc(
          'updateOrganization',
          { organization_id: id, organization_name: 'two rivers legal aid' },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({
      code: status.ALREADY_EXISTS,
      details: 'An organization named "Two Rivers Legal Aid" already exists.',
    });
  });
});

describe('logos over gRPC', () => {
  const png = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#2a7f62' } })
      .png()
      .toBuffer();

  it('stores a resized logo under a new key, points the organization at it and removes the replaced one', async () => {
    const id = await idOf('Tower Bridge Strategies');
    const before = (await rpc('getOrganization', { organization_id: id })).organization?.logo as string;
    const { url } = await rpc(
      'setOrganizationLogo',
      { organization_id: id, image: await png(1200, 900) },
      CONTRIBUTOR,
    );
    expect(url).toMatch(/^\/media\/logos\/\d{4}\/\d\d\/[0-9a-f-]{36}\.png$/);
    expect((await rpc('getOrganization', { organization_id: id })).organization?.logo).toBe(url);
    const stored = await store.get(mediaKeyOf(url) as string);
    expect(stored?.contentType).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const chunk of stored?.stream ?? []) chunks.push(chunk as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ width: 450, height: 338 });
    expect(await store.get(mediaKeyOf(before) as string)).toBeNull();
    const listed = await rpc('searchOrganizations', { text: 'tower bridge', group: '', offset: 0, limit: 5 });
    expect(listed.organizations.map((o: { logo?: string }) => o.logo)).toEqual([url]);
  });

  it('refuses a member and a visitor', async () => {
    const id = await idOf('Tower Bridge Strategies');
    const image = await png(10, 10);
    expect(await refusal(rpc('setOrganizationLogo', { organization_id: id, image }, MEMBER))).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Contributors only',
    });
    expect((await refusal(rpc('setOrganizationLogo', { organization_id: id, image }))).code).toBe(
      status.UNAUTHENTICATED,
    );
  });

  it('refuses the wrong image type by content, whatever the name', async () => {
    const id = await idOf('Tower Bridge Strategies');
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const image of [gif, svg, Buffer.from('not an image at all')]) {
      expect(await refusal(rpc('setOrganizationLogo', { organization_id: id, image }, CONTRIBUTOR))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: FORMAT,
      });
    }
  });

  it('refuses an oversize upload and a pixel bomb', async () => {
    const id = await idOf('Tower Bridge Strategies');
    const oversize = Buffer.concat([await png(10, 10), Buffer.alloc(11 * 1024 * 1024)]);
    expect(
      await refusal(rpc('setOrganizationLogo', { organization_id: id, image: oversize }, CONTRIBUTOR)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: TOO_LARGE,
    });
    // 50 megapixels of one colour: a small file that would decode to 150 MB.
    const bomb = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    expect(
      await refusal(rpc('setOrganizationLogo', { organization_id: id, image: bomb }, CONTRIBUTOR)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: TOO_LARGE,
    });
  });

  it('refuses an empty upload and an unknown organization', async () => {
    expect(
      await refusal(
        rpc(
          'setOrganizationLogo',
          { organization_id: await idOf('Tower Bridge Strategies'), image: Buffer.alloc(0) },
          CONTRIBUTOR,
        ),
      ),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: 'Please select an image to upload.' });
    expect(
      await refusal(
        rpc('setOrganizationLogo', { organization_id: 999_999, image: await png(10, 10) }, CONTRIBUTOR),
      ),
    ).toEqual({ code: status.NOT_FOUND, details: 'Organization not found' });
  });
});

describe('names for other services (ADR 0012)', () => {
  /** Listens on the change channel while `act` runs; answers what was announced, in order. */
  async function announced(act: () => Promise<unknown>): Promise<Change[]> {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    await act();
    await expect.poll(() => heard.length).toBeGreaterThan(0);
    await listener.close();
    return heard;
  }

  it('announces an added or renamed organization and an added division, as stored', async () => {
    const changes = await announced(async () => {
      const { organization } = await rpc(
        'addOrganization',
        {
          organization_name: 'Sierra Water Alliance',
          group_type: 'Associations',
          fields: { street_address: '1 Capitol Mall' },
        },
        MEMBER,
      );
      const id = organization?.organization_id ?? 0;
      await rpc(
        'updateOrganization',
        { organization_id: id, organization_name: 'Sierra Water Coalition' },
        CONTRIBUTOR,
      );
      await rpc(
        'addDivision',
        { organization_id: id, division_name: 'capitol office', city: 'sacramento' },
        MEMBER,
      );
    });
    await expect.poll(() => changes.length).toBe(3);
    expect(changes.map((change) => change.kind)).toEqual(['organization', 'organization', 'division']);
    expect(changes[1]).toMatchObject({
      organization_name: 'Sierra Water Coalition',
      group_type: 'Associations',
    });
    expect(changes[2]).toMatchObject({ division_name: 'capitol office', city: 'Sacramento' });
  });

  it('announces nothing for a refused write', async () => {
    const heard: Change[] = [];
    const listener = listenForChanges({ databaseUrl, logger, onChange: (change) => void heard.push(change) });
    await listener.ready;
    const id = await idOf('Delta Policy Lab');
    await refusal(
      rpc(
        'updateOrganization',
        { organization_id: id, organization_name: 'Two Rivers Legal Aid' },
        CONTRIBUTOR,
      ),
    );
    await rpc(
      'addOrganization',
      { organization_name: 'Tahoe Basin Partners', group_type: 'Other', fields: {} },
      MEMBER,
    );
    await expect.poll(() => heard.length).toBe(1);
    await listener.close();
    expect(heard[0]).toMatchObject({ kind: 'organization', organization_name: 'Tahoe Basin Partners' });
  });

  it('ExportNames answers every organization, the hidden one too, and every division', async () => {
    const { organizations, divisions } = await rpc('exportNames', {});
    expect(organizations).toHaveLength(await prisma.organization.count());
    expect(divisions).toHaveLength(await prisma.division.count());
    expect(organizations.map((o: { organization_name: string }) => o.organization_name)).toContain('Rotunda');
    expect(organizations[0]).toHaveProperty('group_type');
  });

  it('ExportNames pages by id: small pages give every organization and division once, in order', async () => {
    const whole = await rpc('exportNames', {});
    const organizationIds: number[] = [];
    const divisionIds: number[] = [];
    let pages = 0;
    for (let after = { organization: 0, division: 0 }; ; pages++) {
      const page = await rpc('exportNames', {
        after_organization_id: after.organization,
        after_division_id: after.division,
        limit: 3,
      });
      expect(page.organizations.length).toBeLessThanOrEqual(3);
      expect(page.divisions.length).toBeLessThanOrEqual(3);
      organizationIds.push(...page.organizations.map((o: { organization_id: number }) => o.organization_id));
      divisionIds.push(...page.divisions.map((d: { division_id: number }) => d.division_id));
      if (page.organizations.length < 3 && page.divisions.length < 3) break;
      after = {
        organization: page.organizations.at(-1)?.organization_id ?? after.organization,
        division: page.divisions.at(-1)?.division_id ?? after.division,
      };
    }
    expect(pages).toBeGreaterThan(1);
    expect(organizationIds).toEqual(
      whole.organizations.map((o: { organization_id: number }) => o.organization_id),
    );
    expect(divisionIds).toEqual(whole.divisions.map((d: { division_id: number }) => d.division_id));
    expect(organizationIds).toEqual([...organizationIds].sort((a, b) => a - b));
    expect(divisionIds).toEqual([...divisionIds].sort((a, b) => a - b));
  });

  it('ExportNames with limit 0 answers everything, as the previous release did', async () => {
    const whole = await rpc('exportNames', { after_organization_id: 0, after_division_id: 0, limit: 0 });
    expect(whole.organizations).toHaveLength(await prisma.organization.count());
    expect(whole.divisions).toHaveLength(await prisma.division.count());
  });

  it('ExportNames refuses a negative limit or one above the longest page', async () => {
    const message = `A page of names holds 1 to ${EXPORT_NAMES_MAX_LIMIT} rows (0: every one).`;
    for (const limit of [-1, EXPORT_NAMES_MAX_LIMIT + 1])
      expect(await refusal(rpc('exportNames', { limit }))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: message,
      });
  });
});

describe('search index upkeep', () => {
  it('rebuilds an emptied index on sync and leaves one in step alone', async () => {
    expect(await org.syncSearchIndex()).toBe(0);
    await index.clear();
    const count = await prisma.organization.count();
    expect(await org.syncSearchIndex()).toBe(count);
    expect(
      (await rpc('searchOrganizations', { text: 'marigold', group: '', offset: 0, limit: 30 })).total,
    ).toBe(1);
  });

  /**
   * Leaves the index as many documents as the table, but wrong ones (as a restored database or a changed mapping
   * would): one organization under a stale name, one missing, one that does not exist. Answers the two real ones.
   */
  async function corruptIndex() {
    const [renamed, missing] = await repository.listVisible();
    if (!renamed || !missing) throw new Error('the seed has organizations');
    await index.upsert([
      searchDocumentOf({ ...renamed, organizationName: 'Stale Quokka Name' }),
      searchDocumentOf({ ...renamed, organizationId: 987_654_321, organizationName: 'Ghost Quokka Society' }),
    ]);
    await index.remove([String(missing.organizationId)]);
    expect(await org.syncSearchIndex()).toBe(0);
    expect((await search('quokka')).total).toBe(2);
    return { renamed: renamed.organizationName, missing: missing.organizationName };
  }

  const search = (text: string) => org.searchOrganizations({ text, group: '', offset: 0, limit: 30 });

  async function expectRebuilt({ renamed, missing }: { renamed: string; missing: string }) {
    expect((await search('quokka')).total).toBe(0);
    expect((await search(renamed)).organizations.map((o) => o.organizationName)).toContain(renamed);
    expect((await search(missing)).organizations.map((o) => o.organizationName)).toContain(missing);
  }

  it('rebuilds an index holding wrong documents on a forced reindex, which sync alone does not notice', async () => {
    const names = await corruptIndex();
    expect(await org.reindexAll()).toEqual({ rebuilt: true, documents: await prisma.organization.count() });
    await expectRebuilt(names);
  });

  it('runs one rebuild at a time: a reindex meanwhile says so, exits 75 and changes nothing', async () => {
    const before = await search('');
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let reading: () => void = () => {};
    const holdsLock = new Promise<void>((resolve) => {
      reading = resolve;
    });
    // Another process's rebuild, holding the index's rebuild lock until the gate opens; it reads its source only
    // once it holds the lock.
    const running = index.rebuild({
      eachPage: () => {
        reading();
        return gate;
      },
      documents: async () => [],
    });
    await holdsLock;
    try {
      expect(await org.reindexAll()).toEqual({ rebuilt: false });
      const refused = await promisify(execFile)(
        process.execPath,
        [new URL('../src/reindex.ts', import.meta.url).pathname],
        { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } },
      ).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(refused).toMatchObject({
        code: 75,
        stdout: '',
        stderr:
          'reindex organizations: another process is rebuilding the index now; nothing done, try again when it is finished\n',
      });
      expect(await search('')).toEqual(before);
    } finally {
      open();
    }
    // The gated rebuild read nothing: its new generation is empty, and the next sync brings the index back.
    expect(await running).toEqual({ rebuilt: true, documents: 0 });
    expect(await org.syncSearchIndex()).toBe(await prisma.organization.count());
    expect(await search('')).toEqual(before);
  });

  it('rebuilds it from the command line: npm run admin -- reindex organizations', async () => {
    const names = await corruptIndex();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [new URL('../../../tools/admin/src/main.ts', import.meta.url).pathname, 'reindex', 'organizations'],
      { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } },
    );
    expect(stdout).toMatch(
      new RegExp(
        `^organizations: the index now holds ${await prisma.organization.count()} documents \\(rebuilt in [\\d.]+ s\\)\n$`,
      ),
    );
    await expectRebuilt(names);
  });
});
