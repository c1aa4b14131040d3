// Moderation in the post service (ADR 0041) against a real PostgreSQL (its schema and the Postgres search index)
// and real gRPC, with the profile and org services played by fakes on real gRPC: members report (a repeat counts
// once, even at once; within an allowance), three members' reports hide a target, contributors read the queue and
// decide with a reason, hidden posts and comments leave every feed, search, comments page, count, like and read
// for everyone but their author (who reads why) and contributors, removed ones for everyone, decisions move the
// feed version and are logged, suspended members read but every write is refused before any other check; reporters
// read what became of their reports.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, status } from '@grpc/grpc-js';
import { ensureEventTables } from '@rotunda/events';
import { type Post as PostMessage, PostServiceClient, PostServiceService } from '@rotunda/protos/post';
import { suspendedMessage } from '@rotunda/rules';
import { createPostgresSearchIndex, type SearchIndex } from '@rotunda/search';
import {
  type Caller,
  idempotencyKeys,
  migrate,
  prismaAdapter,
  type RunningGrpcServer,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, refusal, rpcCalls, testCallers } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBodySanitizer } from '../src/adapters/body-sanitizer.ts';
import { grpcOrgDirectory, grpcProfileDirectory } from '../src/adapters/grpc-directories.ts';
import { grpcPostService } from '../src/adapters/grpc-post-service.ts';
import { postgresFeedVersionStore } from '../src/adapters/postgres-feed-version.ts';
import { prismaPostRepository } from '../src/adapters/prisma-post-repository.ts';
import { createFeedVersion, type FeedVersion } from '../src/domain/feed-version.ts';
import { AUTO_HIDE_REASON } from '../src/domain/moderation.ts';
import type { CommentAllowance, PostRepository } from '../src/domain/ports.ts';
import { EVENT_TYPES, POST_TYPES } from '../src/domain/post.ts';
import { POST_INDEX } from '../src/domain/post-index.ts';
import { createPostDomain, type PostDomain } from '../src/wiring.ts';
import {
  type FakeOrgs,
  type FakeProfiles,
  logger,
  startFakeOrgs,
  startFakeProfiles,
} from './support/fake-directories.ts';

const root = new URL('..', import.meta.url).pathname;

const MAYA: Caller = { userId: 'member-1', email: 'member@demo.ca.gov', roles: [] };
const CARLOS: Caller = { userId: 'concierge-1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };
const PRIYA: Caller = { userId: 'member-3', email: 'priya@demo.ca.gov', roles: [] };
const OWEN: Caller = { userId: 'member-4', email: 'owen@demo.ca.gov', roles: [] };
/** A member without a profile: may still report. */
const NEWBIE: Caller = { userId: 'newbie-1', email: 'newbie@demo.ca.gov', roles: [] };
/** Owen as a contributor: no post or comment of his, so the read copy does not hold his name. */
const OWEN_CONTRIBUTOR: Caller = { ...OWEN, roles: ['contributor'] };

let prisma: PrismaClient;
let repository: PostRepository;
let index: SearchIndex;
let profiles: FakeProfiles;
let orgs: FakeOrgs;
let feedVersion: FeedVersion;
let client: PostServiceClient;
const sanitizer = createBodySanitizer();
const closers: (() => unknown)[] = [];

const rpc = rpcCalls(PostServiceService, () => client);

const wireDomain = (reportAllowance?: CommentAllowance): PostDomain =>
  createPostDomain({
    repository,
    index,
    profiles: grpcProfileDirectory(profiles.address, 3000),
    orgs: grpcOrgDirectory(orgs.address, 3000),
    sanitizer,
    commentAllowance: { burst: 1000, intervalMs: 1 },
    feedVersion,
    ...(reportAllowance ? { reportAllowance } : {}),
  });

async function serve(rules: PostDomain): Promise<PostServiceClient> {
  const server: RunningGrpcServer = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.post.v1.PostService',
        definition: PostServiceService,
        implementation: grpcPostService(rules, logger, idempotencyKeys(prisma, 'post')),
      },
    ],
  });
  const connected = new PostServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
  closers.push(
    () => connected.close(),
    () => server.shutdown(),
  );
  return connected;
}

