// What one member may do how often, against fake Auth, Profile and Org services on real gRPC: an image upload (a
// profile picture, an organization logo) is counted against the member's hourly allowance (ConsumeQuota
// 'image-upload') before its body is read, and refused with 429 and Retry-After past it, the body unread; uploads
// held at once are capped per process (503 with Retry-After past UPLOADS_AT_ONCE, parallel requests) and per member
// (429 past UPLOADS_AT_ONCE_PER_MEMBER); reading someone else's profile page or vCard is counted (ConsumeQuota
// 'profile-read') and refused with 429 and Retry-After past the allowance, the profile withheld, while the member's
// own profile (or the one their claim waits on) is never counted.
import { request } from 'node:http';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_RETRY_AFTER_SECONDS, UPLOAD_ADMISSION_MESSAGES } from '../src/http/upload-admission.ts';
import { tooManyProfileReads } from '../src/routes/profiles.ts';
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
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakeProfile, PICTURE_URL, PROFILE, startFakeProfile } from './support/fake-profile.ts';

const UPLOADS_AT_ONCE = 4;
const OTHER_PERSON = '0c2e3b63-8d2f-4e9b-8b54-2e3a7c2a1b02';

let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let org: FakeOrg;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  org = await startFakeOrg();
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    PROFILE_SERVICE_ADDR: profile.address,
    ORG_SERVICE_ADDR: org.address,
    UPLOADS_AT_ONCE: String(UPLOADS_AT_ONCE),
    UPLOADS_AT_ONCE_PER_MEMBER: '2',
  });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
});
afterEach(() => {
  auth.reset();
  profile.reset();
  org.reset();
});
afterAll(async () => {
  await gateway.close();
  await org.server.shutdown();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;
const refused = (message: string) => ({ errors: [{ msg: message }] });
const quotaCalls = () => auth.callsTo('consumeQuota');

/** A member of their own (another `sub`), for limits kept per member. */
async function memberNo(n: number): Promise<Record<string, string>> {
  const sub = `4b1f2a52-7c1e-4d8a-9a43-${String(n).padStart(12, '0')}`;
  return { 'x-auth-token': await accessToken(key, { claims: { sub, email: `member${n}@demo.ca.gov` } }) };
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

const UPLOADS = {
  picture: {
    path: '/api/profiles/upload-profile-picture',
    field: 'profile_picture',
    headers: () => member,
    stored: () => profile.callsTo('uploadPicture'),
  },
  logo: {
    path: '/api/orgs/upload-organization-logo',
    field: 'logo',
    headers: () => contributor,
    stored: () => org.callsTo('setOrganizationLogo'),
  },
} as const;

async function upload(path: string, field: string, headers: Record<string, string>) {
  const form = new FormData();
  form.append(field, new Blob([JPEG]), 'me.jpg');
  form.set('organization_id', '12');
  const res = await fetch(url(path), { method: 'POST', headers, body: form });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

interface EarlyAnswer {
  status: number;
  retryAfter: string | undefined;
  body: unknown;
}

/**
 * An upload whose client sends its headers (announcing `declaredBytes`) and then waits for an answer before
 * sending any of the body: an answer proves the gateway decided without reading it.
 */
function uploadAnsweredBeforeBody(
  path: string,
  headers: Record<string, string>,
  declaredBytes = 8 * 1024 * 1024,
): Promise<EarlyAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url(path), {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'multipart/form-data; boundary=B',
        'content-length': String(declaredBytes),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: JSON.parse(text),
        });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** An upload whose body stalls halfway: it holds its places until `finish` ends it (the client goes away). */
function stalledUpload(headers: Record<string, string>) {
  const req = request(url(UPLOADS.picture.path), {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'multipart/form-data; boundary=B',
      'content-length': String(1024 * 1024),
    },
  });
  req.on('error', () => {});
  req.write('--B\r\nContent-Disposition: form-data; name="profile_picture"; filename="me.jpg"\r\n\r\n');
  req.write(Buffer.alloc(64 * 1024, 1));
  return { finish: () => req.destroy() };
}

/** Waits until `condition` holds (admissions and the places given back happen as the gateway gets to them). */
async function until(condition: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 5000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('image uploads per member', () => {
  for (const [what, route] of Object.entries(UPLOADS)) {
    it(`counts a ${what} against the member's allowance, as that member, then stores it`, async () => {
      expect(await upload(route.path, route.field, route.headers())).toMatchObject({ status: 200 });
      expect(quotaCalls().map((call) => [call.request, call.caller?.userId])).toEqual([
        [{ quota: 'image-upload' }, MEMBER.sub],
      ]);
      expect(route.stored()).toHaveLength(1);
    });

    it(`refuses a ${what} past the allowance with 429 and Retry-After, before reading its body`, async () => {
      auth.answer('consumeQuota', async () => ({ retry_after_seconds: 1740 }));
      const answer = await uploadAnsweredBeforeBody(route.path, route.headers());
      expect(answer).toEqual({
        status: 429,
        retryAfter: '1740',
        body: refused(UPLOAD_ADMISSION_MESSAGES.tooMany('29 minutes')),
      });
      expect(route.stored()).toEqual([]);
    });
  }

  it('says the wait in seconds when it is short', async () => {
    auth.answer('consumeQuota', async () => ({ retry_after_seconds: 42 }));
    expect(await upload(UPLOADS.picture.path, UPLOADS.picture.field, member)).toEqual({
      status: 429,
      retryAfter: '42',
      body: refused(UPLOAD_ADMISSION_MESSAGES.tooMany('42 seconds')),
    });
  });

  it('does not count an upload its headers already refuse (not multipart, declared too large)', async () => {
    const notMultipart = await fetch(url(UPLOADS.picture.path), {
      method: 'POST',
      headers: { ...member, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notMultipart.status).toBe(400);
    const tooLarge = await uploadAnsweredBeforeBody(UPLOADS.picture.path, member, 11 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(quotaCalls()).toEqual([]);
  });

  it('answers 503 with Retry-After when the gateway already holds UPLOADS_AT_ONCE uploads (parallel)', async () => {
    // The service holds every stored upload until the test lets go, so all of them are under way at once.
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    profile.answer('uploadPicture', async () => {
      await held;
      return { url: PICTURE_URL };
    });
    const members = await Promise.all(Array.from({ length: UPLOADS_AT_ONCE + 3 }, (_, i) => memberNo(i + 1)));
    let answered = 0;
    const answers = members.map((headers) =>
      upload(UPLOADS.picture.path, UPLOADS.picture.field, headers).finally(() => (answered += 1)),
    );
    // The refused ones are answered at once, while the admitted ones are still held by the service.
    await until(() => profile.callsTo('uploadPicture').length === UPLOADS_AT_ONCE && answered === 3);
    letGo();
    const statuses = await Promise.all(answers);
    expect(statuses.filter((answer) => answer.status === 200)).toHaveLength(UPLOADS_AT_ONCE);
    const busy = statuses.filter((answer) => answer.status === 503);
    expect(busy).toHaveLength(3);
    expect(busy[0]).toEqual({
      status: 503,
      retryAfter: String(BUSY_RETRY_AFTER_SECONDS),
      body: refused(UPLOAD_ADMISSION_MESSAGES.busy),
    });
    // A refused upload costs none of the member's allowance: only the admitted ones were counted.
    expect(quotaCalls()).toHaveLength(UPLOADS_AT_ONCE);
    // Once they are done, uploads are admitted again.
    expect((await upload(UPLOADS.picture.path, UPLOADS.picture.field, member)).status).toBe(200);
  });

  it('lets one member hold two uploads at once: the third answers 429, another member is admitted', async () => {
    const first = stalledUpload(member);
    const second = stalledUpload(member);
    await until(() => quotaCalls().length === 2);
    expect(await upload(UPLOADS.picture.path, UPLOADS.picture.field, member)).toEqual({
      status: 429,
      retryAfter: '5',
      body: refused(UPLOAD_ADMISSION_MESSAGES.memberBusy),
    });
    expect((await upload(UPLOADS.picture.path, UPLOADS.picture.field, await memberNo(99))).status).toBe(200);
    // A client that goes away gives its place back.
    first.finish();
    second.finish();
    await until(
      async () => (await upload(UPLOADS.picture.path, UPLOADS.picture.field, member)).status === 200,
    );
    expect(profile.callsTo('uploadPicture')).toHaveLength(2);
  });
});

describe("reading other members' profiles", () => {
  const someoneElse = { ...PROFILE, user_id: OTHER_PERSON };

  async function read(path: string, headers: Record<string, string> = member) {
    const res = await fetch(url(path), { headers });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text };
  }

  it("counts another member's profile page as a read by the caller, and answers it", async () => {
    profile.answer('getProfile', async () => someoneElse);
    const answer = await read('/api/profiles/profile/7');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).user_id).toBe(OTHER_PERSON);
    expect(quotaCalls().map((call) => [call.request, call.caller?.userId])).toEqual([
      [{ quota: 'profile-read' }, MEMBER.sub],
    ]);
  });

  it('refuses it past the allowance with 429 and Retry-After, withholding the profile', async () => {
    profile.answer('getProfile', async () => someoneElse);
    auth.answer('consumeQuota', async () => ({ retry_after_seconds: 37 }));
    const answer = await read('/api/profiles/profile/7');
    expect(answer).toEqual({
      status: 429,
      retryAfter: '37',
      text: JSON.stringify(refused(tooManyProfileReads('37 seconds'))),
    });
    expect(answer.text).not.toContain(PROFILE.mobile_phone);
  });

  it('never counts the member’s own profile, nor the one their claim waits on', async () => {
    auth.answer('consumeQuota', async () => ({ retry_after_seconds: 37 }));
    expect((await read('/api/profiles/profile/7')).status).toBe(200);
    profile.answer('getProfile', async () => ({
      ...PROFILE,
      user_id: undefined,
      claim_pending: true,
      claimed_by_caller: true,
    }));
    expect((await read('/api/profiles/profile/7')).status).toBe(200);
    expect(quotaCalls()).toEqual([]);
  });

  it('does not count a profile that does not exist, nor a visitor (401)', async () => {
    profile.answer('getProfile', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    expect((await read('/api/profiles/profile/9999')).status).toBe(404);
    expect((await read('/api/profiles/profile/7', {})).status).toBe(401);
    expect(quotaCalls()).toEqual([]);
  });

  const CARD = {
    first_name: 'Imani',
    last_name: 'Okafor',
    work_email: 'imani.okafor@senate.example.org',
  };

  it("counts another member's vCard, refusing it past the allowance; the member's own is never counted", async () => {
    profile.answer('getContactCard', async () => ({ ...CARD, profile_id: 9 }));
    expect((await read('/api/profiles/profile/9/vcard')).status).toBe(200);
    expect(quotaCalls().map((call) => call.request)).toEqual([{ quota: 'profile-read' }]);
    auth.answer('consumeQuota', async () => ({ retry_after_seconds: 12 }));
    expect(await read('/api/profiles/profile/9/vcard')).toEqual({
      status: 429,
      retryAfter: '12',
      text: JSON.stringify(refused(tooManyProfileReads('12 seconds'))),
    });
    // user-check answers profile 7 as the caller's own.
    auth.reset();
    auth.answer('consumeQuota', async () => ({ retry_after_seconds: 12 }));
    profile.answer('getContactCard', async () => ({ ...CARD, profile_id: 7 }));
    expect((await read('/api/profiles/profile/7/vcard')).status).toBe(200);
    expect(quotaCalls()).toEqual([]);
  });
});
