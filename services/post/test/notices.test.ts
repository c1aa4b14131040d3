// What the post service tells others and holds of each member (ADR 0042), against a real PostgreSQL (its
// schema, its events outbox and the Postgres search index) and real gRPC, with the profile and org services played
// by fakes on real gRPC: posts and comments mention people (stored, answered with their names, at most ten, unknown
// ones dropped), every write records its events for the people concerned in its own transaction (nobody about
// their own doing, nothing for a refused or rolled-back write), an account's recorded deletion removes everything
// of the member whenever the service reads it, as often as it is delivered, and members export their own data.
import { credentials, status } from '@grpc/grpc-js';
import {
  consumeEvents,
  type DomainEvent,
  type EventConsumer,
  ensureEventTables,
  recordEvent,
} from '@rotunda/events';
import { PostServiceClient, PostServiceService } from '@rotunda/protos/post';
import { MENTIONS_MAX, TOO_MANY_MENTIONS } from '@rotunda/rules';
import { createPostgresSearchIndex, type SearchIndex } from '@rotunda/search';
import {
  type Caller,
  idempotencyKeyOwner,
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
import { MENTION_MESSAGES } from '../src/domain/notices.ts';
import type { PostRepository } from '../src/domain/ports.ts';
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

// Profiles (fake-directories.ts): Maya 101 (issue areas 1, 2), Carlos 102, Priya 103, Owen 104, Una 105 unclaimed.
const MAYA: Caller = { userId: 'member-1', email: 'member@demo.ca.gov', roles: [] };
const CARLOS: Caller = { userId: 'concierge-1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };
const PRIYA: Caller = { userId: 'member-3', email: 'priya@demo.ca.gov', roles: [] };
const OWEN: Caller = { userId: 'member-4', email: 'owen@demo.ca.gov', roles: [] };
/** A member without a profile: likes and reports, but neither posts nor comments. */
const NEWBIE: Caller = { userId: 'newbie-1', email: 'newbie@demo.ca.gov', roles: [] };

const MAYA_ACTOR = { user_id: 'member-1', profile_id: 101, first_name: 'Maya', last_name: 'Delgado' };
const PRIYA_ACTOR = { user_id: 'member-3', profile_id: 103, first_name: 'Priya', last_name: 'Okafor' };

let databaseUrl: string;
let prisma: PrismaClient;
let repository: PostRepository;
let index: SearchIndex;
let profiles: FakeProfiles;
let orgs: FakeOrgs;
let feedVersion: FeedVersion;
let domain: PostDomain;
let client: PostServiceClient;
const sanitizer = createBodySanitizer();
const closers: (() => unknown)[] = [];

const rpc = rpcCalls(PostServiceService, () => client);

const addPost = (caller: Caller, mentions: number[] = [], title = 'Water plan adopted') =>
  rpc(
    'addPost',
    { post_title: title, post_body: '<p>The board adopted the plan.</p>', posttype_id: 2, mentions },
    caller,
  );

const addComment = (caller: Caller, postId: number, mentions: number[] = [], body = 'Well done.') =>
  rpc('addComment', { post_id: postId, comment_body: body, mentions }, caller);

const like = (caller: Caller, postId: number, liked = true) =>
  rpc('setLike', { post_id: postId, liked }, caller);

const report = (caller: Caller, targetId: number, targetType = 'post') =>
  rpc('addReport', { target_type: targetType, target_id: targetId, reason: 'spam', note: '' }, caller);

const decide = (targetId: number, action: string, targetType = 'post') =>
  rpc(
    'decideReports',
    { target_type: targetType, target_id: targetId, action, reason: 'Breaks the rules.' },
    CARLOS,
  );

const names = (mentions: { profile_id: number; first_name: string; last_name: string }[]) =>
  mentions.map((mention) => `${mention.profile_id} ${mention.first_name} ${mention.last_name}`);

/** The events recorded in the post service's outbox since the last call, as consumers read them. */
let seen = 0n;
async function recorded(): Promise<DomainEvent[]> {
  const rows = await prisma.$queryRawUnsafe<{ id: bigint; topic: string; payload: object }[]>(
    'SELECT id, topic, payload FROM post_events.outbox WHERE id > $1 ORDER BY id',
    seen,
  );
  seen = rows.at(-1)?.id ?? seen;
  return rows.map((row) => ({ topic: row.topic, ...row.payload }) as DomainEvent);
}

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

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'post', migrationsDir: `${root}prisma/migrations`, logger });
  await ensureEventTables(databaseUrl, 'post_events');
  await ensureEventTables(databaseUrl, 'auth_events');
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
  domain = createPostDomain({
    repository,
    index,
    profiles: grpcProfileDirectory(profiles.address, 3000),
    orgs: grpcOrgDirectory(orgs.address, 3000),
    sanitizer,
    commentAllowance: { burst: 1000, intervalMs: 1 },
    feedVersion,
  });
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
  await prisma.suspension.deleteMany();
  await prisma.moderationLogEntry.deleteMany();
  await index.clear();
  await recorded();
});

