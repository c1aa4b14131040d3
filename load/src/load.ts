// `npm run load [-- visitor-feed|member-directory|member-posts|login]`: drives the k6 scripts' journeys
// (load/k6/journeys.js) against a running product from this machine, each for LOAD_SECONDS with its concurrency
// from load/k6/thresholds.json, in node:http closed loops without pause (as k6's constant virtual users), and
// prints what the k6 thresholds check: each step's p50/p95/p99, requests per second and the error rate, against
// the same limits. Exits 1 when a limit is missed. BASE_URL (default http://127.0.0.1:8080), MEMBER_EMAIL,
// MEMBER_PASSWORD and VUS as for k6.
import { readFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import {
  type Context,
  DEMO_MEMBER,
  JOURNEYS,
  type JourneyName,
  judge,
  runWord,
  type Session,
  SIGN_IN,
  SIGN_OUT,
  type Step,
  sessionOf,
} from '../k6/journeys.js';
import { closedLoop, keepAliveAgent, percentile, send } from './measure.ts';

interface Limits {
  concurrency: number;
  errorRate: number;
  latencyMs: Record<string, Record<string, number>>;
}

const THRESHOLDS = JSON.parse(readFileSync(new URL('../k6/thresholds.json', import.meta.url), 'utf8')) as {
  journeys: Record<JourneyName, Limits>;
};
const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const SECONDS = Number(process.env.LOAD_SECONDS || 10);
const credentials = {
  email: process.env.MEMBER_EMAIL || DEMO_MEMBER.email,
  password: process.env.MEMBER_PASSWORD || DEMO_MEMBER.password,
};
const names = Object.keys(JOURNEYS) as JourneyName[];
const asked = process.argv[2];

const print = (text = '') => process.stdout.write(`${text}\n`);

/** Latencies, successes and failures of one journey's requests, by step. */
class Tally {
  readonly latencies = new Map<string, number[]>();
  requests = 0;
  failed = 0;
  /** The first failure of each kind, to say what went wrong. */
  readonly failures = new Map<string, number>();

  record = (step: string, ms: number, failure: string | undefined) => {
    this.requests++;
    const list = this.latencies.get(step) ?? [];
    list.push(ms);
    this.latencies.set(step, list);
    if (failure === undefined) return;
    this.failed++;
    const kind = `${step}: ${failure}`;
    this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
  };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends a step and judges its answer as the k6 driver does; records it in `tally` when given. */
async function call(agent: Agent, step: Step, ctx: Context, tally?: Tally) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (step.member && ctx.session) headers['x-auth-token'] = ctx.session.token;
  const body = step.body ? JSON.stringify(step.body(ctx)) : undefined;
  const started = performance.now();
  const answer = await send(agent, new URL(`${BASE_URL}${step.path(ctx)}`), step.method, headers, body).catch(
    (error: Error) => ({ status: 0, text: '', error: error.message }),
  );
  const ms = performance.now() - started;
  const json = parseJson(answer.text);
  const ok = !('error' in answer) && judge(step, answer.status, json, ctx);
  const failure =
    'error' in answer
      ? `no answer (${answer.error})`
      : `answered ${answer.status}${answer.status === step.expect ? ' with an unexpected body' : ''}: ${answer.text.slice(0, 160)}`;
  tally?.record(step.name, ms, ok ? undefined : failure);
  return { ok, json, failure };
}

const limitText = (limits: Record<string, number> | undefined) =>
  limits
    ? Object.entries(limits)
        .map(([p, ms]) => `${p} ≤ ${ms} ms`)
        .join(', ')
    : '—';

/** Runs one journey and prints its figures; answers whether every limit held. */
async function runJourney(name: JourneyName): Promise<boolean> {
  const journey = JOURNEYS[name];
  const limits = THRESHOLDS.journeys[name];
  const concurrency = Number(process.env.VUS || limits.concurrency);
  const agent = keepAliveAgent(new URL(BASE_URL), concurrency);
  const run = runWord();
  const base: Context = { i: 0, run, credentials, saved: {} };
  let session: Session | undefined;
  if (journey.member) {
    const signedIn = await call(agent, SIGN_IN, base);
    if (!signedIn.ok) {
      print(`\n${name}: ${credentials.email} could not sign in (sign-in ${signedIn.failure}); not run.`);
      agent.destroy();
      return false;
    }
    session = sessionOf(signedIn.json, Date.now());
  }
  const tally = new Tally();
  let renewing: Promise<void> | undefined;
  const renew = async () => {
    const renewed = await call(agent, SIGN_IN, base, tally);
    if (renewed.ok) session = sessionOf(renewed.json, Date.now());
  };
  const started = performance.now();
  await closedLoop(concurrency, SECONDS, async (i) => {
    if (session && Date.now() >= session.renewAt) {
      renewing ??= renew().finally(() => {
        renewing = undefined;
      });
      await renewing;
    }
    const ctx: Context = { i, run, credentials, saved: {}, ...(session ? { session } : {}) };
    for (const step of journey.steps) {
      if (step.when === undefined || step.when(ctx)) await call(agent, step, ctx, tally);
    }
  });
  const elapsed = (performance.now() - started) / 1000;

  // What an iteration left (it failed between posting and deleting), then the run's own session ended.
  let leftovers = 0;
  if (session) {
    const ctx: Context = { ...base, session };
    const deleteStep = journey.steps.find((step) => step.method === 'DELETE');
    // A page of them at a time, while deleting makes progress.
    for (let deleted = 1; journey.leftovers && deleteStep && deleted > 0; ) {
      const found = await call(agent, journey.leftovers.find, ctx);
      deleted = 0;
      for (const postId of found.ok ? journey.leftovers.postIds(found.json, ctx) : []) {
        if ((await call(agent, deleteStep, { ...ctx, saved: { postId } })).ok) deleted++;
      }
      leftovers += deleted;
    }
    await call(agent, SIGN_OUT, ctx);
  }
  agent.destroy();

  const errorRate = tally.requests === 0 ? 1 : tally.failed / tally.requests;
  const errorsPass = tally.requests > 0 && errorRate < limits.errorRate;
  let pass = errorsPass;
  print(
    `\n${name}: ${concurrency} virtual users for ${SECONDS} s: ${tally.requests} requests, ${(tally.requests / elapsed).toFixed(0)} req/s, ${tally.failed} failed (${(errorRate * 100).toFixed(2)} %, limit < ${limits.errorRate * 100} %)  ${errorsPass ? 'pass' : 'FAIL'}`,
  );
  print('  step                requests   p50 ms   p95 ms   p99 ms   limit');
  for (const [step, latencies] of tally.latencies) {
    latencies.sort((a, b) => a - b);
    const stepLimits = limits.latencyMs[step];
    const verdict = stepLimits
      ? Object.entries(stepLimits).every(([p, ms]) => percentile(latencies, Number(p.slice(1))) <= ms)
      : undefined;
    if (verdict === false) pass = false;
    print(
      `  ${step.padEnd(18)} ${String(latencies.length).padStart(9)} ${[50, 95, 99]
        .map((p) => percentile(latencies, p).toFixed(1).padStart(8))
        .join(
          ' ',
        )}   ${limitText(stepLimits).padEnd(14)} ${verdict === undefined ? '' : verdict ? 'pass' : 'FAIL'}`,
    );
  }
  for (const step of Object.keys(limits.latencyMs)) {
    if (!tally.latencies.has(step)) {
      pass = false;
      print(`  ${step.padEnd(18)} never answered                  ${limitText(limits.latencyMs[step])} FAIL`);
    }
  }
  for (const [kind, count] of [...tally.failures].slice(0, 3)) print(`  ${count}× ${kind}`);
  if (leftovers > 0) print(`  ${leftovers} posts left by cut-off iterations deleted after the run`);
  return pass;
}

if (asked !== undefined && !names.includes(asked as JourneyName)) {
  print(`Unknown journey "${asked}"; one of: ${names.join(', ')} (or none for all).`);
  process.exit(2);
}
const health = await fetch(`${BASE_URL}/healthz`, { signal: AbortSignal.timeout(5000) }).catch(
  (error: Error) => error,
);
if (health instanceof Error) {
  print(
    `Nothing answers at ${BASE_URL} (${health.cause instanceof Error ? health.cause.message : health.message}): start the product (npm start) or set BASE_URL to a running deployment.`,
  );
  process.exit(1);
}
print(
  `Rotunda load journeys against ${BASE_URL}${health.ok ? '' : ` (its /healthz answered ${health.status}: not every part is ready)`}`,
);
print(
  `${SECONDS} s each, closed loops without pause (node:http keep-alive); limits from load/k6/thresholds.json, as k6 checks them`,
);
let allPass = true;
for (const name of asked === undefined ? names : [asked as JourneyName]) {
  if (!(await runJourney(name))) allPass = false;
}
print(allPass ? '\nEvery threshold held.' : '\nSome thresholds were missed.');
process.exit(allPass ? 0 : 1);
