// The /api/orgs/* paths against a fake OrgService on real gRPC: docs/api.md's answer shapes (the spec's
// snake_case names, null for fields not given), both forms of the list call, validation refusals that never
// reach the service (names without letters, a Cal-Access ID that is not a filer number, or given by a member),
// required fields left to the service (its words reach the member),
// members-only guards (401) and contributor guards (403) before any body is read, the caller carried in the
// metadata, service refusals mapped to HTTP, and the multipart logo upload's limits.
import { request } from 'node:http';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOGO_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../src/routes/orgs.ts';
import {
  accessToken,
  type FakeAuth,
  get,
  MEMBER,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, GROUPS, ORGANIZATION, startFakeOrg } from './support/fake-org.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const CONTRIBUTORS_ONLY = { errors: [{ msg: 'Contributors only' }] };
const TOO_LARGE = 'Image is too large. Please resize or select a smaller image.';

let key: SigningKey;
let auth: FakeAuth;
let org: FakeOrg;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  org = await startFakeOrg();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, ORG_SERVICE_ADDR: org.address });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { authorization: `Bearer ${await accessToken(key, { roles: ['contributor'] })}` };
});
afterEach(() => org.reset());
afterAll(async () => {
  await gateway.close();
  await org.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;

/** The organization as the REST answer shows it: every spec field, null where the service sent none. */
const ORGANIZATION_JSON = {
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  group_id: 5,
  group_type: 'Lobbyists',
  street_address: '1201 K Street',
  suite_number: 'Suite 1050',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  website: 'https://capitolbridge.example.org',
  main_phone: '(916) 555-0120',
  logo: '/media/logos/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a01.png',
  lobby_filer_id: '9100120',
  linkedin_url: 'https://www.linkedin.com/company/capitolbridge-demo',
  facebook_url: null,
  youtube_url: null,
  threads_url: null,
  twitter_url: null,
  instagram_url: null,
  tiktok_url: null,
  bluesky_url: null,
};
const DIVISION_JSON = {
  division_id: 3,
  division_name: 'Government Affairs',
  division_type: 'Office',
  active_division: true,
  organization_id: 12,
  organization_name: 'Capitol Bridge Advocates',
  street_address: null,
  suite_number: null,
  city: 'Sacramento',
  state: 'CA',
  zip_code: null,
  division_phone: '(916) 555-0141',
  website: null,
};

function logoForm(parts: { logo?: Blob[]; organization_id?: string; image_type?: string } = {}) {
  const form = new FormData();
  if (parts.organization_id !== undefined) form.set('organization_id', parts.organization_id);
  if (parts.image_type !== undefined) form.set('image_type', parts.image_type);
  for (const blob of parts.logo ?? []) form.append('logo', blob, 'logo.png');
  return form;
}

async function upload(body: FormData | string, headers: Record<string, string> = contributor) {
  const res = await fetch(url('/api/orgs/upload-organization-logo'), { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * A raw multipart POST that streams `size` bytes of file in chunks, with or without a Content-Length, and
 * settles on the first answer (the gateway answers before the body is done and then closes the connection).
 */
function streamUpload(size: number, { declareLength }: { declareLength: boolean }) {
  const boundary = 'rotunda-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="organization_id"\r\n\r\n12\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="big.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = head.length + size + tail.length;
  return new Promise<{ status: number; body: unknown; sent: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      url('/api/orgs/upload-organization-logo'),
      {
        method: 'POST',
        headers: {
          ...contributor,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(declareLength ? { 'content-length': String(total) } : {}),
        },
      },
      (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sent }));
      },
    );
    // Once answered, the gateway may close the connection mid-body: that is the point, not a failure.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(256 * 1024, 7);
    const write = () => {
      if (sent === 0) req.write(head);
      while (sent < size && !answered && !req.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end(tail);
    };
    write();
  });
}

describe('members only', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/orgs/'],
    ['GET', '/api/orgs?search=capitol'],
    ['GET', '/api/orgs/organization-groups'],
    ['GET', '/api/orgs/12'],
    ['GET', '/api/orgs/organization-name/capitol'],
    ['GET', '/api/orgs/division-name/office'],
    ['GET', '/api/orgs/divisions/12'],
    ['POST', '/api/orgs/add-organization', { organization_name: 'X', group_type: 'Other' }],
    ['POST', '/api/orgs/update-organization', { organization_id: 12 }],
    ['POST', '/api/orgs/add-division', { organization_id: 12, division_name: 'X' }],
    ['POST', '/api/orgs/upload-organization-logo', {}],
  ];

  it.each(calls)('%s %s answers 401 to a visitor without asking the service', async (method, path, body) => {
    const res = method === 'GET' ? await get(url(path)) : await post(url(path), body ?? {});
    expect(res).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(org.calls).toEqual([]);
  });

  it('answers 401 to a token that fails verification', async () => {
    const res = await get(url('/api/orgs/'), { 'x-auth-token': 'not.a.token' });
    expect(res.status).toBe(401);
    expect(org.calls).toEqual([]);
  });

  it('answers 403 to a member updating an organization or uploading a logo, before reading the body', async () => {
    expect(await post(url('/api/orgs/update-organization'), { organization_id: 12 }, member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    const form = logoForm({ organization_id: '12', logo: [new Blob([Buffer.from('x')])] });
    expect(await upload(form, member)).toEqual({ status: 403, body: CONTRIBUTORS_ONLY });
    expect(org.calls).toEqual([]);
  });

  it('carries the verified member to the service', async () => {
    await get(url('/api/orgs/organization-groups'), member);
    expect(org.callsTo('listGroups')[0]?.caller).toEqual({
      userId: MEMBER.sub,
      email: MEMBER.email,
      roles: ['default-roles-rotunda'],
    });
  });
});

describe('reading', () => {
  it('GET /api/orgs/ without parameters answers the array of listed organizations (as built)', async () => {
    const res = await get(url('/api/orgs/'), member);
    expect(res).toMatchObject({ status: 200, body: [ORGANIZATION_JSON] });
    expect(org.callsTo('listOrganizations')).toHaveLength(1);
  });

  it('GET /api/orgs with search, group, offset, limit answers one page with the total', async () => {
    const res = await get(
      url('/api/orgs?search=capitol%20bridge&group=Lobbyists&offset=30&limit=30'),
      member,
    );
    expect(res).toMatchObject({
      status: 200,
      body: { organizations: [ORGANIZATION_JSON], total: 41, offset: 30, limit: 30 },
    });
    expect(org.callsTo('searchOrganizations')[0]?.request).toEqual({
      text: 'capitol bridge',
      group: 'Lobbyists',
      offset: 30,
      limit: 30,
    });
  });

  it('pages 30 from the start when only some parameters are given', async () => {
    const res = await get(url('/api/orgs/?group=Unions'), member);
    expect(res.body).toMatchObject({ offset: 0, limit: 30 });
    expect(org.callsTo('searchOrganizations')[0]?.request).toEqual({
      text: '',
      group: 'Unions',
      offset: 0,
      limit: 30,
    });
  });

  it.each([
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['limit=0', 'limit must be a whole number from 1 to 100'],
    ['limit=ten', 'limit must be a whole number from 1 to 100'],
    ['offset=-1', 'offset must be a whole number from 0 to 99900'],
    ['offset=1.5', 'offset must be a whole number from 0 to 99900'],
    ['search=a&search=b', 'search must be given once, as text'],
    [`search=${'x'.repeat(201)}`, 'search is too long'],
  ])('refuses ?%s with 400', async (query, message) => {
    expect(await get(url(`/api/orgs/?${query}`), member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(org.calls).toEqual([]);
  });

  it('passes a refused group on as the service words it', async () => {
    org.answer('searchOrganizations', async () => {
      throw new DomainError('invalid_argument', 'Unknown type of organization "Pirates".');
    });
    expect(await get(url('/api/orgs/?group=Pirates'), member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Unknown type of organization "Pirates".' }] },
    });
  });

  it('GET /api/orgs/organization-groups answers [{ group_id, group_name }]', async () => {
    expect(await get(url('/api/orgs/organization-groups'), member)).toMatchObject({
      status: 200,
      body: GROUPS,
    });
  });

  it('GET /api/orgs/:id answers the organization with its Divisions', async () => {
    const res = await get(url('/api/orgs/12'), member);
    expect(res).toMatchObject({ status: 200, body: { ...ORGANIZATION_JSON, Divisions: [DIVISION_JSON] } });
    expect(org.callsTo('getOrganization')[0]?.request).toEqual({ organization_id: 12 });
  });

  it('GET /api/orgs/:id answers 400 for an id that is not a whole number, 404 for an unknown one', async () => {
    for (const id of ['abc', '12.5', '-3', '1e3']) {
      expect(await get(url(`/api/orgs/${id}`), member)).toMatchObject({
        status: 400,
        body: { errors: [{ msg: 'The organization id must be a whole number.' }] },
      });
    }
    expect(org.calls).toEqual([]);
    expect(await get(url('/api/orgs/99999999999'), member)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Organization not found' }] },
    });
    org.answer('getOrganization', async () => {
      throw new DomainError('not_found', 'Organization not found');
    });
    expect(await get(url('/api/orgs/404'), member)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Organization not found' }] },
    });
  });

  it('GET /api/orgs/organization-name/:name and division-name/:name answer the lookups', async () => {
    const orgs = await get(url('/api/orgs/organization-name/Capitol%20Bridge'), member);
    expect(orgs).toMatchObject({ status: 200, body: [ORGANIZATION_JSON] });
    expect(org.callsTo('findOrganizationsByName')[0]?.request).toEqual({ name: 'Capitol Bridge' });
    const divisions = await get(url('/api/orgs/division-name/gov%20affairs'), member);
    expect(divisions).toMatchObject({ status: 200, body: [DIVISION_JSON] });
    expect(org.callsTo('findDivisionsByName')[0]?.request).toEqual({ name: 'gov affairs' });
    expect((await get(url(`/api/orgs/organization-name/${'x'.repeat(201)}`), member)).status).toBe(400);
  });

  it('GET /api/orgs/divisions/:organization_id answers the divisions; 400 for a bad id', async () => {
    expect(await get(url('/api/orgs/divisions/12'), member)).toMatchObject({
      status: 200,
      body: [DIVISION_JSON],
    });
    expect(org.callsTo('listDivisions')[0]?.request).toEqual({ organization_id: 12 });
    expect((await get(url('/api/orgs/divisions/twelve'), member)).status).toBe(400);
  });
});

describe('adding and updating', () => {
  it('POST /api/orgs/add-organization: 201 with the organization, sent fields only', async () => {
    const res = await post(
      url('/api/orgs/add-organization'),
      {
        organization_name: ' Harbor Lights ',
        group_type: 'Associations',
        city: 'sacramento',
        zip_code: 95814,
        suite_number: null,
      },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: ORGANIZATION_JSON });
    expect(org.callsTo('addOrganization')[0]).toMatchObject({
      request: {
        organization_name: 'Harbor Lights',
        group_type: 'Associations',
        fields: { city: 'sacramento', zip_code: '95814', suite_number: '' },
      },
      caller: { userId: MEMBER.sub },
    });
  });

  it('answers 200 with the existing organization when the name was taken', async () => {
    org.answer('addOrganization', async () => ({ organization: ORGANIZATION, created: false }));
    const res = await post(
      url('/api/orgs/add-organization'),
      { organization_name: 'x', group_type: 'Other' },
      member,
    );
    expect(res.status).toBe(200);
  });

  it('forwards a form missing its required fields blank, and the service’s words for them reach the member', async () => {
    const message =
      'Please provide entries for the following required fields: Organization Name, Type of Organization';
    org.answer('addOrganization', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(await post(url('/api/orgs/add-organization'), { group_type: ' ' }, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(org.callsTo('addOrganization')[0]?.request).toMatchObject({
      organization_name: '',
      group_type: '',
    });
  });

  it.each([
    [{ organization_name: ['X'], group_type: 'Other' }, 'organization_name must be text'],
    [
      { organization_name: 'X', group_type: 'Other', website: 'javascript:alert(1)' },
      'Website must be a web address starting with http:// or https://.',
    ],
    [
      { organization_name: 'X', group_type: 'Other', bluesky_url: 'data:text/html,hi' },
      'Bluesky must be a web address starting with http:// or https://.',
    ],
    [
      { organization_name: 'x'.repeat(201), group_type: 'Other' },
      'organization_name must be at most 200 characters',
    ],
    [
      { organization_name: '0', group_type: 'Other' },
      'Organization Name must contain letters, not only numbers or symbols.',
    ],
    [
      { organization_name: '1e+308', group_type: 'Other' },
      'Organization Name must contain letters, not only numbers or symbols.',
    ],
    [
      { organization_name: ' ---- ', group_type: 'Other' },
      'Organization Name must contain letters, not only numbers or symbols.',
    ],
  ])('refuses add-organization %j with 400', async (body, message) => {
    expect(await post(url('/api/orgs/add-organization'), body, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(org.calls).toEqual([]);
  });

  it('refuses a member’s Cal-Access ID on add-organization with 403, before the service', async () => {
    expect(
      await post(
        url('/api/orgs/add-organization'),
        { organization_name: 'Sierra Hops Growers', group_type: 'Associations', lobby_filer_id: '9100555' },
        member,
      ),
    ).toMatchObject({
      status: 403,
      body: { errors: [{ msg: 'Only contributors can set or correct a Cal-Access ID.' }] },
    });
    expect(org.calls).toEqual([]);
  });

  it('forwards a member’s blank Cal-Access ID and a contributor’s filer number on add-organization', async () => {
    const blank = {
      organization_name: 'Sierra Hops Growers',
      group_type: 'Associations',
      lobby_filer_id: '',
    };
    expect((await post(url('/api/orgs/add-organization'), blank, member)).status).toBe(201);
    const given = { ...blank, lobby_filer_id: ' 9100555 ' };
    expect((await post(url('/api/orgs/add-organization'), given, contributor)).status).toBe(201);
    expect(org.callsTo('addOrganization').map((call) => call.request.fields)).toEqual([
      { lobby_filer_id: '' },
      { lobby_filer_id: '9100555' },
    ]);
  });

  it.each(['1e+308', 'F-12', '1234567890'])(
    'refuses the Cal-Access ID %j, not a filer number, with 400 on add and update',
    async (lobby_filer_id) => {
      const message = {
        errors: [
          {
            msg: 'The Cal-Access ID is the filer number from the lobbying disclosure site: digits only, e.g. 1234567.',
          },
        ],
      };
      expect(
        await post(
          url('/api/orgs/add-organization'),
          { organization_name: 'Pine Lobby Partners', group_type: 'Lobbyists', lobby_filer_id },
          contributor,
        ),
      ).toMatchObject({ status: 400, body: message });
      expect(
        await post(
          url('/api/orgs/update-organization'),
          { organization_id: 12, lobby_filer_id },
          contributor,
        ),
      ).toMatchObject({ status: 400, body: message });
      expect(org.calls).toEqual([]);
    },
  );

  it('POST /api/orgs/update-organization: a contributor edit, forwarded with only the fields sent', async () => {
    const res = await post(
      url('/api/orgs/update-organization'),
      {
        organization_id: '12',
        organization_name: 'Capitol Bridge Advocates',
        street_address: '1201 k street',
        website: 'www.capitolbridge.example.org',
        twitter_url: '',
        lobby_filer_id: '9100120',
      },
      contributor,
    );
    expect(res).toMatchObject({ status: 200, body: ORGANIZATION_JSON });
    expect(org.callsTo('updateOrganization')[0]).toMatchObject({
      request: {
        organization_id: 12,
        organization_name: 'Capitol Bridge Advocates',
        fields: {
          street_address: '1201 k street',
          website: 'www.capitolbridge.example.org',
          twitter_url: '',
          lobby_filer_id: '9100120',
        },
      },
      caller: { roles: ['default-roles-rotunda', 'contributor'] },
    });
  });

  it.each([
    [{ organization_name: 'X' }, 'organization_id must be a whole number'],
    [{ organization_id: 'twelve' }, 'organization_id must be a whole number'],
    [{ organization_id: 0 }, 'organization_id must be a whole number'],
    [
      { organization_id: 12, linkedin_url: 'JavaScript:alert(1)' },
      'LinkedIn must be a web address starting with http:// or https://.',
    ],
    [
      { organization_id: 12, organization_name: '1e+308' },
      'Organization Name must contain letters, not only numbers or symbols.',
    ],
  ])('refuses update-organization %j with 400', async (body, message) => {
    expect(await post(url('/api/orgs/update-organization'), body, contributor)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(org.calls).toEqual([]);
  });

  it('forwards required fields sent blank, and the service’s words for them reach the contributor', async () => {
    const message =
      'Please provide entries for the following required fields: Organization Name, Street Address';
    org.answer('updateOrganization', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(
      await post(
        url('/api/orgs/update-organization'),
        { organization_id: 12, organization_name: '', street_address: ' ' },
        contributor,
      ),
    ).toMatchObject({ status: 400, body: { errors: [{ msg: message }] } });
    expect(org.callsTo('updateOrganization')[0]?.request).toMatchObject({
      organization_id: 12,
      organization_name: '',
      fields: { street_address: '' },
    });
  });

  it('passes the service’s refusals on: Cal-Access outside its groups 400, unknown id 404', async () => {
    org.answer('updateOrganization', async () => {
      throw new DomainError(
        'invalid_argument',
        'A Cal-Access ID applies only to Lobbyists, Associations and Unions.',
      );
    });
    expect(
      await post(
        url('/api/orgs/update-organization'),
        { organization_id: 12, lobby_filer_id: '1' },
        contributor,
      ),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'A Cal-Access ID applies only to Lobbyists, Associations and Unions.' }] },
    });
    org.answer('updateOrganization', async () => {
      throw new DomainError('not_found', 'Organization not found');
    });
    expect(
      (await post(url('/api/orgs/update-organization'), { organization_id: 99 }, contributor)).status,
    ).toBe(404);
  });

  it('POST /api/orgs/add-division: 201 with the division; 400 without a name or organization', async () => {
    const res = await post(
      url('/api/orgs/add-division'),
      {
        organization_id: 12,
        division_name: 'Government Affairs',
        city: 'Sacramento',
        division_phone: '9165550141',
      },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: DIVISION_JSON });
    expect(org.callsTo('addDivision')[0]?.request).toMatchObject({
      organization_id: 12,
      division_name: 'Government Affairs',
      division_type: '',
      city: 'Sacramento',
      division_phone: '9165550141',
    });
    const missingName = 'Please provide entries for the following required fields: Division Name';
    org.answer('addDivision', async () => {
      throw new DomainError('invalid_argument', missingName);
    });
    expect(await post(url('/api/orgs/add-division'), { organization_id: 12 }, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: missingName }] },
    });
    expect(org.callsTo('addDivision')[1]?.request).toMatchObject({ organization_id: 12, division_name: '' });
    expect((await post(url('/api/orgs/add-division'), { division_name: 'X' }, member)).status).toBe(400);
    expect(
      await post(url('/api/orgs/add-division'), { organization_id: 12, division_name: '----' }, member),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Division Name must contain letters, not only numbers or symbols.' }] },
    });
    expect(org.callsTo('addDivision')).toHaveLength(2);
  });
});