describe('mentions', () => {
  it('stores the people a post and a comment name, each once, and answers them with their names everywhere', async () => {
    // Owen has neither posted nor commented: the profile service is asked for him, and 999 names nobody.
    const post = await addPost(MAYA, [103, 104, 103, 999, 105]);
    expect(names(post.mentions)).toEqual(['103 Priya Okafor', '104 Owen Lindqvist', '105 Una Claimed']);
    const comment = await addComment(PRIYA, post.post_id, [101, 101]);
    expect(names(comment.mentions)).toEqual(['101 Maya Delgado']);

    const [listed] = (await rpc('listPosts', {})).posts;
    expect(names(listed?.mentions ?? [])).toEqual(names(post.mentions));
    expect(names(listed?.comments[0]?.mentions ?? [])).toEqual(['101 Maya Delgado']);
    const page = await rpc('listComments', { post_id: post.post_id });
    expect(names(page.comments[0]?.mentions ?? [])).toEqual(['101 Maya Delgado']);
    const edited = await rpc(
      'updateComment',
      { comment_id: comment.comment_id, comment_body: 'Edited.' },
      PRIYA,
    );
    expect(names(edited.mentions)).toEqual(['101 Maya Delgado']);
    // A post without mentions answers none.
    expect((await addPost(OWEN)).mentions).toEqual([]);
  });

  it('follows a mentioned person’s rename announced by the profile service', async () => {
    const post = await addPost(MAYA, [104]);
    await domain.copies.applyChange({
      kind: 'profile',
      profile_id: 104,
      user_id: 'member-4',
      first_name: 'Owen',
      last_name: 'Lind',
      profile_picture: null,
    });
    const [listed] = (await rpc('listPosts', {})).posts;
    expect(listed?.post_id).toBe(post.post_id);
    expect(names(listed?.mentions ?? [])).toEqual(['104 Owen Lind']);
    await domain.copies.applyChange({
      kind: 'profile',
      profile_id: 104,
      user_id: 'member-4',
      first_name: 'Owen',
      last_name: 'Lindqvist',
      profile_picture: null,
    });
  });

  it(`refuses more than ${MENTIONS_MAX} people, or ids that name no profile, writing nothing`, async () => {
    const eleven = Array.from({ length: MENTIONS_MAX + 1 }, (_, i) => 200 + i);
    expect(await refusal(addPost(MAYA, eleven))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: TOO_MANY_MENTIONS,
    });
    // Ten distinct, written twice each, are ten.
    const ten = eleven.slice(0, MENTIONS_MAX);
    expect((await addPost(MAYA, [...ten, ...ten])).mentions).toEqual([]);
    const post = (await rpc('listPosts', {})).posts[0];
    expect(await refusal(addComment(PRIYA, post?.post_id ?? 0, eleven))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: TOO_MANY_MENTIONS,
    });
    for (const wrong of [0, -3]) {
      expect(await refusal(addPost(MAYA, [103, wrong]))).toEqual({
        code: status.INVALID_ARGUMENT,
        details: MENTION_MESSAGES.notAProfile,
      });
    }
    expect(await prisma.post.count()).toBe(1);
    expect(await prisma.comment.count()).toBe(0);
    expect(await recorded()).toEqual([
      expect.objectContaining({ topic: 'post.published', author_user_id: 'member-1' }),
    ]);
  });
});