const addPost = (caller: Caller, title = 'Water plan adopted') =>
  rpc(
    'addPost',
    { post_title: title, post_body: '<p>The board adopted the plan.</p>', posttype_id: 2 },
    caller,
  );

const report = (caller: Caller, targetId: number, targetType = 'post', reason = 'spam', note = '') =>
  rpc('addReport', { target_type: targetType, target_id: targetId, reason, note }, caller);

const decide = (targetId: number, action: string, targetType = 'post', reason = 'Breaks the rules.') =>
  rpc('decideReports', { target_type: targetType, target_id: targetId, action, reason }, CARLOS);

/** The whole feed as `caller` sees it in one order. */
async function feed(
  caller?: Caller,
  request: Partial<{ sort: string; search: string; posttype_id: number }> = {},
) {
  return (await rpc('listPosts', { limit: 50, seed: 7, ...request }, caller)).posts;
}
const ids = (posts: PostMessage[]) => posts.map((post) => post.post_id);
const version = async () => (await rpc('getFeedVersion', {})).version;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'post', migrationsDir: `${root}prisma/migrations`, logger });
  // Writes record their events for other services in the outbox the service makes at start (ADR 0042).
  await ensureEventTables(databaseUrl, 'post_events');
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'post') });
  repository = prismaPostRepository(prisma, 'post');
  await repository.ensureTypes(POST_TYPES, EVENT_TYPES);
  index = createPostgresSearchIndex({ databaseUrl, schema: 'post_search', index: 'posts', ...POST_INDEX });
  profiles = await startFakeProfiles();
  orgs = await startFakeOrgs();
  feedVersion = createFeedVersion(postgresFeedVersionStore(prisma, 'post'));
  await feedVersion.start((error) => {
    throw error;
  });
  closers.push(feedVersion.stop);
  const domain = wireDomain();
  await domain.posts.syncSearchIndex();
  client = await serve(domain);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await profiles?.server.shutdown();
  await orgs?.server.shutdown();
  await index?.close();
  await prisma?.$disconnect();
  sanitizer.close();
});

beforeEach(async () => {
  await prisma.post.deleteMany();
  await prisma.report.deleteMany();
  await prisma.reportAllowance.deleteMany();
  await prisma.suspension.deleteMany();
  await prisma.moderationLogEntry.deleteMany();
  await index.clear();
});

