// The notification service on a real PostgreSQL, real gRPC (two replicas on one database), a real MailDev inbox,
// and the post, profile and auth services' outboxes written with recordEvent as those services write them: each
// kind of notification from its event, likes grouped within the hour, redelivery adding nothing, paging and read
// marks of the caller's own, the live unread count across replicas, preferences, one-click unsubscribe,
// immediate mail, digests (never twice, even when two runs race) and their job (send-digests.ts, run as the
// schedule runs it), account deletion, and the export.
import { spawn } from 'node:child_process';
import { type ClientReadableStream, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { type DomainEvent, ensureEventTables, type RecordedEvent, recordEvent } from '@rotunda/events';
import {
  NotificationServiceClient,
  NotificationServiceService,
  type UnreadCountChanged,
} from '@rotunda/protos/notification';
import {
  type Caller,
  callerPrivateKeyOf,
  createLogger,
  createServiceSigner,
  loadConfig,
  migrate,
  type RunningGrpcServer,
  setCallerMetadata,
  startGrpcServer,
  useServiceIdentity,
} from '@rotunda/service-kit';
import {
  createTestDatabase,
  diffSchemaAndDatabase,
  refusal,
  rpcCalls,
  testCallers,
} from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationConfigSchema } from '../src/config.ts';
import { NOTIFICATION_MESSAGES } from '../src/domain/notifications.ts';
import { wireDigests, wireNotification } from '../src/wiring.ts';
import { type FakeMember, type Inbox, startFakeMembers, startInbox } from './support.ts';

const logger = createLogger('notification-test', 'silent');
const root = new URL('..', import.meta.url).pathname;
const PUBLIC_URL = 'https://rotunda.test';

const member = (n: number): Caller => ({ userId: `user-${n}`, email: `m${n}@agency.ca.gov`, roles: [] });
const DANA = member(1);
const ALEX = member(2);
const SAM = member(3);
const KIM = member(4);
const actor = (caller: Caller, first: string, last: string, profile: number) => ({
  user_id: caller.userId,
  profile_id: profile,
  first_name: first,
  last_name: last,
});
const dana = actor(DANA, 'Dana', 'Lee', 11);
const alex = actor(ALEX, 'Alex', 'Kim', 12);
const sam = actor(SAM, 'Sam', 'Ortiz', 13);
const kim = actor(KIM, 'Kim', 'Park', 14);
const FAKE_MEMBERS: FakeMember[] = [DANA, ALEX, SAM, KIM].map((caller, i) => ({
  userId: caller.userId,
  email: caller.email,
  profileId: 11 + i,
  issueAreaIds: i === 1 ? [7] : [],
}));

type Wired = Awaited<ReturnType<typeof wireNotification>>;

let databaseUrl: string;
let inbox: Inbox;
let fakeMembers: Awaited<ReturnType<typeof startFakeMembers>>;
let producer: pg.Client;
const replicas: { wired: Wired; server: RunningGrpcServer; client: NotificationServiceClient }[] = [];

/** The notification service's environment here: the test database, MailDev, the fake auth and profile services. */
const serviceEnv = (): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  SMTP_URL: inbox.smtpUrl,
  PUBLIC_URL,
  AUTH_SERVICE_ADDR: `127.0.0.1:${fakeMembers.port}`,
  PROFILE_SERVICE_ADDR: `127.0.0.1:${fakeMembers.port}`,
  EVENTS_POLL_MS: '60000',
});

/** `node src/send-digests.ts` as the schedule runs it: this environment only (no service key unless given). */
function sendDigestsJob(
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [`${root}src/send-digests.ts`], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

async function startReplica() {
  const config = loadConfig(notificationConfigSchema, serviceEnv());
  const wired = await wireNotification(config, logger);
  const server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.notification.v1.NotificationService',
        definition: NotificationServiceService,
        implementation: wired.implementation,
      },
    ],
  });
  const client = new NotificationServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
  const replica = { wired, server, client };
  replicas.push(replica);
  return replica;
}

const first = () => replicas[0] as (typeof replicas)[number];

/** Calls a unary method as `caller` (none: a visitor) on the first replica's client. */
const call = rpcCalls(NotificationServiceService, () => first().client);

interface Page {
  items: {
    id: number;
    kind: string;
    read: boolean;
    text: string;
    actor?: { profile_id: number; first_name: string; last_name: string };
    target: { type: string; id: number; post_id: number };
    created_at: Date;
  }[];
  unread_count: number;
}

const list = (caller: Caller, request: { before?: number; limit?: number } = {}) =>
  call('listNotifications', request, caller) as Promise<Page>;

