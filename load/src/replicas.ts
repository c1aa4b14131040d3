// `npm run bench -- replicas`: the product on two replicas of every process (npm start --replicas 2, API only)
// under mixed load for 60 s — visitors reading the public square, members searching the directory and opening
// profiles, reading their fresh feed, posting and commenting — while one profile replica and one post replica are
// killed outright at 20 s and restarted by the apphost at 40 s (RESTART_DELAY_MS=20000). Counts the reads that
// did not answer 2xx, the acknowledged writes not readable at the end, the longest time from an acknowledged
// write to search through the gateway finding it (a renamed profile in the directory, a post in the feed's
// search), and each replica's share of its service's gRPC calls from its own /metrics. The same load on one
// replica for 20 s first is the throughput baseline. BENCH_REPLICAS_SECONDS shortens the run (kill and restart at
// its thirds).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { closedLoop, percentile, send } from './measure.ts';

export interface BenchContext {
  port: number;
  dataDir: string;
  startProduct: (env: Record<string, string>) => Promise<{ child: ChildProcess }>;
  stopProduct: (child: ChildProcess) => Promise<void>;
  save: (name: string, data: unknown) => void;
  print: (text?: string) => void;
}

const LOAD_S = Number(process.env.BENCH_REPLICAS_SECONDS ?? 60);
const KILL_AT_S = LOAD_S / 3;
const RESTART_DELAY_MS = Math.round((LOAD_S / 3) * 1000);
const BASELINE_S = Number(process.env.BENCH_REPLICAS_BASELINE_SECONDS ?? KILL_AT_S);
/** How long a probe waits for search to find its write before it counts as not found. */
const CONVERGENCE_GIVE_UP_MS = 10_000;
const TARGETS = { failedReads: 0, lostWrites: 0, maxConvergenceMs: 2000, share: [0.3, 0.7] } as const;
/** A phase with fewer of a service's calls than this is too small to judge its spread. */
const JUDGED_CALLS = 20;
const MEMBER = { email: 'member@demo.ca.gov', password: 'Member#2024x' };
/** What members type in the directory (load/k6/journeys.js): a name, a title, a group, an issue. */
const DIRECTORY_QUERIES: Record<string, string>[] = [
  {},
  { search: 'maria' },
  { search: 'chief of staff' },
  { group: 'Legislature' },
  { issue: '3' },
  { search: 'director', group: 'Agencies' },
];
const KILLED = ['profile', 'post'] as const;

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

/** A replica as DATA_DIR/pids.json names it. */
interface Listed {
  pid: number;
  service: string;
  replica?: number;
  metricsPorts: number[];
}

/** Requests, failures and latencies of one kind of call, with when each ended (ms from the load's start). */
class Tally {
  readonly ends: number[] = [];
  readonly latencies: number[] = [];
  failed = 0;
  readonly failures = new Map<string, number>();
  record(startedAt: number, endedAt: number, failure?: string) {
    this.ends.push(endedAt);
    this.latencies.push(endedAt - startedAt);
    if (failure === undefined) return;
    this.failed++;
    this.failures.set(failure, (this.failures.get(failure) ?? 0) + 1);
  }
  between(fromMs: number, toMs: number) {
    return this.ends.filter((end) => end >= fromMs && end < toMs).length;
  }
}

function runWord() {
  return `replrun${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/**
 * A counter summed over its series from one process's /metrics (`skip`: series left out); undefined when the
 * process does not answer.
 */
async function counterTotal(
  metricsPort: number,
  metric: string,
  { tries = 2, skip = '\u0000' }: { tries?: number; skip?: string } = {},
): Promise<number | undefined> {
  let text: string | undefined;
  // A replica busy on two shared cores may take a while to answer; a second try before calling it silent.
  for (let attempt = 0; attempt < tries && text === undefined; attempt++)
    text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(4000) })
      .then((res) => (res.ok ? res.text() : undefined))
      .catch(() => undefined);
  if (text === undefined) return undefined;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`) || line.includes(skip)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
  }
  return total;
}

/** rotunda_grpc_server_handled_total summed over the service's own methods (not the health checks). */
const handledCalls = (metricsPort: number, tries = 2) =>
  counterTotal(metricsPort, 'rotunda_grpc_server_handled_total', { tries, skip: 'grpc.health.' });