describe('recorded events', () => {
  it('a post: published under its author’s issue areas, and each mentioned owner of a profile told', async () => {
    // Maya mentions herself (never told), Priya, and Una, whose profile nobody owns (nobody to tell).
    const post = await addPost(MAYA, [101, 103, 105]);
    const events = await recorded();
    expect(events).toEqual([
      {
        topic: 'post.published',
        post_id: post.post_id,
        title: 'Water plan adopted',
        issue_area_ids: [1, 2],
        author_user_id: 'member-1',
        created_at: new Date(post.created_at ?? 0).toISOString(),
      },
      {
        topic: 'member.mentioned',
        post_id: post.post_id,
        post_title: 'Water plan adopted',
        comment_id: null,
        recipient_user_id: 'member-3',
        recipient_profile_id: 103,
        actor: MAYA_ACTOR,
      },
    ]);
    // An edit tells nobody again.
    await rpc('updatePost', { post_id: post.post_id, post_title: 'Water plan adopted at last' }, MAYA);
    expect(await recorded()).toEqual([]);
  });

  it('a comment tells the post’s author, unless they wrote it, and the people it mentions', async () => {
    const post = await addPost(MAYA);
    await recorded();
    const comment = await addComment(PRIYA, post.post_id, [104]);
    expect(await recorded()).toEqual([
      {
        topic: 'post.commented',
        post_id: post.post_id,
        post_title: 'Water plan adopted',
        comment_id: comment.comment_id,
        recipient_user_id: 'member-1',
        actor: PRIYA_ACTOR,
      },
      {
        topic: 'member.mentioned',
        post_id: post.post_id,
        post_title: 'Water plan adopted',
        comment_id: comment.comment_id,
        recipient_user_id: 'member-4',
        recipient_profile_id: 104,
        actor: PRIYA_ACTOR,
      },
    ]);
    await addComment(MAYA, post.post_id, [101]);
    expect(await recorded()).toEqual([]);
  });

  it('a like tells the post’s author each time it is set, never an unlike, a repeat or their own', async () => {
    const post = await addPost(MAYA);
    await recorded();
    await like(PRIYA, post.post_id);
    await like(PRIYA, post.post_id);
    await like(MAYA, post.post_id);
    await like(PRIYA, post.post_id, false);
    await like(NEWBIE, post.post_id);
    expect(await recorded()).toEqual([
      {
        topic: 'post.liked',
        post_id: post.post_id,
        post_title: 'Water plan adopted',
        recipient_user_id: 'member-1',
        actor: PRIYA_ACTOR,
      },
      {
        topic: 'post.liked',
        post_id: post.post_id,
        post_title: 'Water plan adopted',
        recipient_user_id: 'member-1',
        // No profile: no names, the like still counts.
        actor: { user_id: 'newbie-1', profile_id: null, first_name: '', last_name: '' },
      },
    ]);
    await like(PRIYA, post.post_id);
    expect((await recorded()).map((event) => event.topic)).toEqual(['post.liked']);
  });

  it('moderation tells the author of the automatic hiding and of decisions, and each reporter of the outcome', async () => {
    const post = await addPost(MAYA);
    await report(PRIYA, post.post_id);
    await report(OWEN, post.post_id);
    await report(NEWBIE, post.post_id);
    const moderated = {
      topic: 'content.moderated',
      recipient_user_id: 'member-1',
      target_type: 'post',
      target_id: post.post_id,
      post_id: post.post_id,
      post_title: 'Water plan adopted',
    };
    expect((await recorded()).filter((event) => event.topic !== 'post.published')).toEqual([
      { ...moderated, action: 'hide', reason: AUTO_HIDE_REASON, automatic: true },
    ]);

    await decide(post.post_id, 'remove');
    const decided = {
      topic: 'report.decided',
      target_type: 'post',
      target_id: post.post_id,
      post_id: post.post_id,
    };
    expect(await recorded()).toEqual([
      { ...moderated, action: 'remove', reason: 'Breaks the rules.', automatic: false },
      { ...decided, recipient_user_id: 'member-3', action: 'remove' },
      { ...decided, recipient_user_id: 'member-4', action: 'remove' },
      { ...decided, recipient_user_id: 'newbie-1', action: 'remove' },
    ]);

    // A dismissal tells the reporters, not the author; a comment's decision names its post.
    const other = await addPost(PRIYA, [], 'Budget hearing');
    const comment = await addComment(OWEN, other.post_id);
    await recorded();
    await report(MAYA, comment.comment_id, 'comment');
    await decide(comment.comment_id, 'dismiss', 'comment');
    expect(await recorded()).toEqual([
      {
        topic: 'report.decided',
        recipient_user_id: 'member-1',
        target_type: 'comment',
        target_id: comment.comment_id,
        post_id: other.post_id,
        action: 'dismiss',
      },
    ]);
    // A contributor's decision about their own comment tells nobody.
    const own = await addComment(CARLOS, other.post_id);
    await recorded();
    await decide(own.comment_id, 'hide', 'comment');
    expect(await recorded()).toEqual([]);
  });

  it('records nothing for a refused write, and writes nothing when its events cannot be recorded', async () => {
    const post = await addPost(MAYA);
    await recorded();
    expect((await refusal(addComment(PRIYA, post.post_id, [103], '   '))).code).toBe(status.INVALID_ARGUMENT);
    expect((await refusal(addComment(PRIYA, 999_999))).code).toBe(status.NOT_FOUND);
    expect(await recorded()).toEqual([]);

    // The outbox refuses its row: the comment and its mentions roll back with it.
    await prisma.$executeRawUnsafe('ALTER TABLE post_events.outbox RENAME TO outbox_away');
    try {
      expect((await refusal(addComment(PRIYA, post.post_id, [104]))).code).toBe(status.INTERNAL);
      expect((await refusal(like(PRIYA, post.post_id))).code).toBe(status.INTERNAL);
    } finally {
      await prisma.$executeRawUnsafe('ALTER TABLE post_events.outbox_away RENAME TO outbox');
    }
    expect(await prisma.comment.count()).toBe(0);
    expect(await prisma.commentMention.count()).toBe(0);
    expect(await prisma.like.count()).toBe(0);
    expect((await rpc('listPosts', {})).posts[0]).toMatchObject({ comments_count: 0, likes_count: 0 });
    expect(await recorded()).toEqual([]);
  });
});

