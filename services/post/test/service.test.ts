// The post service against a real PostgreSQL (its schema and the Postgres search index) and real gRPC, with the
// profile and org services it asks played by fakes on real gRPC: migrations match schema.prisma, the types, the
// demo seed, posts and comments written by members with a profile and refused to everyone else, made once per
// Idempotency-Key however often it is sent (ADR 0046), sanitizing, comments within each member's allowance
// (shared by replicas), server-counted likes and reads, the feed searched, filtered, sorted and paged with only
// each post's latest comments (the earlier ones a page at a time), and bylines that follow renames announced by
// the owners (ADR 0012), the index rebuilt by the operator's reindex command, and the feed version
// (GetFeedVersion) moved after every kind of write that changes a page, once a reader already sees it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { credentials, Metadata, status } from '@grpc/grpc-js';
import { type ChangeListener, ensureEventTables, listenForChanges, publishChange } from '@rotunda/events';
import {
  type Post as PostMessage,
  PostServiceClient,
  PostServiceService,
  PostsResponse,
} from '@rotunda/protos/post';
import { POST_COMMENTS } from '@rotunda/rules';
import {
  createPostgresSearchIndex,
  SEARCH_UNAVAILABLE,
  type SearchIndex,
  SearchUnavailableError,
  withOutbox,
} from '@rotunda/search';
import {
  type Caller,
  connectReadDriver,
  IDEMPOTENCY_KEY_LEASE_MS,
  IDEMPOTENCY_KEY_RETENTION_HOURS,
  IDEMPOTENCY_MESSAGES,
  idempotencyKeys,
  migrate,
  prismaAdapter,
  type RawSql,
  type ReadDriver,
  type RunningGrpcServer,
  searchOutbox,
  setIdempotencyKey,
  startGrpcServer,
} from '@rotunda/service-kit';
import {
  createTestDatabase,
  diesBeforeAnswer,
  diffSchemaAndDatabase,
  refusal,
  rpcCalls,
  testCallers,
} from '@rotunda/service-kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBodySanitizer } from '../src/adapters/body-sanitizer.ts';
import { grpcOrgDirectory, grpcProfileDirectory } from '../src/adapters/grpc-directories.ts';
import { grpcPostService } from '../src/adapters/grpc-post-service.ts';
import { postgresFeedVersionStore } from '../src/adapters/postgres-feed-version.ts';
import { prismaPostRepository } from '../src/adapters/prisma-post-repository.ts';
import { createFeedVersion, type FeedVersion } from '../src/domain/feed-version.ts';
import type {
  CommentAllowance,
  OrgDirectory,
  PostRepository,
  ProfileDirectory,
} from '../src/domain/ports.ts';
import { EVENT_TYPES, POST_TYPES } from '../src/domain/post.ts';
import { FEED_ENGINE_PATIENCE_MS, POST_INDEX, searchDocumentOf } from '../src/domain/post-index.ts';
import { VISITOR } from '../src/domain/visibility.ts';
import { DEMO_POSTS, seedDemoPosts } from '../src/seed/demo-posts.ts';
import { createPostDomain, type PostDomain, type PostDomainDependencies } from '../src/wiring.ts';
import {
  type FakeOrgs,
  type FakeProfiles,
  logger,
  startFakeOrgs,
  startFakeProfiles,
} from './support/fake-directories.ts';

const root = new URL('..', import.meta.url).pathname;
const REQUIRED = 'Please provide entries for the following required fields: ';

