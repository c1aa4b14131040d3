// Security suite, part 1: malformed requests to every REST route the gateway serves (read from its routers, plus
// the spec's own spellings), as a visitor, as a signed-in member and with a forged token. No answer may be a 5xx
// and no connection may break: a malformed request is the caller's mistake (400, 401, 404, 413, 415…), never
// the server's, and never brings a process down. Afterwards /healthz must still answer 200.
//
// Two runs: a catalog (every route × every kind of malformation, the same each run) and a property-based run
// (fast-check, random mixes of the same ingredients). The random run prints its seed; replay it with
// FUZZ_SEED=<seed> (and FUZZ_RUNS=<count>). Every failing request is printed as a curl command.
import { randomInt } from 'node:crypto';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { registerAccount } from '../support/accounts.ts';
import { ApiSession } from '../support/api-session.ts';
import {
  type Answer,
  catalogRequests,
  curlOf,
  type FuzzRequest,
  requestArbitrary,
  send,
  TEMPLATES,
  UPLOADS,
} from '../support/fuzz-requests.ts';
import { isWrite, type Route, routeKey, routeTable, SPEC_SPELLINGS } from '../support/rest-routes.ts';

/** Requests in flight at once: enough to keep the gateway busy, few enough for two shared cores. */
const CONCURRENCY = 6;
/** Random requests per run (the catalog adds its own); the total must reach 10,000. */
const RANDOM_RUNS = Number(process.env.FUZZ_RUNS ?? 4_000);
const SEED = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31 - 1));
/** Bodies above this may be refused before they are read, and the connection closed under the sender. */
const EARLY_REFUSAL_BYTES = 64 * 1024;

const ROUTES: Route[] = [
  ...routeTable().filter((route) => route.path !== '/healthz' && route.path !== '/readyz'),
  ...SPEC_SPELLINGS,
];

interface Failure {
  request: FuzzRequest;
  answer: Answer;
}

interface RunResult {
  sent: number;
  failures: Failure[];
  statuses: Map<number, number>;
  crashed: string | undefined;
}

let baseUrl: string;
let member: ApiSession;

/** Whether the whole product still answers: /healthz 200 means every service is serving. */
async function healthy(): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Sends every request, CONCURRENCY at a time, and collects the answers that are 5xx or broken connections. A
 * broken connection is also checked against /healthz: when the product is down the run stops there, naming the
 * requests in flight, rather than sending thousands more into a dead port.
 */