/** Each gateway worker's HTTP requests (rotunda_http_requests_total), by its /metrics port. */
const gatewayRequests = (ports: number[]) =>
  Promise.all(ports.map((port) => counterTotal(port, 'rotunda_http_requests_total')));

function readPids(dataDir: string): Record<string, Listed> {
  return JSON.parse(readFileSync(join(dataDir, 'pids.json'), 'utf8')) as Record<string, Listed>;
}

/** Every service replica's handled calls now (undefined: its /metrics did not answer). */
async function sample(replicas: [string, Listed][]): Promise<Map<string, number | undefined>> {
  const counts = await Promise.all(
    replicas.map(async ([name, listed]) => [name, await handledCalls(listed.metricsPorts[0] ?? 0)] as const),
  );
  return new Map(counts);
}

/** One mixed-load run against the product on `base`; answers its tallies and what it wrote. */
async function drive(
  base: string,
  seconds: number,
  during: (elapsedMs: () => number) => Promise<void>,
): Promise<{
  reads: Tally;
  writes: Tally;
  posts: Map<number, number[]>;
  profileEdits: { name: string; acknowledged: boolean }[];
  convergence: { kind: string; ms: number | undefined }[];
  run: string;
  profileId: number;
  originalFirstName: string;
  token: string;
  agent: Agent;
}> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.token) headers['x-auth-token'] = options.token;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const answer = await send(agent, new URL(`${base}${path}`), method, headers, body).catch(
      (error: Error) => ({ status: 0, text: error.message }),
    );
    let json: unknown;
    try {
      json = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: answer.status, json, text: answer.text };
  };
  const login = await call('POST', '/auth/login', { body: MEMBER });
  const token = (login.json as { token?: string } | undefined)?.token;
  if (login.status !== 200 || !token) throw new Error(`the demo member could not sign in: ${login.status}`);
  const owned = await call('GET', '/api/profiles/user-check', { token });
  const profileId = (owned.json as { profile_id: number }[] | undefined)?.[0]?.profile_id;
  if (!profileId) throw new Error(`the demo member has no profile: ${owned.text.slice(0, 200)}`);
  const profile = await call('GET', `/api/profiles/profile/${profileId}`, { token });
  const originalFirstName = (profile.json as { first_name: string }).first_name;

  const run = runWord();
  const reads = new Tally();
  const writes = new Tally();
  const posts = new Map<number, number[]>();
  const profileEdits: { name: string; acknowledged: boolean }[] = [];
  const convergence: { kind: string; ms: number | undefined }[] = [];
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const until = startedAt + seconds * 1000;

  /** A read: anything but 2xx is a failed read. */
  const read = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const begun = elapsed();
    const answer = await call(method, path, options);
    const ok = answer.status >= 200 && answer.status < 300;
    reads.record(begun, elapsed(), ok ? undefined : `${method} ${path.split('?')[0]} ${answer.status}`);
    return ok ? answer : undefined;
  };
  const write = async (path: string, body: unknown) => {
    const begun = elapsed();
    const answer = await call('POST', path, { token, body });
    const ok = answer.status >= 200 && answer.status < 300;
    writes.record(
      begun,
      elapsed(),
      ok ? undefined : `POST ${path} ${answer.status}: ${answer.text.slice(0, 80)}`,
    );
    return ok ? answer : undefined;
  };
  const post = async (title: string) => {
    const created = await write('/api/posts/add-post', {
      post_title: title,
      post_body: `Posted by the replicas benchmark (${run}).`,
      post_type: 1,
    });
    const postId = (created?.json as { post_id?: number } | undefined)?.post_id;
    if (postId !== undefined) posts.set(postId, []);
    return postId;
  };
  const feedPage = (options: { search?: string; offset?: number }) => ({
    offset: options.offset ?? 0,
    limit: 20,
    sort: 'recent',
    ...(options.search ? { search: options.search } : {}),
  });
  /** Polls `found` through the gateway until it says yes; answers the ms from the acknowledgement, or undefined. */
  const converge = async (
    kind: string,
    acknowledgedAt: number,
    found: (poll: number) => Promise<boolean>,
  ) => {
    for (let poll = 0; performance.now() - acknowledgedAt < CONVERGENCE_GIVE_UP_MS; poll++) {
      if (await found(poll)) {
        convergence.push({ kind, ms: performance.now() - acknowledgedAt });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    convergence.push({ kind, ms: undefined });
  };

  const loops = [
    // Visitors read the public square: the first pages, shared from the gateway's micro-cache.
    ...Array.from({ length: 3 }, () => async (i: number) => {
      await read('POST', '/api/posts/all', { body: feedPage({ offset: (i % 3) * 20 }) });
    }),
    // Members read their feed: always fresh, every one reaches a post replica.
    ...Array.from({ length: 2 }, () => async (i: number) => {
      await read('POST', '/api/posts/all', { token, body: feedPage({ offset: (i % 3) * 20 }) });
    }),
    // Members search the directory and open the first card's profile.
    ...Array.from({ length: 3 }, () => async (i: number) => {
      const query = new URLSearchParams({ limit: '30', ...DIRECTORY_QUERIES[i % DIRECTORY_QUERIES.length] });
      const page = await read('GET', `/api/profiles/search?${query}`, { token });
      const first = (page?.json as { profiles?: { profile_id: number }[] } | undefined)?.profiles?.[0];
      if (first) await read('GET', `/api/profiles/profile/${first.profile_id}`, { token });
    }),
    // Members post and comment on what they posted, at a member's pace.
    ...Array.from({ length: 2 }, () => async (i: number) => {
      const postId = await post(`Replica bench ${run} ${i}`);
      if (postId !== undefined) {
        const comment = await write('/api/posts/add-comment', {
          post_id: postId,
          comment_body: `A comment from ${run}.`,
        });
        const commentId = (comment?.json as { comment_id?: number } | undefined)?.comment_id;
        if (commentId !== undefined) posts.get(postId)?.push(commentId);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }),
    // The probe: a write, then search through the gateway until it finds it. Profile renames and posts in turn.
    async (i: number) => {
      const word = `${run}x${i}`;
      if (i % 2 === 0) {
        const name = `Member${word}`;
        const edit = await write('/api/profiles/update-profile', { profile_id: profileId, first_name: name });
        profileEdits.push({ name, acknowledged: edit !== undefined });
        if (!edit) return;
        // Each poll asks for a page size of its own: the gateway shares a directory page for 2 s (ADR 0013), and
        // what is measured here is the replicas' index, not that deliberate sharing.
        await converge('profile', performance.now(), async (poll) => {
          const query = new URLSearchParams({ search: word, limit: String(100 - (poll % 99)) });
          const page = await read('GET', `/api/profiles/search?${query}`, { token });
          const cards = (page?.json as { profiles?: { profile_id: number }[] } | undefined)?.profiles ?? [];
          return cards.some((card) => card.profile_id === profileId);
        });
      } else {
        const postId = await post(`Replica bench ${run} ${word}`);
        if (postId === undefined) return;
        await converge('post', performance.now(), async () => {
          const page = await read('POST', '/api/posts/all', { token, body: feedPage({ search: word }) });
          return ((page?.json as { post_id: number }[] | undefined) ?? []).some((p) => p.post_id === postId);
        });
      }
    },
  ];
  await Promise.all([
    ...loops.map((loop) =>
      closedLoop(1, Math.max(0, (until - performance.now()) / 1000), (i) => loop(i)).then(() => undefined),
    ),
    during(elapsed),
  ]);
  return {
    reads,
    writes,
    posts,
    profileEdits,
    convergence,
    run,
    profileId,
    originalFirstName,
    token,
    agent,
  };
}

/** Acknowledged writes not readable at the end: posts and comments by the feed's search, the last profile edit. */
async function lostWrites(base: string, result: Awaited<ReturnType<typeof drive>>) {
  const { agent, token, run } = result;
  const found = new Map<number, Set<number>>();
  for (let offset = 0; ; offset += 50) {
    const body = JSON.stringify({ offset, limit: 50, sort: 'recent', search: run });
    const answer = await send(
      agent,
      new URL(`${base}/api/posts/all`),
      'POST',
      {
        'content-type': 'application/json',
        'x-auth-token': token,
      },
      body,
    );
    if (answer.status !== 200) throw new Error(`the feed's search answered ${answer.status} at the end`);
    const page = JSON.parse(answer.text) as { post_id: number; PostComments: { comment_id: number }[] }[];
    for (const post of page) found.set(post.post_id, new Set(post.PostComments.map((c) => c.comment_id)));
    if (page.length < 50) break;
  }
  let lostPosts = 0;
  let lostComments = 0;
  for (const [postId, comments] of result.posts) {
    const there = found.get(postId);
    if (!there) lostPosts++;
    for (const commentId of comments) if (!there?.has(commentId)) lostComments++;
  }
  // Edits of one profile replace each other: the last acknowledged one (or one tried after it) must be what it says.
  const profile = await send(agent, new URL(`${base}/api/profiles/profile/${result.profileId}`), 'GET', {
    'x-auth-token': token,
  });
  const firstName = (JSON.parse(profile.text) as { first_name: string }).first_name;
  const lastAcknowledged = result.profileEdits.findLastIndex((edit) => edit.acknowledged);
  const acceptable = result.profileEdits.slice(Math.max(0, lastAcknowledged)).map((edit) => edit.name);
  const lostProfileEdit = lastAcknowledged >= 0 && !acceptable.includes(firstName) ? 1 : 0;
  return { lostPosts, lostComments, lostProfileEdit, total: lostPosts + lostComments + lostProfileEdit };
}

async function restoreName(base: string, result: Awaited<ReturnType<typeof drive>>) {
  await send(
    result.agent,
    new URL(`${base}/api/profiles/update-profile`),
    'POST',
    { 'content-type': 'application/json', 'x-auth-token': result.token },
    JSON.stringify({ profile_id: result.profileId, first_name: result.originalFirstName }),
  );
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);

export async function benchReplicas(ctx: BenchContext): Promise<void> {
  const { print } = ctx;
  const base = `http://127.0.0.1:${ctx.port}`;
  const dataDir = join(ctx.dataDir, 'replicas');
  const productEnv = (replicas: number) => ({
    REPLICAS: String(replicas),
    SERVE_WEB: 'false',
    DATA_DIR: dataDir,
    RESTART_DELAY_MS: String(RESTART_DELAY_MS),
    // One member writes every comment here: their allowance (10, then 10 a minute) would refuse most of them.
    COMMENT_BURST: '1000000',
    COMMENT_RATE_PER_MINUTE: '1000000',
  });

  // The baseline: the same load on one replica of everything, for as long as the two-replica run goes unharmed.
  const single = await ctx.startProduct(productEnv(1));
  const baseline = await drive(base, BASELINE_S, async () => {});
  const baselineLost = await lostWrites(base, baseline);
  await restoreName(base, baseline);
  baseline.agent.destroy();
  await ctx.stopProduct(single.child);

  const product = await ctx.startProduct(productEnv(2));
  const pids = readPids(dataDir);
  const replicas = Object.entries(pids).filter(([, listed]) => listed.service !== 'gateway');
  const samples: Record<string, Map<string, number | undefined>> = {};
  const events: string[] = [];
  const killed = new Map<
    string,
    { pid: number; atMs: number; restartedAtMs?: number; upAtMs?: number; servingAtMs?: number }
  >();
  const gatewayPorts = pids.gateway?.metricsPorts ?? [];
  let gatewayAtStart: (number | undefined)[] = [];
  let gatewayAtEnd: (number | undefined)[] = [];
  const result = await drive(base, LOAD_S, async (elapsed) => {
    gatewayAtStart = await gatewayRequests(gatewayPorts);
    samples.start = await sample(replicas);
    const sleepUntil = (ms: number) =>
      new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - elapsed())));
    await sleepUntil(KILL_AT_S * 1000);
    samples.beforeKill = await sample(replicas);
    for (const service of KILLED) {
      const name = `${service}-2`;
      const pid = pids[name]?.pid as number;
      process.kill(pid, 'SIGKILL');
      killed.set(name, { pid, atMs: elapsed() });
      events.push(`${(elapsed() / 1000).toFixed(1)} s: kill -9 ${name} (pid ${pid})`);
    }
    // Watch for the restarts (a new pid in pids.json), each new process up (its /metrics answers) and the first
    // call it handles (which waits for the callers' channels to connect to it again).
    while (elapsed() < LOAD_S * 1000 - 300) {
      const now = readPids(dataDir);
      for (const [name, victim] of killed) {
        if (victim.restartedAtMs === undefined && now[name]?.pid !== victim.pid) {
          victim.restartedAtMs = elapsed();
          events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} restarted (pid ${now[name]?.pid})`);
        }
        if (victim.restartedAtMs !== undefined && victim.servingAtMs === undefined) {
          const calls = await handledCalls(pids[name]?.metricsPorts[0] ?? 0, 1);
          if (calls !== undefined && victim.upAtMs === undefined) {
            victim.upAtMs = elapsed();
            events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} is up (its /metrics answers)`);
          }
          if (calls !== undefined && calls > 0) {
            victim.servingAtMs = elapsed();
            samples[`serving ${name}`] = await sample(replicas);
            events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} handles calls again`);
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    samples.end = await sample(replicas);
    gatewayAtEnd = await gatewayRequests(gatewayPorts);
  });
  const workerRequests = gatewayPorts.map((_, i) =>
    Math.max(0, (gatewayAtEnd[i] ?? 0) - (gatewayAtStart[i] ?? 0)),
  );
  const gatewayTotal = workerRequests.reduce((a, b) => a + b, 0);
  const workerShare = workerRequests.map((count) => (gatewayTotal ? count / gatewayTotal : 0));
  const lost = await lostWrites(base, result);
  await restoreName(base, result);
  result.agent.destroy();
  await ctx.stopProduct(product.child);

  // Each replica's calls per phase: both live before the kill, and both live again from the moment the restarted
  // replica handles calls (its counter starts over in its new process) to the end.
  const delta = (name: string, from: string, to: string) => {
    const start = samples[from]?.get(name);
    const end = samples[to]?.get(name);
    return start === undefined || end === undefined ? 0 : Math.max(0, end - start);
  };
  const services = [...new Set(replicas.map(([, listed]) => listed.service))];
  /** When both replicas of `service` serve again: its own restarted replica's, else the first to come back. */
  const servingAgain = (service: string) =>
    samples[`serving ${service}-2`]
      ? `serving ${service}-2`
      : Object.keys(samples).find((key) => key.startsWith('serving '));
  const shares = (phase: (name: string, service: string) => number) =>
    Object.fromEntries(
      services.map((service) => {
        const names = replicas.filter(([, l]) => l.service === service).map(([name]) => name);
        const counts = names.map((name) => phase(name, service));
        const total = counts.reduce((a, b) => a + b, 0);
        return [
          service,
          {
            total,
            share: Object.fromEntries(names.map((name, i) => [name, total ? (counts[i] ?? 0) / total : 0])),
          },
        ];
      }),
    ) as Record<string, { total: number; share: Record<string, number> }>;
  const beforeKill = shares((name) => delta(name, 'start', 'beforeKill'));
  const afterRestart = shares((name, service) => {
    const from = servingAgain(service);
    return from ? delta(name, from, 'end') : 0;
  });
  const whole = shares((name) =>
    killed.has(name)
      ? delta(name, 'start', 'beforeKill') + (samples.end?.get(name) ?? 0)
      : delta(name, 'start', 'end'),
  );
  // Per service and replica: its share while both were live before the kill, while both were live after the
  // restart (from the restarted one's first call), and over the whole run (the kill included).
  const perReplicaShare = Object.fromEntries([
    [
      'gateway',
      Object.fromEntries(workerShare.map((share, i) => [`gateway worker ${i + 1}`, { wholeRun: share }])),
    ],
    ...services.map((service) => [
      service,
      Object.fromEntries(
        Object.keys(whole[service]?.share ?? {}).map((name) => [
          name,
          {
            beforeKill: beforeKill[service]?.share[name] ?? 0,
            afterRestart: afterRestart[service]?.share[name] ?? 0,
            wholeRun: whole[service]?.share[name] ?? 0,
          },
        ]),
      ),
    ]),
  ]);

  const converged = result.convergence.filter((c) => c.ms !== undefined).map((c) => c.ms as number);
  const notFound = result.convergence.length - converged.length;
  const maxConvergenceMs = notFound > 0 ? null : Math.max(0, ...converged);
  const requests = result.reads.ends.length + result.writes.ends.length;
  const acknowledgedWrites = result.writes.ends.length - result.writes.failed;
  const killAtMs = KILL_AT_S * 1000;

  print(
    `\nreplicas: npm start --replicas 2 (2 gateway workers, API only), mixed load ${LOAD_S} s; kill -9 profile-2 and post-2 at ${KILL_AT_S} s, restarted after RESTART_DELAY_MS=${RESTART_DELAY_MS}`,
  );
  print('  visitors: public square pages ×3 loops; members: fresh feed ×2, directory search + profile ×3,');
  print(
    '  post + comment ×2 (100 ms apart; the comment allowance lifted: one member writes them all), and a',
  );
  print('  probe (a profile rename or a post, then search through the gateway until it finds it)');
  for (const event of events) print(`  ${event}`);
  const sorted = [...result.reads.latencies].sort((a, b) => a - b);
  print(`  figure               value      target`);
  const row = (name: string, value: string, target: string, pass: boolean | undefined) =>
    print(
      `  ${name.padEnd(20)} ${value.padStart(9)}   ${target.padEnd(10)} ${pass === undefined ? '' : pass ? 'pass' : 'MISS'}`,
    );
  row('requests', String(requests), '', undefined);
  row('failedReads', String(result.reads.failed), '0', result.reads.failed === TARGETS.failedReads);
  row('acknowledgedWrites', String(acknowledgedWrites), '', undefined);
  row('failedWrites', String(result.writes.failed), '(no retry)', undefined);
  row('lostWrites', String(lost.total), '0', lost.total === TARGETS.lostWrites);
  row(
    'maxConvergenceMs',
    maxConvergenceMs === null ? `${notFound} unfound` : maxConvergenceMs.toFixed(0),
    '≤ 2000',
    maxConvergenceMs !== null && maxConvergenceMs <= TARGETS.maxConvergenceMs,
  );
  for (const [kind, list] of [
    ['profile', result.convergence.filter((c) => c.kind === 'profile')],
    ['post', result.convergence.filter((c) => c.kind === 'post')],
  ] as const) {
    const ms = list
      .filter((c) => c.ms !== undefined)
      .map((c) => c.ms as number)
      .sort((a, b) => a - b);
    print(
      `    ${kind} probes: ${list.length}, found in p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms${list.length > ms.length ? `, ${list.length - ms.length} not found within ${CONVERGENCE_GIVE_UP_MS / 1000} s` : ''}`,
    );
  }
  print(
    `  share of each service's gRPC calls (rotunda_grpc_server_handled_total), target 30–70 % per live replica:`,
  );
  const workersPass =
    gatewayTotal < JUDGED_CALLS ||
    workerShare.every((share) => share >= TARGETS.share[0] && share <= TARGETS.share[1]);
  print(
    `    gateway  workers (Node's cluster, kept-alive connections handed out in turn) ${workerShare.map(pct).join(' / ')} of ${gatewayTotal} requests  ${workersPass ? 'pass' : 'MISS'}`,
  );
  let sharesPass = workersPass;
  for (const service of services) {
    const judged = [beforeKill[service], afterRestart[service]];
    const phases = [
      ['before the kill', beforeKill[service]],
      ['after the restart', afterRestart[service]],
      ['whole run', whole[service]],
    ] as const;
    const cells = phases.map(([label, phase]) =>
      phase && phase.total > 0
        ? `${label} ${Object.values(phase.share).map(pct).join(' / ')} of ${phase.total}`
        : `${label} —`,
    );
    // Judged where both replicas were live and the service had calls to share; a replica that came back and
    // handled no call before the end was live and served 0 %.
    const victim = killed.get(`${service}-2`);
    const neverServed = victim !== undefined && victim.servingAtMs === undefined;
    if (neverServed)
      cells[1] = `after the restart ${service}-2 handled no call by the end (${victim.upAtMs === undefined ? 'never up' : `up at ${(victim.upAtMs / 1000).toFixed(1)} s`})`;
    const pass =
      !neverServed &&
      judged.every(
        (phase) =>
          !phase ||
          phase.total < JUDGED_CALLS ||
          Object.values(phase.share).every((share) => share >= TARGETS.share[0] && share <= TARGETS.share[1]),
      );
    if (!pass) sharesPass = false;
    print(`    ${service.padEnd(8)} ${cells.join('; ')}  ${pass ? 'pass' : 'MISS'}`);
  }
  const readRate = perSecond(result.reads.between(0, killAtMs), killAtMs);
  const baselineRate = perSecond(baseline.reads.ends.length, BASELINE_S * 1000);
  const writeRate = perSecond(result.writes.between(0, killAtMs), killAtMs);
  const baselineWriteRate = perSecond(baseline.writes.ends.length, BASELINE_S * 1000);
  const baselineSorted = [...baseline.reads.latencies].sort((a, b) => a - b);
  const firstPhase = result.reads.latencies
    .filter((_, i) => (result.reads.ends[i] ?? 0) < killAtMs)
    .sort((a, b) => a - b);
  print(
    `  throughput, same load           --replicas 1 (${BASELINE_S} s)   --replicas 2 (first ${KILL_AT_S} s, before the kill)`,
  );
  print(
    `    reads/s                     ${baselineRate.toFixed(0).padStart(10)}   ${readRate.toFixed(0).padStart(10)}`,
  );
  print(
    `    writes/s                    ${baselineWriteRate.toFixed(0).padStart(10)}   ${writeRate.toFixed(0).padStart(10)}`,
  );
  print(
    `    read p50 / p95 ms           ${`${percentile(baselineSorted, 50).toFixed(1)} / ${percentile(baselineSorted, 95).toFixed(1)}`.padStart(10)}   ${`${percentile(firstPhase, 50).toFixed(1)} / ${percentile(firstPhase, 95).toFixed(1)}`.padStart(10)}`,
  );
  print(
    `    failed reads, lost writes   ${`${baseline.reads.failed}, ${baselineLost.total}`.padStart(10)}   ${`${result.reads.failed}, ${lost.total}`.padStart(10)} (whole run)`,
  );
  print(
    `  read p50 / p95 over the whole run: ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 95).toFixed(1)} ms`,
  );
  for (const [kind, count] of [...result.reads.failures, ...result.writes.failures].slice(0, 6))
    print(`  ${count}× ${kind}`);
  print(
    `  lost: ${lost.lostPosts} posts, ${lost.lostComments} comments, ${lost.lostProfileEdit} profile edits (of ${result.posts.size} posts, ${[...result.posts.values()].flat().length} comments, ${result.profileEdits.filter((e) => e.acknowledged).length} edits acknowledged)`,
  );
  print(
    [
      result.reads.failed === TARGETS.failedReads,
      lost.total === TARGETS.lostWrites,
      maxConvergenceMs !== null && maxConvergenceMs <= TARGETS.maxConvergenceMs,
      sharesPass,
    ].every(Boolean)
      ? '  every target held'
      : '  some targets were missed (MISS above)',
  );
  ctx.save('replicas', {
    requests,
    failedReads: result.reads.failed,
    acknowledgedWrites,
    lostWrites: lost.total,
    maxConvergenceMs,
    perReplicaShare,
    details: {
      loadSeconds: LOAD_S,
      killAtSeconds: KILL_AT_S,
      restartDelayMs: RESTART_DELAY_MS,
      events,
      failedWrites: result.writes.failed,
      failures: Object.fromEntries([...result.reads.failures, ...result.writes.failures]),
      lost,
      convergenceProbes: result.convergence.length,
      convergenceNotFound: notFound,
      serviceCalls: Object.fromEntries(
        services.map((service) => [
          service,
          {
            beforeKill: beforeKill[service]?.total ?? 0,
            afterRestart: afterRestart[service]?.total ?? 0,
            wholeRun: whole[service]?.total ?? 0,
          },
        ]),
      ),
      baseline: {
        replicas: 1,
        seconds: BASELINE_S,
        readsPerSecond: baselineRate,
        writesPerSecond: baselineWriteRate,
        readP50Ms: percentile(baselineSorted, 50),
        readP95Ms: percentile(baselineSorted, 95),
        failedReads: baseline.reads.failed,
        lostWrites: baselineLost.total,
      },
      beforeKill: {
        readsPerSecond: readRate,
        writesPerSecond: writeRate,
        readP50Ms: percentile(firstPhase, 50),
        readP95Ms: percentile(firstPhase, 95),
      },
    },
    targets: { ...TARGETS, share: undefined, liveReplicaShare: TARGETS.share },
  });
}