/** Records events in the producer's outbox in one transaction, then lets the first replica handle them. */
async function record(schema: string, ...events: DomainEvent[]) {
  await producer.query('BEGIN');
  for (const event of events)
    await recordEvent(
      { $executeRawUnsafe: (query, ...values) => producer.query(query, values).then((r) => r.rowCount ?? 0) },
      schema,
      event,
    );
  await producer.query('COMMIT');
  await first().wired.consumer.drain();
}

const commented = (to: Caller, by: typeof dana, postId: number, title: string, commentId = postId * 10) =>
  ({
    topic: 'post.commented',
    post_id: postId,
    post_title: title,
    comment_id: commentId,
    recipient_user_id: to.userId,
    actor: by,
  }) satisfies DomainEvent;

const liked = (to: Caller, by: typeof dana, postId: number, title: string) =>
  ({
    topic: 'post.liked',
    post_id: postId,
    post_title: title,
    recipient_user_id: to.userId,
    actor: by,
  }) satisfies DomainEvent;

async function sql(query: string, values: unknown[] = []) {
  return (await producer.query(query, values)).rows;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'notification', migrationsDir: `${root}prisma/migrations`, logger });
  for (const schema of ['post_events', 'profile_events', 'auth_events'])
    await ensureEventTables(databaseUrl, schema);
  producer = new pg.Client({ connectionString: databaseUrl });
  await producer.connect();
  inbox = await startInbox();
  fakeMembers = await startFakeMembers(FAKE_MEMBERS);
  // This process's calls to the auth and profile services name it as the notification service.
  useServiceIdentity(
    createServiceSigner('notification', callerPrivateKeyOf(testCallers.serviceKeys.privateKey)),
  );
  await startReplica();
  await startReplica();
});

afterAll(async () => {
  for (const { client, server, wired } of replicas) {
    client.close();
    await wired.endStreams();
    await server.shutdown();
    await wired.close();
  }
  useServiceIdentity(undefined);
  await fakeMembers?.shutdown();
  await inbox?.stop();
  await producer?.end();
});