const MAYA: Caller = { userId: 'member-1', email: 'member@demo.ca.gov', roles: [] };
const CARLOS: Caller = { userId: 'concierge-1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };
const PRIYA: Caller = { userId: 'member-3', email: 'priya@demo.ca.gov', roles: [] };
const OWEN: Caller = { userId: 'member-4', email: 'owen@demo.ca.gov', roles: [] };
const NEWBIE: Caller = { userId: 'newbie-1', email: 'newbie@demo.ca.gov', roles: [] };

let databaseUrl: string;
let prisma: PrismaClient;
let readDriver: ReadDriver;
let repository: PostRepository;
let index: SearchIndex;
let profiles: FakeProfiles;
let orgs: FakeOrgs;
let domain: PostDomain;
let server: RunningGrpcServer;
let client: PostServiceClient;
let profileDirectory: ProfileDirectory;
let orgDirectory: OrgDirectory;
let feedVersion: FeedVersion;
/** Runs as the feed version is about to move: what a reader sees at that moment. */
let beforeMove: (() => Promise<void>) | undefined;
const sanitizer = createBodySanitizer();
const closers: (() => unknown)[] = [];

const rpc = rpcCalls(PostServiceService, () => client);

const announcement = {
  post_title: 'Water plan adopted',
  post_body: '<p>The board adopted the <strong>drought</strong> plan.</p>',
  posttype_id: 2,
};

const event = {
  post_title: 'Hearing on rural broadband',
  post_body: '<p>Public comment at the end.</p>',
  posttype_id: 9,
  event_location: 'Capitol Annex, Room 1200',
  event_date: '2026-12-08',
  event_start: '09:30',
  event_end: '12:00',
  eventtype_id: 1,
};

const addPost = (request: Partial<typeof event> = announcement, caller: Caller = MAYA) =>
  rpc('addPost', request, caller);

/** The whole feed as a visitor sees it, `limit` 50 per page. */
async function feed(
  request: Partial<{ sort: string; seed: number; posttype_id: number; search: string }> = {},
) {
  const all: PostMessage[] = [];
  for (let offset = 0; ; offset += 50) {
    const { posts: page } = await rpc('listPosts', { ...request, offset, limit: 50 });
    all.push(...page);
    if (page.length < 50) return all;
  }
}

const titles = (list: PostMessage[]) => list.map((post) => post.post_title);

const AMPLE_ALLOWANCE: CommentAllowance = { burst: 1000, intervalMs: 1 };

/**
 * The post service's rules as the composition root wires them, on this test's database, index, fakes and feed
 * version unless told otherwise; the comment allowance ample, so that only the allowance's own tests (on replicas
 * of their own) meet it.
 */
const wireDomain = (overrides: Partial<PostDomainDependencies> = {}) =>
  createPostDomain({
    repository,
    index,
    profiles: profileDirectory,
    orgs: orgDirectory,
    sanitizer,
    commentAllowance: AMPLE_ALLOWANCE,
    feedVersion,
    ...overrides,
  });

/**
 * The rules' gRPC face on a port of its own, and a client that calls it as the gateway does (signed callers); its
 * creates' keys kept through `keysSql` (a test's fault seam) unless told otherwise.
 */
async function serve(rules: PostDomain, keysSql: RawSql = prisma) {
  const running = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.post.v1.PostService',
        definition: PostServiceService,
        implementation: grpcPostService(rules, logger, idempotencyKeys(keysSql, 'post')),
      },
    ],
  });
  const connected = new PostServiceClient(`127.0.0.1:${running.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
  return { server: running, client: connected };
}

/**
 * Another replica of the post service on the same database (its own Prisma Client and gRPC server), with its own
 * comment allowance settings: what it counts lives in the database, not in the process.
 */
async function startReplica(commentAllowance: CommentAllowance): Promise<PostServiceClient> {
  const replicaPrisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'post') });
  const service = wireDomain({
    repository: prismaPostRepository(replicaPrisma, 'post'),
    commentAllowance,
    feedVersion: createFeedVersion(postgresFeedVersionStore(replicaPrisma, 'post')),
  });
  const { server: replica, client: replicaClient } = await serve(service);
  closers.push(
    () => replicaClient.close(),
    () => replica.shutdown(),
    () => replicaPrisma.$disconnect(),
  );
  return replicaClient;
}

/** The size of a ListPosts answer on the wire. */
const wireBytes = (answer: PostsResponse) => PostsResponse.encode(answer).finish().length;

async function emptyPosts() {
  await prisma.post.deleteMany();
  await index.clear();
}

function startListener(): ChangeListener {
  const listener = listenForChanges({
    databaseUrl,
    logger,
    onChange: domain.copies.applyChange,
    onConnected: domain.copies.catchUp,
    retryMs: 100,
  });
  closers.push(() => listener.close());
  return listener;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'post', migrationsDir: `${root}prisma/migrations`, logger });
  // Writes record their events for other services in the outbox the service makes at start (ADR 0042).
  await ensureEventTables(databaseUrl, 'post_events');
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'post') });
  // As the composition root wires it: feed pages read through the driver's prepared statement.
  readDriver = await connectReadDriver(databaseUrl, 2, 'post-test.read');
  repository = prismaPostRepository(prisma, 'post', readDriver);
  await repository.ensureTypes(POST_TYPES, EVENT_TYPES);
  index = createPostgresSearchIndex({ databaseUrl, schema: 'post_search', index: 'posts', ...POST_INDEX });
  profiles = await startFakeProfiles();
  orgs = await startFakeOrgs();
  const profileGrpc = grpcProfileDirectory(profiles.address, 3000);
  const orgGrpc = grpcOrgDirectory(orgs.address, 3000);
  closers.push(profileGrpc.close, orgGrpc.close);
  profileDirectory = profileGrpc;
  orgDirectory = orgGrpc;
  const versions = postgresFeedVersionStore(prisma, 'post');
  feedVersion = createFeedVersion({
    bump: async () => {
      await beforeMove?.();
      return versions.bump();
    },
    current: versions.current,
  });
  await feedVersion.start((error) => {
    throw error;
  });
  closers.push(feedVersion.stop);
  domain = wireDomain();
  await domain.posts.syncSearchIndex();
  // The organizations' and divisions' names, as the listener copies them on connecting.
  await domain.copies.catchUp();
  ({ server, client } = await serve(domain));
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  client?.close();
  await server?.shutdown();
  await profiles?.server.shutdown();
  await orgs?.server.shutdown();
  await index?.close();
  await readDriver?.dispose();
  await prisma?.$disconnect();
  sanitizer.close();
});

describe('data and types', () => {
  it('has a migrated database that matches schema.prisma', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'post',
      }),
    ).toEqual([]);
  });

  it('ListPostTypes answers nine types by id, 9 being EVENT', async () => {
    const { post_types } = await rpc('listPostTypes', {});
    expect(post_types).toHaveLength(9);
    expect(post_types.map((type) => type.posttype_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(post_types[8]).toEqual({ posttype_id: 9, post_type: 'EVENT' });
  });

  it('ListEventTypes answers the event types by name with OTHER last', async () => {
    const { event_types } = await rpc('listEventTypes', {});
    const names = event_types.map((type) => type.event_type);
    expect(names.at(-1)).toBe('OTHER');
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort());
    expect(names).toHaveLength(EVENT_TYPES.length);
  });

  it('GetPostType and GetEventType answer one type, NOT_FOUND for another id', async () => {
    expect(await rpc('getPostType', { posttype_id: 9 })).toEqual({ posttype_id: 9, post_type: 'EVENT' });
    expect(await rpc('getEventType', { eventtype_id: 10 })).toEqual({
      eventtype_id: 10,
      event_type: 'OTHER',
    });
    expect(await refusal(rpc('getPostType', { posttype_id: 99 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post type not found',
    });
    expect(await refusal(rpc('getEventType', { eventtype_id: 0 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Event type not found',
    });
  });
});

describe('adding posts', () => {
  it('refuses a visitor, and a member without a profile, writing nothing', async () => {
    await emptyPosts();
    expect(await refusal(rpc('addPost', announcement))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'Access Restricted. Please login.',
    });
    expect(await refusal(addPost(announcement, NEWBIE))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'Please create your profile before posting',
    });
    expect(await prisma.post.count()).toBe(0);
  });

  it('takes the author, member, organization and division from the caller’s profile', async () => {
    const post = await addPost();
    expect(post).toMatchObject({
      post_title: 'Water plan adopted',
      post_body: '<p>The board adopted the <strong>drought</strong> plan.</p>',
      post_author: 101,
      user_id: 'member-1',
      organization_id: 12,
      division_id: 3,
      organization_name: 'Capitol Bridge Advocates',
      division_name: 'Government Affairs',
      posttype_id: 2,
      post_type: 'PRESS RELEASE',
      likes_count: 0,
      reads: 0,
      comments_count: 0,
      author: { profile_id: 101, first_name: 'Maya', last_name: 'Delgado', user_id: 'member-1' },
      comments: [],
    });
    expect(post.event_location).toBeUndefined();
    expect(post.created_at).toEqual(post.updated_at);
    const carlos = await addPost(announcement, CARLOS);
    expect(carlos).toMatchObject({ post_author: 102, user_id: 'concierge-1', organization_id: 14 });
    expect(carlos.division_id).toBeUndefined();
    expect(carlos.organization_name).toBe('Delta Water Authority');
  });

  it('stores an event with its location, date, times and type', async () => {
    const post = await addPost(event);
    expect(post).toMatchObject({
      posttype_id: 9,
      post_type: 'EVENT',
      eventtype_id: 1,
      event_type: 'HEARING',
      event_location: 'Capitol Annex, Room 1200',
      event_date: '2026-12-08',
      event_start: '09:30',
      event_end: '12:00',
    });
  });

  it('drops event fields from a post that is not an event', async () => {
    const post = await addPost({ ...event, posttype_id: 1 });
    expect(post.event_location).toBeUndefined();
    expect(post.event_date).toBeUndefined();
    expect(post.eventtype_id).toBeUndefined();
  });

  it.each([
    [{}, `${REQUIRED}Post Title, Post Body, Type of Post`],
    [{ ...announcement, post_title: '   ' }, `${REQUIRED}Post Title`],
    [{ ...announcement, posttype_id: 0 }, `${REQUIRED}Type of Post`],
    [
      { post_title: 'Hearing', post_body: '<p>x</p>', posttype_id: 9 },
      `${REQUIRED}Event Location, Event Date, Start Time, End Time`,
    ],
    [{ ...event, event_end: '' }, `${REQUIRED}End Time`],
    [{ ...event, post_title: '', event_location: ' ' }, `${REQUIRED}Post Title, Event Location`],
    [{ ...announcement, post_body: '<script>alert(1)</script>' }, `${REQUIRED}Post Body`],
    [{ ...announcement, post_body: '<p><br></p>' }, `${REQUIRED}Post Body`],
    [{ ...announcement, post_body: '<img src=x onerror=alert(1)>' }, `${REQUIRED}Post Body`],
    [{ ...event, event_date: '2026-02-30' }, 'Event Date must be a date (YYYY-MM-DD).'],
    [{ ...event, event_start: '25:00' }, 'Start Time must be a time (HH:MM).'],
    [{ ...event, event_start: '14:00', event_end: '13:00' }, 'End Time must be after Start Time.'],
    [{ ...event, event_start: '12:00', event_end: '12:00' }, 'End Time must be after Start Time.'],
    [{ ...announcement, posttype_id: 42 }, 'Please choose one of the types of post.'],
    [{ ...event, eventtype_id: 99 }, 'Please choose one of the types of event.'],
    [{ ...announcement, post_title: 'x'.repeat(201) }, 'Post Title must be at most 200 characters.'],
  ])('refuses %j with the rule’s message', async (request, message) => {
    const before = await prisma.post.count();
    expect(await refusal(addPost(request))).toEqual({ code: status.INVALID_ARGUMENT, details: message });
    expect(await prisma.post.count()).toBe(before);
  });

  it('asks nothing of the profile service for a refused form', async () => {
    profiles.reset();
    await refusal(addPost({}));
    expect(profiles.calls).toEqual([]);
  });
});

describe('creates repeated with an Idempotency-Key (ADR 0046)', () => {
  const keyed = <K extends 'addPost' | 'addComment'>(
    method: K,
    request: Parameters<typeof rpc<K>>[1],
    key: string,
    caller: Caller = MAYA,
  ) => rpc(method, request, caller, key);
  const keptKeys = async () =>
    (
      await prisma.$queryRawUnsafe<{ owner: string; method: string; key: string; kept: boolean }[]>(
        'SELECT owner, method, key, answer IS NOT NULL AS kept FROM post.idempotency_keys ORDER BY owner, method, key',
      )
    ).map(({ owner, method, key, kept }) => `${owner} ${method} ${key} ${kept ? 'answered' : 'running'}`);

  it('creates one post for a key sent three times, answering each repeat with the first answer', async () => {
    await emptyPosts();
    await prisma.$executeRawUnsafe('DELETE FROM post.idempotency_keys');
    const first = await keyed('addPost', announcement, 'post-key-0001');
    const again = await keyed('addPost', announcement, 'post-key-0001');
    const third = await keyed('addPost', announcement, 'post-key-0001');
    expect(again).toEqual(first);
    expect(third).toEqual(first);
    expect(await prisma.post.count()).toBe(1);
    // Another key, or none, is another post; the same key is the caller's own: another member's is theirs.
    const other = await keyed('addPost', announcement, 'post-key-0002');
    const carlos = await keyed('addPost', announcement, 'post-key-0001', CARLOS);
    await addPost();
    expect(new Set([first.post_id, other.post_id, carlos.post_id]).size).toBe(3);
    expect(await prisma.post.count()).toBe(4);
    expect(await keptKeys()).toEqual([
      'member:concierge-1 AddPost post-key-0001 answered',
      'member:member-1 AddPost post-key-0001 answered',
      'member:member-1 AddPost post-key-0002 answered',
    ]);
  });

  it('creates one comment for a repeated key, the post’s count moved once', async () => {
    await emptyPosts();
    const post = await addPost();
    const request = { post_id: post.post_id, comment_body: 'Will there be a recording?' };
    const first = await keyed('addComment', request, 'comment-key-01', CARLOS);
    expect(await keyed('addComment', request, 'comment-key-01', CARLOS)).toEqual(first);
    expect(await prisma.comment.count()).toBe(1);
    const [shown] = (await rpc('listPosts', { offset: 0, limit: 10 })).posts;
    expect(shown?.comments_count).toBe(1);
  });

  it('refuses the key with another request, and a malformed key, creating nothing more', async () => {
    await emptyPosts();
    await keyed('addPost', announcement, 'post-key-0003');
    expect(
      await refusal(keyed('addPost', { ...announcement, post_title: 'Another' }, 'post-key-0003')),
    ).toEqual({
      code: status.FAILED_PRECONDITION,
      details: IDEMPOTENCY_MESSAGES.reused,
    });
    expect(await refusal(keyed('addPost', announcement, 'short'))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: IDEMPOTENCY_MESSAGES.malformed,
    });
    expect(await prisma.post.count()).toBe(1);
  });

  it('lets the key of a refused create be used again: the refusal made nothing', async () => {
    await emptyPosts();
    expect(
      await refusal(keyed('addPost', { ...announcement, post_title: '' }, 'post-key-0004')),
    ).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    const post = await keyed('addPost', announcement, 'post-key-0004');
    expect(post.post_title).toBe(announcement.post_title);
    expect(await prisma.post.count()).toBe(1);
  });

  it('creates one post when the same key arrives ten times at once: the others answer it or say it is running', async () => {
    await emptyPosts();
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => keyed('addPost', event, 'post-key-0005')),
    );
    expect(await prisma.post.count()).toBe(1);
    const [created] = await prisma.post.findMany();
    for (const answer of answers) {
      if (answer.status === 'fulfilled') expect(answer.value.post_id).toBe(created?.postId);
      else
        expect(await refusal(Promise.reject(answer.reason))).toEqual({
          code: status.FAILED_PRECONDITION,
          details: IDEMPOTENCY_MESSAGES.inProgress,
        });
    }
    expect(answers.filter((answer) => answer.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
  });

  it('lets a repeat take over a key whose call died without an answer once its lease has passed: one post', async () => {
    await emptyPosts();
    const first = await keyed('addPost', announcement, 'post-key-0007');
    // As if its replica had died before creating: the key kept, no answer, no post.
    await emptyPosts();
    await prisma.$executeRawUnsafe(
      "UPDATE post.idempotency_keys SET answer = NULL, made = NULL, created_at = now() WHERE key = 'post-key-0007'",
    );
    expect(await refusal(keyed('addPost', announcement, 'post-key-0007'))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: IDEMPOTENCY_MESSAGES.inProgress,
    });
    await prisma.$executeRawUnsafe(
      `UPDATE post.idempotency_keys SET created_at = now() - ${IDEMPOTENCY_KEY_LEASE_MS + 1000} * interval '1 millisecond' WHERE key = 'post-key-0007'`,
    );
    // Another request under the key is still refused; the same one takes it over, and its answer is kept.
    expect(
      await refusal(keyed('addPost', { ...announcement, post_title: 'Another' }, 'post-key-0007')),
    ).toMatchObject({ details: IDEMPOTENCY_MESSAGES.reused });
    const taken = await keyed('addPost', announcement, 'post-key-0007');
    expect(taken.post_id).not.toBe(first.post_id);
    expect(await keyed('addPost', announcement, 'post-key-0007')).toEqual(taken);
    expect(await prisma.post.count()).toBe(1);
  });

  it('never takes over a key whose call still runs, however long: it renews its lease', async () => {
    // Long enough that a renewal four times a lease is never late on a loaded machine.
    const leaseMs = 1_500;
    const keys = idempotencyKeys(prisma, 'post', { leaseMs });
    const codec = {
      toJSON: (message: { n: number }) => message,
      fromJSON: (json: unknown) => json as { n: number },
    };
    let made = 0;
    let finish = () => {};
    const running = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let began = () => {};
    const started = new Promise<void>((resolve) => {
      began = resolve;
    });
    const create = keys.create(
      'Slow',
      { request: codec, response: codec },
      async (request) => {
        made += 1;
        began();
        await running;
        return { n: request.n + made };
      },
      async () => ({ n: -1 }),
    );
    const metadata = new Metadata();
    setIdempotencyKey(metadata, 'slow-key-0001');
    const context = { requestId: 'r', metadata, caller: MAYA, service: undefined };
    const first = create({ n: 10 }, context);
    // The first call holds the key before any repeat is sent (sent at once, a repeat could take it first).
    await started;
    // Repeats over three leases all find it running.
    const until = Date.now() + 3 * leaseMs;
    let repeats = 0;
    while (Date.now() < until) {
      await expect(create({ n: 10 }, context)).rejects.toThrow(IDEMPOTENCY_MESSAGES.inProgress);
      repeats += 1;
      await new Promise((resolve) => setTimeout(resolve, leaseMs / 4));
    }
    expect(repeats).toBeGreaterThan(3);
    finish();
    expect(await first).toEqual({ n: 11 });
    expect(await create({ n: 10 }, context)).toEqual({ n: 11 });
    expect(made).toBe(1);
  });

  it('answers a repeat of a create that died between its commit and keeping its answer with what it made, past the lease', async () => {
    await emptyPosts();
    await prisma.$executeRawUnsafe('DELETE FROM post.idempotency_keys');
    const post = await addPost(event);
    // A replica whose process dies right after each create's commit, before its answer is kept.
    const dying = await serve(domain, diesBeforeAnswer(prisma));
    try {
      const died = (method: 'addPost' | 'addComment', request: object, key: string) =>
        refusal(rpc.on(dying.client)(method, request as never, CARLOS, key));
      const comment = { post_id: post.post_id, comment_body: 'Is the room accessible?' };
      expect(await died('addPost', announcement, 'died-post-01')).toMatchObject({ code: status.INTERNAL });
      expect(await died('addComment', comment, 'died-comment-01')).toMatchObject({ code: status.INTERNAL });
      // The repeats come after the dead call's lease: before, such a key was taken over and created again.
      await prisma.$executeRawUnsafe(
        `UPDATE post.idempotency_keys SET created_at = now() - ${IDEMPOTENCY_KEY_LEASE_MS + 1000} * interval '1 millisecond'`,
      );
      const made = await prisma.post.findFirstOrThrow({ where: { title: announcement.post_title } });
      const repeat = await keyed('addPost', announcement, 'died-post-01', CARLOS);
      expect(repeat).toMatchObject({ post_id: made.postId, post_title: announcement.post_title });
      expect(await keyed('addPost', announcement, 'died-post-01', CARLOS)).toEqual(repeat);
      const [madeComment] = await prisma.comment.findMany();
      const repeatComment = await keyed('addComment', comment, 'died-comment-01', CARLOS);
      expect(repeatComment).toMatchObject({
        comment_id: madeComment?.commentId,
        comment_body: comment.comment_body,
      });
      expect(await prisma.post.count()).toBe(2);
      expect(await prisma.comment.count()).toBe(1);
      expect(await keptKeys()).toEqual([
        'member:concierge-1 AddComment died-comment-01 answered',
        'member:concierge-1 AddPost died-post-01 answered',
      ]);
    } finally {
      dying.client.close();
      await dying.server.shutdown();
    }
  });

  it('keeps the key of a create that failed after its commit: the repeat answers what it made', async () => {
    await emptyPosts();
    // The index write after the commit fails (not the engine being away): the member was told it failed.
    const failing = await serve(
      wireDomain({
        index: {
          ...index,
          upsert: async () => {
            throw new Error('index write failed');
          },
        },
      }),
    );
    try {
      expect(
        await refusal(rpc.on(failing.client)('addPost', announcement, MAYA, 'failed-post-01')),
      ).toMatchObject({ code: status.INTERNAL });
    } finally {
      failing.client.close();
      await failing.server.shutdown();
    }
    const [made] = await prisma.post.findMany();
    expect((await keyed('addPost', announcement, 'failed-post-01')).post_id).toBe(made?.postId);
    expect(await prisma.post.count()).toBe(1);
  });

  it('lets a key go after a day: the same key then creates again', async () => {
    await emptyPosts();
    await keyed('addPost', announcement, 'post-key-0006');
    await prisma.$executeRawUnsafe(
      `UPDATE post.idempotency_keys SET created_at = now() - interval '${IDEMPOTENCY_KEY_RETENTION_HOURS} hours 1 minute' WHERE key = 'post-key-0006'`,
    );
    await keyed('addPost', announcement, 'post-key-0006');
    expect(await prisma.post.count()).toBe(2);
  });
});

describe('search outbox rows written in the write’s own transaction (ADR 0057)', () => {
  const outbox = searchOutbox('post', 'posts');
  const outboxRows = async () =>
    (
      await prisma.$queryRawUnsafe<{ id: string }[]>(
        `SELECT document_id AS id FROM post.search_outbox WHERE index_name = 'posts' ORDER BY seq`,
      )
    ).map((row) => row.id);
  /** A replica that notes its index writes in the outbox, as it does with Elasticsearch, on `replicaIndex`. */
  const outboxReplica = (replicaIndex: SearchIndex) =>
    serve(
      wireDomain({
        repository: prismaPostRepository(prisma, 'post', readDriver, outbox),
        index: outbox.clearing(prisma, replicaIndex),
      }),
    );
  const until = async (check: () => Promise<boolean>) => {
    const end = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('not within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('clears a write’s row once its index write is done; a process dead before it leaves the row for the drain', async () => {
    await emptyPosts();
    await prisma.$executeRawUnsafe('DELETE FROM post.search_outbox');
    let dies = false;
    const replica = await outboxReplica({
      ...index,
      async upsert(documents) {
        if (dies) throw new Error('the process died before its index write');
        await index.upsert(documents);
      },
    });
    let postId: number;
    try {
      postId = (await rpc.on(replica.client)('addPost', announcement, MAYA)).post_id;
      expect(await outboxRows()).toEqual([]);
      dies = true;
      const renamed = { post_id: postId, post_title: 'Water plan renamed' };
      expect(await refusal(rpc.on(replica.client)('updatePost', renamed, MAYA))).toMatchObject({
        code: status.INTERNAL,
      });
    } finally {
      replica.client.close();
      await replica.server.shutdown();
    }
    // The rename committed with its row; the index never heard of it.
    expect((await prisma.post.findUniqueOrThrow({ where: { postId } })).title).toBe('Water plan renamed');
    expect(await outboxRows()).toEqual([String(postId)]);
    expect(await feed({ search: 'renamed' })).toEqual([]);
    // The next replica to start drains it (the table and the index hold as many posts: no rebuild).
    const restarted = withOutbox(
      { ...index, close: async () => {} },
      { databaseUrl, schema: 'post', index: 'posts', retryMs: 50 },
    );
    try {
      await wireDomain({ index: restarted }).posts.syncSearchIndex();
      await until(async () => (await outboxRows()).length === 0);
    } finally {
      await restarted.close();
    }
    expect(titles(await feed({ search: 'renamed' }))).toEqual(['Water plan renamed']);
  });

  it('never commits a write without its row: a connection killed inside the transaction leaves neither', async () => {
    await emptyPosts();
    await prisma.$executeRawUnsafe('DELETE FROM post.search_outbox');
    const replica = await outboxReplica(index);
    try {
      await prisma.$transaction(
        async (tx) => {
          // The create's transaction then waits at its outbox insert, its post already inserted.
          await tx.$executeRawUnsafe('LOCK TABLE post.search_outbox IN EXCLUSIVE MODE');
          const adding = refusal(
            rpc.on(replica.client)('addPost', { ...announcement, post_title: 'Never half written' }, MAYA),
          );
          let waiting: number | undefined;
          await until(async () => {
            const [row] = await prisma.$queryRawUnsafe<{ pid: number }[]>(
              `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%search_outbox%'`,
            );
            waiting = row?.pid;
            return waiting !== undefined;
          });
          await prisma.$queryRawUnsafe('SELECT pg_terminate_backend($1)', waiting);
          expect(await adding).toMatchObject({ code: status.UNAVAILABLE });
        },
        { timeout: 20_000 },
      );
    } finally {
      replica.client.close();
      await replica.server.shutdown();
    }
    expect(await prisma.post.count()).toBe(0);
    expect(await outboxRows()).toEqual([]);
  });
});