async function run(requests: Iterable<FuzzRequest>): Promise<RunResult> {
  const result: RunResult = { sent: 0, failures: [], statuses: new Map(), crashed: undefined };
  const iterator = requests[Symbol.iterator]();
  const inFlight = new Set<FuzzRequest>();
  const worker = async () => {
    for (let next = iterator.next(); !next.done && !result.crashed; next = iterator.next()) {
      const request = next.value;
      inFlight.add(request);
      const token = request.caller === 'member' ? await member.token() : undefined;
      const answer = await send(baseUrl, request, token);
      inFlight.delete(request);
      result.sent++;
      result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) result.failures.push({ request, answer });
      if (answer.status !== 0) continue;
      const alive = await healthy();
      if (!alive) {
        result.failures.push({ request, answer });
        result.crashed ??= [request, ...inFlight].map((r) => curlOf(r, baseUrl)).join('\n  ');
      } else if ((request.body?.length ?? 0) <= EARLY_REFUSAL_BYTES) {
        result.failures.push({ request, answer });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return result;
}

/** The failures grouped by route, each with its first requests as curl commands: what a fixer needs. */
function report(result: RunResult, title: string): string {
  const lines = [`${title}: ${result.sent} requests, ${result.failures.length} failed`];
  lines.push(
    `  statuses: ${[...result.statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
  if (result.crashed)
    lines.push(`  THE PRODUCT WENT DOWN (/healthz stopped answering 200) after:\n  ${result.crashed}`);
  const byRoute = new Map<string, Failure[]>();
  for (const failure of result.failures) {
    const list = byRoute.get(failure.request.route) ?? [];
    list.push(failure);
    byRoute.set(failure.request.route, list);
  }
  for (const [route, failures] of byRoute) {
    const kinds = new Set(failures.map((f) => f.request.malformation.split(/[:=]/)[0]));
    lines.push(`  ${route}: ${failures.length} failed (${[...kinds].slice(0, 8).join(' | ')})`);
    for (const { request, answer } of failures.slice(0, 3))
      lines.push(
        `    [${answer.status || 'no answer'}] ${request.malformation}\n      ${curlOf(request, baseUrl)}\n      → ${answer.text.slice(0, 160)}`,
      );
  }
  return lines.join('\n');
}

test('every write route has a template the fuzz changes, so no route is fuzzed with generic bodies only', () => {
  const bodyRoutes = routeTable().filter(isWrite).map(routeKey);
  const covered = new Set([
    ...Object.keys(TEMPLATES),
    ...Object.keys(UPLOADS),
    'POST /realms/:realm/protocol/openid-connect/token',
    'POST /realms/:realm/protocol/openid-connect/logout',
  ]);
  expect(bodyRoutes.filter((key) => !covered.has(key))).toEqual([]);
  expect(ROUTES.length).toBeGreaterThanOrEqual(60);
});

// One test, so that one member is registered and logged in for the whole fuzz; each part reports on its own
// (soft assertions), and the product must be up at the end whatever the parts found.
test('malformed requests to every route answer without a 5xx and leave the product up', async ({
  playwright,
}, testInfo) => {
  test.setTimeout(360_000);
  baseUrl = String(testInfo.project.use.baseURL);
  const api = await playwright.request.newContext({ baseURL: baseUrl });
  const account = await registerAccount(api, true, { firstName: 'Fuzz', lastName: 'Member' });
  member = await ApiSession.logIn(api, account);
  const { realm } = ((await (await api.get('/app-config.json')).json()) as { identity: { realm: string } })
    .identity;
  let total = 0;

  await test.step('the catalog: every route × every kind of malformation', async () => {
    const started = Date.now();
    const result = await run(catalogRequests(ROUTES, realm));
    total += result.sent;
    const summary = report(result, `catalog (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    console.log(summary.split('\n').slice(0, 2).join('\n'));
    testInfo.annotations.push({
      type: 'catalog',
      description: `${result.sent} requests in ${Date.now() - started} ms`,
    });
    expect.soft(result.crashed, summary).toBeUndefined();
    expect.soft(result.failures.length, summary).toBe(0);
  });

  await test.step(`random malformed requests (fast-check, FUZZ_SEED=${SEED})`, async () => {
    console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RANDOM_RUNS})`);
    testInfo.annotations.push({ type: 'seed', description: `FUZZ_SEED=${SEED} FUZZ_RUNS=${RANDOM_RUNS}` });
    const arbitrary = requestArbitrary(ROUTES, realm);
    // Drawn in batches, so that a run never holds all its bodies at once; the seed decides every batch.
    const BATCH = 500;
    function* requests(): Generator<FuzzRequest> {
      for (let drawn = 0; drawn < RANDOM_RUNS; drawn += BATCH)
        yield* fc.sample(arbitrary, { seed: SEED + drawn, numRuns: Math.min(BATCH, RANDOM_RUNS - drawn) });
    }
    const started = Date.now();
    const result = await run(requests());
    total += result.sent;
    const summary = report(result, `random, seed ${SEED} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    console.log(summary.split('\n').slice(0, 2).join('\n'));
    testInfo.annotations.push({
      type: 'random',
      description: `${result.sent} requests in ${Date.now() - started} ms`,
    });
    expect.soft(result.crashed, summary).toBeUndefined();
    expect.soft(result.failures.length, summary).toBe(0);
  });

  await test.step('the product is still up, and the fuzz sent at least 10,000 requests', async () => {
    expect(await healthy(), 'GET /healthz answers 200').toBe(true);
    expect((await api.get('/api/posts/post-types')).status()).toBe(200);
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
  await api.dispose();
});
