// `npm run bench -- notifications`: the notification service (its own process, as `npm start` runs it) on its own
// embedded PostgreSQL, measured three ways, each next to a baseline from the same run: (1) fan-out, 10,000
// `post.commented` events for 10,000 members recorded in post_events' outbox until all 10,000 notifications exist,
// next to the events library handing the same events to a no-op handler and to plain INSERTs in one loop; (2) a
// digest run (the service's send-digests job) for members with daily digests and unread notifications, their
// emails and issue areas answered on real gRPC, every mail to a real SMTP server, next to the same number of mails
// of the same size sent straight to that server (20,000 members by default, so that the section stays near 3
// minutes on 2 cores; what 100,000 would take at the measured rate is printed); (3) live unread counts held by one gateway worker
// (1,000 and 5,000 server-sent-event connections, two per member): the worker's memory and the time for a change
// to reach every connection, next to the idle worker and to one member's change. Sizes: BENCH_FANOUT,
// BENCH_DIGEST_MEMBERS, BENCH_STREAMS (comma-separated connection counts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consumeEvents, type DomainEvent, ensureEventTables, recordEvent } from '@rotunda/events';
import { createLogger, NODE_FLAGS } from '@rotunda/service-kit';
import { startEmbeddedPostgres } from '@rotunda/service-kit/embedded-postgres';
import { freePort, testCallers } from '@rotunda/service-kit/testing';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { print, REPO, save } from './harness.ts';
import {
  ISSUE_AREAS,
  type LiveCount,
  memberEmail,
  openLiveCount,
  startMemberDirectory,
  startSmtpSink,
  TOKEN_ISSUER,
  tokenSigner,
} from './notification-doubles.ts';

const FANOUT = Number(process.env.BENCH_FANOUT ?? 10_000);
const DIGEST_MEMBERS = Number(process.env.BENCH_DIGEST_MEMBERS ?? 20_000);
const STREAMS = (process.env.BENCH_STREAMS ?? '1000,5000').split(',').map(Number);
/** Unread notifications each digest member has. */
const UNREAD_EACH = 3;
/** Connections each watching member holds: a laptop and a phone. */
const PER_MEMBER = 2;
const SOURCES = ['post_events', 'profile_events', 'auth_events'];
const logger = createLogger('bench-notifications', 'silent');
const seconds = (since: number) => (performance.now() - since) / 1000;
const perSecond = (n: number, s: number) => Math.round(n / s);