describe('sanitizing bodies before storage', () => {
  it.each([
    ['<p>Agenda</p><script>alert(document.cookie)</script>', '<p>Agenda</p>'],
    ['<p>Agenda<img src=x onerror=alert(1)></p>', '<p>Agenda</p>'],
    ['<p onmouseover="alert(1)">Agenda</p>', '<p>Agenda</p>'],
    ['<p><a href="javascript:alert(1)">Agenda</a></p>', '<p><a>Agenda</a></p>'],
    ['<p><a href="data:text/html,<script>alert(1)</script>">Agenda</a></p>', '<p><a>Agenda</a></p>'],
    [
      '<p><a href="https://example.org/agenda" target="_blank" rel="noopener noreferrer">Agenda</a></p>',
      '<p><a href="https://example.org/agenda" target="_blank" rel="noopener noreferrer">Agenda</a></p>',
    ],
    ['<p class="toast-region toast" style="position:fixed;inset:0">Agenda</p>', '<p>Agenda</p>'],
    ['<p class="ql-align-center dialog">Agenda</p>', '<p class="ql-align-center">Agenda</p>'],
  ])('stores %s as %s', async (body, stored) => {
    const post = await addPost({ ...announcement, post_body: body });
    expect(post.post_body).toBe(stored);
    expect((await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } })).body).toBe(stored);
  });

  it('sanitizes an edited body too', async () => {
    const post = await addPost();
    const edited = await rpc(
      'updatePost',
      { post_id: post.post_id, post_body: '<p>Edited</p><iframe src="https://evil.example"></iframe>' },
      MAYA,
    );
    expect(edited.post_body).toBe('<p>Edited</p>');
  });
});

