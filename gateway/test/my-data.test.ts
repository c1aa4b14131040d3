// The /api/me/* paths against fake auth, profile, post and notification services on real gRPC
// (docs/product.md#your-data): "Download my data" joins the four services' parts into one attachment with
// exactly docs/api.md's keys, asks each as the member, answers 503 naming the service when one fails (never a
// partial file) and is limited per member; "Delete my account" forwards the password to the auth service,
// answers its refusal of a wrong one, and ends the member's session on this gateway at once.
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXPORTS_PER_HOUR, ME_MESSAGES } from '../src/routes/me.ts';
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
import { type FakeNotification, PREFERENCES, startFakeNotification } from './support/fake-notification.ts';
import { type FakePost, startFakePost } from './support/fake-post.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };

let key: SigningKey;
let auth: FakeAuth;
let profiles: FakeProfile;
let posts: FakePost;
let notifications: FakeNotification;
let gateway: RunningGateway;
/** Each test's own member (and session): the export allowance and ended sessions are per member. */
let member: Record<string, string>;
let members = 0;

beforeAll(async () => {
  key = await signingKey('key-1');
  [auth, profiles, posts, notifications] = await Promise.all([
    startFakeAuth([key]),
    startFakeProfile(),
    startFakePost(),
    startFakeNotification(),
  ]);
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    PROFILE_SERVICE_ADDR: profiles.address,
    POST_SERVICE_ADDR: posts.address,
    NOTIFICATION_SERVICE_ADDR: notifications.address,
  });
});
beforeEach(async () => {
  members += 1;
  member = {
    'x-auth-token': await accessToken(key, {
      claims: {
        sub: `${MEMBER.sub.slice(0, -2)}${String(members).padStart(2, '0')}`,
        sid: `session-${members}`,
      },
    }),
  };
});
afterEach(() => {
  for (const fake of [auth, profiles, posts, notifications]) fake.reset();
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([auth, profiles, posts, notifications].map((fake) => fake.server.shutdown()));
});

const url = (path: string) => `${gateway.base}${path}`;

describe('GET /api/me/export', () => {
  it('answers one JSON download with exactly the contract’s keys, each service asked as the member', async () => {
    const res = await fetch(url('/api/me/export'), { headers: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="rotunda-my-data.json"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const file = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(file)).toEqual([
      'account',
      'profile',
      'jobs',
      'issue_areas',
      'claims',
      'reports',
      'posts',
      'comments',
      'likes',
      'notifications',
      'preferences',
    ]);
    expect(file).toMatchObject({
      account: { email: MEMBER.email },
      issue_areas: [{ issue_id: 4, issue_name: 'Housing' }],
      reports: [{ report_id: 41 }],
      posts: [{ post_id: 7 }],
      notifications: [{ id: 12, kind: 'comment' }],
      preferences: PREFERENCES,
    });
    const askedAs = [auth, profiles, posts, notifications].map(
      (fake) => fake.callsTo('exportMine')[0]?.caller?.userId,
    );
    expect(new Set(askedAs)).toEqual(new Set([expect.stringMatching(/^4b1f2a52-/)]));
  });

  it('fills what a service holds nothing of with null or an empty list', async () => {
    profiles.answer('exportMine', async () => ({ json: JSON.stringify({ profile: null }) }));
    const file = await (await fetch(url('/api/me/export'), { headers: member })).json();
    expect(file).toMatchObject({ profile: null, jobs: [], issue_areas: [], claims: [] });
  });

  it.each([
    ['profile', () => profiles],
    ['post', () => posts],
    ['notification', () => notifications],
  ] as const)('answers 503 naming the %s service when it fails: no partial file', async (service, fake) => {
    fake().answer('exportMine', async () => {
      throw new Error('the database cannot be reached');
    });
    const res = await fetch(url('/api/me/export'), { headers: member });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(await res.json()).toEqual({ errors: [{ msg: ME_MESSAGES.exportFailed(service) }] });
  });

  it(`allows ${EXPORTS_PER_HOUR} exports an hour per member, then 429 with Retry-After`, async () => {
    for (let count = 0; count < EXPORTS_PER_HOUR; count++)
      expect((await fetch(url('/api/me/export'), { headers: member })).status).toBe(200);
    const refused = await get(url('/api/me/export'), member);
    expect(refused).toMatchObject({ status: 429, body: { errors: [{ msg: ME_MESSAGES.tooManyExports }] } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
  });

  it('answers 401 to a visitor without asking any service', async () => {
    expect(await get(url('/api/me/export'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(auth.callsTo('exportMine')).toEqual([]);
  });
});

describe('POST /api/me/delete', () => {
  it('deletes the account with the password and ends the session here at once', async () => {
    expect(await post(url('/api/me/delete'), { password: ' Secret#2024 ' }, member)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
    const [call] = auth.callsTo('deleteAccount');
    // The password exactly as typed: spaces are part of it.
    expect(call?.request).toMatchObject({ password: ' Secret#2024 ', client_ip: '127.0.0.1' });
    expect(call?.caller?.userId).toMatch(/^4b1f2a52-/);
    // Refused at once, though the fake auth service reports no ended session.
    expect((await get(url('/api/me/export'), member)).status).toBe(401);
  });

  it('answers the auth service’s 401 to a wrong password, the session still open', async () => {
    auth.answer('deleteAccount', async () => {
      throw new DomainError('unauthenticated', 'The password is not correct');
    });
    expect(await post(url('/api/me/delete'), { password: 'wrong' }, member)).toMatchObject({
      status: 401,
      body: { errors: [{ msg: 'The password is not correct' }] },
    });
    expect((await get(url('/api/notifications/preferences'), member)).status).toBe(200);
  });

  it.each([{}, { password: '' }, { password: 42 }])('refuses %j with 400 without asking', async (body) => {
    const res = await post(url('/api/me/delete'), body, member);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].msg).toMatch(/password/);
    expect(auth.callsTo('deleteAccount')).toEqual([]);
  });

  it('waits for the password check as long as a sign-in does, not the usual deadline', async () => {
    // The auth service checking the password and deleting takes 600 ms: past the usual deadline, inside a sign-in's.
    auth.answer('deleteAccount', async () => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      return {};
    });
    const services = {
      AUTH_SERVICE_ADDR: auth.address,
      PROFILE_SERVICE_ADDR: profiles.address,
      POST_SERVICE_ADDR: posts.address,
      NOTIFICATION_SERVICE_ADDR: notifications.address,
      GRPC_DEADLINE_MS: '200',
    };
    const waiting = await startGateway({ ...services, PASSWORD_DEADLINE_MS: '2000' });
    const impatient = await startGateway({ ...services, PASSWORD_DEADLINE_MS: '200' });
    try {
      expect(await post(`${waiting.base}/api/me/delete`, { password: 'Secret#2024' }, member)).toMatchObject({
        status: 200,
        body: { deleted: true },
      });
      expect(
        await post(`${impatient.base}/api/me/delete`, { password: 'Secret#2024' }, member),
      ).toMatchObject({
        status: 504,
        body: { errors: [{ msg: 'The auth service did not answer in time.' }] },
      });
    } finally {
      await Promise.all([waiting.close(), impatient.close()]);
    }
  });

  it('answers 401 to a visitor', async () => {
    expect(await post(url('/api/me/delete'), { password: 'x' })).toMatchObject({
      status: 401,
      body: LOGIN_REQUIRED,
    });
  });
});
