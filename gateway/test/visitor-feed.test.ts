// A visitor's kept feed page, answered ahead of the request pipeline (routes/visitor-feed.ts, ADR 0032): the answer
// is the pipeline's (security headers, request id, caching headers, compressed body), counted and logged as any
// other; whatever the pipeline would refuse is still refused with its own words; members are never answered there.
import { httpRequests } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './support/captured-log.ts';
import {
  accessToken,
  type FakeAuth,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { EVENT_POST, type FakePost, PLAIN_POST, startFakePost } from './support/fake-post.ts';

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let gateway: RunningGateway;
const log = captureLog();

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  posts = await startFakePost();
  gateway = await startGateway(
    { AUTH_SERVICE_ADDR: auth.address, POST_SERVICE_ADDR: posts.address, PUBLIC_CACHE_SECONDS: '10' },
    undefined,
    log.logger,
  );
});
afterEach(() => posts.reset());
afterAll(async () => {
  await gateway.close();
  await posts.server.shutdown();
  await auth.server.shutdown();
});

const FEED = '/api/posts/all';
const feed = (body: unknown, headers: Record<string, string> = {}) =>
  post(`${gateway.base}${FEED}`, body, headers);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts from nothing kept: the version moves, and the gateway has asked for the new one. */
async function watched() {
  posts.feedVersion.value++;
  await feed({ search: 'start the watch' });
  const asked = posts.feedVersion.asked;
  while (posts.feedVersion.asked < asked + 2) await sleep(20);
  posts.reset();
}

/** The headers of an answer but those that differ between any two answers. */
function stableHeaders(headers: Headers) {
  const kept = Object.fromEntries(headers);
  delete kept.date;
  delete kept['x-request-id'];
  return kept;
}

async function feedRequestsCounted() {
  const metric = await httpRequests.get();
  return metric.values
    .filter((v) => v.labels.route === FEED && v.labels.method === 'POST' && v.labels.status === '200')
    .reduce((sum, v) => sum + v.value, 0);
}

describe('a visitor’s kept feed page', () => {
  it('is answered as the pipeline answered it when it was loaded, header for header, and the service is asked once', async () => {
    await watched();
    posts.answer('listPosts', async () => ({ posts: [EVENT_POST, PLAIN_POST] }));
    for (const encoding of [{}, { 'accept-encoding': 'gzip, deflate, br' }] as Record<string, string>[]) {
      posts.reset();
      posts.answer('listPosts', async () => ({ posts: [EVENT_POST, PLAIN_POST] }));
      posts.feedVersion.value++;
      const asked = posts.feedVersion.asked;
      while (posts.feedVersion.asked < asked + 2) await sleep(20);
      const loaded = await feed({ search: 'same answer' }, encoding);
      const kept = await feed({ search: 'same answer' }, encoding);
      expect(posts.callsTo('listPosts')).toHaveLength(1);
      expect(kept.status).toBe(200);
      expect(stableHeaders(kept.headers)).toEqual(stableHeaders(loaded.headers));
      expect(kept.body).toEqual(loaded.body);
      expect(kept.body).toHaveLength(2);
      expect(kept.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(kept.headers.get('x-content-type-options')).toBe('nosniff');
      expect(kept.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('is sent brotli-compressed to a browser, the same JSON', async () => {
    await watched();
    posts.answer('listPosts', async () => ({ posts: Array.from({ length: 20 }, () => EVENT_POST) }));
    await feed({ search: 'compressed' });
    const res = await fetch(`${gateway.base}${FEED}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
      body: JSON.stringify({ search: 'compressed' }),
    });
    // fetch decodes the body; the header tells what went over the wire.
    expect(res.headers.get('content-encoding')).toBe('br');
    const plain = await feed({ search: 'compressed' });
    expect(res.headers.get('etag')).toBe(plain.headers.get('etag'));
    expect(await res.json()).toEqual(plain.body);
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  it('carries the request id the caller gave, else a new one each time', async () => {
    await watched();
    await feed({ search: 'ids' });
    const given = await feed({ search: 'ids' }, { 'x-request-id': 'trace-me-42' });
    expect(given.headers.get('x-request-id')).toBe('trace-me-42');
    const a = await feed({ search: 'ids' });
    const b = await feed({ search: 'ids' });
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  it('is counted in the metrics and written to the request log like any answer', async () => {
    await watched();
    await feed({ search: 'observed' });
    const before = await feedRequestsCounted();
    log.lines.length = 0;
    await feed({ search: 'observed' }, { 'x-request-id': 'kept-1' });
    await feed({ search: 'observed' }, { 'x-request-id': 'kept-2' });
    expect(posts.callsTo('listPosts')).toHaveLength(1);
    expect(await feedRequestsCounted()).toBe(before + 2);
    const completed = log.lines.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => line.req)).toEqual([
      { id: 'kept-1', method: 'POST', url: FEED },
      { id: 'kept-2', method: 'POST', url: FEED },
    ]);
    for (const line of completed) {
      expect(line.res).toEqual({ status: 200 });
      expect(line.responseTime).toBeTypeOf('number');
      expect(JSON.stringify(line)).not.toMatch(/cookie|authorization/i);
    }
  });
});

describe('around the kept pages', () => {
  it('refuses a body the route refuses, with its words, even when a page is kept', async () => {
    await watched();
    await feed({});
    expect(await feed({ limit: 0 })).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'limit must be a whole number from 1 to 50' }] },
    });
    const malformed = await feed('{"offset":');
    expect(malformed).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'The request body is not valid JSON.' }] },
    });
    expect(malformed.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(malformed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLarge = await feed({ search: 'x'.repeat(1024 * 1024) });
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { errors: [{ msg: 'The request body is too large (at most 1 MB).' }] },
    });
    expect(await feed({ search: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'search must not contain a NUL character (U+0000).' }] },
    });
    expect(await feed({ my_issues: true })).toMatchObject({
      status: 401,
      body: { errors: [{ msg: 'Access Restricted. Please login.' }] },
    });
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  it('never answers a member there: a valid token gets the member’s page, a bad one is refused', async () => {
    await watched();
    const visitor = await feed({ search: 'who asks' });
    expect(visitor.headers.get('cache-control')).toBe('no-cache');
    const member = await feed({ search: 'who asks' }, { 'x-auth-token': await accessToken(key) });
    expect(member.status).toBe(200);
    expect(member.headers.get('cache-control')).toBe('private, no-store');
    expect(member.body).toEqual(visitor.body);
    const forged = await feed({ search: 'who asks' }, { authorization: 'Bearer not-a-token' });
    expect(forged.status).toBe(401);
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  it('gives a visitor the new page once the feed changes', async () => {
    await watched();
    posts.answer('listPosts', async () => ({ posts: [PLAIN_POST] }));
    expect((await feed({ search: 'moves' })).body).toHaveLength(1);
    expect((await feed({ search: 'moves' })).body).toHaveLength(1);
    posts.answer('listPosts', async () => ({ posts: [PLAIN_POST, EVENT_POST, PLAIN_POST] }));
    posts.feedVersion.value++;
    const started = Date.now();
    while (((await feed({ search: 'moves' })).body as unknown[]).length !== 3) {
      expect(Date.now() - started).toBeLessThan(2000);
      await sleep(20);
    }
    expect(posts.callsTo('listPosts')).toHaveLength(2);
  });
});
