// The /api/notifications/* paths against a fake NotificationService on real gRPC
// (docs/product.md#notifications): a member's page of notifications with docs/api.md's shape and their unread
// count, marking read by ids or all, preferences read and changed, and the refusals that never reach the
// service (visitors, bodies out of shape); the one-click unsubscribe of every mail, which needs no sign-in
// and works from another site, and its GET, which only leads a browser to the shell's page.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import {
  type FakeNotification,
  PREFERENCES,
  startFakeNotification,
  UNSUBSCRIBE_TOKEN,
} from './support/fake-notification.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };

let key: SigningKey;
let auth: FakeAuth;
let notifications: FakeNotification;
let gateway: RunningGateway;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  [auth, notifications] = await Promise.all([startFakeAuth([key]), startFakeNotification()]);
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    NOTIFICATION_SERVICE_ADDR: notifications.address,
  });
  member = { 'x-auth-token': await accessToken(key) };
});
afterEach(() => notifications.reset());
afterAll(async () => {
  await gateway.close();
  await Promise.all([auth.server.shutdown(), notifications.server.shutdown()]);
});

const url = (path: string) => `${gateway.base}${path}`;

async function put(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('a member’s notifications', () => {
  it('GET /api/notifications answers the page, newest first, with the unread count; never kept by a cache', async () => {
    const res = await get(url('/api/notifications'), member);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body).toEqual({
      items: [
        {
          id: 12,
          kind: 'comment',
          created_at: '2026-11-30T10:00:00.000Z',
          read: false,
          actor: { profile_id: 205, first_name: 'Dana', last_name: 'Lee' },
          target: { type: 'comment', id: 31, post_id: 7 },
          text: 'Dana Lee commented on your post “Hearing on rural broadband”',
        },
        {
          id: 11,
          kind: 'moderation',
          created_at: '2026-11-29T10:00:00.000Z',
          read: true,
          actor: null,
          target: { type: 'post', id: 8 },
          text: 'A contributor hid your post “Water plan adopted”: Off topic',
        },
      ],
      unread_count: 1,
    });
    const [listed] = notifications.callsTo('listNotifications');
    expect(listed?.request).toEqual({ before: 0, limit: 30 });
    expect(listed?.caller?.userId).toBe(MEMBER.sub);
  });

  it('forwards paging', async () => {
    expect((await get(url('/api/notifications?before=12&limit=5'), member)).status).toBe(200);
    expect(notifications.callsTo('listNotifications')[0]?.request).toEqual({ before: 12, limit: 5 });
    expect((await get(url('/api/notifications?before=&limit='), member)).status).toBe(200);
    expect(notifications.callsTo('listNotifications')[1]?.request).toEqual({ before: 0, limit: 30 });
  });

  it.each(['before=0', 'before=x', 'limit=0', 'limit=101', 'limit=1.5'])(
    'refuses ?%s with 400 without asking the service',
    async (query) => {
      expect((await get(url(`/api/notifications?${query}`), member)).status).toBe(400);
      expect(notifications.calls).toEqual([]);
    },
  );

  it('POST /api/notifications/read marks the ids given, or all, and answers the count left', async () => {
    expect(await post(url('/api/notifications/read'), { ids: [12, 11] }, member)).toMatchObject({
      status: 200,
      body: { unread_count: 0 },
    });
    expect(await post(url('/api/notifications/read'), { all: true }, member)).toMatchObject({ status: 200 });
    expect(notifications.callsTo('markRead').map((call) => call.request)).toEqual([
      { ids: [12, 11], all: false },
      { ids: [], all: true },
    ]);
  });

  it.each([
    [{}, 'Send either ids (at most 100) or all: true.'],
    [{ ids: [1], all: true }, 'Send either ids (at most 100) or all: true.'],
    [{ all: false }, 'all must be true.'],
    [{ ids: [0] }, 'ids must be a list of at most 100 notification ids (whole numbers).'],
    [{ ids: ['12'] }, 'ids must be a list of at most 100 notification ids (whole numbers).'],
    [{ ids: 12 }, 'ids must be a list of at most 100 notification ids (whole numbers).'],
    [
      { ids: Array.from({ length: 101 }, (_, index) => index + 1) },
      'ids must be a list of at most 100 notification ids (whole numbers).',
    ],
  ])('refuses read %j with 400 and a clear message', async (body, message) => {
    expect(await post(url('/api/notifications/read'), body, member)).toEqual({
      status: 400,
      headers: expect.anything(),
      body: { errors: [{ msg: message }] },
    });
    expect(notifications.calls).toEqual([]);
  });

  it('answers 503 naming the service when the notification service is down', async () => {
    const down = await startGateway({ AUTH_SERVICE_ADDR: auth.address });
    try {
      expect(await get(`${down.base}/api/notifications`, member)).toMatchObject({
        status: 503,
        body: { errors: [{ msg: 'The notification service is unavailable. Please try again shortly.' }] },
      });
    } finally {
      await down.close();
    }
  });
});