describe('a deleted account', () => {
  /** The auth service's recorded deletion, as it records it in the account's transaction. */
  const deleteAccount = (userId: string) =>
    recordEvent(prisma, 'auth_events', { topic: 'account.deleted', user_id: userId });

  const startConsumer = (): EventConsumer => {
    const consumer = consumeEvents({
      databaseUrl,
      logger,
      schema: 'post_events',
      sources: ['auth_events'],
      onEvent: domain.membersData.onEvent,
      pollMs: 200,
    });
    closers.push(() => consumer.close());
    return consumer;
  };

  it('loses every post, comment, like, report, mention, suspension and kept key of the member, read after a restart', async () => {
    // Maya's post, commented on, liked and reported by others; Priya's post she comments on, likes and reports.
    const mayas = await addPost(MAYA, [103]);
    // One of her posts sent with an Idempotency-Key: the answer kept for it goes too (ADR 0046).
    await rpc(
      'addPost',
      { post_title: 'Keyed', post_body: '<p>Kept.</p>', posttype_id: 2 },
      MAYA,
      'key-of-maya-01',
    );
    const mayasKeys = () =>
      prisma.idempotencyKey.count({ where: { owner: idempotencyKeyOwner('member-1') } });
    expect(await mayasKeys()).toBe(1);
    const onMayas = await addComment(PRIYA, mayas.post_id, [101]);
    await like(OWEN, mayas.post_id);
    await report(OWEN, onMayas.comment_id, 'comment');
    const priyas = await addPost(PRIYA, [101, 104], 'Budget hearing');
    const mayasComment = await addComment(MAYA, priyas.post_id, [104]);
    await addComment(OWEN, priyas.post_id, [101]);
    await like(MAYA, priyas.post_id);
    await like(OWEN, priyas.post_id);
    await report(MAYA, priyas.post_id);
    await report(PRIYA, mayasComment.comment_id, 'comment');
    await rpc('suspendMember', { user_id: 'member-1', days: 3, reason: 'Spam.' }, CARLOS);
    const versionBefore = (await rpc('getFeedVersion', {})).version;

    // Recorded while this service was not reading; it reads from its cursor when it starts.
    await deleteAccount('member-1');
    const consumer = startConsumer();
    await consumer.ready;
    await consumer.drain();

    const feed = (await rpc('listPosts', { limit: 50 }, CARLOS)).posts;
    expect(feed.map((post) => post.post_title)).toEqual(['Budget hearing']);
    const [left] = feed;
    expect(left?.likes_count).toBe(1);
    expect(names(left?.mentions ?? [])).toEqual(['104 Owen Lindqvist']);
    expect(left?.comments.map((comment) => [comment.user_id, names(comment.mentions)])).toEqual([
      ['member-4', []],
    ]);
    expect((await rpc('listPosts', { search: 'Water' })).posts).toEqual([]);
    expect((await rpc('listMyLikes', {}, OWEN)).post_ids).toEqual([priyas.post_id]);
    expect(await prisma.report.count()).toBe(0);
    expect((await rpc('getModerationSnapshot', {})).suspensions).toEqual([]);
    expect(JSON.parse((await rpc('exportMine', {}, MAYA)).json)).toEqual({
      reports: [],
      posts: [],
      comments: [],
      likes: [],
    });
    // The log keeps the decision, without the member's names.
    expect((await rpc('listModerationLog', {}, CARLOS)).entries.map((entry) => entry.action)).toContain(
      'suspend',
    );
    expect(await prisma.author.count({ where: { userId: 'member-1' } })).toBe(0);
    expect(await mayasKeys()).toBe(0);
    expect((await rpc('getFeedVersion', {})).version).toBeGreaterThan(versionBefore);

    // Delivered again (at least once): nothing more goes, nothing fails.
    const counts = async () => [
      await prisma.post.count(),
      await prisma.comment.count(),
      await prisma.like.count(),
      await prisma.postMention.count(),
    ];
    const before = await counts();
    await domain.membersData.onEvent({
      topic: 'account.deleted',
      user_id: 'member-1',
      event_id: '1',
      recorded_at: new Date().toISOString(),
    });
    expect(await counts()).toEqual(before);
  });

  it('is read by the running service as it is recorded, and touches nobody else', async () => {
    const consumer = startConsumer();
    await consumer.ready;
    const owens = await addPost(OWEN, [], 'Broadband hearing');
    await like(PRIYA, owens.post_id);
    await deleteAccount('member-3');
    await consumer.drain();
    const [left] = (await rpc('listPosts', {})).posts;
    expect(left).toMatchObject({ post_id: owens.post_id, likes_count: 0 });
  });
});

