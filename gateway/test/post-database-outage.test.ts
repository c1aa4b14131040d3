// The public square while the post service's PostgreSQL is away, end to end (ADR 0047): the real post service
// (its own process, as `npm start` runs it) on a real PostgreSQL this file stops and starts, behind the gateway.
// A member's post is refused 503 with the words to try again shortly and a Retry-After, inside the deadline; the
// feed pages already read still answer, to members and visitors; the service stays SERVING and says its database
// is away; once PostgreSQL is back the same process takes the next post within seconds, and the feed shows it.
import { probeGrpcHealth } from '@rotunda/service-kit';
import {
  createTestDatabase,
  type StoppablePostgres,
  useStoppablePostgres,
} from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  post,
  type RunningGateway,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';
import { type PostProcess, startPostProcess } from './support/post-process.ts';

let postgres: StoppablePostgres;
let auth: FakeAuth;
let profile: FakeProfile;
let org: FakeOrg;
let postService: PostProcess;
let gateway: RunningGateway;
let member: Record<string, string>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  postgres = await useStoppablePostgres();
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
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    POST_SERVICE_ADDR: postService.address,
    PUBLIC_CACHE_SECONDS: '10',
  });
  member = { 'x-auth-token': await accessToken(key) };
  const deadline = Date.now() + 60_000;
  while ((await post(`${gateway.base}/api/posts/all`, {})).status !== 200) {
    if (postService.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the post service did not start:\n${postService.output()}`);
    await sleep(100);
  }
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await postService?.stop();
  await org?.server.shutdown();
  await profile?.server.shutdown();
  await auth?.server.shutdown();
  await postgres?.close();
}, 30_000);

const addPost = (title: string) =>
  post(
    `${gateway.base}/api/posts/add-post`,
    { post_title: title, post_body: '<p>Agenda.</p>', post_type: 1 },
    member,
  );
const titles = async (headers: Record<string, string>) => {
  const res = await post(`${gateway.base}/api/posts/all`, { sort: 'recent' }, headers);
  return { status: res.status, titles: (res.body as { post_title: string }[]).map((p) => p.post_title) };
};

describe('the public square while its database is away', () => {
  it('refuses posts with a clear 503, keeps the pages read, and takes posts again once it is back', async () => {
    expect((await addPost('Before the outage')).status).toBe(201);
    // Pages read (and kept) by a member and a visitor.
    await sleep(300);
    expect((await titles(member)).titles).toContain('Before the outage');
    expect((await titles({})).titles).toContain('Before the outage');
    const pid = postService.child.pid;

    await postgres.stop();
    const started = performance.now();
    const refused = await addPost('During the outage');
    const refusedMs = performance.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toEqual({
      errors: [{ msg: 'The post service is unavailable. Please try again shortly.' }],
    });
    expect(refusedMs).toBeLessThan(3000);
    // The pages already read still answer, to both.
    expect(await titles(member)).toEqual({
      status: 200,
      titles: expect.arrayContaining(['Before the outage']),
    });
    expect(await titles({})).toEqual({ status: 200, titles: expect.arrayContaining(['Before the outage']) });
    await expect
      .poll(() => probeGrpcHealth(postService.address, { service: 'dependency/database' }), { timeout: 5000 })
      .toBe('NOT_SERVING');
    expect(await probeGrpcHealth(postService.address)).toBe('SERVING');

    await postgres.start();
    const back = performance.now();
    let recoveredMs = Number.NaN;
    while (performance.now() - back < 10_000) {
      if ((await addPost('After the outage')).status === 201) {
        recoveredMs = performance.now() - back;
        break;
      }
      await sleep(100);
    }
    expect(recoveredMs).toBeLessThan(10_000);
    await expect
      .poll(async () => (await titles(member)).titles[0], { timeout: 5000 })
      .toBe('After the outage');
    await expect
      .poll(() => probeGrpcHealth(postService.address, { service: 'dependency/database' }), { timeout: 5000 })
      .toBe('SERVING');
    // The same process all along: nothing restarted it.
    expect(postService.child.exitCode).toBeNull();
    expect(postService.child.pid).toBe(pid);
    console.info(
      `post service behind the gateway: post refused 503 in ${Math.round(refusedMs)} ms while away; first post ok ${Math.round(recoveredMs)} ms after PostgreSQL returned`,
    );
  });
});
