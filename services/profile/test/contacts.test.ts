// The directory's 'Other' group and the work contacts (ExportDirectory, GetContactCard), on the profile service
// wired as its composition root wires it, against a real PostgreSQL and over real gRPC: an index built before
// 'Other' existed is rebuilt when the service starts; 'Other' selects people at an organization of the group
// Other and people with no current organization, no one else; an export holds exactly the people the search
// selects, in the directory's order, at most 5,000, with no personal contact detail even in its bytes, and counts
// against the member's allowance of bulk downloads; a contact card answers the same fields, NOT_FOUND otherwise.
import { Metadata, status } from '@grpc/grpc-js';
import {
  type DirectoryContact,
  type DirectoryPage,
  ExportDirectoryRequest,
  type ProfileServiceClient,
  ProfileServiceService,
} from '@rotunda/protos/profile';
import { OTHER_GROUP } from '@rotunda/rules';
import { searchIndexFromConfig } from '@rotunda/search';
import { type Caller, createLogger, migrate, setCallerMetadata } from '@rotunda/service-kit';
import { createTestDatabase, refusal, rpcCalls } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileConfigSchema } from '../src/config.ts';
import { EXPORT_LIMIT } from '../src/domain/contacts.ts';
import { wireProfile } from '../src/wiring.ts';
import { serveProfile } from './support/profile-under-test.ts';

const logger = createLogger('profile-contacts-test', 'silent');
const root = new URL('..', import.meta.url).pathname;
const LOGIN = 'Access Restricted. Please login.';
const TOO_MANY = /^Too many directory downloads\. Try again in (\d+) seconds\.$/;
const CONTACT_FIELDS = [
  'profile_id',
  'first_name',
  'last_name',
  'title',
  'organization_name',
  'division_name',
  'work_email',
  'office_phone',
];

let databaseUrl: string;
let admin: pg.Client;
let wired: Awaited<ReturnType<typeof wireProfile>>;
let served: Awaited<ReturnType<typeof serveProfile>>;
let client: ProfileServiceClient;
/** How many documents the service's start rebuilt its index with (an index of the old definition was there). */
let rebuiltAtStart: number;

let memberCount = 0;
const member = (): Caller => ({ userId: `member-${++memberCount}`, email: 'm@demo.ca.gov', roles: [] });

/** Inserts a profile (and its jobs: [organization id, title, current, division id]) straight into the tables. */
async function person(
  first: string,
  last: string,
  jobs: [organizationId: number, title: string, current: boolean, divisionId?: number][] = [],
  personal: { email?: string; mobile?: string; birthday?: string } = {},
): Promise<number> {
  const { rows } = await admin.query<{ profile_id: number }>(
    `INSERT INTO profile.profiles (first_name, last_name, work_email, other_phone, personal_email, mobile_phone,
       birthday, updated_at)
     VALUES ($1, $2, $3, '(916) 555-0100', $4, $5, $6, now()) RETURNING profile_id`,
    [
      first,
      last,
      `${first}.${last}@work.example.org`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
      personal.email ?? null,
      personal.mobile ?? null,
      personal.birthday ?? null,
    ],
  );
  const profileId = rows[0]?.profile_id as number;
  for (const [index, [organizationId, title, current, divisionId]] of jobs.entries())
    await admin.query(
      `INSERT INTO profile.job_experiences (profile_id, title, organization_id, division_id, street_address, city,
         state, zip_code, start_date, end_date, current_job, updated_at)
       VALUES ($1, $2, $3, $4, '1 K Street', 'Sacramento', 'CA', '95814', $5, $6, $7, now())`,
      [
        profileId,
        title,
        organizationId,
        divisionId ?? null,
        `20${10 + index}-01-01`,
        current ? null : '2019-01-01',
        current,
      ],
    );
  await wired.directory.profilesChanged([profileId]);
  return profileId;
}

