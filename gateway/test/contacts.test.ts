// The directory's CSV export (GET /api/profiles/search/export.csv) and the vCard contact card
// (GET /api/profiles/profile/:id/vcard) against a fake ProfileService on real gRPC: the CSV's header, RFC 4180
// quoting, UTF-8 with a BOM, the formula guard, parsed back with csv-parse; members only (401), the service's
// refusal past the allowance as 429 with Retry-After, bad parameters 400 as the search; the vCard parsed back with
// ical.js, escaped and folded at 75 octets with CRLF, 404 as the profile page.
import { DomainError } from '@rotunda/service-kit';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { escapeText, foldLine, telUri, vCard, vCardFileName } from '../src/http/vcard.ts';
import {
  accessToken,
  type FakeAuth,
  MEMBER,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const HEADER = 'first_name,last_name,title,organization,division,work_email,office_phone';

const ELENA = {
  profile_id: 7,
  first_name: 'Elena',
  last_name: 'Márquez, Jr.',
  title: 'Director of "Policy"',
  organization_name: 'Office of Senator Elena Márquez',
  division_name: 'Elk Grove; District Office',
  work_email: 'elena.marquez@senate.example.org',
  office_phone: '(916) 555-0120',
};
/** A name a spreadsheet would run as a formula, a title with a line break, no division or phone. */
const FORMULA = {
  profile_id: 8,
  first_name: '=HYPERLINK("http://evil.example","x")',
  last_name: 'Øverby',
  title: 'Line one\nLine two',
  organization_name: '+Plus Org',
  work_email: '@at.example.org',
};

let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let gateway: RunningGateway;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, PROFILE_SERVICE_ADDR: profile.address });
  member = { 'x-auth-token': await accessToken(key) };
});
afterEach(() => profile.reset());
afterAll(async () => {
  await gateway.close();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;

async function download(path: string, headers: Record<string, string> = member) {
  const res = await fetch(url(path), { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /api/profiles/search/export.csv', () => {
  it('answers a header row and one quoted row per person, UTF-8 with a BOM, CRLF, formulas defused', async () => {
    profile.answer('exportDirectory', async () => ({ profiles: [ELENA, FORMULA] }));
    const { res, bytes } = await download(
      '/api/profiles/search/export.csv?search=elk%20%20grove&group=Other&issue=4',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="rotunda-directory-${today}.csv"`,
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text).toBe(
      [
        HEADER,
        'Elena,"Márquez, Jr.","Director of ""Policy""",Office of Senator Elena Márquez,Elk Grove; District Office,elena.marquez@senate.example.org,(916) 555-0120',
        `"'=HYPERLINK(""http://evil.example"",""x"")",Øverby,"Line one\nLine two",'+Plus Org,,'@at.example.org,`,
        '',
      ].join('\r\n'),
    );
    expect(parse(bytes, { bom: true, columns: true })).toEqual([
      {
        first_name: 'Elena',
        last_name: 'Márquez, Jr.',
        title: 'Director of "Policy"',
        organization: 'Office of Senator Elena Márquez',
        division: 'Elk Grove; District Office',
        work_email: 'elena.marquez@senate.example.org',
        office_phone: '(916) 555-0120',
      },
      {
        first_name: `'${FORMULA.first_name}`,
        last_name: 'Øverby',
        title: 'Line one\nLine two',
        organization: "'+Plus Org",
        division: '',
        work_email: "'@at.example.org",
        office_phone: '',
      },
    ]);
    // The search as the directory sends it, for the member whose token came with it.
    expect(profile.callsTo('exportDirectory')).toEqual([
      {
        method: 'exportDirectory',
        request: { search: 'elk grove', group: 'Other', issue_id: 4 },
        caller: expect.objectContaining({ userId: MEMBER.sub }),
      },
    ]);
  });

  it('answers the header alone when nobody matches', async () => {
    profile.answer('exportDirectory', async () => ({ profiles: [] }));
    const { res, bytes } = await download('/api/profiles/search/export.csv');
    expect(res.status).toBe(200);
    expect(bytes.toString('utf8')).toBe(`\ufeff${HEADER}\r\n`);
    expect(profile.callsTo('exportDirectory')[0]?.request).toEqual({ search: '', group: '' });
  });

  it('streams thousands of rows in the order the service sends them', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      ...ELENA,
      profile_id: i + 1,
      first_name: `Person${i + 1}`,
    }));
    profile.answer('exportDirectory', async () => ({ profiles: many }));
    const { res, bytes } = await download('/api/profiles/search/export.csv');
    expect(res.status).toBe(200);
    const rows = parse(bytes, { bom: true, columns: true }) as { first_name: string }[];
    expect(rows.map((row) => row.first_name)).toEqual(many.map((person) => person.first_name));
  });

  it('refuses a visitor with 401 without asking the service', async () => {
    const res = await fetch(url('/api/profiles/search/export.csv'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(LOGIN_REQUIRED);
    expect(profile.callsTo('exportDirectory')).toEqual([]);
  });

  it('answers 429 with Retry-After once the member exported too often', async () => {
    const message = 'Too many directory downloads. Try again in 312 seconds.';
    profile.answer('exportDirectory', async () => {
      throw new DomainError('resource_exhausted', message);
    });
    const res = await fetch(url('/api/profiles/search/export.csv'), { headers: member });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('312');
    expect(await res.json()).toEqual({ errors: [{ msg: message }] });
  });

  it('refuses bad parameters with 400 as the search does, before asking the service', async () => {
    for (const [query, message] of [
      ['limit=0', 'limit must be a whole number from 1 to 100'],
      ['issue=abc', 'issue must be a whole number from 1 to 2147483647'],
      ['search=a&search=b', 'search must be given once, as text'],
      [`group=${'x'.repeat(65)}`, 'group is too long'],
    ] as const) {
      const res = await fetch(url(`/api/profiles/search/export.csv?${query}`), { headers: member });
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({ errors: [{ msg: message }] });
    }
    expect(profile.callsTo('exportDirectory')).toEqual([]);
  });
});