describe('reports', () => {
  it('counts a member’s repeat report once, even sent many times at once, with the same id', async () => {
    const post = await addPost(MAYA);
    const answers = await Promise.all(Array.from({ length: 8 }, () => report(PRIYA, post.post_id)));
    expect(new Set(answers.map((answer) => answer.report_id)).size).toBe(1);
    expect(await prisma.report.count()).toBe(1);
    const [target] = (await rpc('listReports', {}, CARLOS)).targets;
    expect(target).toMatchObject({ target_type: 'post', target_id: post.post_id, reports_count: 1 });
  });

  it('takes a member without a profile, and refuses visitors, bad reasons, long notes, one’s own post and unknown targets', async () => {
    const post = await addPost(MAYA);
    expect((await report(NEWBIE, post.post_id)).report_id).toBeGreaterThan(0);
    expect(await refusal(report(undefined as unknown as Caller, post.post_id))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'Access Restricted. Please login.',
    });
    expect(await refusal(report(PRIYA, post.post_id, 'post', 'boring'))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Choose a reason for your report.',
    });
    expect(await refusal(report(PRIYA, post.post_id, 'post', 'other', 'x'.repeat(501)))).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    expect(await refusal(report(MAYA, post.post_id))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'You cannot report your own post.',
    });
    expect(await refusal(report(PRIYA, 999_999))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    expect(await refusal(report(PRIYA, 999_999, 'comment'))).toEqual({
      code: status.NOT_FOUND,
      details: 'Comment not found',
    });
    expect(await prisma.report.count()).toBe(1);
  });

  it('limits each member’s reports, saying how long to wait, and writes nothing past the allowance', async () => {
    const limited = await serve(wireDomain({ burst: 2, intervalMs: 60_000 }));
    const posts = await Promise.all([addPost(MAYA, 'One'), addPost(MAYA, 'Two'), addPost(MAYA, 'Three')]);
    await rpc.on(limited)(
      'addReport',
      { target_type: 'post', target_id: posts[0].post_id, reason: 'spam' },
      PRIYA,
    );
    await rpc.on(limited)(
      'addReport',
      { target_type: 'post', target_id: posts[1].post_id, reason: 'spam' },
      PRIYA,
    );
    // A repeat report spends nothing.
    await rpc.on(limited)(
      'addReport',
      { target_type: 'post', target_id: posts[1].post_id, reason: 'spam' },
      PRIYA,
    );
    expect(
      await refusal(
        rpc.on(limited)(
          'addReport',
          { target_type: 'post', target_id: posts[2].post_id, reason: 'spam' },
          PRIYA,
        ),
      ),
    ).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details: 'You are reporting too quickly. Please try again in 1 minute.',
    });
    expect(await prisma.report.count()).toBe(2);
  });

  it('hides a target three different members reported, at once, until a contributor reviews it', async () => {
    const post = await addPost(MAYA);
    await addPost(PRIYA, 'Another post');
    const before = await version();
    await report(PRIYA, post.post_id, 'post', 'spam', 'Selling things');
    await report(OWEN, post.post_id, 'post', 'harassment');
    expect(ids(await feed())).toContain(post.post_id);
    await Promise.all([report(NEWBIE, post.post_id, 'post', 'spam', 'Again'), report(PRIYA, post.post_id)]);
    expect(await version()).toBeGreaterThan(before);
    expect(ids(await feed())).not.toContain(post.post_id);
    const [mine] = (await feed(MAYA)).filter((p) => p.post_id === post.post_id);
    expect(mine?.moderation).toEqual({ state: 'hidden', reason: AUTO_HIDE_REASON, automatic: true });
    const [target] = (await rpc('listReports', { status: 'open' }, CARLOS)).targets;
    expect(target).toMatchObject({
      target_type: 'post',
      target_id: post.post_id,
      reports_count: 3,
      reasons: ['spam', 'harassment'],
      state: 'hidden',
      automatic: true,
      excerpt: 'Water plan adopted',
      author: { user_id: 'member-1', profile_id: 101, first_name: 'Maya', last_name: 'Delgado' },
      notes: ['Again', 'Selling things'],
      post_id: post.post_id,
    });
    const { entries } = await rpc('listModerationLog', {}, CARLOS);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'auto_hide',
      actor_user_id: '',
      target_type: 'post',
      target_id: post.post_id,
      user_id: 'member-1',
      reason: AUTO_HIDE_REASON,
    });
    // Dismissing the reports makes it visible again, and closes them.
    expect(await decide(post.post_id, 'dismiss', 'post', 'Not spam.')).toEqual({
      state: 'visible',
      closed_reports: 3,
    });
    expect(ids(await feed())).toContain(post.post_id);
    expect((await rpc('listReports', {}, CARLOS)).targets).toEqual([]);
    expect((await rpc('listReports', { status: 'closed' }, CARLOS)).targets[0]).toMatchObject({
      target_id: post.post_id,
      reports_count: 3,
      state: 'visible',
      automatic: false,
    });
  });

  it('lists the most reported first, comments with their text as plain text and their post', async () => {
    const post = await addPost(MAYA);
    const other = await addPost(OWEN, 'Other');
    const comment = await rpc(
      'addComment',
      { post_id: other.post_id, comment_body: `<b>Call</b> me at 555-0100 ${'x'.repeat(300)}` },
      PRIYA,
    );
    await report(OWEN, post.post_id);
    await report(MAYA, comment.comment_id, 'comment', 'personal_information');
    await report(OWEN, comment.comment_id, 'comment', 'personal_information');
    const { targets } = await rpc('listReports', {}, CARLOS);
    expect(targets.map((t) => [t.target_type, t.reports_count])).toEqual([
      ['comment', 2],
      ['post', 1],
    ]);
    expect(targets[0]?.excerpt.startsWith('Call me at 555-0100 x')).toBe(true);
    expect(targets[0]?.excerpt.length).toBeLessThanOrEqual(200);
    expect(targets[0]).toMatchObject({
      post_id: other.post_id,
      author: { user_id: 'member-3', profile_id: 103 },
    });
  });
});

