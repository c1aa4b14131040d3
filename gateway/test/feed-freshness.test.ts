// The freshness rules of the feed's page cache end to end: two gateways (each its own kept pages) in front of the
// real post service (its own process, as `npm start` runs it) on a real PostgreSQL, over real gRPC. A member sees
// their own post, comment, like, edit and deletion on their very next read through the same gateway, and through
// the other one too (the version their write produced, in a cookie); another
// member and a visitor on the other gateway see it within two seconds; a visitor's revalidation answers 304 until
// the page changes.
import { createTestDatabase } from '@rotunda/service-kit/testing';
import startTestPostgres from '@rotunda/service-kit/testing/global-setup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  get,
  post,
  type RunningGateway,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';
import { type PostProcess, startPostProcess } from './support/post-process.ts';

let stopPostgres: () => Promise<void>;
let auth: FakeAuth;
let profile: FakeProfile;
let org: FakeOrg;
let postService: PostProcess;
/** Two gateways (as two machines, or two workers), each with its own kept pages. */
let here: RunningGateway;
let there: RunningGateway;
let writer: Record<string, string>;
let reader: Record<string, string>;

beforeAll(async () => {
  stopPostgres = await startTestPostgres();
  const databaseUrl = await createTestDatabase();
  const key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  org = await startFakeOrg();
  org.answer('exportNames', async () => ({ organizations: [], divisions: [] }));
  postService = await startPostProcess({
    databaseUrl,
    profileAddress: profile.address,
    orgAddress: org.address,
  });
  const gateway = { AUTH_SERVICE_ADDR: auth.address, POST_SERVICE_ADDR: postService.address };
  here = await startGateway({ ...gateway, PUBLIC_CACHE_SECONDS: '10' });
  there = await startGateway({ ...gateway, PUBLIC_CACHE_SECONDS: '10' });
  writer = { 'x-auth-token': await accessToken(key) };
  reader = {
    'x-auth-token': await accessToken(key, { claims: { sub: 'member-2', email: 'reader@demo.ca.gov' } }),
  };
  const deadline = Date.now() + 60_000;
  while ((await post(`${here.base}/api/posts/all`, {})).status !== 200) {
    if (postService.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the post service did not start:\n${postService.output()}`);
    await sleep(100);
  }
}, 120_000);

afterAll(async () => {
  await here?.close();
  await there?.close();
  await postService?.stop();
  await org?.server.shutdown();
  await profile?.server.shutdown();
  await auth?.server.shutdown();
  await stopPostgres?.();
}, 30_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FeedPost {
  post_id: number;
  post_title: string;
  likes_count: number;
  comments_count: number;
  PostComments: { comment_id: number; comment_body: string }[];
}

async function feed(gateway: RunningGateway, headers: Record<string, string> = {}): Promise<FeedPost[]> {
  const res = await post(`${gateway.base}/api/posts/all`, { sort: 'recent' }, headers);
  expect(res.status).toBe(200);
  return res.body;
}

/** The cookie a browser sends back after the writer's last write. */
let writerCookie = '';

/** A member's write through `gateway`: answers the JSON (undefined for 204). */
async function write(gateway: RunningGateway, method: 'POST' | 'DELETE', path: string, body: unknown) {
  const res = await fetch(`${gateway.base}/api/posts/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...writer },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  writerCookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return res.status === 204 ? undefined : res.json();
}

/** Reads until `done` holds; answers the milliseconds it took. */
async function until(read: () => Promise<FeedPost[]>, done: (page: FeedPost[]) => boolean) {
  const started = Date.now();
  while (!done(await read())) {
    if (Date.now() - started > 5000) throw new Error('the change never showed');
    await sleep(20);
  }
  return Date.now() - started;
}

/** Every page in use is kept: read, let the gateway's watch confirm the version, read again. */
async function keepPages() {
  for (const gateway of [here, there])
    for (const headers of [writer, reader, {}]) await feed(gateway, headers);
  await sleep(500);
  for (const gateway of [here, there])
    for (const headers of [writer, reader, {}]) await feed(gateway, headers);
}

describe('a member’s own writes', () => {
  it('show on their very next read through the same gateway: post, comment, like, edit, deletions', async () => {
    await keepPages();
    const created = (await write(here, 'POST', 'add-post', {
      post_title: 'Town hall moved to Thursday',
      post_body: '<p>Same room.</p>',
      post_type: 1,
    })) as FeedPost;
    let [top] = await feed(here, writer);
    expect(top?.post_id).toBe(created.post_id);

    const comment = (await write(here, 'POST', 'add-comment', {
      post_id: created.post_id,
      comment_body: 'Thanks for the notice',
    })) as { comment_id: number };
    [top] = await feed(here, writer);
    expect(top?.comments_count).toBe(1);
    expect(top?.PostComments.map((c) => c.comment_body)).toEqual(['Thanks for the notice']);

    await write(here, 'POST', 'add-like', { post_id: created.post_id, liked: true });
    [top] = await feed(here, writer);
    expect(top?.likes_count).toBe(1);

    await write(here, 'POST', 'update-post', {
      post_id: created.post_id,
      post_title: 'Town hall on Thursday',
    });
    [top] = await feed(here, writer);
    expect(top?.post_title).toBe('Town hall on Thursday');

    await write(here, 'POST', 'update-comment', { comment_id: comment.comment_id, comment_body: 'Noted' });
    [top] = await feed(here, writer);
    expect(top?.PostComments.map((c) => c.comment_body)).toEqual(['Noted']);

    await write(here, 'DELETE', 'delete-comment', { comment_id: comment.comment_id });
    [top] = await feed(here, writer);
    expect(top?.comments_count).toBe(0);

    await write(here, 'DELETE', 'delete-post', { post_id: created.post_id });
    expect((await feed(here, writer)).map((p) => p.post_id)).not.toContain(created.post_id);
  });
});

describe('a member’s own writes through another gateway (or worker)', () => {
  it('show on their very next read there too, by the version their write answered', async () => {
    for (let round = 1; round <= 5; round++) {
      await keepPages();
      const created = (await write(here, 'POST', 'add-post', {
        post_title: `Agenda item ${round}`,
        post_body: '<p>For the record.</p>',
        post_type: 1,
      })) as FeedPost;
      expect(writerCookie).toMatch(/^rotunda_feed_version=\d+$/);
      const [top] = await feed(there, { ...writer, cookie: writerCookie });
      expect(top?.post_id).toBe(created.post_id);
      await write(here, 'POST', 'add-like', { post_id: created.post_id, liked: true });
      const [liked] = await feed(there, { ...writer, cookie: writerCookie });
      expect(liked?.likes_count).toBe(1);
    }
  });
});

describe('everyone else', () => {
  it('sees a member’s new post and like through another gateway within two seconds, members and visitors', async () => {
    await keepPages();
    const created = (await write(here, 'POST', 'add-post', {
      post_title: 'Budget hearing notes',
      post_body: '<p>Posted after the hearing.</p>',
      post_type: 1,
    })) as FeedPost;
    const isTop = (page: FeedPost[]) => page[0]?.post_id === created.post_id;
    expect(await until(() => feed(there, reader), isTop)).toBeLessThan(2000);
    expect(await until(() => feed(there), isTop)).toBeLessThan(2000);

    await keepPages();
    await write(here, 'POST', 'add-like', { post_id: created.post_id, liked: true });
    const liked = (page: FeedPost[]) => page[0]?.likes_count === 1;
    expect(await until(() => feed(there, reader), liked)).toBeLessThan(2000);
    expect(await until(() => feed(there), liked)).toBeLessThan(2000);
  });

  it('a visitor’s revalidation of a comments page answers 304 until a comment arrives, then the new page', async () => {
    const created = (await write(here, 'POST', 'add-post', {
      post_title: 'Open questions',
      post_body: '<p>Ask below.</p>',
      post_type: 1,
    })) as FeedPost;
    const path = `${there.base}/api/posts/${created.post_id}/comments`;
    await get(path);
    await sleep(500);
    const first = await get(path);
    expect(first.body).toEqual({ comments: [], has_earlier: false });
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    // What a browser revalidating sends (fetch would add no-cache, which forbids a 304).
    const revalidate = () =>
      fetch(path, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect((await revalidate()).status).toBe(304);
    await write(here, 'POST', 'add-comment', { post_id: created.post_id, comment_body: 'When is the vote?' });
    const started = Date.now();
    let res = await revalidate();
    while (res.status === 304 && Date.now() - started < 5000) {
      await sleep(20);
      res = await revalidate();
    }
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    const page = (await res.json()) as { comments: { comment_body: string }[] };
    expect(page.comments.map((c) => c.comment_body)).toEqual(['When is the vote?']);
  });
});
