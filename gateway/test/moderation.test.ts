// The moderation paths (docs/product.md#moderation, ADR 0041) against a fake PostService on real
// gRPC: the answers' snake_case shapes, who may call what (401 for visitors, 403 for members on the contributors'
// paths), validation refusals that never reach the service, the service's refusals passed on, a suspended member
// refused on every write before anything else but still reading, the member's own suspension from the snapshot,
// and the `moderation` marker on hidden posts and comments, absent everywhere else.
import { suspendedMessage } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
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
import { COMMENT, EVENT_POST, type FakePost, PLAIN_POST, startFakePost } from './support/fake-post.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const CONTRIBUTORS_ONLY = { errors: [{ msg: 'Contributors only' }] };
const SUSPENDED_ID = 'c0a8e8f2-5d1b-4c55-9b1e-3f0d9e6a7b21';

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;
let suspended: Record<string, string>;
let suspendedContributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  posts = await startFakePost();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, POST_SERVICE_ADDR: posts.address });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
  suspended = { 'x-auth-token': await accessToken(key, { claims: { sub: SUSPENDED_ID } }) };
  suspendedContributor = {
    'x-auth-token': await accessToken(key, { roles: ['contributor'], claims: { sub: SUSPENDED_ID } }),
  };
});
afterEach(() => posts.reset());
afterAll(async () => {
  await gateway.close();
  await posts.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string, base = gateway.base) => `${base}${path}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function del(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(url(path), { method: 'DELETE', headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Waits until `read` holds: the gateways ask for the moderation snapshot every 50 ms here. */
async function until(read: () => Promise<boolean>) {
  const started = Date.now();
  while (!(await read())) {
    if (Date.now() - started > 5000) throw new Error('the gateway never learnt the snapshot');
    await sleep(20);
  }
}

describe('POST /api/reports', () => {
  it('answers 201 with the report id; the member is the caller, the note trimmed', async () => {
    const res = await post(
      url('/api/reports'),
      { target_type: 'post', target_id: 7, reason: 'personal_information', note: '  A staffer’s phone  ' },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: { report_id: 41 } });
    expect(posts.callsTo('addReport')).toEqual([
      {
        method: 'addReport',
        request: {
          target_type: 'post',
          target_id: 7,
          reason: 'personal_information',
          note: 'A staffer’s phone',
        },
        caller: expect.objectContaining({ userId: MEMBER.sub }),
      },
    ]);
  });

  it('takes a comment, its id as digits, and no note or a null one as none', async () => {
    await post(url('/api/reports'), { target_type: 'comment', target_id: '31', reason: 'spam' }, member);
    await post(
      url('/api/reports'),
      { target_type: 'comment', target_id: 31, reason: 'other', note: null },
      member,
    );
    await post(
      url('/api/reports'),
      { target_type: 'post', target_id: 8, reason: 'spam', note: 'x'.repeat(500) },
      member,
    );
    expect(posts.callsTo('addReport').map((call) => call.request)).toEqual([
      { target_type: 'comment', target_id: 31, reason: 'spam', note: '' },
      { target_type: 'comment', target_id: 31, reason: 'other', note: '' },
      { target_type: 'post', target_id: 8, reason: 'spam', note: 'x'.repeat(500) },
    ]);
  });

  it('answers 401 to a visitor without asking the service', async () => {
    const res = await post(url('/api/reports'), { target_type: 'post', target_id: 7, reason: 'spam' });
    expect(res).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });

  const REASONS = 'reason must be one of spam, harassment, misinformation, personal_information, other';
  it.each([
    [{ target_type: 'post', target_id: 7, reason: 'rude' }, REASONS],
    [{ target_type: 'post', target_id: 7 }, REASONS],
    [{ target_type: 'profile', target_id: 7, reason: 'spam' }, 'target_type must be one of post, comment'],
    [{ target_id: 7, reason: 'spam' }, 'target_type must be one of post, comment'],
    [{ target_type: 'post', reason: 'spam' }, 'target_id is required'],
    [{ target_type: 'post', target_id: 'seven', reason: 'spam' }, 'target_id must be a whole number'],
    [{ target_type: 'post', target_id: 0, reason: 'spam' }, 'target_id must be a whole number'],
    [
      { target_type: 'post', target_id: 7, reason: 'spam', note: 'x'.repeat(501) },
      'note must be at most 500 characters',
    ],
    [{ target_type: 'post', target_id: 7, reason: 'spam', note: 12 }, 'note must be text'],
  ])('refuses %j with 400 without asking the service', async (body, message) => {
    expect(await post(url('/api/reports'), body, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(posts.calls).toEqual([]);
  });

  it('passes the service’s 404 for an unknown target and 429 for too many reports', async () => {
    posts.answer('addReport', async () => {
      throw new DomainError('not_found', 'Comment not found');
    });
    expect(
      await post(url('/api/reports'), { target_type: 'comment', target_id: 999, reason: 'spam' }, member),
    ).toMatchObject({ status: 404, body: { errors: [{ msg: 'Comment not found' }] } });
    posts.answer('addReport', async () => {
      throw new DomainError('resource_exhausted', 'Too many reports. Please try again in 60 seconds.');
    });
    const limited = await post(
      url('/api/reports'),
      { target_type: 'post', target_id: 7, reason: 'spam' },
      member,
    );
    expect(limited.status).toBe(429);
  });
});

const REPORTED_COMMENT_JSON = {
  target_type: 'comment',
  target_id: 31,
  post_id: 7,
  reports_count: 3,
  reasons: ['harassment', 'spam'],
  state: 'hidden',
  automatic: true,
  first_reported_at: '2026-11-22T10:00:00.000Z',
  excerpt: 'Will there be a recording?',
  notes: ['Third time this week'],
  author: { user_id: 'concierge-1', profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker' },
};

describe('GET /api/reports', () => {
  it('answers a contributor one entry per reported target; open when no status is given', async () => {
    const res = await get(url('/api/reports'), contributor);
    expect(res).toMatchObject({ status: 200, body: [REPORTED_COMMENT_JSON] });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(posts.callsTo('listReports')).toEqual([
      {
        method: 'listReports',
        request: { status: 'open' },
        caller: expect.objectContaining({ roles: expect.arrayContaining(['contributor']) }),
      },
    ]);
    await get(url('/api/reports?status=closed'), contributor);
    expect(posts.callsTo('listReports')[1]?.request).toEqual({ status: 'closed' });
  });

  it.each(['/api/reports?status=pending', '/api/reports?status=', '/api/reports?status=open&status=closed'])(
    'refuses %s with 400',
    async (path) => {
      expect(await get(url(path), contributor)).toMatchObject({
        status: 400,
        body: { errors: [{ msg: 'status must be one of open, closed' }] },
      });
      expect(posts.calls).toEqual([]);
    },
  );

  it('answers 403 to a member and 401 to a visitor', async () => {
    expect(await get(url('/api/reports'), member)).toMatchObject({ status: 403, body: CONTRIBUTORS_ONLY });
    expect(await get(url('/api/reports'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });
});

describe('GET /api/reports/mine', () => {
  it('answers a member their own reports with each outcome, never to be kept by a shared cache', async () => {
    const res = await get(url('/api/reports/mine'), member);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        report_id: 42,
        target_type: 'comment',
        target_id: 31,
        post_id: 7,
        reason: 'harassment',
        note: '',
        created_at: '2026-11-23T10:00:00.000Z',
        status: 'open',
        outcome: '',
        decided_at: null,
        excerpt: 'Will there be a recording?',
      },
      {
        report_id: 41,
        target_type: 'post',
        target_id: 7,
        post_id: 7,
        reason: 'personal_information',
        note: 'A staffer’s phone',
        created_at: '2026-11-22T10:00:00.000Z',
        status: 'closed',
        outcome: 'hide',
        decided_at: '2026-11-23T08:00:00.000Z',
        excerpt: 'Budget hearing moved',
      },
    ]);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(posts.callsTo('listMyReports')).toEqual([
      { method: 'listMyReports', request: {}, caller: expect.objectContaining({ userId: MEMBER.sub }) },
    ]);
  });

  it('answers 401 to a visitor without asking the service', async () => {
    expect(await get(url('/api/reports/mine'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });
});

describe('POST /api/reports/decide', () => {
  const decision = {
    target_type: 'comment',
    target_id: 31,
    action: 'hide',
    reason: 'Harassment of a staffer',
  };

  it('answers the target’s state and the reports it closed', async () => {
    const res = await post(url('/api/reports/decide'), decision, contributor);
    expect(res).toMatchObject({ status: 200, body: { state: 'hidden', closed_reports: 3 } });
    expect(posts.callsTo('decideReports')[0]?.request).toEqual(decision);
  });

  it.each([
    [{ ...decision, action: 'ban' }, 'action must be one of dismiss, hide, restore, remove'],
    [{ ...decision, reason: undefined }, 'reason is required'],
    [{ ...decision, reason: '   ' }, 'reason is required'],
    [{ ...decision, reason: 'x'.repeat(1001) }, 'reason must be at most 1000 characters'],
    [{ ...decision, target_type: 'news' }, 'target_type must be one of post, comment'],
    [{ ...decision, target_id: -1 }, 'target_id must be a whole number'],
  ])('refuses %j with 400', async (body, message) => {
    expect(await post(url('/api/reports/decide'), body, contributor)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(posts.calls).toEqual([]);
  });

  it('answers 403 to a member and 401 to a visitor, before reading the body', async () => {
    expect(await post(url('/api/reports/decide'), {}, member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    expect(await post(url('/api/reports/decide'), decision)).toMatchObject({
      status: 401,
      body: LOGIN_REQUIRED,
    });
    expect(posts.calls).toEqual([]);
  });
});

describe('suspensions', () => {
  it('POST /api/moderation/suspensions answers 201 with the suspension', async () => {
    const res = await post(
      url('/api/moderation/suspensions'),
      { user_id: MEMBER.sub, days: 30, reason: 'Repeated harassment' },
      contributor,
    );
    expect(res).toMatchObject({
      status: 201,
      body: { user_id: MEMBER.sub, until: '2026-12-24T08:00:00.000Z', reason: 'Repeated harassment' },
    });
    expect(Object.keys(res.body)).toEqual(['user_id', 'until', 'reason']);
    expect(posts.callsTo('suspendMember')[0]?.request).toEqual({
      user_id: MEMBER.sub,
      days: 30,
      reason: 'Repeated harassment',
    });
    // A select sends its value as digits.
    await post(
      url('/api/moderation/suspensions'),
      { user_id: MEMBER.sub, days: '365', reason: 'r' },
      contributor,
    );
    expect(posts.callsTo('suspendMember')[1]?.request).toMatchObject({ days: 365 });
  });

  const DAYS = 'days must be a whole number from 1 to 365';
  it.each([
    [{ user_id: MEMBER.sub, days: 0, reason: 'r' }, DAYS],
    [{ user_id: MEMBER.sub, days: 366, reason: 'r' }, DAYS],
    [{ user_id: MEMBER.sub, days: 1.5, reason: 'r' }, DAYS],
    [{ user_id: MEMBER.sub, days: 'a week', reason: 'r' }, DAYS],
    [{ user_id: MEMBER.sub, reason: 'r' }, DAYS],
    [{ days: 3, reason: 'r' }, 'user_id is required'],
    [{ user_id: MEMBER.sub, days: 3 }, 'reason is required'],
  ])('refuses %j with 400', async (body, message) => {
    expect(await post(url('/api/moderation/suspensions'), body, contributor)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(posts.calls).toEqual([]);
  });

  it('DELETE /api/moderation/suspensions/:user_id answers 204; the service’s 404 is passed on', async () => {
    expect(await del(`/api/moderation/suspensions/${MEMBER.sub}`, contributor)).toEqual({
      status: 204,
      body: undefined,
    });
    expect(posts.callsTo('liftSuspension')[0]?.request).toEqual({ user_id: MEMBER.sub });
    posts.answer('liftSuspension', async () => {
      throw new DomainError('not_found', 'No running suspension');
    });
    expect(await del('/api/moderation/suspensions/concierge-1', contributor)).toEqual({
      status: 404,
      body: { errors: [{ msg: 'No running suspension' }] },
    });
  });

  it('answers 403 to a member and 401 to a visitor on both', async () => {
    const body = { user_id: MEMBER.sub, days: 3, reason: 'r' };
    expect(await post(url('/api/moderation/suspensions'), body, member)).toMatchObject({ status: 403 });
    expect(await post(url('/api/moderation/suspensions'), body)).toMatchObject({ status: 401 });
    expect(await del(`/api/moderation/suspensions/${MEMBER.sub}`, member)).toMatchObject({ status: 403 });
    expect(await del(`/api/moderation/suspensions/${MEMBER.sub}`)).toMatchObject({ status: 401 });
    expect(posts.calls).toEqual([]);
  });
});

describe('GET /api/moderation/log', () => {
  it('answers every decision and suspension, newest first, a suspension without a target', async () => {
    const res = await get(url('/api/moderation/log'), contributor);
    expect(res).toMatchObject({
      status: 200,
      body: [
        {
          id: 12,
          at: '2026-11-23T09:00:00.000Z',
          actor: { user_id: 'concierge-1', first_name: 'Carlos', last_name: 'Whitaker' },
          action: 'suspend',
          target_type: null,
          target_id: null,
          user_id: MEMBER.sub,
          reason: 'Repeated harassment',
        },
        {
          id: 11,
          at: '2026-11-23T08:00:00.000Z',
          actor: { user_id: 'concierge-1', first_name: 'Carlos', last_name: 'Whitaker' },
          action: 'hide',
          target_type: 'post',
          target_id: 7,
          user_id: MEMBER.sub,
          reason: 'Personal phone number',
        },
      ],
    });
    expect(posts.callsTo('listModerationLog')[0]?.request).toEqual({ before: 0, limit: 50 });
    await get(url('/api/moderation/log?before=11&limit=100'), contributor);
    expect(posts.callsTo('listModerationLog')[1]?.request).toEqual({ before: 11, limit: 100 });
  });

  it.each([
    ['/api/moderation/log?limit=0', 'limit must be a whole number from 1 to 100'],
    ['/api/moderation/log?limit=101', 'limit must be a whole number from 1 to 100'],
    ['/api/moderation/log?before=last', 'before must be a whole number from 1 to 2147483647'],
  ])('refuses %s with 400', async (path, message) => {
    expect(await get(url(path), contributor)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
  });

  it('answers 403 to a member and 401 to a visitor', async () => {
    expect(await get(url('/api/moderation/log'), member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    expect(await get(url('/api/moderation/log'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });
});

describe('a suspended member', () => {
  const suspendedUntil = new Date(Date.now() + 7 * 24 * 3600_000);
  const reason = 'Repeated harassment';
  const refusal = { status: 403, body: { errors: [{ msg: suspendedMessage(suspendedUntil, reason) }] } };

  async function suspend() {
    posts.moderation.suspensions.push({
      user_id: SUSPENDED_ID,
      until: suspendedUntil,
      reason,
      created_at: new Date(),
      suspended_by: 'concierge-1',
    });
    await until(async () => (await get(url('/api/moderation/me'), suspended)).body.suspension !== null);
  }

  it('reads GET /api/moderation/me: the suspension while it runs, else null; 401 for a visitor', async () => {
    expect(await get(url('/api/moderation/me'), suspended)).toMatchObject({
      status: 200,
      body: { suspension: null },
    });
    await suspend();
    const res = await get(url('/api/moderation/me'), suspended);
    expect(res.body).toEqual({ suspension: { until: suspendedUntil.toISOString(), reason } });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await get(url('/api/moderation/me'), member)).toMatchObject({ body: { suspension: null } });
    expect(await get(url('/api/moderation/me'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });

  it('is refused on every moderation write before the body is checked, and still reads', async () => {
    await suspend();
    expect(
      await post(url('/api/reports'), { target_type: 'post', target_id: 7, reason: 'spam' }, suspended),
    ).toMatchObject(refusal);
    expect(await post(url('/api/reports'), { reason: 'not one' }, suspended)).toMatchObject(refusal);
    expect(await post(url('/api/reports/decide'), {}, suspendedContributor)).toMatchObject(refusal);
    expect(await post(url('/api/moderation/suspensions'), {}, suspendedContributor)).toMatchObject(refusal);
    expect(await del(`/api/moderation/suspensions/${MEMBER.sub}`, suspendedContributor)).toMatchObject(
      refusal,
    );
    expect(posts.calls).toEqual([]);
    expect((await get(url('/api/reports'), suspendedContributor)).status).toBe(200);
    expect((await get(url('/api/moderation/log'), suspendedContributor)).status).toBe(200);
    expect((await get(url('/api/reports/mine'), suspended)).status).toBe(200);
  });
});

const HIDDEN = { state: 'hidden', reason: 'Personal phone number', automatic: false };

describe('the moderation marker on posts and comments', () => {
  it('carries moderation on a hidden post or comment the service sends, and no such key elsewhere', async () => {
    const hiddenComment = { ...COMMENT, moderation: { ...HIDDEN, automatic: true } };
    posts.answer('listPosts', async () => ({
      posts: [{ ...EVENT_POST, moderation: HIDDEN, comments: [hiddenComment] }, PLAIN_POST],
    }));
    const { body } = await post(url('/api/posts/all'), {}, contributor);
    expect(body[0].moderation).toEqual(HIDDEN);
    expect(Object.keys(body[0]).at(-1)).toBe('moderation');
    expect(body[0].PostComments[0].moderation).toEqual({ ...HIDDEN, automatic: true });
    expect(body[1]).not.toHaveProperty('moderation');

    posts.answer('listComments', async () => ({ comments: [hiddenComment, COMMENT], has_earlier: false }));
    const comments = (await get(url('/api/posts/7/comments'), contributor)).body.comments;
    expect(comments[0].moderation).toEqual({ ...HIDDEN, automatic: true });
    expect(comments[1]).not.toHaveProperty('moderation');
  });
});

// Each test waits on the gateway's snapshot poll (up to 5 s per wait in until), longer than vitest's default 5 s.
describe('feed pages with hidden targets', { timeout: 20_000 }, () => {
  let cached: RunningGateway;
  const author = { sub: 'b2d7c1e0-1111-4a5b-8c9d-0e1f2a3b4c5d' };
  let hiddenAuthor: Record<string, string>;
  beforeAll(async () => {
    cached = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      POST_SERVICE_ADDR: posts.address,
      PUBLIC_CACHE_SECONDS: '10',
    });
    hiddenAuthor = { 'x-auth-token': await accessToken(key, { claims: { sub: author.sub } }) };
  });
  afterAll(async () => cached.close());

  const feed = (body: unknown, headers: Record<string, string> = {}) =>
    post(url('/api/posts/all', cached.base), body, headers);
  const comments = (headers: Record<string, string> = {}) =>
    get(url('/api/posts/7/comments', cached.base), headers);

  /** Each test starts with no page kept and the feed version watched (see posts.test.ts). */
  async function watched() {
    posts.feedVersion.value++;
    await feed({ search: 'start the watch' });
    const asked = posts.feedVersion.asked;
    while (posts.feedVersion.asked < asked + 2) await sleep(20);
    posts.reset();
  }

  it('answers a contributor fresh pages, never kept, while others share the kept one', async () => {
    await watched();
    const visitor = await feed({ search: 'shared' });
    await feed({ search: 'shared' }, member);
    expect(visitor.headers.get('cache-control')).toBe('no-cache');
    expect(posts.callsTo('listPosts')).toHaveLength(1);
    const own = await feed({ search: 'shared' }, contributor);
    await feed({ search: 'shared' }, contributor);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect(posts.callsTo('listPosts')).toHaveLength(3);
    await comments();
    await comments(member);
    const ownComments = await comments(contributor);
    expect(ownComments.headers.get('cache-control')).toBe('private, no-store');
    await comments(contributor);
    expect(posts.callsTo('listComments')).toHaveLength(3);
    // A contributor's page did not replace the kept one.
    await feed({ search: 'shared' });
    await comments();
    expect(posts.calls).toHaveLength(6);
  });

  it('answers the author of a post hidden moments ago their own page, before the next snapshot is due', async () => {
    // A snapshot due only every minute: what the author is answered cannot come from the regular poll.
    const slow = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      POST_SERVICE_ADDR: posts.address,
      PUBLIC_CACHE_SECONDS: '10',
      ENDED_SESSIONS_POLL_MS: '60000',
    });
    const page = (headers: Record<string, string> = {}) =>
      post(url('/api/posts/all', slow.base), { search: 'hidden moments ago' }, headers);
    /** Waits until the gateway has asked for the feed version twice more. */
    const versionAsked = async () => {
      const asked = posts.feedVersion.asked;
      while (posts.feedVersion.asked < asked + 2) await sleep(20);
    };
    try {
      posts.feedVersion.value++;
      await page();
      await versionAsked();
      // The post service hides the author's post: the snapshot names them, and the feed version moves.
      posts.moderation.hidden_authors.push(author.sub);
      posts.feedVersion.value++;
      await versionAsked();
      // A visitor reads first: the kept page no longer holds the post…
      await page();
      const shared = posts.callsTo('listPosts').length;
      await page();
      expect(posts.callsTo('listPosts')).toHaveLength(shared);
      // …and its author is answered their own page, where it shows as hidden, not that kept one.
      const own = await page(hiddenAuthor);
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      expect(posts.callsTo('listPosts')).toHaveLength(shared + 1);
    } finally {
      await slow.close();
    }
  });

  it('answers a member with hidden posts fresh pages while the snapshot names them', async () => {
    await watched();
    posts.moderation.hidden_authors.push(author.sub);
    await until(async () => {
      const before = posts.callsTo('listPosts').length;
      await feed({ search: 'mine' }, hiddenAuthor);
      await feed({ search: 'mine' }, hiddenAuthor);
      return posts.callsTo('listPosts').length === before + 2;
    });
    const res = await feed({ search: 'mine' }, hiddenAuthor);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const before = posts.calls.length;
    await comments(hiddenAuthor);
    await comments(hiddenAuthor);
    expect(posts.calls.length).toBe(before + 2);
    // Restored: the shared pages again.
    posts.moderation.hidden_authors.length = 0;
    // A new search each try: a page kept by a try that learnt the change halfway would answer both calls of the next.
    let tries = 0;
    await until(async () => {
      const search = `mine again ${++tries}`;
      const asked = posts.callsTo('listPosts').length;
      await feed({ search }, hiddenAuthor);
      await feed({ search }, hiddenAuthor);
      return posts.callsTo('listPosts').length === asked + 1;
    });
  });

  it('never keeps a page holding a hidden target, even for a member the snapshot does not name yet', async () => {
    await watched();
    posts.answer('listPosts', async (_request, context) => ({
      posts: context.caller?.userId === author.sub ? [{ ...EVENT_POST, moderation: HIDDEN }] : [PLAIN_POST],
    }));
    posts.answer('listComments', async (_request, context) => ({
      comments: context.caller?.userId === author.sub ? [{ ...COMMENT, moderation: HIDDEN }] : [COMMENT],
      has_earlier: false,
    }));
    const own = await feed({ search: 'race' }, hiddenAuthor);
    expect(own.body).toMatchObject([{ post_id: 7, moderation: HIDDEN }]);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    const visitor = await feed({ search: 'race' });
    expect(visitor.body).toMatchObject([{ post_id: 8 }]);
    expect(visitor.body[0]).not.toHaveProperty('moderation');
    expect(posts.callsTo('listPosts')).toHaveLength(2);

    expect((await comments(hiddenAuthor)).body.comments[0]).toHaveProperty('moderation');
    expect((await comments()).body.comments[0]).not.toHaveProperty('moderation');
    expect(posts.callsTo('listComments')).toHaveLength(2);
  });

  it('drops the kept pages at a decision, so visitors no longer get the hidden post', async () => {
    await watched();
    await feed({ search: 'decided' });
    await feed({ search: 'decided' });
    expect(posts.callsTo('listPosts')).toHaveLength(1);
    posts.answer('listPosts', async () => ({ posts: [PLAIN_POST] }));
    const res = await post(
      url('/api/reports/decide', cached.base),
      { target_type: 'post', target_id: 7, action: 'hide', reason: 'Personal phone number' },
      contributor,
    );
    expect(res.status).toBe(200);
    expect((await feed({ search: 'decided' })).body).toHaveLength(1);
    expect(posts.callsTo('listPosts')).toHaveLength(2);
  });
});
