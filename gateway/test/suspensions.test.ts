// A suspended member reads but writes nothing (docs/product.md#moderation, ADR 0041): once the
// gateway's moderation snapshot knows of the suspension, every write route under /api answers 403 "Your account is
// suspended until <date>: <reason>" right after authentication, before its body is looked at, while reads answer
// as usual and the caller token the services get carries the suspension; lifting it opens the writes again within
// the poll. The write routes are listed here, and every route the gateway registers that is not a GET must be on
// that list, on the list of POSTs that only read, or on the list of the member's own rights (their notifications,
// preferences and account, ADR 0042), so a new write route cannot forget the refusal.
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type FakeNotification, startFakeNotification } from './support/fake-notification.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakePost, startFakePost } from './support/fake-post.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';

/** Every route that changes something: each refuses a suspended member. */
const WRITE_ROUTES = [
  'POST /api/posts/add-post',
  'POST /api/posts/update-post',
  'DELETE /api/posts/delete-post',
  'POST /api/posts/add-comment',
  'POST /api/posts/update-comment',
  'DELETE /api/posts/delete-comment',
  'POST /api/posts/add-like',
  'POST /api/profiles/create-profile',
  'POST /api/profiles/upload-profile-picture',
  'POST /api/profiles/update-profile',
  'POST /api/profiles/claim/:profile_id',
  'POST /api/profiles/claims/:claim_id',
  'POST /api/profiles/add-job',
  'POST /api/profiles/update-job',
  'DELETE /api/profiles/delete-job',
  'POST /api/profiles/bio/:profile_id',
  'POST /api/orgs/add-organization',
  'POST /api/orgs/update-organization',
  'POST /api/orgs/upload-organization-logo',
  'POST /api/orgs/add-division',
  'POST /api/issues/add-issue-area',
  'POST /api/issues/add-user-issue',
  'DELETE /api/issues/delete-user-issue',
  'POST /api/reports',
  'POST /api/reports/decide',
  'POST /api/moderation/suspensions',
  'DELETE /api/moderation/suspensions/:user_id',
  'POST /api/admin/access',
  'DELETE /api/admin/access',
  'POST /api/admin/roles',
  'POST /api/admin/agencies',
  'DELETE /api/admin/agencies/:alias',
];

/** POSTs that only read (a body carries the question), or count a reading: a suspended member still reads. */
const READ_POSTS = [
  'POST /api/posts/all',
  'POST /api/posts/update-read-count',
  'POST /api/posts/get-likes/:id',
  'POST /api/posts/profile-info',
  'POST /api/profiles/new-user-check',
  'POST /api/profiles/organization-colleagues',
  'POST /api/profiles/division-colleagues',
];

/**
 * Writes that are the member's own rights, which moderation does not take away (ADR 0042): marking their
 * notifications read, choosing what is mailed, unsubscribing (no sign-in at all), deleting their account.
 */
const OWN_RIGHTS = [
  'POST /api/notifications/unsubscribe',
  'POST /api/notifications/read',
  'PUT /api/notifications/preferences',
  'POST /api/me/delete',
];

/** Write routes whose path names all they need: they read no body. */
const BODILESS = new Set([
  'POST /api/profiles/claim/:profile_id',
  'DELETE /api/moderation/suspensions/:user_id',
  'DELETE /api/admin/agencies/:alias',
]);

interface Layer {
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every route the app registers, as 'METHOD /path', mounts included. */
function routesOf(app: Express): string[] {
  const walk = (stack: Layer[], prefix: string): string[] =>
    stack.flatMap((layer) => {
      if (layer.route)
        return Object.keys(layer.route.methods).map(
          (method) => `${method.toUpperCase()} ${prefix}${layer.route?.path}`,
        );
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      return layer.handle.stack ? walk(layer.handle.stack, `${prefix}${mount}`) : [];
    });
  return walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
}

const UNTIL = new Date('2099-12-09T20:00:00Z');
const REASON = 'Repeated spam';
const SUSPENDED = { errors: [{ msg: `Your account is suspended until December 9, 2099: ${REASON}` }] };

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let profiles: FakeProfile;
let orgs: FakeOrg;
let notifications: FakeNotification;
let gateway: RunningGateway;
/** A contributor and administrator, so the role-only routes are refused for the suspension, not for the role. */
let contributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  [auth, posts, profiles, orgs, notifications] = await Promise.all([
    startFakeAuth([key]),
    startFakePost(),
    startFakeProfile(),
    startFakeOrg(),
    startFakeNotification(),
  ]);
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    POST_SERVICE_ADDR: posts.address,
    PROFILE_SERVICE_ADDR: profiles.address,
    ORG_SERVICE_ADDR: orgs.address,
    NOTIFICATION_SERVICE_ADDR: notifications.address,
  });
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor', 'admin'] }) };
});
afterAll(async () => {
  await gateway.close();
  await Promise.all([posts, profiles, orgs, auth, notifications].map((fake) => fake.server.shutdown()));
});