describe('preferences', () => {
  it('GET answers the member’s choices; PUT changes them and answers them', async () => {
    expect(await get(url('/api/notifications/preferences'), member)).toMatchObject({
      status: 200,
      body: PREFERENCES,
    });
    const chosen = { email_digest: 'daily', email_now: { mention: false, claim: true, moderation: true } };
    expect(await put('/api/notifications/preferences', chosen, member)).toEqual({
      status: 200,
      body: chosen,
    });
    expect(notifications.callsTo('setPreferences')[0]?.request).toEqual({ preferences: chosen });
  });

  it.each([
    [{ email_digest: 'hourly', email_now: { mention: true, claim: true, moderation: true } }, /email_digest/],
    [{ email_digest: 'off' }, /email_now/],
    [{ email_digest: 'off', email_now: { mention: 'yes', claim: true, moderation: true } }, /email_now/],
    [{ email_digest: 'off', email_now: { mention: true, claim: true } }, /email_now/],
  ])('refuses %j with 400 without asking the service', async (body, message) => {
    const res = await put('/api/notifications/preferences', body, member);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].msg).toMatch(message);
    expect(notifications.calls).toEqual([]);
  });
});

describe('members only', () => {
  it.each([
    ['GET', '/api/notifications'],
    ['POST', '/api/notifications/read'],
    ['GET', '/api/notifications/stream'],
    ['GET', '/api/notifications/preferences'],
    ['PUT', '/api/notifications/preferences'],
  ])('%s %s answers 401 to a visitor without asking the service', async (method, path) => {
    const res = await fetch(url(path), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'GET' ? {} : { body: JSON.stringify({ all: true }) }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(LOGIN_REQUIRED);
    expect(notifications.calls).toEqual([]);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('POST with the mail provider’s form body, from another site and signed in to nothing, unsubscribes', async () => {
    const res = await fetch(url(`/api/notifications/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://mail.example.com',
      },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unsubscribed: true });
    const [call] = notifications.callsTo('unsubscribe');
    expect(call).toEqual({ method: 'unsubscribe', request: { token: UNSUBSCRIBE_TOKEN }, caller: undefined });
  });

  it('POST with no body at all unsubscribes too', async () => {
    const res = await fetch(url(`/api/notifications/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`), {
      method: 'POST',
    });
    expect(res.status).toBe(200);
  });

  it('answers 404 to a token the service does not know, and 400 to none', async () => {
    expect(await post(url('/api/notifications/unsubscribe?token=forged'), '')).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'This unsubscribe link is not known' }] },
    });
    expect(await post(url('/api/notifications/unsubscribe'), '')).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'This unsubscribe link is incomplete: open the link from the email again.' }] },
    });
  });

  it('GET never unsubscribes: it sends the browser to the shell’s page with the token', async () => {
    const res = await fetch(url(`/api/notifications/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`), {
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/unsubscribe?token=${UNSUBSCRIBE_TOKEN}`);
    expect(notifications.calls).toEqual([]);
  });
});