/** A streamed call's metadata: `caller`'s, or none for a visitor. */
function metadataOf(caller?: Caller) {
  const metadata = new Metadata();
  if (caller) setCallerMetadata(metadata, caller);
  return metadata;
}

const rpc = rpcCalls(ProfileServiceService, () => client);

function search(
  query: { search?: string; group?: string },
  caller: Caller = member(),
): Promise<DirectoryPage> {
  return rpc('searchDirectory', { offset: 0, limit: 100, ...query }, caller);
}

function exportDirectory(
  query: { search?: string; group?: string; issue_id?: number },
  caller?: Caller,
): Promise<DirectoryContact[]> {
  const rows: DirectoryContact[] = [];
  return new Promise((resolve, reject) =>
    client
      .exportDirectory({ search: '', group: '', ...query }, metadataOf(caller))
      .on('data', (row: DirectoryContact) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows)),
  );
}

/** The export's bytes as they travel. */
function rawExport(query: { search: string; group: string }, caller: Caller): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) =>
    client
      .makeServerStreamRequest(
        '/rotunda.profile.v1.ProfileService/ExportDirectory',
        () => Buffer.from(ExportDirectoryRequest.encode(query).finish()),
        (bytes: Buffer) => bytes,
        {},
        metadataOf(caller),
      )
      .on('data', (bytes: Buffer) => chunks.push(bytes))
      .on('error', reject)
      .on('end', () => resolve(Buffer.concat(chunks))),
  );
}

const contactCard = (profileId: number, caller?: Caller): Promise<DirectoryContact> =>
  rpc('getContactCard', { profile_id: profileId }, caller);

const names = (rows: readonly { first_name: string; last_name: string }[]) =>
  rows.map((row) => `${row.first_name} ${row.last_name}`);

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'profile', migrationsDir: `${root}prisma/migrations`, logger });
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(
    `INSERT INTO profile.organizations (organization_id, organization_name, group_type) VALUES
       (1, 'Capitol Bridge Advocates', 'Lobbyists'), (2, 'Department of Water Stewardship', 'Agencies'),
       (3, 'Delta Farmers, "Growers" & Co', 'Other'), (4, 'Yes on 12', 'Campaigns')`,
  );
  await admin.query(
    `INSERT INTO profile.divisions (division_id, division_name, division_type, active_division, organization_id)
     VALUES (21, 'Groundwater Division', 'Division', true, 2)`,
  );
  // An index as the service built it before 'Other': the group filter's field was then called `group`.
  const config = profileConfigSchema.parse({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const before = searchIndexFromConfig(
    { ...config, SEARCH_IN_MEMORY: false },
    {
      textFields: ['first_name', 'last_name', 'title', 'organization', 'division'],
      keywordFields: ['group', 'issue'],
      sortFields: [{ name: 'name', type: 'text' }],
      stored: true,
    },
  );
  await before.ensure();
  await admin.query(
    `INSERT INTO profile.profiles (first_name, last_name, work_email, updated_at)
     VALUES ('Nadia', 'Upgrade', 'nadia.upgrade@work.example.org', now())`,
  );
  await before.upsert([
    {
      id: '1',
      text: { first_name: 'Nadia', last_name: 'Upgrade', title: '', organization: '', division: '' },
      keywords: { group: [], issue: [] },
      sort: { name: 'upgrade\u0001nadia' },
    },
  ]);
  await before.close();
  // What main.ts does when the service starts.
  wired = await wireProfile(config, logger);
  rebuiltAtStart = await wired.directory.rebuildIfOutOfStep();
  served = await serveProfile(wired, logger);
  client = served.client;
});

afterAll(async () => {
  await served?.close();
  await wired?.close();
  await admin?.end();
});