/** Runs `check` every 50 ms until it answers true; throws after `limitS`. */
async function until(what: string, limitS: number, check: () => Promise<boolean> | boolean) {
  const deadline = performance.now() + limitS * 1000;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${limitS} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startProcess(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [...NODE_FLAGS, script], {
    cwd: REPO,
    env: { ...process.env, ...testCallers.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Records `events` in post_events' outbox in one transaction, as the post service does; answers the commit time. */
async function recordAll(client: pg.Client, events: DomainEvent[]): Promise<number> {
  const executor = {
    $executeRawUnsafe: (query: string, ...values: unknown[]) =>
      client.query(query, values).then((result) => result.rowCount ?? 0),
  };
  await client.query('BEGIN');
  for (const event of events) await recordEvent(executor, 'post_events', event);
  const committing = performance.now();
  await client.query('COMMIT');
  return committing;
}

const commented = (recipient: string, n: number): DomainEvent => ({
  topic: 'post.commented',
  post_id: n,
  post_title: `Budget hearing notes ${n}`,
  comment_id: n,
  recipient_user_id: recipient,
  actor: { user_id: 'author-1', profile_id: 1, first_name: 'Dana', last_name: 'Lee' },
});

/** A number from a Prometheus text exposition (the first series of that name). */
const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

export async function benchNotifications(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-bench-notifications-'));
  const postgres = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'bench_notifications',
    user: 'rotunda',
    password: 'rotunda',
    maxConnections: 200,
  });
  const admin = new URL(postgres.adminUrl);
  admin.pathname = '/bench_notifications';
  const databaseUrl = admin.toString();
  for (const schema of SOURCES) await ensureEventTables(databaseUrl, schema);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const count = async (query: string) => Number((await db.query(query)).rows[0]?.n ?? 0);

  let members = 0;
  const signer = tokenSigner();
  const directory = await startMemberDirectory(() => members, signer);
  const sink = await startSmtpSink();
  const serviceEnv = {
    DATABASE_URL: databaseUrl,
    AUTH_SERVICE_ADDR: `127.0.0.1:${directory.port}`,
    PROFILE_SERVICE_ADDR: `127.0.0.1:${directory.port}`,
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    SEED_DEMO: 'false',
  };
  const grpcPort = await freePort();
  const service = startProcess('services/notification/src/main.ts', {
    ...serviceEnv,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
  });
  const processes = [service];
  try {
    // Started once its consumer has a cursor on every source: from then on it is woken by each commit.
    await until('the notification service starting', 120, async () => {
      if (!service.alive()) throw new Error(`the notification service exited:\n${service.output()}`);
      return (
        (await count(
          "SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'notification_events' AND tablename = 'cursors'",
        )) === 1 && (await count('SELECT count(*) AS n FROM notification_events.cursors')) === SOURCES.length
      );
    });

    // (1) Fan-out.
    const events = Array.from({ length: FANOUT }, (_, i) => commented(`fan-${i}`, i + 1));
    const recordingStarted = performance.now();
    const committed = await recordAll(db, events);
    const recordS = seconds(recordingStarted);
    await until('all fan-out notifications', 600, async () => {
      if (!service.alive()) throw new Error(`the notification service exited:\n${service.output()}`);
      return (
        (await count("SELECT count(*) AS n FROM notification.notifications WHERE user_id LIKE 'fan-%'")) >=
        FANOUT
      );
    });
    const serviceS = seconds(committed);

    await ensureEventTables(databaseUrl, 'bench_events');
    let handled = 0;
    const noOpStarted = performance.now();
    const noOp = consumeEvents({
      databaseUrl,
      logger,
      schema: 'bench_events',
      sources: ['post_events'],
      onEvent: async () => {
        handled += 1;
      },
      pollMs: 60_000,
    });
    await noOp.ready;
    await noOp.drain();
    const noOpS = seconds(noOpStarted);
    await noOp.close();
    if (handled !== FANOUT) throw new Error(`the no-op consumer handled ${handled} of ${FANOUT} events`);

    await db.query('CREATE TABLE bench_plain (user_id text, n int, created_at timestamptz DEFAULT now())');
    const plainStarted = performance.now();
    for (let i = 0; i < FANOUT; i++)
      await db.query('INSERT INTO bench_plain (user_id, n) VALUES ($1, $2)', [`fan-${i}`, i]);
    const plainS = seconds(plainStarted);

    print(`\nnotification fan-out: ${FANOUT} post.commented events for ${FANOUT} members, one transaction`);
    print(
      `  recorded in post_events' outbox (recordEvent)        ${perSecond(FANOUT, recordS).toString().padStart(7)} events/s`,
    );
    print(
      `  notification service, commit → all notifications     ${perSecond(FANOUT, serviceS).toString().padStart(7)} events/s (${serviceS.toFixed(1)} s)`,
    );
    print(
      `  baseline: the same events to a no-op handler         ${perSecond(FANOUT, noOpS).toString().padStart(7)} events/s (${noOpS.toFixed(2)} s)`,
    );
    print(
      `  baseline: plain INSERTs, one per round trip          ${perSecond(FANOUT, plainS).toString().padStart(7)} rows/s (${plainS.toFixed(2)} s)`,
    );

    // (2) A digest run: every member due (daily, never sent), each with unread notifications, and posts in their
    // issue areas.
    await db.query('TRUNCATE notification.notifications CASCADE');
    await db.query('TRUNCATE notification.preferences');
    await db.query(
      `INSERT INTO notification.preferences (user_id, email_digest, unsubscribe_token)
         SELECT 'member-' || lpad(i::text, 6, '0'), 'daily', md5(random()::text || i) || md5(i::text)
           FROM generate_series(1, $1::int) AS i`,
      [DIGEST_MEMBERS],
    );
    await db.query(
      `INSERT INTO notification.notifications (user_id, kind, created_at, latest_at, actor_user_id, actor_profile_id,
           actor_first_name, actor_last_name, target_type, target_id, post_title, details)
         SELECT 'member-' || lpad(i::text, 6, '0'), 'comment', now() - k * interval '10 minutes',
                now() - k * interval '10 minutes', 'author-1', 1, 'Dana', 'Lee', 'post', i * 10 + k,
                'Budget hearing notes', '{"kind":"comment"}'
           FROM generate_series(1, $1::int) AS i, generate_series(1, $2::int) AS k`,
      [DIGEST_MEMBERS, UNREAD_EACH],
    );
    await db.query(
      `INSERT INTO notification.recent_posts (post_id, title, issue_area_ids, author_user_id, created_at)
         SELECT p, 'Hearing on item ' || p, ARRAY[(p % $1::int) + 1], 'author-1', now() - interval '2 hours'
           FROM generate_series(1, 30) AS p`,
      [ISSUE_AREAS],
    );
    await db.query('ANALYZE');
    members = DIGEST_MEMBERS;
    const mailsBefore = sink.received();
    const bytesBefore = sink.bytes();
    const digestStarted = performance.now();
    const job = startProcess('services/notification/src/send-digests.ts', serviceEnv);
    processes.push(job);
    const exitCode = await job.exited;
    const digestS = seconds(digestStarted);
    if (exitCode !== 0) throw new Error(`send-digests failed:\n${job.output()}`);
    const mailed = sink.received() - mailsBefore;
    const mailBytes = Math.round((sink.bytes() - bytesBefore) / Math.max(mailed, 1));
    if (mailed !== DIGEST_MEMBERS)
      throw new Error(`${mailed} digests of ${DIGEST_MEMBERS} reached the SMTP server`);

    // The baseline: as many mails of the same size, one after another on the same pooled transport, nothing else.
    const transport = nodemailer.createTransport({ url: serviceEnv.SMTP_URL, pool: true, maxConnections: 2 });
    const body = 'x'.repeat(Math.max(mailBytes - 600, 100)).replace(/(.{76})/g, '$1\n');
    const baselineStarted = performance.now();
    for (let i = 1; i <= DIGEST_MEMBERS; i++)
      await transport.sendMail({
        from: 'Rotunda <no-reply@rotunda.example>',
        to: memberEmail(i),
        subject: 'Your daily digest',
        text: body,
      });
    const smtpS = seconds(baselineStarted);
    transport.close();

    print(
      `\ndigest run (send-digests job): ${DIGEST_MEMBERS} members, daily, ${UNREAD_EACH} unread each, emails and issue areas over gRPC`,
    );
    print(`  ${job.output().trim().split('\n').at(-1)}`);
    print(
      `  digests, job start → exit                             ${perSecond(DIGEST_MEMBERS, digestS).toString().padStart(7)} mails/s (${digestS.toFixed(1)} s, ${mailBytes} bytes each)`,
    );
    print(
      `  baseline: as many mails of that size straight to SMTP ${perSecond(DIGEST_MEMBERS, smtpS).toString().padStart(7)} mails/s (${smtpS.toFixed(1)} s)`,
    );
    print(
      `  at the job's rate, 100,000 members' digests take about ${(((100_000 / DIGEST_MEMBERS) * digestS) / 60).toFixed(1)} minutes`,
    );

    // (3) Live unread counts on one gateway worker.
    const gatewayPort = await freePort();
    const metricsPort = await freePort();
    const gateway = startProcess('gateway/src/main.ts', {
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      GATEWAY_WORKERS: '1',
      SERVE_WEB: 'false',
      METRICS_PORT: String(metricsPort),
      TOKEN_ISSUER,
      AUTH_SERVICE_ADDR: `127.0.0.1:${directory.port}`,
      NOTIFICATION_SERVICE_ADDR: `127.0.0.1:${grpcPort}`,
      PROFILE_SERVICE_ADDR: '127.0.0.1:1',
      ORG_SERVICE_ADDR: '127.0.0.1:1',
      POST_SERVICE_ADDR: '127.0.0.1:1',
      NEWS_SERVICE_ADDR: '127.0.0.1:1',
    });
    processes.push(gateway);
    const base = `http://127.0.0.1:${gatewayPort}`;
    await until('the gateway listening', 60, async () => {
      if (!gateway.alive()) throw new Error(`the gateway exited:\n${gateway.output()}`);
      return fetch(`${base}/healthz`).then(
        () => true,
        () => false,
      );
    });
    const memory = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return {
        held: metric(text, 'rotunda_notification_streams_held'),
        rssBytes: metric(text, 'process_resident_memory_bytes'),
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
      };
    };
    const idle = await memory();
    const streamUrl = `${base}/api/notifications/stream`;
    const held: LiveCount[] = [];
    const expected = new Map<string, number>();
    let nextPost = FANOUT + 1;
    let round: { left: Set<LiveCount>; done: () => void } | undefined;
    const onCount = (live: LiveCount) => {
      if (
        round &&
        live.last >= (expected.get(live.member) ?? 0) &&
        round.left.delete(live) &&
        round.left.size === 0
      )
        round.done();
    };
    /** Records `recipients`' events in one transaction; answers the ms until every connection of theirs has it. */
    const change = async (recipients: string[]) => {
      for (const member of recipients) expected.set(member, (expected.get(member) ?? 0) + 1);
      const wanted = new Set(recipients);
      const left = new Set(held.filter((live) => wanted.has(live.member)));
      const reached = new Promise<void>((resolve) => {
        round = { left, done: resolve };
      });
      const committed = await recordAll(
        db,
        recipients.map((member) => commented(member, nextPost++)),
      );
      const timeout = setTimeout(() => round?.done(), 120_000);
      await reached;
      clearTimeout(timeout);
      if (left.size > 0) throw new Error(`${left.size} connections never received their new count`);
      round = undefined;
      return performance.now() - committed;
    };
    const streams: ({
      connections: number;
      members: number;
      openS: number;
      oneMs: number;
      allMs: number;
    } & Awaited<ReturnType<typeof memory>>)[] = [];
    let watchers = 0;
    for (const target of STREAMS) {
      const opening = performance.now();
      while (held.length < target) {
        const batch: Promise<LiveCount>[] = [];
        for (let i = 0; i < 100 && held.length + batch.length < target; i++) {
          const member = `watcher-${Math.floor((held.length + batch.length) / PER_MEMBER)}`;
          batch.push(openLiveCount(streamUrl, member, signer.tokenFor(member), onCount));
        }
        held.push(...(await Promise.all(batch)));
      }
      const openS = seconds(opening);
      watchers = Math.ceil(held.length / PER_MEMBER);
      const one = await change(['watcher-0']);
      const all = await change(Array.from({ length: watchers }, (_, i) => `watcher-${i}`));
      streams.push({
        connections: held.length,
        members: watchers,
        openS,
        ...(await memory()),
        oneMs: one,
        allMs: all,
      });
    }
    for (const live of held) live.request.destroy();
    await gateway.stop();

    print(
      `\nlive unread counts on one gateway worker (GET /api/notifications/stream, ${PER_MEMBER} per member)`,
    );
    print('  connections  held   RSS MiB  heap MiB  opened in  one member’s change  every member’s change');
    print(
      `  idle            ${String(idle.held).padStart(4)} ${mib(idle.rssBytes).padStart(9)} ${mib(idle.heapUsedBytes).padStart(9)}`,
    );
    for (const s of streams)
      print(
        `  ${String(s.connections).padStart(11)} ${String(s.held).padStart(5)} ${mib(s.rssBytes).padStart(9)} ${mib(s.heapUsedBytes).padStart(9)} ${s.openS.toFixed(1).padStart(8)} s ${s.oneMs.toFixed(0).padStart(15)} ms ${s.allMs.toFixed(0).padStart(13)} ms (${s.members} events)`,
      );
    print(
      `  per connection: ${streams.map((s) => `${((s.rssBytes - idle.rssBytes) / s.connections / 1024).toFixed(1)} KiB RSS at ${s.connections}`).join(', ')}`,
    );
    save('notifications', {
      fanout: {
        events: FANOUT,
        recordedPerSecond: FANOUT / recordS,
        servicePerSecond: FANOUT / serviceS,
        noOpConsumerPerSecond: FANOUT / noOpS,
        plainInsertsPerSecond: FANOUT / plainS,
      },
      digests: {
        members: DIGEST_MEMBERS,
        unreadEach: UNREAD_EACH,
        mailBytes,
        jobPerSecond: DIGEST_MEMBERS / digestS,
        smtpOnlyPerSecond: DIGEST_MEMBERS / smtpS,
      },
      streams: { perMember: PER_MEMBER, idle, held: streams },
    });
  } finally {
    for (const running of processes) await running.stop();
    await db.end();
    await sink.close();
    await directory.shutdown();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