describe('who sees a hidden or removed post or comment', () => {
  it('hides a post from everyone’s feed, search, comments, likes and reads but its author’s (with why) and contributors’', async () => {
    const post = await addPost(MAYA, 'Drought plan details');
    await rpc('addComment', { post_id: post.post_id, comment_body: 'Thanks' }, PRIYA);
    await addPost(PRIYA, 'Budget hearing');
    expect(await decide(post.post_id, 'hide', 'post', 'Personal phone number in the body.')).toEqual({
      state: 'hidden',
      closed_reports: 0,
    });
    for (const caller of [undefined, PRIYA]) {
      for (const sort of ['recent', 'popular', 'random'])
        expect(ids(await feed(caller, { sort }))).not.toContain(post.post_id);
      expect(await feed(caller, { search: 'drought' })).toEqual([]);
      expect(ids(await feed(caller, { posttype_id: 2 }))).not.toContain(post.post_id);
      expect(await refusal(rpc('listComments', { post_id: post.post_id }, caller))).toEqual({
        code: status.NOT_FOUND,
        details: 'Post not found',
      });
      expect(await refusal(rpc('addRead', { post_id: post.post_id }, caller))).toEqual({
        code: status.NOT_FOUND,
        details: 'Post not found',
      });
    }
    expect(await refusal(rpc('setLike', { post_id: post.post_id, liked: true }, PRIYA))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    expect(await refusal(rpc('addComment', { post_id: post.post_id, comment_body: 'Hi' }, PRIYA))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    const moderation = { state: 'hidden', reason: 'Personal phone number in the body.', automatic: false };
    for (const caller of [MAYA, CARLOS]) {
      const [seen] = await feed(caller, { search: 'drought' });
      expect(seen).toMatchObject({ post_id: post.post_id, comments_count: 1, moderation });
      expect((await rpc('listComments', { post_id: post.post_id }, caller)).comments).toHaveLength(1);
    }
    // The author may still edit it; it stays hidden.
    expect(
      (await rpc('updatePost', { post_id: post.post_id, post_title: 'Drought plan, fixed' }, MAYA))
        .moderation,
    ).toEqual(moderation);
    expect(await rpc('getModerationSnapshot', {})).toMatchObject({ hidden_authors: ['member-1'] });
    // Restored: everyone sees it again, unmarked.
    await decide(post.post_id, 'restore', 'post', 'Phone number removed.');
    const [back] = await feed(undefined, { search: 'drought' });
    expect(back?.post_id).toBe(post.post_id);
    expect(back?.moderation).toBeUndefined();
    expect((await rpc('getModerationSnapshot', {})).hidden_authors).toEqual([]);
  });

  it('hides a comment from the feed’s latest comments, the count and the comments pages, but not from its author and contributors', async () => {
    const post = await addPost(MAYA);
    const kept = await rpc('addComment', { post_id: post.post_id, comment_body: 'Useful' }, OWEN);
    const hidden = await rpc('addComment', { post_id: post.post_id, comment_body: 'Rude words' }, PRIYA);
    await decide(hidden.comment_id, 'hide', 'comment', 'Harassment.');
    for (const caller of [undefined, MAYA, OWEN]) {
      const [seen] = await feed(caller);
      expect(seen?.comments_count).toBe(1);
      expect(seen?.comments.map((c) => c.comment_id)).toEqual([kept.comment_id]);
      expect(
        (await rpc('listComments', { post_id: post.post_id }, caller)).comments.map((c) => c.comment_id),
      ).toEqual([kept.comment_id]);
    }
    expect(
      await refusal(rpc('updateComment', { comment_id: hidden.comment_id, comment_body: 'x' }, OWEN)),
    ).toEqual({ code: status.NOT_FOUND, details: 'Comment not found' });
    for (const caller of [PRIYA, CARLOS]) {
      const [seen] = await feed(caller);
      expect(seen?.comments_count).toBe(2);
      expect(seen?.comments.at(-1)).toMatchObject({
        comment_id: hidden.comment_id,
        moderation: { state: 'hidden', reason: 'Harassment.', automatic: false },
      });
    }
    expect(await rpc('getModerationSnapshot', {})).toMatchObject({ hidden_authors: ['member-3'] });
  });

  it('takes a removed post away from its author too', async () => {
    const post = await addPost(MAYA, 'Removed post');
    await decide(post.post_id, 'remove', 'post', 'Spam.');
    for (const caller of [undefined, MAYA, CARLOS])
      expect(ids(await feed(caller))).not.toContain(post.post_id);
    expect(await refusal(rpc('updatePost', { post_id: post.post_id, post_title: 'Back' }, MAYA))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    expect(await rpc('getModerationSnapshot', {})).toMatchObject({ hidden_authors: [] });
  });
});

describe('decisions', () => {
  it('close the open reports, write the log with the contributor’s name, and move the feed version', async () => {
    const post = await addPost(MAYA);
    await addPost(CARLOS, 'By the contributor');
    await report(PRIYA, post.post_id, 'post', 'misinformation');
    await report(OWEN, post.post_id, 'post', 'misinformation');
    const before = await version();
    expect(await decide(post.post_id, 'hide', 'post', 'Misleading figures.')).toEqual({
      state: 'hidden',
      closed_reports: 2,
    });
    expect(await version()).toBeGreaterThan(before);
    expect(await prisma.report.count({ where: { closedAt: null } })).toBe(0);
    expect((await rpc('listReports', { status: 'closed' }, CARLOS)).targets[0]).toMatchObject({
      target_id: post.post_id,
      reports_count: 2,
      state: 'hidden',
    });
    const afterHide = await version();
    await decide(post.post_id, 'restore', 'post', 'Figures corrected.');
    expect(await version()).toBeGreaterThan(afterHide);
    const { entries } = await rpc('listModerationLog', {}, CARLOS);
    expect(entries.map((e) => [e.action, e.reason])).toEqual([
      ['restore', 'Figures corrected.'],
      ['hide', 'Misleading figures.'],
    ]);
    expect(entries[0]).toMatchObject({
      actor_user_id: 'concierge-1',
      actor_first_name: 'Carlos',
      actor_last_name: 'Whitaker',
      user_id: 'member-1',
    });
    const older = await rpc('listModerationLog', { before: entries[0]?.id ?? 0, limit: 1 }, CARLOS);
    expect(older.entries.map((e) => e.action)).toEqual(['hide']);
  });

  it('need a reason and a known action; name an actor the read copy does not hold from the profile service', async () => {
    const post = await addPost(MAYA);
    expect(await refusal(decide(post.post_id, 'hide', 'post', '  '))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please give a reason for your decision.',
    });
    expect(await refusal(decide(post.post_id, 'delete'))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await refusal(decide(999_999, 'hide'))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    await rpc(
      'decideReports',
      { target_type: 'post', target_id: post.post_id, action: 'hide', reason: 'Off topic.' },
      OWEN_CONTRIBUTOR,
    );
    const [entry] = (await rpc('listModerationLog', {}, CARLOS)).entries;
    expect(entry).toMatchObject({
      actor_user_id: 'member-4',
      actor_first_name: 'Owen',
      actor_last_name: 'Lindqvist',
    });
  });

  it('are for contributors only: members are refused every moderation call', async () => {
    const post = await addPost(MAYA);
    const denied = { code: status.PERMISSION_DENIED, details: 'Contributors only' };
    expect(await refusal(rpc('listReports', {}, PRIYA))).toEqual(denied);
    expect(
      await refusal(
        rpc(
          'decideReports',
          { target_type: 'post', target_id: post.post_id, action: 'hide', reason: 'x' },
          PRIYA,
        ),
      ),
    ).toEqual(denied);
    expect(await refusal(rpc('suspendMember', { user_id: 'member-4', days: 3, reason: 'x' }, PRIYA))).toEqual(
      denied,
    );
    expect(await refusal(rpc('liftSuspension', { user_id: 'member-4' }, PRIYA))).toEqual(denied);
    expect(await refusal(rpc('listModerationLog', {}, PRIYA))).toEqual(denied);
    expect(await refusal(rpc('listReports', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
  });
});

describe('suspensions', () => {
  it('refuse every write of a suspended member before any other check, while they still read; lifting ends it', async () => {
    const post = await addPost(MAYA);
    const own = await addPost(PRIYA, 'Priya’s post');
    const comment = await rpc('addComment', { post_id: post.post_id, comment_body: 'Mine' }, PRIYA);
    const suspension = await rpc(
      'suspendMember',
      { user_id: 'member-3', days: 7, reason: 'Repeated spam.' },
      CARLOS,
    );
    expect(suspension).toMatchObject({
      user_id: 'member-3',
      reason: 'Repeated spam.',
      suspended_by: 'concierge-1',
    });
    const days = ((suspension.until?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const refused = {
      code: status.PERMISSION_DENIED,
      details: suspendedMessage(suspension.until as Date, 'Repeated spam.'),
    };
    const writes: (() => Promise<unknown>)[] = [
      // An empty form: the suspension is said first.
      () => rpc('addPost', {}, PRIYA),
      () => rpc('updatePost', { post_id: own.post_id, post_title: 'x' }, PRIYA),
      () => rpc('deletePost', { post_id: own.post_id }, PRIYA),
      () => rpc('addComment', { post_id: post.post_id, comment_body: '' }, PRIYA),
      () => rpc('updateComment', { comment_id: comment.comment_id, comment_body: 'x' }, PRIYA),
      () => rpc('deleteComment', { comment_id: comment.comment_id }, PRIYA),
      () => rpc('setLike', { post_id: post.post_id, liked: true }, PRIYA),
      () => report(PRIYA, post.post_id),
      () =>
        rpc(
          'decideReports',
          { target_type: 'post', target_id: post.post_id, action: 'hide', reason: 'x' },
          PRIYA,
        ),
      () => rpc('suspendMember', { user_id: 'member-4', days: 1, reason: 'x' }, PRIYA),
      () => rpc('liftSuspension', { user_id: 'member-3' }, PRIYA),
    ];
    for (const write of writes) expect(await refusal(write())).toEqual(refused);
    expect(await prisma.post.count({ where: { userId: 'member-3' } })).toBe(1);
    // Reads go on.
    expect(ids(await feed(PRIYA))).toContain(post.post_id);
    expect(await rpc('listMyLikes', {}, PRIYA)).toEqual({ post_ids: [] });
    const snapshot = await rpc('getModerationSnapshot', {});
    expect(snapshot.suspensions).toEqual([suspension]);
    await rpc('liftSuspension', { user_id: 'member-3' }, CARLOS);
    expect((await rpc('setLike', { post_id: post.post_id, liked: true }, PRIYA)).liked).toBe(true);
    expect((await rpc('getModerationSnapshot', {})).suspensions).toEqual([]);
    expect(await refusal(rpc('liftSuspension', { user_id: 'member-3' }, CARLOS))).toEqual({
      code: status.NOT_FOUND,
      details: 'No running suspension',
    });
    const { entries } = await rpc('listModerationLog', {}, CARLOS);
    expect(entries.map((e) => [e.action, e.user_id, e.target_type])).toEqual([
      ['lift', 'member-3', ''],
      ['suspend', 'member-3', ''],
    ]);
  });

  it('last 1 to 365 days with a reason, and a new one replaces the running one', async () => {
    const suspend = (days: number, reason = 'Spam.') =>
      rpc('suspendMember', { user_id: 'member-4', days, reason }, CARLOS);
    for (const days of [0, 366])
      expect(await refusal(suspend(days))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: 'Suspend for 1 to 365 days.',
      });
    expect(await refusal(suspend(3, ' '))).toMatchObject({ code: status.INVALID_ARGUMENT });
    await suspend(30);
    const shorter = await suspend(1, 'Second thoughts.');
    expect((await rpc('getModerationSnapshot', {})).suspensions).toEqual([shorter]);
  });
});

describe('a reporter’s own reports', () => {
  it('tell the reporter what became of each, newest first, never answering a removed target’s text', async () => {
    const hiddenPost = await addPost(MAYA, 'Water plan adopted');
    const removedPost = await addPost(MAYA, 'Cheap pills here');
    const dismissedPost = await addPost(OWEN, 'Budget hearing');
    const openPost = await addPost(OWEN, 'Transit update');
    const comment = await rpc(
      'addComment',
      { post_id: openPost.post_id, comment_body: 'Call <b>me</b> at 555-0100' },
      MAYA,
    );
    await report(PRIYA, hiddenPost.post_id, 'post', 'harassment', 'Rude to staff');
    await report(PRIYA, removedPost.post_id, 'post', 'spam');
    await report(PRIYA, dismissedPost.post_id, 'post', 'misinformation');
    await report(PRIYA, comment.comment_id, 'comment', 'personal_information');
    await report(PRIYA, openPost.post_id, 'post', 'other');
    await report(OWEN, hiddenPost.post_id, 'post', 'spam');
    await decide(hiddenPost.post_id, 'hide', 'post', 'Harassment.');
    await decide(removedPost.post_id, 'remove', 'post', 'Spam.');
    await decide(dismissedPost.post_id, 'dismiss', 'post', 'The figures are right.');
    await decide(comment.comment_id, 'hide', 'comment', 'A phone number.');

    const { reports } = await rpc('listMyReports', {}, PRIYA);
    expect(
      reports.map((r) => [r.target_type, r.target_id, r.post_id, r.reason, r.status, r.outcome, r.excerpt]),
    ).toEqual([
      ['post', openPost.post_id, openPost.post_id, 'other', 'open', '', 'Transit update'],
      [
        'comment',
        comment.comment_id,
        openPost.post_id,
        'personal_information',
        'closed',
        'hide',
        'Call me at 555-0100',
      ],
      [
        'post',
        dismissedPost.post_id,
        dismissedPost.post_id,
        'misinformation',
        'closed',
        'dismiss',
        'Budget hearing',
      ],
      ['post', removedPost.post_id, removedPost.post_id, 'spam', 'closed', 'remove', ''],
      ['post', hiddenPost.post_id, hiddenPost.post_id, 'harassment', 'closed', 'hide', 'Water plan adopted'],
    ]);
    expect(reports[0]?.decided_at).toBeUndefined();
    const [, , , , first] = reports;
    expect(first?.note).toBe('Rude to staff');
    expect(first?.created_at).toBeInstanceOf(Date);
    expect(first?.decided_at?.getTime()).toBeGreaterThanOrEqual(first?.created_at?.getTime() ?? Infinity);
    const reportIds = reports.map((r) => r.report_id);
    expect(reportIds).toEqual([...reportIds].sort((a, b) => b - a));

    // Each member reads only their own.
    expect(
      (await rpc('listMyReports', {}, OWEN)).reports.map((r) => [r.target_id, r.reason, r.outcome]),
    ).toEqual([[hiddenPost.post_id, 'spam', 'hide']]);
    expect((await rpc('listMyReports', {}, MAYA)).reports).toEqual([]);
    expect(await refusal(rpc('listMyReports', {}))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'Access Restricted. Please login.',
    });
  });

  it('say nothing of a comment on a removed post, leave out deleted targets and list a report made again anew', async () => {
    const post = await addPost(OWEN, 'Transit update');
    const comment = await rpc('addComment', { post_id: post.post_id, comment_body: 'Rude words' }, MAYA);
    const deleted = await addPost(MAYA, 'Soon gone');
    await report(PRIYA, comment.comment_id, 'comment', 'harassment');
    await report(PRIYA, deleted.post_id);
    await rpc('deletePost', { post_id: deleted.post_id }, MAYA);
    await decide(post.post_id, 'remove', 'post', 'Spam.');
    expect((await rpc('listMyReports', {}, PRIYA)).reports).toMatchObject([
      { target_type: 'comment', target_id: comment.comment_id, status: 'open', outcome: '', excerpt: '' },
    ]);

    // A closed report stays in the list beside the one made again after it.
    const again = await addPost(MAYA, 'Reported twice');
    await report(PRIYA, again.post_id);
    await decide(again.post_id, 'dismiss', 'post', 'Fine.');
    await report(PRIYA, again.post_id, 'post', 'other');
    const { reports } = await rpc('listMyReports', {}, PRIYA);
    expect(reports.slice(0, 2).map((r) => [r.target_id, r.reason, r.status, r.outcome])).toEqual([
      [again.post_id, 'other', 'open', ''],
      [again.post_id, 'spam', 'closed', 'dismiss'],
    ]);
  });
});

describe('the report outcome migration', () => {
  it('gives reports closed before it the decision that closed them', async () => {
    const databaseUrl = await createTestDatabase();
    const earlier = mkdtempSync(join(tmpdir(), 'post-migrations-'));
    cpSync(`${root}prisma/migrations`, earlier, {
      recursive: true,
      filter: (source) => !source.includes('20270105090000_report_outcome'),
    });
    await migrate({ databaseUrl, schema: 'post', migrationsDir: earlier, logger });
    rmSync(earlier, { recursive: true });
    const db = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'post') });
    try {
      const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, seconds));
      // Post 1 hidden automatically, then by a contributor; reported again and restored; reported once more.
      // Comment 5 removed. Each decision logged a moment before the reports it closed.
      await db.$executeRaw`
        INSERT INTO post.moderation_log (at, actor_user_id, action, target_type, target_id, user_id, reason) VALUES
          (${at(1)}, '', 'auto_hide', 'post', 1, 'member-1', 'Auto.'),
          (${at(10)}, 'concierge-1', 'hide', 'post', 1, 'member-1', 'Rude.'),
          (${at(20)}, 'concierge-1', 'restore', 'post', 1, 'member-1', 'Fixed.'),
          (${at(30)}, 'concierge-1', 'remove', 'comment', 5, 'member-1', 'Phone number.'),
          (${at(31)}, 'concierge-1', 'suspend', '', 0, 'member-1', 'Spam.')`;
      await db.$executeRaw`
        INSERT INTO post.reports (report_id, target_type, target_id, reporter_id, reason, created_at, closed_at) VALUES
          (1, 'post', 1, 'member-3', 'spam', ${at(0)}, ${new Date(at(10).getTime() + 5)}),
          (2, 'post', 1, 'member-3', 'other', ${at(15)}, ${new Date(at(20).getTime() + 5)}),
          (3, 'post', 1, 'member-3', 'spam', ${at(25)}, NULL),
          (4, 'comment', 5, 'member-4', 'personal_information', ${at(2)}, ${new Date(at(30).getTime() + 5)})`;
      expect(
        await migrate({ databaseUrl, schema: 'post', migrationsDir: `${root}prisma/migrations`, logger }),
      ).toEqual(['20270105090000_report_outcome']);
      const rows = await db.report.findMany({ orderBy: { reportId: 'asc' }, select: { outcome: true } });
      expect(rows.map((row) => row.outcome)).toEqual(['hide', 'restore', null, 'remove']);
    } finally {
      await db.$disconnect();
    }
  });
});