describe('logo upload', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  it('forwards the file and organization id and answers 200 { url }', async () => {
    const res = await upload(logoForm({ organization_id: '12', image_type: 'png', logo: [new Blob([PNG])] }));
    expect(res).toEqual({
      status: 200,
      body: { url: '/media/logos/2026/11/1c2d3a52-7c1e-4d8a-9a43-1d2f6b1f0a02.png' },
    });
    const [call] = org.callsTo('setOrganizationLogo');
    expect(call?.request.organization_id).toBe(12);
    expect(Buffer.compare(call?.request.image as Buffer, PNG)).toBe(0);
    expect(call?.caller?.roles).toContain('contributor');
  });

  it('carries a 9 MB upload over gRPC', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 1);
    const res = await upload(logoForm({ organization_id: '12', logo: [new Blob([big])] }));
    expect(res.status).toBe(200);
    expect((org.callsTo('setOrganizationLogo')[0]?.request.image as Buffer | undefined)?.length).toBe(
      big.length,
    );
  });

  it('refuses more than one file with 413', async () => {
    const res = await upload(logoForm({ organization_id: '12', logo: [new Blob([PNG]), new Blob([PNG])] }));
    expect(res).toEqual({ status: 413, body: { errors: [{ msg: UPLOAD_MESSAGES.oneFile }] } });
    expect(org.calls).toEqual([]);
  });

  it('refuses an upload over 10 MB with 413 from its Content-Length, before reading it', async () => {
    const res = await streamUpload(MAX_LOGO_UPLOAD_BYTES + 512 * 1024, { declareLength: true });
    expect(res).toMatchObject({ status: 413, body: { errors: [{ msg: TOO_LARGE }] } });
    expect(org.calls).toEqual([]);
  });

  it('refuses a streamed (chunked) file over 10 MB with 413 as soon as it passes the limit', async () => {
    const size = 40 * 1024 * 1024;
    const res = await streamUpload(size, { declareLength: false });
    expect(res).toMatchObject({ status: 413, body: { errors: [{ msg: TOO_LARGE }] } });
    // Answered long before the 40 MB were sent.
    expect(res.sent).toBeLessThan(size);
    expect(org.calls).toEqual([]);
  });

  it('refuses a missing file, a missing organization id and a body that is not multipart with 400', async () => {
    expect(await upload(logoForm({ organization_id: '12' }))).toEqual({
      status: 400,
      body: { errors: [{ msg: UPLOAD_MESSAGES.noFile }] },
    });
    expect(await upload(logoForm({ logo: [new Blob([PNG])] }))).toEqual({
      status: 400,
      body: { errors: [{ msg: 'organization_id must be a whole number' }] },
    });
    expect(
      await upload(JSON.stringify({ organization_id: 12 }), {
        ...contributor,
        'content-type': 'application/json',
      }),
    ).toEqual({ status: 400, body: { errors: [{ msg: UPLOAD_MESSAGES.notMultipart }] } });
    expect(org.calls).toEqual([]);
  });

  it('passes the image pipeline’s refusals on with the spec’s texts', async () => {
    org.answer('setOrganizationLogo', async () => {
      throw new DomainError('invalid_argument', 'Incorrect image format. Please select only .jpg or .jpeg.');
    });
    expect(await upload(logoForm({ organization_id: '12', logo: [new Blob(['GIF89a'])] }))).toEqual({
      status: 400,
      body: { errors: [{ msg: 'Incorrect image format. Please select only .jpg or .jpeg.' }] },
    });
  });

  it.each([
    // The pipeline says the same of a result over 5,242,880 bytes and of a pixel bomb.
    ['an image too large (oversize once resized, or a pixel bomb)', 'invalid_argument', TOO_LARGE, 400],
    ['an unknown organization', 'not_found', 'Organization not found', 404],
  ] as const)('passes the service’s refusal of %s on as %s, %s', async (_case, code, message, httpStatus) => {
    org.answer('setOrganizationLogo', async () => {
      throw new DomainError(code, message);
    });
    expect(await upload(logoForm({ organization_id: '12', logo: [new Blob([PNG])] }))).toEqual({
      status: httpStatus,
      body: { errors: [{ msg: message }] },
    });
    expect(org.callsTo('setOrganizationLogo')).toHaveLength(1);
  });
});