/** The route's method and path with its parameters filled in, sent with a body no route accepts (not an object). */
async function send(route: string) {
  const [method, path] = route.split(' ') as [string, string];
  const filled = path.replace(/:(\w+)/g, (_whole, name: string) => (name === 'user_id' ? 'u-9' : '1'));
  const res = await fetch(`${gateway.base}${filled}`, {
    method,
    headers: { 'content-type': 'application/json', ...contributor },
    body: JSON.stringify(['not', 'an', 'object']),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function suspend() {
  posts.moderation.suspensions.push({
    user_id: MEMBER.sub,
    until: UNTIL,
    reason: REASON,
    created_at: new Date(),
    suspended_by: 'concierge-1',
  });
}

describe('a suspended member', () => {
  it('is refused on every write route, and only there: each non-GET route is a write or a read on purpose', () => {
    const unsafe = routesOf(gateway.app).filter(
      (route) => route.startsWith('POST /api') || !/^(GET|POST) /.test(route),
    );
    expect(new Set(unsafe)).toEqual(new Set([...WRITE_ROUTES, ...READ_POSTS, ...OWN_RIGHTS]));
  });

  it('gets 403 with the date and reason on every write, before the body is validated', async () => {
    suspend();
    await expect.poll(async () => (await send(WRITE_ROUTES[0] as string)).status).toBe(403);
    const before = posts.calls.length + profiles.calls.length + orgs.calls.length;
    for (const route of WRITE_ROUTES)
      expect({ route, ...(await send(route)) }).toEqual({ route, status: 403, body: SUSPENDED });
    // Nothing reached a service.
    expect(posts.calls.length + profiles.calls.length + orgs.calls.length).toBe(before);
  });

  it('still reads, the services told of the suspension by the caller token', async () => {
    expect((await post(`${gateway.base}/api/posts/all`, {}, contributor)).status).toBe(200);
    expect((await get(`${gateway.base}/api/issues`, contributor)).status).toBe(200);
    expect((await get(`${gateway.base}/api/moderation/me`, contributor)).body).toEqual({
      suspension: { until: UNTIL.toISOString(), reason: REASON },
    });
    const [listed] = posts.callsTo('listPosts');
    expect(listed?.caller?.suspension).toEqual({ until: UNTIL, reason: REASON });
    for (const route of READ_POSTS) expect({ route, ...(await send(route)) }.body).not.toEqual(SUSPENDED);
  });

  it('keeps their own rights: notifications read and marked, preferences, their data, their account', async () => {
    expect((await get(`${gateway.base}/api/notifications`, contributor)).status).toBe(200);
    expect((await get(`${gateway.base}/api/notifications/preferences`, contributor)).status).toBe(200);
    expect((await get(`${gateway.base}/api/me/export`, contributor)).status).toBe(200);
    expect((await post(`${gateway.base}/api/notifications/read`, { all: true }, contributor)).status).toBe(
      200,
    );
    // Each answers for its body (here one no route accepts), never for the suspension.
    for (const route of OWN_RIGHTS) {
      const { status, body } = await send(route);
      expect({ route, status, body }).toMatchObject({ route, status: 400 });
      expect(body).not.toEqual(SUSPENDED);
    }
  });

  it('writes again once the suspension is lifted, the body then judged as usual', async () => {
    posts.moderation.suspensions.length = 0;
    await expect.poll(async () => (await send(WRITE_ROUTES[0] as string)).status).toBe(400);
    for (const route of WRITE_ROUTES) {
      const { status, body } = await send(route);
      expect(body).not.toEqual(SUSPENDED);
      // The body that was refused for the suspension is refused for itself now, where the route reads one.
      if (!BODILESS.has(route)) expect({ route, status }).toEqual({ route, status: 400 });
    }
  });
});