describe('GET /api/profiles/profile/:id/vcard', () => {
  it('answers a vCard 4.0 that parses back to the person’s work contact', async () => {
    profile.answer('getContactCard', async () => ELENA);
    const { res, bytes } = await download('/api/profiles/profile/7/vcard');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Elena-Marquez,-Jr..vcf"; filename*=UTF-8''Elena-M%C3%A1rquez%2C-Jr..vcf`,
    );
    const text = bytes.toString('utf8');
    expect(text.endsWith('END:VCARD\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const card = new ICAL.Component(ICAL.parse(text));
    expect(card.getFirstPropertyValue('version')).toBe('4.0');
    expect(card.getFirstPropertyValue('fn')).toBe('Elena Márquez, Jr.');
    expect(card.getFirstPropertyValue('n')).toEqual(['Márquez, Jr.', 'Elena', '', '', '']);
    expect(card.getFirstPropertyValue('org')).toEqual([
      'Office of Senator Elena Márquez',
      'Elk Grove; District Office',
    ]);
    expect(card.getFirstPropertyValue('title')).toBe('Director of "Policy"');
    const email = card.getFirstProperty('email');
    expect([email?.getFirstValue(), email?.getParameter('type')]).toEqual([ELENA.work_email, 'work']);
    const tel = card.getFirstProperty('tel');
    expect(tel?.getFirstValue()).toBe('tel:+1-916-555-0120');
    expect(tel?.getParameter('type')).toEqual(['work', 'voice']);
    expect(text).toContain('N:Márquez\\, Jr.;Elena;;;\r\n');
    expect(text).toContain('ORG:Office of Senator Elena Márquez;Elk Grove\\; District Office\r\n');
    expect(profile.callsTo('getContactCard')[0]).toMatchObject({
      request: { profile_id: 7 },
      caller: expect.objectContaining({ userId: MEMBER.sub }),
    });
  });

  it('folds long lines at 75 octets without splitting a character, and leaves out what is not given', async () => {
    const title = `Directrice générale adjointe, ${'é'.repeat(60)}`;
    profile.answer('getContactCard', async () => ({
      profile_id: 9,
      first_name: 'Zoë',
      last_name: 'Ng',
      title,
      work_email: 'zoe.ng@agency.example.org',
    }));
    const { res, bytes } = await download('/api/profiles/profile/9/vcard');
    expect(res.status).toBe(200);
    const text = bytes.toString('utf8');
    const lines = text.split('\r\n');
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    for (const line of lines) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);
    const card = new ICAL.Component(ICAL.parse(text));
    expect(card.getFirstPropertyValue('title')).toBe(title);
    for (const property of ['org', 'tel']) expect(card.getFirstProperty(property), property).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Zoe-Ng.vcf"; filename*=UTF-8''Zo%C3%AB-Ng.vcf`,
    );
  });

  it('answers 404 for an unknown profile, 400 for an id that is not a number, 401 for a visitor', async () => {
    profile.answer('getContactCard', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    const unknown = await fetch(url('/api/profiles/profile/424242/vcard'), { headers: member });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: [{ msg: 'Profile not found' }] });
    const bad = await fetch(url('/api/profiles/profile/abc/vcard'), { headers: member });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ errors: [{ msg: 'The profile id must be a whole number.' }] });
    const visitor = await fetch(url('/api/profiles/profile/7/vcard'));
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual(LOGIN_REQUIRED);
    expect(profile.callsTo('getContactCard')).toHaveLength(1);
  });
});

describe('the vCard formatter', () => {
  it('escapes backslashes, commas, semicolons and line breaks, and drops other control characters', () => {
    expect(escapeText('a\\b,c;d\r\ne\nf\rg\u0007h')).toBe('a\\\\b\\,c\\;d\\ne\\nf\\ngh');
  });

  it('folds a line into 75-octet lines that join back to it', () => {
    const line = `TITLE:${'漢'.repeat(40)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(foldLine('FN:Short')).toBe('FN:Short');
  });

  it('writes North American numbers as tel URIs and anything else as text', () => {
    expect(telUri('(916) 555-0100')).toBe('tel:+1-916-555-0100');
    expect(telUri('+1 916 555 0100')).toBe('tel:+1-916-555-0100');
    expect(telUri('916-555-0100 ext. 12')).toBeNull();
    expect(telUri('+44 20 7946 0958')).toBeNull();
    const card = vCard({
      firstName: 'A',
      lastName: 'B',
      title: null,
      organizationName: null,
      divisionName: null,
      workEmail: 'a@b.example',
      officePhone: '916-555-0100 ext. 12',
    });
    expect(new ICAL.Component(ICAL.parse(card)).getFirstPropertyValue('tel')).toBe('916-555-0100 ext. 12');
  });

  it('names the file First-Last.vcf, without characters a file name cannot hold', () => {
    expect(vCardFileName({ firstName: 'Mary Ann', lastName: 'O"Neil / Smith' })).toBe(
      'Mary-Ann-ONeil-Smith.vcf',
    );
    expect(vCardFileName({ firstName: ' ', lastName: '' })).toBe('contact.vcf');
  });
});