describe("the directory's 'Other' group", () => {
  it('rebuilds an index built before Other existed when the service starts, and answers Other at once', async () => {
    expect(rebuiltAtStart).toBe(1);
    expect(names((await search({ group: OTHER_GROUP, search: 'upgrade' })).profiles)).toEqual([
      'Nadia Upgrade',
    ]);
  });

  it('selects people at an organization of the group Other and people without a current one, no one else', async () => {
    await person('Olive', 'Othertest', [[3, 'Grower', true]]);
    await person('Noel', 'Othertest');
    await person('Pat', 'Othertest', [[1, 'Partner', false]]);
    await person('Lena', 'Othertest', [[1, 'Partner', true]]);
    await person('Cam', 'Othertest', [[4, 'Field Director', true]]);
    await person('Mia', 'Othertest', [
      [2, 'Analyst', true],
      [3, 'Board Member', true],
    ]);
    expect(names((await search({ group: OTHER_GROUP, search: 'othertest' })).profiles)).toEqual([
      'Mia Othertest',
      'Noel Othertest',
      'Olive Othertest',
      'Pat Othertest',
    ]);
    expect(names((await search({ group: 'Lobbyists', search: 'othertest' })).profiles)).toEqual([
      'Lena Othertest',
    ]);
    expect((await search({ search: 'othertest' })).total).toBe(6);
  });

  it('moves a person out of Other when they take a job, and back when it ends', async () => {
    const profileId = await person('Jo', 'Mover');
    expect((await search({ group: OTHER_GROUP, search: 'mover' })).total).toBe(1);
    await admin.query(
      `INSERT INTO profile.job_experiences (profile_id, title, organization_id, street_address, city, state,
         zip_code, start_date, current_job, updated_at)
       VALUES ($1, 'Analyst', 2, '1 K Street', 'Sacramento', 'CA', '95814', '2024-01-01', true, now())`,
      [profileId],
    );
    await wired.directory.profilesChanged([profileId]);
    expect((await search({ group: OTHER_GROUP, search: 'mover' })).total).toBe(0);
    expect((await search({ group: 'Agencies', search: 'mover' })).total).toBe(1);
    await admin.query(
      `UPDATE profile.job_experiences SET current_job = false, end_date = '2025-01-01' WHERE profile_id = $1`,
      [profileId],
    );
    await wired.directory.profilesChanged([profileId]);
    expect((await search({ group: OTHER_GROUP, search: 'mover' })).total).toBe(1);
  });
});

