// "My issue areas" on the public square (POST /api/posts/all with `my_issues: true`) against a fake PostService on
// real gRPC: a boolean or nothing (400 otherwise, the service not asked), members only (401 for a visitor, the
// service not asked), forwarded with the caller, and never kept: each member's page is asked of the service
// every time, even while the shared pages are kept, and no browser stores it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  MEMBER,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { EVENT_POST, type FakePost, PLAIN_POST, startFakePost } from './support/fake-post.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let gateway: RunningGateway;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  posts = await startFakePost();
  // Pages kept as in production, so that a kept "My issue areas" page would show.
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    POST_SERVICE_ADDR: posts.address,
    PUBLIC_CACHE_SECONDS: '10',
  });
  member = { 'x-auth-token': await accessToken(key) };
});
afterEach(() => posts.reset());
afterAll(async () => {
  await gateway.close();
  await posts.server.shutdown();
  await auth.server.shutdown();
});

const feed = (body: unknown, headers: Record<string, string> = {}) =>
  post(`${gateway.base}/api/posts/all`, body, headers);

describe('POST /api/posts/all with my_issues', () => {
  it('forwards my_issues with the member and the rest of the request', async () => {
    const res = await feed(
      { my_issues: true, sort: 'popular', posttype_id: 4, search: ' water ', offset: 20, limit: 10 },
      member,
    );
    expect(res.status).toBe(200);
    expect((res.body as { post_id: number }[]).map((p) => p.post_id)).toEqual([
      PLAIN_POST.post_id,
      EVENT_POST.post_id,
    ]);
    expect(posts.callsTo('listPosts')).toEqual([
      {
        method: 'listPosts',
        request: {
          offset: 20,
          limit: 10,
          sort: 'popular',
          seed: 0,
          posttype_id: 4,
          search: 'water',
          my_issues: true,
        },
        caller: expect.objectContaining({ userId: MEMBER.sub }),
      },
    ]);
  });

  it('takes false or null as the whole feed, for visitors too', async () => {
    expect((await feed({ my_issues: false })).status).toBe(200);
    expect((await feed({ my_issues: null, search: 'other' })).status).toBe(200);
    expect(posts.callsTo('listPosts').map((call) => call.request.my_issues)).toEqual([false, false]);
  });

  it.each([['yes'], [1], ['true'], [{}]])(
    'refuses my_issues %j with 400 without asking the service',
    async (value) => {
      expect(await feed({ my_issues: value }, member)).toMatchObject({
        status: 400,
        body: { errors: [{ msg: 'my_issues must be true or false' }] },
      });
      expect(posts.calls).toEqual([]);
    },
  );

  it('answers a visitor 401, asking the service nothing', async () => {
    expect(await feed({ my_issues: true })).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });

  it('never keeps a member’s page: asked of the service each time, never stored by the browser', async () => {
    const first = await feed({ my_issues: true }, member);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    posts.answer('listPosts', async () => ({ posts: [EVENT_POST] }));
    const second = await feed({ my_issues: true }, member);
    expect((second.body as unknown[]).length).toBe(1);
    expect(posts.callsTo('listPosts')).toHaveLength(2);
    // The shared page of the same request without the filter is kept apart, and kept.
    await feed({});
    await feed({});
    expect(posts.callsTo('listPosts').filter((call) => !call.request.my_issues)).toHaveLength(1);
  });

  it('POST /api/posts/profile-info tells whether the member covers an issue area (the filter shows only then)', async () => {
    expect((await post(`${gateway.base}/api/posts/profile-info`, {}, member)).body).toMatchObject({
      has_issue_areas: false,
    });
    posts.answer('getProfileInfo', async () => ({
      profile_id: 102,
      first_name: 'Carlos',
      last_name: 'Whitaker',
      user_id: 'concierge-1',
      has_issue_areas: true,
    }));
    expect((await post(`${gateway.base}/api/posts/profile-info`, {}, member)).body).toMatchObject({
      has_issue_areas: true,
    });
  });
});