describe('editing and deleting posts', () => {
  it('lets only the author edit; fields not sent keep their value', async () => {
    const post = await addPost(event);
    expect(
      await refusal(rpc('updatePost', { post_id: post.post_id, post_title: 'Mine now' }, CARLOS)),
    ).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Only the author can change this post',
    });
    expect(await refusal(rpc('updatePost', { post_id: post.post_id, post_title: 'x' }))).toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    const edited = await rpc(
      'updatePost',
      { post_id: post.post_id, post_title: 'Hearing moved', event_date: '2026-12-10', event_start: '10:00' },
      MAYA,
    );
    expect(edited).toMatchObject({
      post_title: 'Hearing moved',
      post_body: event.post_body,
      event_location: event.event_location,
      event_date: '2026-12-10',
      event_start: '10:00',
      event_end: '12:00',
      eventtype_id: 1,
    });
    expect((edited.updated_at as Date).getTime()).toBeGreaterThan((edited.created_at as Date).getTime());
    const cleared = await rpc('updatePost', { post_id: post.post_id, eventtype_id: 0 }, MAYA);
    expect(cleared.eventtype_id).toBeUndefined();
  });

  it('refuses an edit that leaves a required field empty', async () => {
    const post = await addPost(event);
    expect(
      await refusal(rpc('updatePost', { post_id: post.post_id, post_title: '', event_end: '' }, MAYA)),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: `${REQUIRED}Post Title, End Time`,
    });
    expect(
      await refusal(
        rpc('updatePost', { post_id: post.post_id, post_body: '<p> </p><script>x</script>' }, MAYA),
      ),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: `${REQUIRED}Post Body` });
    expect((await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } })).title).toBe(
      event.post_title,
    );
  });

  it('answers NOT_FOUND for a post that does not exist', async () => {
    expect(await refusal(rpc('updatePost', { post_id: 999_999, post_title: 'x' }, MAYA))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    expect(await refusal(rpc('deletePost', { post_id: 999_999 }, MAYA))).toMatchObject({
      code: status.NOT_FOUND,
    });
  });

  it('lets only the author delete, with the post’s comments and likes', async () => {
    const post = await addPost({ ...announcement, post_title: 'Short-lived notice' });
    await rpc('addComment', { post_id: post.post_id, comment_body: 'Noted' }, CARLOS);
    await rpc('setLike', { post_id: post.post_id, liked: true }, CARLOS);
    expect(await refusal(rpc('deletePost', { post_id: post.post_id }, CARLOS))).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Only the author can delete this post',
    });
    await rpc('deletePost', { post_id: post.post_id }, MAYA);
    expect(await prisma.post.count({ where: { postId: post.post_id } })).toBe(0);
    expect(await prisma.comment.count({ where: { postId: post.post_id } })).toBe(0);
    expect(await prisma.like.count({ where: { postId: post.post_id } })).toBe(0);
    expect(titles(await feed({ search: 'short-lived' }))).toEqual([]);
  });
});

describe('comments', () => {
  it('refuses empty comments, visitors and members without a profile', async () => {
    const post = await addPost();
    for (const body of ['', '   \n '])
      expect(await refusal(rpc('addComment', { post_id: post.post_id, comment_body: body }, CARLOS))).toEqual(
        {
          code: status.INVALID_ARGUMENT,
          details: 'Please write a comment first',
        },
      );
    expect(await refusal(rpc('addComment', { post_id: post.post_id, comment_body: 'Hi' }))).toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    expect(await refusal(rpc('addComment', { post_id: post.post_id, comment_body: 'Hi' }, NEWBIE))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: 'Please create your profile before commenting',
    });
    expect(await refusal(rpc('addComment', { post_id: 999_999, comment_body: 'Hi' }, CARLOS))).toMatchObject({
      code: status.NOT_FOUND,
    });
    expect(await prisma.comment.count({ where: { postId: post.post_id } })).toBe(0);
  });

  it('adds comments shown oldest first with their authors, and counts them', async () => {
    const post = await addPost();
    const first = await rpc(
      'addComment',
      { post_id: post.post_id, comment_body: ' Will there be a recording? ' },
      CARLOS,
    );
    expect(first).toMatchObject({
      post_id: post.post_id,
      comment_author: 102,
      comment_body: 'Will there be a recording?',
      user_id: 'concierge-1',
      author: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker' },
    });
    expect(first.created_at).toEqual(first.updated_at);
    await rpc('addComment', { post_id: post.post_id, comment_body: 'Yes, on the website.' }, MAYA);
    const [listed] = (await rpc('listPosts', { search: 'drought', limit: 50 })).posts.filter(
      (p) => p.post_id === post.post_id,
    );
    expect(listed?.comments_count).toBe(2);
    expect(listed?.comments.map((c) => c.comment_body)).toEqual([
      'Will there be a recording?',
      'Yes, on the website.',
    ]);
  });

  it('lets only the author edit or delete a comment; an edit shows as edited', async () => {
    const post = await addPost();
    const comment = await rpc('addComment', { post_id: post.post_id, comment_body: 'First thought' }, CARLOS);
    expect(
      await refusal(rpc('updateComment', { comment_id: comment.comment_id, comment_body: 'Hijacked' }, MAYA)),
    ).toEqual({ code: status.PERMISSION_DENIED, details: 'Only the author can change this comment' });
    expect(
      await refusal(rpc('updateComment', { comment_id: comment.comment_id, comment_body: ' ' }, CARLOS)),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: 'Please write a comment first' });
    const edited = await rpc(
      'updateComment',
      { comment_id: comment.comment_id, comment_body: 'Second thought' },
      CARLOS,
    );
    expect(edited.comment_body).toBe('Second thought');
    expect((edited.updated_at as Date).getTime()).toBeGreaterThan((edited.created_at as Date).getTime());
    expect(await refusal(rpc('deleteComment', { comment_id: comment.comment_id }, MAYA))).toEqual({
      code: status.PERMISSION_DENIED,
      details: 'Only the author can delete this comment',
    });
    await rpc('deleteComment', { comment_id: comment.comment_id }, CARLOS);
    expect(await refusal(rpc('deleteComment', { comment_id: comment.comment_id }, CARLOS))).toEqual({
      code: status.NOT_FOUND,
      details: 'Comment not found',
    });
  });
});