describe('notification service', () => {
  it('has a migrated database that matches schema.prisma', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'notification',
      }),
    ).toEqual([]);
  });

  it('tells a post’s author of a comment, once however often the event comes', async () => {
    await record('post_events', commented(ALEX, dana, 101, 'Budget hearing'));
    const page = await list(ALEX);
    expect(page.unread_count).toBe(1);
    expect(page.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'comment',
        read: false,
        created_at: expect.any(Date),
        actor: { profile_id: 11, first_name: 'Dana', last_name: 'Lee' },
        target: { type: 'post', id: 101, post_id: 0 },
        text: 'Dana Lee commented on your post “Budget hearing”',
      },
    ]);
    // Redelivered (at least once): nothing more.
    const [row] = await sql(`SELECT id::text, recorded_at FROM post_events.outbox ORDER BY id DESC LIMIT 1`);
    const again = {
      ...commented(ALEX, dana, 101, 'Budget hearing'),
      event_id: `post_events:${row.id}`,
      recorded_at: new Date(row.recorded_at).toISOString(),
    } as RecordedEvent;
    await first().wired.notifications.handleEvent(again);
    await replicas[1]?.wired.notifications.handleEvent(again);
    expect((await list(ALEX)).items).toHaveLength(1);
  });

  it('groups likes of one post within the hour, unread again and on top with each new like', async () => {
    await record('post_events', liked(SAM, dana, 201, 'Water bill'), liked(SAM, alex, 201, 'Water bill'));
    await record('post_events', commented(SAM, kim, 202, 'Other post'));
    await call('markRead', { all: true }, SAM);
    await record('post_events', liked(SAM, kim, 201, 'Water bill'));
    let page = await list(SAM);
    expect(page.unread_count).toBe(1);
    expect(page.items[0]).toMatchObject({
      kind: 'like',
      read: false,
      actor: { first_name: 'Kim', last_name: 'Park' },
      target: { type: 'post', id: 201 },
      text: 'Kim Park and 2 others liked your post “Water bill”',
    });
    expect(page.items.map((item) => item.kind)).toEqual(['like', 'comment']);
    // A like of one's own post tells nobody.
    await record('post_events', liked(SAM, sam, 201, 'Water bill'));
    expect((await list(SAM)).items[0]?.text).toBe('Kim Park and 2 others liked your post “Water bill”');

    // An hour after the group began, a like starts a new one.
    await sql(
      `UPDATE notification.notifications SET created_at = created_at - interval '61 minutes' WHERE kind = 'like'`,
    );
    await record('post_events', liked(SAM, dana, 201, 'Water bill'));
    page = await list(SAM);
    expect(page.items.map((item) => item.text)).toEqual([
      'Dana Lee liked your post “Water bill”',
      'Kim Park and 2 others liked your post “Water bill”',
      'Kim Park commented on your post “Other post”',
    ]);
  });

  it('tells of mentions, claim decisions and moderation, and mails them at once as chosen', async () => {
    await record('post_events', {
      topic: 'member.mentioned',
      post_id: 301,
      post_title: 'Transit <plan> & "you"',
      comment_id: 3010,
      recipient_user_id: KIM.userId,
      recipient_profile_id: 14,
      actor: dana,
    });
    await record('profile_events', {
      topic: 'claim.decided',
      recipient_user_id: KIM.userId,
      profile_id: 14,
      first_name: 'Kim',
      last_name: 'Park',
      decision: 'confirmed',
    });
    await record('post_events', {
      topic: 'content.moderated',
      recipient_user_id: KIM.userId,
      target_type: 'post',
      target_id: 302,
      post_id: 302,
      post_title: 'Parking',
      action: 'hide',
      reason: 'Off topic',
      automatic: false,
    });
    await record('post_events', {
      topic: 'report.decided',
      recipient_user_id: KIM.userId,
      target_type: 'comment',
      target_id: 3030,
      post_id: 303,
      action: 'remove',
    });
    const page = await list(KIM);
    expect(page.unread_count).toBe(4);
    expect(
      page.items.map(({ kind, text, target, actor: who }) => ({ kind, text, target, actor: who })),
    ).toEqual([
      {
        kind: 'moderation',
        text: 'The comment you reported was reviewed and removed',
        target: { type: 'comment', id: 3030, post_id: 303 },
        actor: undefined,
      },
      {
        kind: 'moderation',
        text: 'Your post “Parking” was hidden by a contributor. Reason: Off topic',
        target: { type: 'post', id: 302, post_id: 0 },
        actor: undefined,
      },
      {
        kind: 'claim',
        text: 'Your claim of the profile of Kim Park was confirmed',
        target: { type: 'profile', id: 14, post_id: 0 },
        actor: undefined,
      },
      {
        kind: 'mention',
        text: 'Dana Lee mentioned you in a comment on “Transit <plan> & "you"”',
        target: { type: 'comment', id: 3010, post_id: 301 },
        actor: { profile_id: 11, first_name: 'Dana', last_name: 'Lee' },
      },
    ]);

    const mail = await inbox.waitFor(KIM.email, /mentioned you/);
    expect(mail.from).toEqual([{ address: 'no-reply@rotunda.example', name: 'Rotunda' }]);
    expect(mail.text).toContain(`${PUBLIC_URL}/public-square/post/301`);
    expect(mail.html).toContain('Transit &lt;plan&gt; &amp; &quot;you&quot;');
    expect(mail.html).not.toContain('<plan>');
    const unsubscribe = (await inbox.header(mail, 'List-Unsubscribe')) as string;
    expect(unsubscribe).toMatch(
      new RegExp(`^<${PUBLIC_URL}/api/notifications/unsubscribe\\?token=[a-f0-9]{64}>$`),
    );
    expect(await inbox.header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(unsubscribe.slice(1, -1));
    await inbox.waitFor(KIM.email, /claim of the profile/);
    await inbox.waitFor(KIM.email, /Parking/);
    // Comments and likes wait for the digest.
    expect((await inbox.all()).filter((m) => m.to.some((to) => to.address === ALEX.email))).toEqual([]);

    // One-click unsubscribe, without signing in: every mail off.
    const token = new URL(unsubscribe.slice(1, -1)).searchParams.get('token') as string;
    await call('unsubscribe', { token });
    expect(await call('getPreferences', {}, KIM)).toEqual({
      email_digest: 'off',
      email_now: { mention: false, claim: false, moderation: false },
    });
    expect(await refusal(call('unsubscribe', { token: 'not-a-token' }))).toEqual({
      code: status.NOT_FOUND,
      details: NOTIFICATION_MESSAGES.unknownToken,
    });
  });

  it('pages newest first and marks read only the caller’s own', async () => {
    const events = Array.from({ length: 5 }, (_, i) => commented(DANA, alex, 400 + i, `Post ${i}`));
    await record('post_events', ...events);
    const all = await list(DANA);
    expect(all.items.map((item) => item.text)).toEqual(
      [4, 3, 2, 1, 0].map((i) => `Alex Kim commented on your post “Post ${i}”`),
    );
    const firstTwo = await list(DANA, { limit: 2 });
    const next = await list(DANA, { limit: 2, before: firstTwo.items[1]?.id ?? 0 });
    expect(next.items.map((item) => item.id)).toEqual(all.items.slice(2, 4).map((item) => item.id));
    expect(await refusal(list(DANA, { limit: 101 }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: NOTIFICATION_MESSAGES.limit,
    });

    const theirs = (await list(ALEX)).items[0]?.id as number;
    expect(await call('markRead', { ids: [all.items[0]?.id as number, theirs] }, DANA)).toEqual({
      unread_count: 4,
    });
    expect((await list(ALEX)).items[0]?.read).toBe(false);
    expect(await refusal(call('markRead', { ids: [1], all: true }, DANA))).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    expect(await call('markRead', { all: true }, DANA)).toEqual({ unread_count: 0 });
    expect(await call('getUnreadCount', {}, DANA)).toEqual({ unread_count: 0 });
    expect(await refusal(list(undefined as unknown as Caller))).toMatchObject({
      code: status.UNAUTHENTICATED,
    });
  });

  it('streams every unread count change to watchers of any replica', async () => {
    const changes: UnreadCountChanged[] = [];
    const watcher = replicas[1] as (typeof replicas)[number];
    const metadata = new Metadata();
    setCallerMetadata(metadata, { userId: 'gateway', email: '', roles: [] });
    const stream: ClientReadableStream<UnreadCountChanged> = watcher.client.watchUnreadCounts({}, metadata);
    stream.on('data', (change: UnreadCountChanged) => changes.push(change));
    stream.on('error', () => {});
    await watcher.wired.unread.ready;
    // The replica's headers say the watch listens: a change from now on reaches it.
    await new Promise((resolve) => stream.once('metadata', resolve));
    // The first replica handles the event and the read mark; the second one's watcher hears both.
    await record('post_events', commented(DANA, sam, 501, 'Live'));
    await expect
      .poll(() => changes, { timeout: 2000 })
      .toContainEqual({ user_id: DANA.userId, unread_count: 1 });
    await call('markRead', { all: true }, DANA);
    await expect
      .poll(() => changes, { timeout: 2000 })
      .toContainEqual({ user_id: DANA.userId, unread_count: 0 });
    stream.cancel();

    // Nobody the gateway or a service vouches for may watch.
    const refused = first().client.watchUnreadCounts({}, new Metadata());
    const error = await new Promise<ServiceError>((resolve) => refused.on('error', resolve));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });

  it('ends its watchers’ streams cleanly when a replica shuts down', async () => {
    const leaving = await startReplica();
    const metadata = new Metadata();
    setCallerMetadata(metadata, { userId: 'gateway', email: '', roles: [] });
    const stream = leaving.client.watchUnreadCounts({}, metadata);
    const ended = new Promise<{ code: number }>((resolve) => stream.on('status', resolve));
    stream.on('data', () => {});
    await leaving.wired.unread.ready;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await leaving.wired.endStreams();
    await leaving.server.shutdown();
    expect((await ended).code).toBe(status.OK);
    expect(Date.now() - started).toBeLessThan(2000);
    replicas.splice(replicas.indexOf(leaving), 1);
    leaving.client.close();
    await leaving.wired.close();
  });

  it('keeps preferences, checked here too', async () => {
    expect(await call('getPreferences', {}, SAM)).toEqual({
      email_digest: 'weekly',
      email_now: { mention: true, claim: true, moderation: true },
    });
    const chosen = { email_digest: 'daily', email_now: { mention: true, claim: false, moderation: true } };
    expect(await call('setPreferences', { preferences: chosen }, SAM)).toEqual(chosen);
    expect(await call('getPreferences', {}, SAM)).toEqual(chosen);
    expect(
      await refusal(call('setPreferences', { preferences: { ...chosen, email_digest: 'hourly' } }, SAM)),
    ).toEqual({ code: status.INVALID_ARGUMENT, details: NOTIFICATION_MESSAGES.digest });
    expect(await refusal(call('setPreferences', { preferences: chosen }))).toMatchObject({
      code: status.UNAUTHENTICATED,
    });
  });

  it('mails due digests once, however many runs race', async () => {
    await record('post_events', {
      topic: 'post.published',
      post_id: 601,
      title: 'Clean water <act>',
      issue_area_ids: [7, 8],
      author_user_id: DANA.userId,
      created_at: new Date().toISOString(),
    });
    const at = new Date();
    // What the job runs, each run with its own connections, as two jobs started at once would be.
    const run = async (signal?: AbortSignal) => {
      const job = wireDigests(loadConfig(notificationConfigSchema, serviceEnv()), logger);
      try {
        return await job.digests.send(at, signal);
      } finally {
        await job.close();
      }
    };
    // A run told to stop (the job's SIGTERM) claims nobody: everyone due is still due.
    expect(await run(AbortSignal.abort())).toEqual({ sent: 0, membersConsidered: 0, stopped: true });
    const runs = await Promise.all([run(), run()]);
    // Alex (an unread comment, a new post in area 7) and Sam (daily; unread likes) get one each; Dana read
    // everything and wrote the post herself, Kim unsubscribed.
    expect(runs.reduce((sum, { sent }) => sum + sent, 0)).toBe(2);
    const alexDigest = await inbox.waitFor(ALEX.email, /weekly Rotunda digest/);
    expect(alexDigest.text).toContain('Dana Lee commented on your post “Budget hearing”');
    expect(alexDigest.text).toContain(`“Clean water <act>”\n  ${PUBLIC_URL}/public-square/post/601`);
    expect(alexDigest.html).toContain('Clean water &lt;act&gt;');
    expect(await inbox.header(alexDigest, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(await inbox.header(alexDigest, 'List-Unsubscribe')).toMatch(
      /^<https:\/\/rotunda\.test\/api\/notifications\/unsubscribe\?token=[a-f0-9]{64}>$/,
    );
    await inbox.waitFor(SAM.email, /daily Rotunda digest/);
    // Run again at once: nobody is due.
    expect(await run()).toEqual({ sent: 0, membersConsidered: 4, stopped: false });
    expect(fakeMembers.calls).toContain('issue-areas');
  });

  it('runs as a job: one line and exit 0, exit 1 when refused, 78 when misconfigured', async () => {
    // A day on for Sam (daily): due again, with the likes still unread.
    await sql(
      `UPDATE notification.preferences SET last_digest_at = last_digest_at - interval '25 hours' WHERE user_id = $1`,
      [SAM.userId],
    );
    const signed = { ...serviceEnv(), SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey };
    expect(await sendDigestsJob(signed)).toEqual({
      code: 0,
      out: expect.stringMatching(/^Digests: 1 sent, 4 members considered, \d+\.\d s\n$/),
      err: '',
    });
    await inbox.waitFor(SAM.email, /daily Rotunda digest/);
    expect(await sendDigestsJob(signed)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Digests: 0 sent, 4 members considered/),
    });

    // Without the notification service's key, the profile and auth services do not answer it.
    const unsigned = await sendDigestsJob(serviceEnv());
    expect(unsigned.code).toBe(1);
    expect(unsigned.err).toMatch(/^send-digests: .*Only a verified Rotunda service may ask this\.\n$/);
    expect(await sendDigestsJob({ ...signed, SMTP_URL: 'mail.example' })).toEqual({
      code: 78,
      out: '',
      err: 'send-digests: Invalid configuration:\n  SMTP_URL: must be an smtp:// URL (got "mail.example")\n',
    });
  });

  it('forgets a deleted member: their notifications, preferences, and what they did in others’', async () => {
    await record('post_events', liked(DANA, kim, 701, 'Roads'), liked(DANA, alex, 701, 'Roads'));
    await record('post_events', commented(DANA, alex, 702, 'Bridges'));
    await call(
      'setPreferences',
      { preferences: { email_digest: 'off', email_now: { mention: true, claim: true, moderation: true } } },
      ALEX,
    );
    await record('auth_events', { topic: 'account.deleted', user_id: ALEX.userId });
    expect((await list(ALEX)).items).toEqual([]);
    expect(await call('getPreferences', {}, ALEX)).toMatchObject({ email_digest: 'weekly' });
    const texts = (await list(DANA)).items.map((item) => item.text);
    expect(texts).toContain('Kim Park liked your post “Roads”');
    expect(texts.some((text) => text.includes('Alex Kim'))).toBe(false);
  });

  it('exports the caller’s notifications and preferences, and no token', async () => {
    const exported = JSON.parse((await call('exportMine', {}, KIM)).json);
    expect(Object.keys(exported)).toEqual(['notifications', 'preferences']);
    expect(exported.notifications).toHaveLength(4);
    expect(exported.notifications[3]).toMatchObject({
      kind: 'mention',
      target: { type: 'comment', id: 3010, post_id: 301 },
      actor: { profile_id: 11, first_name: 'Dana', last_name: 'Lee' },
    });
    expect(exported.preferences).toEqual({
      email_digest: 'off',
      email_now: { mention: false, claim: false, moderation: false },
    });
    expect(JSON.stringify(exported)).not.toMatch(/token/i);
    expect(await refusal(call('exportMine', {}))).toMatchObject({ code: status.UNAUTHENTICATED });
  });
});