describe('download my data', () => {
  it('answers the caller’s own posts, comments, likes and reports, and nobody else’s', async () => {
    const post = await addPost(PRIYA, [101], 'Budget hearing');
    const comment = await addComment(PRIYA, post.post_id, [104], 'Room 1200.');
    const mayas = await addPost(MAYA);
    await addComment(MAYA, mayas.post_id, [], 'Thanks all.');
    await like(PRIYA, mayas.post_id);
    const reported = await report(PRIYA, mayas.post_id);

    const exported = JSON.parse((await rpc('exportMine', {}, PRIYA)).json);
    expect(exported).toEqual({
      posts: [
        expect.objectContaining({
          post_id: post.post_id,
          post_title: 'Budget hearing',
          post_body: '<p>The board adopted the plan.</p>',
          posttype_id: 2,
          eventtype_id: null,
          event_date: null,
          likes_count: 0,
          moderation_state: 'visible',
          mentions: [101],
          created_at: expect.any(String),
        }),
      ],
      comments: [
        expect.objectContaining({
          comment_id: comment.comment_id,
          post_id: post.post_id,
          comment_body: 'Room 1200.',
          mentions: [104],
        }),
      ],
      likes: [{ post_id: mayas.post_id, created_at: expect.any(String) }],
      reports: [
        expect.objectContaining({
          report_id: reported.report_id,
          target_type: 'post',
          target_id: mayas.post_id,
          reason: 'spam',
          closed_at: null,
          outcome: null,
        }),
      ],
    });
    const text = JSON.stringify(exported);
    expect(text).not.toContain('Thanks all.');
    expect(text).not.toContain('member-1');

    expect((await refusal(rpc('exportMine', {}))).code).toBe(status.UNAUTHENTICATED);
  });
});