describe('exporting a directory search', () => {
  it('holds exactly the people a search with a group and words selects, in the directory’s order', async () => {
    await person('Zoe', 'Exportia', [[2, 'Hydrologist', true, 21]]);
    await person('Amir', 'Exportia', [
      [1, 'Lobbyist', false],
      [2, 'Chief, "Water" Policy', true],
    ]);
    await person('Bea', 'Exportia', [[1, 'Partner', true]]);
    await person('Carl', 'Exportia', [[2, 'Clerk', false]]);
    await person('Dana', 'Elsewhere', [[2, 'Hydrologist', true]]);
    const rows = await exportDirectory({ search: 'exportia', group: 'Agencies' }, member());
    expect(rows).toEqual([
      {
        profile_id: expect.any(Number),
        first_name: 'Amir',
        last_name: 'Exportia',
        title: 'Chief, "Water" Policy',
        organization_name: 'Department of Water Stewardship',
        work_email: 'amir.exportia@work.example.org',
        office_phone: '(916) 555-0100',
      },
      {
        profile_id: expect.any(Number),
        first_name: 'Zoe',
        last_name: 'Exportia',
        title: 'Hydrologist',
        organization_name: 'Department of Water Stewardship',
        division_name: 'Groundwater Division',
        work_email: 'zoe.exportia@work.example.org',
        office_phone: '(916) 555-0100',
      },
    ]);
    // The same people as the directory's search, in its order.
    const page = await search({ search: 'exportia', group: 'Agencies' });
    expect(rows.map((row) => row.profile_id)).toEqual(page.profiles.map((card) => card.profile_id));
    expect(names(await exportDirectory({ search: 'exportia', group: OTHER_GROUP }, member()))).toEqual([
      'Carl Exportia',
    ]);
  });

  it('never carries a personal email, mobile phone or birthday, not even in its bytes', async () => {
    await person('Grace', 'Privata', [[2, 'Analyst', true]], {
      email: 'grace.home@example.net',
      mobile: '(279) 555-0199',
      birthday: '1981-11-02',
    });
    const [row] = await exportDirectory({ search: 'privata' }, member());
    expect(Object.keys(row ?? {}).every((field) => CONTACT_FIELDS.includes(field))).toBe(true);
    const bytes = await rawExport({ search: 'privata', group: '' }, member());
    expect(bytes.includes(Buffer.from('grace.privata@work.example.org'))).toBe(true);
    for (const value of ['grace.home@example.net', '(279) 555-0199', '1981-11-02', '1981'])
      expect(bytes.includes(Buffer.from(value)), value).toBe(false);
    const card = await contactCard(row?.profile_id as number, member());
    expect(card).toEqual(row);
  });

  it(`stops at ${EXPORT_LIMIT.rows.toLocaleString('en-US')} people, the first ones in the directory’s order`, async () => {
    await admin.query(
      `INSERT INTO profile.profiles (first_name, last_name, work_email, updated_at)
       SELECT 'Many' || lpad(n::text, 5, '0'), 'Capper', 'many' || n || '@work.example.org', now()
       FROM generate_series(1, $1::integer) AS n`,
      [EXPORT_LIMIT.rows + 3],
    );
    const { rows } = await admin.query<{ profile_id: number }>(
      `SELECT profile_id FROM profile.profiles WHERE last_name = 'Capper'`,
    );
    await wired.directory.profilesChanged(rows.map((row) => row.profile_id));
    const exported = await exportDirectory({ search: 'capper' }, member());
    expect(exported).toHaveLength(EXPORT_LIMIT.rows);
    expect(exported[0]?.first_name).toBe('Many00001');
    expect(exported.at(-1)?.first_name).toBe(`Many0${EXPORT_LIMIT.rows}`);
  });

  it('refuses a visitor and bad filters; allows a member 10 exports in 10 minutes, then says when to come back', async () => {
    expect(await refusal(exportDirectory({ search: 'exportia' }))).toEqual({
      code: status.UNAUTHENTICATED,
      details: LOGIN,
    });
    const exporter = member();
    expect(await refusal(exportDirectory({ search: 'a b c d e f g h i j k' }, exporter))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Search with at most 10 words.',
    });
    // The refused calls were not counted: ten exports still go through.
    for (let i = 0; i < EXPORT_LIMIT.downloads; i++)
      expect(await exportDirectory({ search: 'exportia' }, exporter)).toHaveLength(4);
    const refused = await refusal(exportDirectory({ search: 'exportia' }, exporter));
    expect(refused.code).toBe(status.RESOURCE_EXHAUSTED);
    const seconds = Number(TOO_MANY.exec(refused.details)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(EXPORT_LIMIT.windowSeconds);
    expect(await exportDirectory({ search: 'exportia' }, member())).toHaveLength(4);
  });
});

describe('contact cards', () => {
  it('answers one person’s work contact; NOT_FOUND for an unknown id; members only', async () => {
    const profileId = await person('Ana', 'Cardholder', [[2, 'Director', true, 21]]);
    expect(await contactCard(profileId, member())).toEqual({
      profile_id: profileId,
      first_name: 'Ana',
      last_name: 'Cardholder',
      title: 'Director',
      organization_name: 'Department of Water Stewardship',
      division_name: 'Groundwater Division',
      work_email: 'ana.cardholder@work.example.org',
      office_phone: '(916) 555-0100',
    });
    expect(await refusal(contactCard(999_999, member()))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
    expect(await refusal(contactCard(profileId))).toEqual({ code: status.UNAUTHENTICATED, details: LOGIN });
  });
});