describe('bounded feed pages: the latest comments on the feed, the earlier ones a page at a time', () => {
  /** Comments `count` numbered bodies on the post, by members taking turns; answers them in order. */
  async function comment(postId: number, count: number, body = (n: number) => `Comment ${n}`) {
    const written = [];
    for (let n = 1; n <= count; n++)
      written.push(
        await rpc('addComment', { post_id: postId, comment_body: body(n) }, n % 2 ? CARLOS : PRIYA),
      );
    return written;
  }
  const bodies = (comments: { comment_body: string }[]) => comments.map((c) => c.comment_body);

  it('carries each post’s latest three comments, oldest first, and the count of all, in every answer', async () => {
    const post = await addPost({ ...announcement, post_title: 'Many voices on the drought plan' });
    await comment(post.post_id, 7);
    const [listed] = (await rpc('listPosts', { search: 'many voices' })).posts;
    expect(listed?.comments_count).toBe(7);
    expect(bodies(listed?.comments ?? [])).toEqual(['Comment 5', 'Comment 6', 'Comment 7']);
    // An edit answers the post as the feed shows it.
    const edited = await rpc(
      'updatePost',
      { post_id: post.post_id, post_title: 'Many voices, edited' },
      MAYA,
    );
    expect(edited.comments_count).toBe(7);
    expect(bodies(edited.comments)).toEqual(['Comment 5', 'Comment 6', 'Comment 7']);
  });

  it('ListComments pages back through the earlier ones, oldest first, to the first', async () => {
    const post = await addPost({ ...announcement, post_title: 'Paged comments' });
    const written = await comment(post.post_id, 12);
    const latest = await rpc('listComments', { post_id: post.post_id, limit: 5 });
    expect(bodies(latest.comments)).toEqual([
      'Comment 8',
      'Comment 9',
      'Comment 10',
      'Comment 11',
      'Comment 12',
    ]);
    expect(latest.has_earlier).toBe(true);
    // The read modal holds the latest three and asks for what came before the oldest of them.
    const before10 = await rpc('listComments', {
      post_id: post.post_id,
      before_comment_id: written[9]?.comment_id,
      limit: 5,
    });
    expect(bodies(before10.comments)).toEqual([
      'Comment 5',
      'Comment 6',
      'Comment 7',
      'Comment 8',
      'Comment 9',
    ]);
    expect(before10.has_earlier).toBe(true);
    const first = await rpc('listComments', {
      post_id: post.post_id,
      before_comment_id: before10.comments[0]?.comment_id,
      limit: 5,
    });
    expect(bodies(first.comments)).toEqual(['Comment 1', 'Comment 2', 'Comment 3', 'Comment 4']);
    expect(first.has_earlier).toBe(false);
    expect(first.comments[0]).toMatchObject({
      post_id: post.post_id,
      comment_author: 102,
      user_id: 'concierge-1',
      author: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker' },
    });
    // 0 is the default page (20); more than 50 is 50.
    expect((await rpc('listComments', { post_id: post.post_id })).comments).toHaveLength(12);
    expect((await rpc('listComments', { post_id: post.post_id, limit: 500 })).has_earlier).toBe(false);
  });

  it('orders comments as they were written, also when two share an instant', async () => {
    const post = await addPost({ ...announcement, post_title: 'Same instant' });
    const at = new Date('2026-11-20T17:00:00.000Z');
    for (const body of ['A', 'B', 'C', 'D'])
      await repository.addComment(
        { postId: post.post_id, authorId: 102, userId: 'concierge-1', body },
        { createdAt: at },
      );
    const all = await rpc('listComments', { post_id: post.post_id });
    expect(bodies(all.comments)).toEqual(['A', 'B', 'C', 'D']);
    const earlier = await rpc('listComments', {
      post_id: post.post_id,
      before_comment_id: all.comments[2]?.comment_id,
      limit: 1,
    });
    expect(bodies(earlier.comments)).toEqual(['B']);
    expect(earlier.has_earlier).toBe(true);
  });

  it('answers NOT_FOUND for an unknown post, or a comment of another post', async () => {
    const one = await addPost({ ...announcement, post_title: 'One' });
    const other = await addPost({ ...announcement, post_title: 'Other' });
    const [theirs] = await comment(other.post_id, 1);
    expect(await refusal(rpc('listComments', { post_id: 999_999 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    expect(
      await refusal(rpc('listComments', { post_id: one.post_id, before_comment_id: theirs?.comment_id })),
    ).toEqual({ code: status.NOT_FOUND, details: 'Comment not found' });
    expect(await refusal(rpc('listComments', { post_id: one.post_id, before_comment_id: 999_999 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'Comment not found',
    });
  });

  it('keeps the first feed page small however many long comments one post has', async () => {
    await emptyPosts();
    const busy = await addPost({ ...announcement, post_title: 'Busy thread' });
    for (let n = 0; n < 19; n++) await addPost({ ...announcement, post_title: `Quiet ${n}` });
    const long = (n: number) => `${n} `.padEnd(1400, 'x');
    const firstPage = async () => {
      const answer = await rpc('listPosts', {});
      expect(answer.posts).toHaveLength(20);
      return { bytes: wireBytes(answer), busy: answer.posts.find((p) => p.post_id === busy.post_id) };
    };

    const quiet = await firstPage();
    await comment(busy.post_id, 80, long);
    const after80 = await firstPage();
    expect(after80.busy?.comments_count).toBe(80);
    expect(after80.busy?.comments.map((c) => c.comment_body)).toEqual([long(78), long(79), long(80)]);
    // Three comments of 1,400 characters more than a page without any, whatever the post has.
    expect(after80.bytes - quiet.bytes).toBeLessThan(3 * 1600);
    expect(after80.bytes).toBeLessThan(16_000);

    await comment(busy.post_id, 80, (n) => long(80 + n));
    const after160 = await firstPage();
    expect(after160.busy?.comments_count).toBe(160);
    // Only the numbers' encodings change (ids, the count, a few bytes each): it does not grow with the comments.
    expect(Math.abs(after160.bytes - after80.bytes)).toBeLessThanOrEqual(64);
  });

  describe('each member’s comment allowance', () => {
    afterEach(async () => {
      await prisma.commentAllowance.deleteMany();
    });
    /** The refusal names the wait: `seconds`, less the few a slow machine took since the first comment. */
    const expectToWait = (refused: { code: number; details: string }, seconds: number) => {
      expect(refused.code).toBe(status.RESOURCE_EXHAUSTED);
      const wait = /^You are commenting too quickly\. Please try again in (\d+) seconds\.$/.exec(
        refused.details,
      );
      expect(Number(wait?.[1])).toBeGreaterThan(seconds - 10);
      expect(Number(wait?.[1])).toBeLessThanOrEqual(seconds);
    };
    const paidUntil = async (userId: string) =>
      (await prisma.commentAllowance.findUniqueOrThrow({ where: { userId } })).paidUntil;

    it('takes a burst, then refuses with the wait and writes nothing, then takes one again once it is free', async () => {
      // A minute apart, so a slow machine never frees a comment mid-test; the wait's passing is then written to
      // the table (the allowance keeps time on the database's clock).
      const strict = await startReplica({ burst: 3, intervalMs: 60_000 });
      const post = await addPost({ ...announcement, post_title: 'Rapid fire' });
      const say = (body: string, caller: Caller = OWEN) =>
        rpc.on(strict)('addComment', { post_id: post.post_id, comment_body: body }, caller);
      for (const body of ['one', 'two', 'three']) await say(body);
      expectToWait(await refusal(say('four')), 60);
      expect(await prisma.comment.count({ where: { postId: post.post_id } })).toBe(3);
      // Another member is not held back by Owen's pace.
      await say('from Priya', PRIYA);
      // A refused comment spent nothing: once the wait is over, one goes through, then the next is refused again.
      const until = await paidUntil(OWEN.userId);
      await prisma.commentAllowance.update({
        where: { userId: OWEN.userId },
        data: { paidUntil: new Date(until.getTime() - 60_000) },
      });
      expect((await say('four, later')).comment_body).toBe('four, later');
      expect((await refusal(say('five'))).code).toBe(status.RESOURCE_EXHAUSTED);
      expect(await prisma.comment.count({ where: { postId: post.post_id, userId: OWEN.userId } })).toBe(4);
    });

    it('is shared by every replica: counted in Postgres, not in one process', async () => {
      const allowance = { burst: 2, intervalMs: 60_000 };
      const [first, second] = [await startReplica(allowance), await startReplica(allowance)];
      const post = await addPost({ ...announcement, post_title: 'Two replicas' });
      const say = (target: PostServiceClient) =>
        rpc.on(target)('addComment', { post_id: post.post_id, comment_body: 'Hello' }, OWEN);
      await say(first);
      await say(second);
      for (const target of [first, second]) expectToWait(await refusal(say(target)), 60);
      expect(await prisma.comment.count({ where: { postId: post.post_id } })).toBe(2);
    });

    it('counts comments arriving at once one after the other', async () => {
      const strict = await startReplica({ burst: 5, intervalMs: 60_000 });
      const post = await addPost({ ...announcement, post_title: 'A crowd at once' });
      const answers = await Promise.allSettled(
        Array.from({ length: 12 }, (_, n) =>
          rpc.on(strict)('addComment', { post_id: post.post_id, comment_body: `At once ${n}` }, OWEN),
        ),
      );
      expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(5);
      expect(await prisma.comment.count({ where: { postId: post.post_id } })).toBe(5);
    });
  });
});

describe('likes and reads, counted by the server', () => {
  it('counts one like per member, whatever count was sent', async () => {
    const post = await addPost();
    const like = (caller: Caller, liked = true) =>
      rpc('setLike', { post_id: post.post_id, liked, likes_count: 999 } as never, caller);
    expect(await like(CARLOS)).toEqual({
      post_id: post.post_id,
      liked: true,
      user_id: 'concierge-1',
      likes_count: 1,
    });
    expect((await like(CARLOS)).likes_count).toBe(1);
    expect((await like(PRIYA)).likes_count).toBe(2);
    expect((await like(CARLOS, false)).likes_count).toBe(1);
    expect(await like(CARLOS, false)).toEqual({
      post_id: post.post_id,
      liked: false,
      user_id: 'concierge-1',
      likes_count: 1,
    });
    expect((await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } })).likesCount).toBe(1);
  });

  it('stays exact when many likes arrive at once', async () => {
    const post = await addPost();
    await Promise.all(
      Array.from({ length: 12 }, () => rpc('setLike', { post_id: post.post_id, liked: true }, OWEN)),
    );
    await Promise.all(
      [MAYA, CARLOS, PRIYA].map((caller) => rpc('setLike', { post_id: post.post_id, liked: true }, caller)),
    );
    const stored = await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } });
    expect(stored.likesCount).toBe(4);
    expect(await prisma.like.count({ where: { postId: post.post_id } })).toBe(4);
  });

  it('refuses visitors and unknown posts; lists the caller’s likes', async () => {
    const post = await addPost();
    expect(await refusal(rpc('setLike', { post_id: post.post_id, liked: true }))).toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    expect(await refusal(rpc('setLike', { post_id: 999_999, liked: true }, OWEN))).toEqual({
      code: status.NOT_FOUND,
      details: 'Post not found',
    });
    await rpc('setLike', { post_id: post.post_id, liked: true }, OWEN);
    const { post_ids } = await rpc('listMyLikes', {}, OWEN);
    expect(post_ids[0]).toBe(post.post_id);
    expect(await refusal(rpc('listMyLikes', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
  });

  it('adds exactly one read per call, for visitors too, whatever count was sent', async () => {
    const post = await addPost();
    expect(await rpc('addRead', { post_id: post.post_id, reads: 500 } as never)).toEqual({
      post_id: post.post_id,
      reads: 1,
    });
    await Promise.all(Array.from({ length: 20 }, () => rpc('addRead', { post_id: post.post_id })));
    expect((await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } })).reads).toBe(21);
    expect(await refusal(rpc('addRead', { post_id: 999_999 }))).toMatchObject({ code: status.NOT_FOUND });
  });

  it('never moves updated_at for likes and reads', async () => {
    const post = await addPost();
    await rpc('setLike', { post_id: post.post_id, liked: true }, PRIYA);
    await rpc('addRead', { post_id: post.post_id });
    const stored = await prisma.post.findUniqueOrThrow({ where: { postId: post.post_id } });
    expect(stored.updatedAt).toEqual(stored.createdAt);
  });
});

describe('the feed', () => {
  const write = async (title: string, body: string, posttype_id: number, caller: Caller) =>
    addPost({ post_title: title, post_body: body, posttype_id }, caller);

  beforeAll(async () => {
    await emptyPosts();
    await write('Budget calendar webinar', '<p>The <strong>budget</strong> timeline explained.</p>', 1, MAYA);
    await write('Clean fleet rules', '<p>Comments on <em>zero-emission</em> vehicles.</p>', 8, CARLOS);
    await write(
      'Water storage funding',
      '<p>Off-stream <a href="https://storage.example.org">storage</a>.</p>',
      2,
      PRIYA,
    );
    await write('Legislative aide wanted', '<p>Natural resources portfolio.</p>', 6, OWEN);
    await write('Wildfire insurance bill', '<p>Passed committee 11&ndash;3.</p>', 4, MAYA);
  });

  it('is public, newest first, with the comments and their count', async () => {
    expect(titles(await feed())).toEqual([
      'Wildfire insurance bill',
      'Legislative aide wanted',
      'Water storage funding',
      'Clean fleet rules',
      'Budget calendar webinar',
    ]);
    expect(titles(await feed({ sort: 'recent' }))).toEqual(titles(await feed()));
  });

  it('sorts popular by likes, then newest', async () => {
    const [wildfire, aide, water] = await feed();
    for (const caller of [CARLOS, PRIYA, OWEN])
      await rpc('setLike', { post_id: water?.post_id, liked: true }, caller);
    await rpc('setLike', { post_id: aide?.post_id, liked: true }, MAYA);
    const popular = await feed({ sort: 'popular' });
    expect(titles(popular).slice(0, 3)).toEqual([water?.post_title, aide?.post_title, wildfire?.post_title]);
    expect(popular[0]?.likes_count).toBe(3);
  });

  it('filters by type', async () => {
    expect(titles(await feed({ posttype_id: 4 }))).toEqual(['Wildfire insurance bill']);
    expect(titles(await feed({ posttype_id: 9 }))).toEqual([]);
  });

  it('finds every word, any case, in the title, the author’s names or the body’s text', async () => {
    expect(titles(await feed({ search: 'WATER' }))).toEqual(['Water storage funding']);
    expect(titles(await feed({ search: 'okafor' }))).toEqual(['Water storage funding']);
    expect(titles(await feed({ search: 'Maya' }))).toEqual([
      'Wildfire insurance bill',
      'Budget calendar webinar',
    ]);
    expect(titles(await feed({ search: 'maya budget' }))).toEqual(['Budget calendar webinar']);
    expect(titles(await feed({ search: 'emission' }))).toEqual(['Clean fleet rules']);
    expect(titles(await feed({ search: '11–3' }))).toEqual(['Wildfire insurance bill']);
    expect(titles(await feed({ search: 'maya fleet' }))).toEqual([]);
  });

  it('never matches markup or link addresses', async () => {
    for (const search of ['strong', '<em>', 'href', 'storage.example.org', 'ndash'])
      expect(titles(await feed({ search }))).toEqual([]);
  });

  it('keeps a random order for one seed across pages, another for another seed', async () => {
    for (let i = 0; i < 15; i++)
      await write(
        `Notice ${i}`,
        `<p>Routine notice number ${i}.</p>`,
        (i % 8) + 1,
        [MAYA, CARLOS, PRIYA][i % 3] as Caller,
      );
    const page = async (seed: number, offset: number) =>
      (await rpc('listPosts', { sort: 'random', seed, offset, limit: 7 })).posts.map((p) => p.post_id);
    const whole = (await rpc('listPosts', { sort: 'random', seed: 31, limit: 50 })).posts.map(
      (p) => p.post_id,
    );
    expect(whole).toHaveLength(20);
    const paged = [...(await page(31, 0)), ...(await page(31, 7)), ...(await page(31, 14))];
    expect(paged).toEqual(whole);
    expect(await page(31, 7)).toEqual(await page(31, 7));
    expect(
      (await rpc('listPosts', { sort: 'random', seed: 32, limit: 50 })).posts.map((p) => p.post_id),
    ).not.toEqual(whole);
    expect([...whole].sort((a, b) => a - b)).toEqual(
      (await feed()).map((p) => p.post_id).sort((a, b) => a - b),
    );
  });

  it('pages 20 by default and refuses an unknown order', async () => {
    await write('Notice 15', '<p>One more.</p>', 1, OWEN);
    expect((await rpc('listPosts', {})).posts).toHaveLength(20);
    expect((await rpc('listPosts', { offset: 18, limit: 5 })).posts).toHaveLength(3);
    expect(await refusal(rpc('listPosts', { sort: 'oldest' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Sort by recent, popular, random.',
    });
  });
});

describe('the feed while the search engine is away', () => {
  it('is read from the table in the same orders and filters; a search says search is unavailable', async () => {
    const awayIndex: SearchIndex = {
      ...index,
      search: async () => {
        throw new SearchUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:9200'));
      },
    };
    const { server: away, client: awayClient } = await serve(wireDomain({ index: awayIndex }));
    closers.push(
      () => awayClient.close(),
      () => away.shutdown(),
    );
    const ids = async (request: Partial<{ sort: string; seed: number; posttype_id: number }>, on = client) =>
      (await rpc.on(on)('listPosts', { ...request, limit: 50 })).posts.map((post) => post.post_id);
    for (const request of [{}, { sort: 'popular' }, { posttype_id: 4 }])
      expect(await ids(request, awayClient), JSON.stringify(request)).toEqual(await ids(request));
    // Random: its own seeded order, the same posts, stable from page to page.
    const random = await ids({ sort: 'random', seed: 7 }, awayClient);
    expect([...random].sort()).toEqual([...(await ids({}))].sort());
    const pages = [];
    for (const offset of [0, 7, 14])
      pages.push(
        ...(await rpc.on(awayClient)('listPosts', { sort: 'random', seed: 7, offset, limit: 7 })).posts,
      );
    expect(pages.map((post) => post.post_id)).toEqual(random.slice(0, 21));
    expect(await refusal(rpc.on(awayClient)('listPosts', { search: 'water' }))).toEqual({
      code: status.UNAVAILABLE,
      details: SEARCH_UNAVAILABLE,
    });
  });
  it('is read from the table, within the deadline, while the engine accepts but does not answer', async () => {
    const silentIndex: SearchIndex = { ...index, search: () => new Promise(() => {}) };
    const { server: silent, client: silentClient } = await serve(wireDomain({ index: silentIndex }));
    closers.push(
      () => silentClient.close(),
      () => silent.shutdown(),
    );
    const started = performance.now();
    const answered = (await rpc.on(silentClient)('listPosts', { limit: 50 })).posts;
    expect(performance.now() - started).toBeLessThan(FEED_ENGINE_PATIENCE_MS + 1_000);
    expect(answered.map((post) => post.post_id)).toEqual(
      (await rpc('listPosts', { limit: 50 })).posts.map((post) => post.post_id),
    );
  });
});

describe('bylines and search after renames (read copies, ADR 0012)', () => {
  let listener: ChangeListener;
  /** Posts by Maya (profile 101, Capitol Bridge Advocates, Government Affairs), as the feed shows them. */
  const mayasPosts = async () => (await feed()).filter((post) => post.post_author === 101);

  beforeAll(async () => {
    listener = startListener();
    await listener.ready;
  });

  // Left open, its catch-up on a reconnection would move the feed version under the later tests' feet.
  afterAll(async () => {
    await listener.close();
  });

  it('shows an organization’s and a division’s new name once the org service announces it', async () => {
    await addPost({ ...announcement, post_title: 'Byline check' });
    // The owner writes, then announces in the same transaction.
    const capitol = orgs.organizations.find((o) => o.organization_id === 12);
    if (capitol) capitol.organization_name = 'Capitol Bridge Partners';
    const division = orgs.divisions.find((d) => d.division_id === 3);
    if (division) division.division_name = 'Public Affairs';
    await publishChange(prisma, {
      kind: 'organization',
      organization_id: 12,
      organization_name: 'Capitol Bridge Partners',
      group_type: 'Lobbyists',
      logo: null,
    });
    await publishChange(prisma, {
      kind: 'division',
      division_id: 3,
      division_name: 'Public Affairs',
      division_type: 'Office',
      active_division: true,
      organization_id: 12,
      street_address: null,
      suite_number: null,
      city: 'Sacramento',
      state: 'CA',
      zip_code: null,
      division_phone: null,
      website: null,
    });
    await expect
      .poll(async () => (await mayasPosts()).map((p) => `${p.organization_name} / ${p.division_name}`)[0])
      .toBe('Capitol Bridge Partners / Public Affairs');
    expect(new Set((await mayasPosts()).map((p) => p.organization_name))).toEqual(
      new Set(['Capitol Bridge Partners']),
    );
  });

  it('shows and searches an author’s new name once the profile service announces it', async () => {
    const post = await addPost({ ...announcement, post_title: 'Rename check' });
    await rpc('addComment', { post_id: post.post_id, comment_body: 'Self-reply' }, MAYA);
    const maya = profiles.authors.find((author) => author.profile_id === 101);
    if (maya) Object.assign(maya, { first_name: 'Mayra', last_name: 'Delgado-Ruiz' });
    await publishChange(prisma, {
      kind: 'profile',
      profile_id: 101,
      user_id: 'member-1',
      first_name: 'Mayra',
      last_name: 'Delgado-Ruiz',
      profile_picture: null,
    });
    await expect
      .poll(async () => titles(await feed({ search: 'mayra ruiz rename' })))
      .toEqual(['Rename check']);
    expect(titles(await feed({ search: 'maya' }))).toEqual([]);
    const [latest] = await mayasPosts();
    expect(latest?.author).toMatchObject({ first_name: 'Mayra', last_name: 'Delgado-Ruiz' });
    expect(latest?.comments.at(-1)?.author).toMatchObject({ first_name: 'Mayra', last_name: 'Delgado-Ruiz' });
  });

  it('keeps no copy of a profile no post or comment references', async () => {
    await publishChange(prisma, {
      kind: 'profile',
      profile_id: 999,
      user_id: 'stranger',
      first_name: 'Sam',
      last_name: 'Stranger',
      profile_picture: null,
    });
    await publishChange(prisma, {
      kind: 'organization',
      organization_id: 77,
      organization_name: 'Marker Org',
      group_type: 'Other',
      logo: null,
    });
    await expect.poll(() => prisma.organization.count({ where: { organizationId: 77 } })).toBe(1);
    expect(await prisma.author.count({ where: { profileId: 999 } })).toBe(0);
  });

  it('catches up on names changed while it was not listening', async () => {
    await listener.close();
    const priya = profiles.authors.find((author) => author.profile_id === 103);
    if (priya) priya.last_name = 'Okafor-Bennett';
    const delta = orgs.organizations.find((o) => o.organization_id === 14);
    if (delta) delta.organization_name = 'Delta Water Agency';
    expect(titles(await feed({ search: 'bennett' }))).toEqual([]);
    listener = startListener();
    await listener.ready;
    const found = await feed({ search: 'bennett water' });
    expect(titles(found)).toEqual(['Water storage funding']);
    expect(found[0]?.organization_name).toBe('Delta Water Agency');
    expect(found[0]?.author?.last_name).toBe('Okafor-Bennett');
  });
});

describe('profile info', () => {
  it('answers the caller’s profile as an author, and whether it covers an issue area; NOT_FOUND without one; a visitor is refused', async () => {
    expect(await rpc('getProfileInfo', {}, CARLOS)).toEqual({
      profile_id: 102,
      first_name: 'Carlos',
      last_name: 'Whitaker',
      user_id: 'concierge-1',
      organization_id: 14,
      has_issue_areas: true,
    });
    expect((await rpc('getProfileInfo', {}, OWEN)).has_issue_areas).toBe(false);
    expect(await refusal(rpc('getProfileInfo', {}, NEWBIE))).toEqual({
      code: status.NOT_FOUND,
      details: 'Profile not found',
    });
    expect(await refusal(rpc('getProfileInfo', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
  });
});

describe('search index upkeep', () => {
  it('rebuilds an emptied index on sync and leaves one in step alone', async () => {
    expect(await domain.posts.syncSearchIndex()).toBe(0);
    await index.clear();
    expect(await domain.posts.syncSearchIndex()).toBe(await prisma.post.count());
    expect(titles(await feed({ search: 'wildfire' }))).toEqual(['Wildfire insurance bill']);
  });

  it('rebuilds on `reindex posts` an index holding wrong documents, which the count alone does not notice', async () => {
    const [stale, missing] = await repository.indexedPosts(
      (await prisma.post.findMany({ orderBy: { postId: 'asc' }, take: 2 })).map((post) => post.postId),
    );
    if (!stale || !missing) throw new Error('the test has two posts');
    // As a restored database leaves it: as many documents as posts, but one stale, one missing, one a ghost.
    await index.upsert([
      searchDocumentOf({ ...stale, title: 'Stale quokka title' }),
      searchDocumentOf({ ...stale, postId: 999_999_999, title: 'Ghost quokka' }),
    ]);
    await index.remove([String(missing.postId)]);
    expect(await domain.posts.syncSearchIndex()).toBe(0);
    expect((await index.search({ text: 'quokka', offset: 0, limit: 10 })).total).toBe(2);

    const { stdout } = await promisify(execFile)(process.execPath, [`${root}src/reindex.ts`], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    });
    expect(stdout).toMatch(
      new RegExp(
        `^posts: the index now holds ${await prisma.post.count()} documents \\(rebuilt in [\\d.]+ s\\)\n$`,
      ),
    );
    expect((await index.search({ text: 'quokka', offset: 0, limit: 10 })).total).toBe(0);
    expect(titles(await feed({ search: stale.title }))).toContain(stale.title);
    expect(titles(await feed({ search: missing.title }))).toContain(missing.title);
  });
});

describe('demo seed', () => {
  let seedPrisma: PrismaClient;
  let seedRepository: PostRepository;

  beforeAll(async () => {
    const url = await createTestDatabase();
    await migrate({ databaseUrl: url, schema: 'post', migrationsDir: `${root}prisma/migrations`, logger });
    seedPrisma = new PrismaClient({ adapter: prismaAdapter(url, 'post') });
    seedRepository = prismaPostRepository(seedPrisma, 'post');
    await seedRepository.ensureTypes(POST_TYPES, EVENT_TYPES);
  });
  afterAll(async () => seedPrisma?.$disconnect());

  it('skips, without failing, when the profile service never answers', async () => {
    const unreachable = grpcProfileDirectory('127.0.0.1:1', 500);
    const seeded = await seedDemoPosts({
      repository: seedRepository,
      profiles: unreachable,
      sanitizer,
      logger,
      waitMs: 1500,
    });
    unreachable.close();
    expect(seeded).toBe(0);
    expect(await seedPrisma.post.count()).toBe(0);
  });

  it('writes posts of every type by owned profiles, events, edited comments and counted likes, once', async () => {
    const directory = grpcProfileDirectory(profiles.address, 3000);
    const now = new Date('2026-11-22T18:00:00Z');
    const options = { repository: seedRepository, profiles: directory, sanitizer, logger, now };
    expect(await seedDemoPosts(options)).toBe(DEMO_POSTS.length);
    expect(await seedDemoPosts(options)).toBe(0);
    directory.close();

    const rows = await seedPrisma.post.findMany({ include: { comments: true, likes: true } });
    expect(new Set(rows.map((row) => row.postTypeId))).toEqual(new Set(POST_TYPES.map((t) => t.postTypeId)));
    const owned = new Set(profiles.authors.filter((a) => a.user_id).map((a) => a.profile_id));
    for (const row of rows) {
      expect(owned).toContain(row.authorId);
      expect(row.likesCount).toBe(row.likes.length);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(row.createdAt.getTime()).toBeGreaterThan(now.getTime() - 43 * 86_400_000);
    }
    const events = rows.filter((row) => row.postTypeId === 9);
    expect(events.length).toBeGreaterThanOrEqual(5);
    for (const row of events) {
      expect(row.eventLocation).toBeTruthy();
      expect(row.eventDate).toBeInstanceOf(Date);
      expect(row.eventStart).toMatch(/^\d\d:\d\d$/);
      expect(row.eventEnd).toMatch(/^\d\d:\d\d$/);
      expect(row.eventTypeId).not.toBeNull();
    }
    expect(events.some((row) => (row.eventDate as Date) > now)).toBe(true);
    expect(events.some((row) => (row.eventDate as Date) < now)).toBe(true);
    const comments = rows.flatMap((row) => row.comments);
    expect(comments.length).toBeGreaterThan(10);
    expect(comments.some((c) => c.updatedAt > c.createdAt)).toBe(true);
    expect(comments.some((c) => c.updatedAt.getTime() === c.createdAt.getTime())).toBe(true);
    expect(rows.some((row) => row.likesCount > 0)).toBe(true);
    expect(await seedPrisma.author.count()).toBe(owned.size);
    // Read back without the driver (Prisma Client runs the page statement): bylines and comments as stored.
    const commented = rows.filter((row) => row.comments.length > 0).map((row) => row.postId);
    const read = await seedRepository.findByIds(commented, POST_COMMENTS.latest, VISITOR);
    expect(read.map((post) => post.postId)).toEqual(commented);
    for (const post of read) {
      expect(post.author?.firstName).toBeTruthy();
      const stored = rows.find((row) => row.postId === post.postId)?.comments.length ?? 0;
      expect(post.commentsCount).toBe(stored);
      expect(post.comments.length).toBe(Math.min(stored, POST_COMMENTS.latest));
      expect(post.comments.every((c) => c.author?.lastName)).toBe(true);
    }
  });
});

describe('the feed version', () => {
  const version = async () => (await rpc('getFeedVersion', {})).version;
  /** How far the version moved while `act` ran. */
  async function moves(act: () => Promise<unknown>): Promise<number> {
    const before = await version();
    await act();
    return (await version()) - before;
  }

  it('answers GetFeedVersion to visitors, the same on every replica', async () => {
    const replica = await startReplica(AMPLE_ALLOWANCE);
    const here = await version();
    expect(Number.isSafeInteger(here)).toBe(true);
    expect((await rpc.on(replica)('getFeedVersion', {})).version).toBe(here);
  });

  it('moves after each write that changes a feed or comments page, and not for a refused one', async () => {
    const post = await addPost();
    expect(await moves(() => addPost())).toBe(1);
    expect(await moves(() => rpc('updatePost', { post_id: post.post_id, post_title: 'Edited' }, MAYA))).toBe(
      1,
    );
    expect(await moves(() => rpc('setLike', { post_id: post.post_id, liked: true }, OWEN))).toBe(1);
    expect(await moves(() => rpc('setLike', { post_id: post.post_id, liked: false }, OWEN))).toBe(1);
    let commentId = 0;
    expect(
      await moves(async () => {
        commentId = (await rpc('addComment', { post_id: post.post_id, comment_body: 'First' }, PRIYA))
          .comment_id;
      }),
    ).toBe(1);
    expect(
      await moves(() => rpc('updateComment', { comment_id: commentId, comment_body: 'Second' }, PRIYA)),
    ).toBe(1);
    expect(await moves(() => rpc('deleteComment', { comment_id: commentId }, PRIYA))).toBe(1);
    expect(await moves(() => rpc('deletePost', { post_id: post.post_id }, MAYA))).toBe(1);
    // Refused: someone else's post, a post that is gone, a visitor's like.
    const other = await addPost();
    expect(
      await moves(() =>
        refusal(rpc('updatePost', { post_id: other.post_id, post_title: 'Not mine' }, CARLOS)),
      ),
    ).toBe(0);
    expect(await moves(() => refusal(rpc('deletePost', { post_id: post.post_id }, MAYA)))).toBe(0);
    expect(await moves(() => refusal(rpc('setLike', { post_id: other.post_id, liked: true })))).toBe(0);
  });

  it('moves when the owners’ names reach the read copies (announcements and the catch-up)', async () => {
    expect(
      await moves(() =>
        domain.copies.applyChange({
          kind: 'organization',
          organization_id: 14,
          organization_name: 'Delta Water Authority',
          group_type: 'Agencies',
          logo: null,
        }),
      ),
    ).toBe(1);
    const maya = profiles.authors.find((author) => author.profile_id === 101);
    expect(
      await moves(() =>
        domain.copies.applyChange({
          kind: 'profile',
          profile_id: 101,
          user_id: maya?.user_id ?? null,
          first_name: maya?.first_name ?? '',
          last_name: maya?.last_name ?? '',
          profile_picture: null,
        }),
      ),
    ).toBe(1);
    expect(await moves(() => domain.copies.catchUp())).toBe(1);
  });

  it('moves only once the write is visible to a reader of the feed and of the post', async () => {
    const seen: { onFeed: boolean; comments: number }[] = [];
    const post = await addPost({ ...announcement, post_title: 'Visible before the move' });
    beforeMove = async () => {
      const { posts: page } = await rpc('listPosts', { search: 'Visible before the move' });
      seen.push({ onFeed: page.length === 1, comments: page[0]?.comments_count ?? 0 });
    };
    try {
      await rpc('addComment', { post_id: post.post_id, comment_body: 'Seen' }, PRIYA);
      await rpc('deletePost', { post_id: post.post_id }, MAYA);
    } finally {
      beforeMove = undefined;
    }
    expect(seen).toEqual([
      { onFeed: true, comments: 1 },
      { onFeed: false, comments: 0 },
    ]);
  });

  it('moves for counted reads at most once a second, within two seconds of them', async () => {
    const post = await addPost();
    const before = await version();
    await Promise.all(Array.from({ length: 10 }, () => rpc('addRead', { post_id: post.post_id })));
    // Ten reads did not move it ten times…
    expect((await version()) - before).toBeLessThanOrEqual(1);
    // …but everyone sees them within two seconds.
    const started = Date.now();
    while ((await version()) === before) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Date.now() - started).toBeLessThan(2000);
    const after = await version();
    // No reads since: it stays (but for one move already under way on a busy machine, within the next tick).
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const settled = await version();
    expect(settled - after).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await version()).toBe(settled);
  });
});

describe('"My issue areas": posts of authors sharing an issue area with the member', () => {
  let listener: ChangeListener;
  /** Maya covers issue areas 1 and 2, Carlos 2, Priya 3, Owen none (support/fake-directories.ts). */
  const setIssueAreas = (profileId: number, ids: number[]) => {
    const author = profiles.authors.find((a) => a.profile_id === profileId);
    if (author) author.issue_areas = { issue_area_ids: ids };
  };
  const authorOf = (profileId: number) => profiles.authors.find((a) => a.profile_id === profileId);

  /** The whole "My issue areas" feed of `caller`, `limit` per page. */
  async function myFeed(
    caller: Caller,
    request: Partial<{ sort: string; seed: number; posttype_id: number; search: string }> = {},
    limit = 50,
  ) {
    const all: PostMessage[] = [];
    for (let offset = 0; ; offset += limit) {
      const { posts: page } = await rpc('listPosts', { ...request, my_issues: true, offset, limit }, caller);
      all.push(...page);
      if (page.length < limit) return all;
    }
  }
  const ids = (list: PostMessage[]) => list.map((post) => post.post_id);
  /** The whole feed's first 50, as the service takes it. */
  const EVERY_POST = { offset: 0, limit: 50, sort: '', seed: 0, postTypeId: 0, search: '' };
  /** The normal feed's posts (same order) by these authors. */
  const byAuthors = async (
    authors: number[],
    request: Partial<{ sort: string; seed: number; posttype_id: number; search: string }> = {},
  ) => ids((await feed(request)).filter((post) => authors.includes(post.post_author)));

  beforeAll(async () => {
    await emptyPosts();
    setIssueAreas(101, [1, 2]);
    setIssueAreas(102, [2]);
    setIssueAreas(103, [3]);
    setIssueAreas(104, []);
    listener = startListener();
    await listener.ready;
    const writers = [MAYA, CARLOS, PRIYA, OWEN];
    for (let i = 0; i < 16; i++) {
      const post = await addPost(
        {
          post_title: `Issue notice ${i}`,
          post_body: `<p>${i % 2 === 0 ? 'Even' : 'Odd'} notice ${i}.</p>`,
          posttype_id: (i % 3) + 1,
        },
        writers[i % 4] as Caller,
      );
      // Likes make the popular order differ from the recent one.
      if (i % 5 === 0) await rpc('setLike', { post_id: post.post_id, liked: true }, OWEN);
    }
  });

  afterAll(async () => {
    await listener.close();
  });

  it('shows only posts whose author shares an issue area, in every order, type, search and page', async () => {
    const sharing = [101, 102];
    const cases = [
      {},
      { sort: 'popular' },
      { sort: 'random', seed: 7 },
      { posttype_id: 2 },
      { search: 'even' },
      { sort: 'popular', posttype_id: 1, search: 'notice' },
    ];
    for (const request of cases) {
      const expected = await byAuthors(sharing, request);
      expect(ids(await myFeed(MAYA, request))).toEqual(expected);
      // Paged three at a time, the pages join into the same list.
      expect(ids(await myFeed(MAYA, request, 3))).toEqual(expected);
    }
    expect((await myFeed(MAYA)).length).toBe(8);
    expect(ids(await myFeed(CARLOS))).toEqual(await byAuthors(sharing));
    expect(ids(await myFeed(PRIYA))).toEqual(await byAuthors([103]));
  });

  it('moves an author’s posts in and out as the profile service announces their issue areas', async () => {
    const version = async () => (await rpc('getFeedVersion', {})).version;
    const priya = authorOf(103);
    const announce = (issue_area_ids?: number[]) =>
      publishChange(prisma, {
        kind: 'profile',
        profile_id: 103,
        user_id: 'member-3',
        first_name: priya?.first_name ?? '',
        last_name: priya?.last_name ?? '',
        profile_picture: null,
        ...(issue_area_ids ? { issue_area_ids } : {}),
      });
    const before = await version();
    setIssueAreas(103, [2, 3]);
    await announce([2, 3]);
    await expect.poll(async () => ids(await myFeed(MAYA))).toEqual(await byAuthors([101, 102, 103]));
    expect(await version()).not.toBe(before);
    expect(ids(await myFeed(MAYA, { sort: 'popular' }))).toEqual(
      await byAuthors([101, 102, 103], { sort: 'popular' }),
    );

    setIssueAreas(103, [3]);
    await announce([3]);
    await expect.poll(async () => ids(await myFeed(MAYA))).toEqual(await byAuthors([101, 102]));
    // An announcement of a profile service that predates issue areas leaves the copy's as they are.
    await announce();
    await publishChange(prisma, {
      kind: 'organization',
      organization_id: 78,
      organization_name: 'Issue Marker Org',
      group_type: 'Other',
      logo: null,
    });
    await expect.poll(() => prisma.organization.count({ where: { organizationId: 78 } })).toBe(1);
    expect(ids(await myFeed(PRIYA))).toEqual(await byAuthors([103]));
    expect(ids(await myFeed(MAYA))).toEqual(await byAuthors([101, 102]));
  });

  it('catches up on issue areas changed while it was not listening', async () => {
    await listener.close();
    setIssueAreas(102, [3]);
    listener = startListener();
    await listener.ready;
    expect(ids(await myFeed(PRIYA))).toEqual(await byAuthors([102, 103]));
    expect(ids(await myFeed(MAYA))).toEqual(await byAuthors([101]));
    setIssueAreas(102, [2]);
    await domain.copies.catchUp();
    expect(ids(await myFeed(MAYA))).toEqual(await byAuthors([101, 102]));
    // A profile service that predates issue areas does not say them: the copy keeps what it holds.
    const carlos = authorOf(102);
    if (carlos) carlos.issue_areas = undefined;
    await domain.copies.catchUp();
    expect(ids(await myFeed(MAYA))).toEqual(await byAuthors([101, 102]));
    setIssueAreas(102, [2]);
  });

  it('follows the member’s own issue areas at once, asked of the profile service at each page', async () => {
    expect(await myFeed(OWEN)).toEqual([]);
    setIssueAreas(104, [3]);
    expect(ids(await myFeed(OWEN))).toEqual(await byAuthors([103]));
    setIssueAreas(104, []);
    expect(await myFeed(OWEN)).toEqual([]);
  });

  it('rebuilds at start an index built before issue areas (outdated), which then files posts under them', async () => {
    const place = { databaseUrl, schema: 'post_search', index: 'posts_before_issue_areas' };
    const before = createPostgresSearchIndex({ ...place, ...POST_INDEX, keywordFields: ['type'] });
    closers.push(() => before.close());
    await before.ensure();
    const rows = await repository.indexedPosts((await prisma.post.findMany()).map((row) => row.postId));
    // As a version before issue areas filed them: every post, only the type as a keyword.
    await before.upsert(
      rows.map((row) => {
        const document = searchDocumentOf(row);
        return { ...document, keywords: { type: document.keywords?.type ?? [] } };
      }),
    );
    const now = createPostgresSearchIndex({ ...place, ...POST_INDEX });
    closers.push(() => now.close());
    expect(await now.ensure()).toBe('outdated');
    const service = wireDomain({ index: now });
    expect(await service.posts.syncSearchIndex()).toBe(rows.length);
    expect(await now.ensure()).toBe('current');
    const shared = (await service.posts.listPosts(MAYA, { ...EVERY_POST, myIssues: true })).map(
      (p) => p.postId,
    );
    expect(shared).toEqual(await byAuthors([101, 102]));
  });

  it('answers none to a member without issue areas or without a profile, and refuses a visitor', async () => {
    expect(await myFeed(OWEN, { sort: 'popular' })).toEqual([]);
    expect(await myFeed(NEWBIE)).toEqual([]);
    expect(await refusal(rpc('listPosts', { my_issues: true }))).toEqual({
      code: status.UNAUTHENTICATED,
      details: 'Access Restricted. Please login.',
    });
    // Without the filter the feed stays public.
    expect((await rpc('listPosts', { my_issues: false, limit: 50 })).posts).toHaveLength(16);
  });
});

describe('a post at its own address (GetPost) and the sitemap’s list (ListPostAddresses)', () => {
  it('answers one post with its latest comments to anyone; hidden only to its author and contributors', async () => {
    await emptyPosts();
    const post = await addPost(event);
    await rpc('addComment', { post_id: post.post_id, comment_body: 'See you there' }, PRIYA);
    const seen = await rpc('getPost', { post_id: post.post_id });
    expect(seen).toMatchObject({ post_title: event.post_title, event_location: event.event_location });
    expect(seen.comments.map((comment) => comment.comment_body)).toEqual(['See you there']);

    await prisma.post.update({ where: { postId: post.post_id }, data: { modState: 'hidden' } });
    const notFound = { code: status.NOT_FOUND, details: 'Post not found' };
    expect(await refusal(rpc('getPost', { post_id: post.post_id }))).toEqual(notFound);
    expect(await refusal(rpc('getPost', { post_id: post.post_id }, PRIYA))).toEqual(notFound);
    expect((await rpc('getPost', { post_id: post.post_id }, MAYA)).moderation?.state).toBe('hidden');
    expect((await rpc('getPost', { post_id: post.post_id }, CARLOS)).moderation?.state).toBe('hidden');

    await prisma.post.update({ where: { postId: post.post_id }, data: { modState: 'removed' } });
    expect(await refusal(rpc('getPost', { post_id: post.post_id }, CARLOS))).toEqual(notFound);
    expect(await refusal(rpc('getPost', { post_id: post.post_id + 1000 }))).toEqual(notFound);
    expect(await refusal(rpc('getPost', { post_id: 0 }))).toEqual(notFound);
  });

  it('lists every post everyone may see, newest first, with its last change; hidden and removed left out', async () => {
    await emptyPosts();
    const first = await addPost();
    const hidden = await addPost(event);
    const last = await addPost({ ...announcement, post_title: 'Budget hearing moved' });
    await prisma.post.update({ where: { postId: hidden.post_id }, data: { modState: 'hidden' } });
    const { posts } = await rpc('listPostAddresses', {});
    expect(posts.map((post) => post.post_id)).toEqual([last.post_id, first.post_id]);
    expect(posts[0]?.updated_at).toEqual(last.updated_at);
    expect((await rpc('listPostAddresses', { limit: 1 })).posts.map((post) => post.post_id)).toEqual([
      last.post_id,
    ]);
  });
});
