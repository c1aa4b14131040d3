// `npm run test:engines`: starts the real engines (a fresh set, on free ports), runs the contract suites that
// need them — identity on Keycloak, search on the search engine, object store on the S3 server — with
// ENGINES_REQUIRED=true so a suite that would skip fails instead, while the product starts on the engines
// (`npm start` with their environment; web apps built when missing); then runs the browser login journeys in
// Keycloak mode (journeys.ts), and last the suites of what each adapter does while its engine is stopped and
// started again (outage-control.ts). Prints `N passed, M failed, K skipped` over both, stops everything and exits
// non-zero on any failure or skip: every journey runs in Keycloak mode too. When a journey fails, the last
// warnings and errors of keycloak.log and product.log are printed before that line (log-excerpt.ts): CI keeps
// only the output.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Engines, startEngines } from './index.ts';
import {
  JOURNEY_ACCESS_TOKEN_SECONDS,
  type JourneyCounts,
  productPortBase,
  productUrl,
  type RunningProduct,
  runJourneys,
  startProduct,
} from './journeys.ts';
import { logExcerpt } from './log-excerpt.ts';
import { startOutageControl } from './outage-control.ts';

const REPO = resolve(import.meta.dirname, '../../..');

/** The suites that run against the engines, relative to the repo. */
const ENGINE_SUITES = [
  'services/auth/test/keycloak-identity.test.ts',
  'services/auth/test/keycloak-agencies.test.ts',
  'packages/search/test/elasticsearch.test.ts',
  'packages/images/test/object-store.test.ts',
];

/** The suites that stop an engine and start it again: after the others, one file at a time. */
const OUTAGE_SUITES = [
  'services/auth/test/keycloak-outage.test.ts',
  'packages/images/test/object-store-outage.test.ts',
  'packages/search/test/elasticsearch-outage-engine.test.ts',
];

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numFailedTestSuites: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const started = performance.now();
let engines: Engines | undefined;
let vitest: ChildProcess | undefined;
let playwright: ChildProcess | undefined;
let product: RunningProduct | undefined;
let exiting = false;

const isRunning = (child: ChildProcess | undefined) =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

async function finish(code: number): Promise<never> {
  exiting = true;
  // Interrupted mid-run: the suites and the browser go first, then the product, so nothing keeps running
  // against stopped engines.
  for (const child of [vitest, playwright]) if (isRunning(child)) child?.kill('SIGTERM');
  if (product) {
    console.log('test:engines: stopping the product');
    await product.stop();
  }
  if (engines) {
    console.log('test:engines: stopping the engines');
    await engines.stop();
  }
  process.exit(code);
}
/** After an interrupt, the run goes no further: finish() is stopping everything and exits. */
const unlessInterrupted = () => (exiting ? new Promise<never>(() => {}) : Promise.resolve());
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (!exiting) void finish(signal === 'SIGINT' ? 130 : 143);
  });

console.log('test:engines: starting the engines (built into the cache outside the clone when missing)');
const productBase = await productPortBase();
try {
  engines = await startEngines({
    instance: 'test',
    fresh: true,
    portBase: 'free',
    publicUrl: productUrl(productBase),
    accessTokenSeconds: JOURNEY_ACCESS_TOKEN_SECONDS,
    say: (line) => console.log(`  ${line}`),
  });
} catch (error) {
  console.error(`test:engines: the engines did not start: ${(error as Error).message}`);
  console.log('0 passed, 1 failed');
  await finish(1);
}
const running = engines as Engines;
const ready = performance.now();

const control = await startOutageControl(running, (line) => console.log(`  ${line}`));

/** Runs `files` with vitest against the engines (`serial`: one file at a time); its exit code and counts. */
async function runSuites(
  files: string[],
  serial: boolean,
): Promise<{ code: number | null; counts?: VitestJson }> {
  const output = mkdtempSync(join(tmpdir(), 'rotunda-test-engines-'));
  const report = join(output, 'vitest.json');
  vitest = spawn(
    join(REPO, 'node_modules/.bin/vitest'),
    [
      'run',
      ...files,
      ...(serial ? ['--no-file-parallelism'] : []),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    {
      cwd: REPO,
      stdio: 'inherit',
      env: { ...process.env, ...running.env, ENGINES_REQUIRED: 'true', ENGINES_CONTROL_URL: control.url },
    },
  );
  const suites = vitest;
  const code = await new Promise<number | null>((done) => suites.once('exit', (exit) => done(exit)));
  let counts: VitestJson | undefined;
  try {
    counts = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
  } catch {
    // No report: vitest itself failed (its output above says why).
  }
  rmSync(output, { recursive: true, force: true });
  return counts ? { code, counts } : { code };
}

// The product starts while the contract suites run (they use the engines, not the product); the suites that stop
// an engine run once the browser journeys are done, so that no journey meets an engine on its way back.
console.log('test:engines: starting the product on the engines while the contract suites run');
const productStarting = startProduct(running.env, join(running.folder, 'logs/product.log'), productBase).then(
  (started) => ({ started, error: undefined }),
  (error: Error) => ({ started: undefined, error }),
);
const contract = await runSuites(ENGINE_SUITES, false);
await unlessInterrupted();
const contractDone = performance.now();

let journeys: JourneyCounts | undefined;
const starting = await productStarting;
await unlessInterrupted();
if (starting.started) {
  product = starting.started;
  console.log(
    `test:engines: the product answers at ${product.url} (${seconds(performance.now() - ready)} after the engines); the browser journeys in Keycloak mode`,
  );
  try {
    journeys = await runJourneys(product, running.env, (child) => {
      playwright = child;
    });
  } catch (error) {
    await unlessInterrupted();
    console.error(`test:engines: the browser journeys did not run: ${(error as Error).message}`);
  }
} else {
  console.error(`test:engines: the product did not start: ${starting.error?.message}`);
  console.error(`  its log: ${join(running.folder, 'logs/product.log')}`);
}
await unlessInterrupted();
const journeysDone = performance.now();
if (product) {
  console.log('test:engines: stopping the product');
  await product.stop();
  product = undefined;
}

const outages = await runSuites(OUTAGE_SUITES, true);
await control.close();
await unlessInterrupted();
const outagesDone = performance.now();
const runs = [contract, outages];
const vitestCode = runs.every((run) => run.code === 0) ? 0 : 1;
const counts: VitestJson | undefined = runs.every((run) => run.counts)
  ? {
      numPassedTests: runs.reduce((sum, run) => sum + (run.counts?.numPassedTests ?? 0), 0),
      numFailedTests: runs.reduce((sum, run) => sum + (run.counts?.numFailedTests ?? 0), 0),
      numPendingTests: runs.reduce((sum, run) => sum + (run.counts?.numPendingTests ?? 0), 0),
      numTodoTests: runs.reduce((sum, run) => sum + (run.counts?.numTodoTests ?? 0), 0),
      numFailedTestSuites: runs.reduce((sum, run) => sum + (run.counts?.numFailedTestSuites ?? 0), 0),
    }
  : undefined;

console.log('\ntest:engines: the engines');
for (const [name, { fetchMs, startMs }] of Object.entries(running.timings))
  console.log(`  ${name}: fetched in ${seconds(fetchMs)}, healthy ${seconds(startMs)} after its start`);
console.log(
  `  engines ready after ${seconds(ready - started)}; contract suites took ${seconds(contractDone - ready)}; ` +
    `product and browser journeys done ${seconds(journeysDone - ready)} after the engines; ` +
    `outage suites took ${seconds(outagesDone - journeysDone)}`,
);
const passed = (counts?.numPassedTests ?? 0) + (journeys?.passed ?? 0);
const failed = (counts?.numFailedTests ?? 0) + (counts ? 0 : 1) + (journeys ? journeys.failed : 1);
const skipped = (counts?.numPendingTests ?? 0) + (counts?.numTodoTests ?? 0) + (journeys?.skipped ?? 0);
const suiteErrors = counts?.numFailedTestSuites ?? 0;
const code =
  failed > 0 || skipped > 0 || suiteErrors > 0 || vitestCode !== 0 || journeys?.exitCode !== 0 ? 1 : 0;
if (!journeys || journeys.failed > 0 || journeys.exitCode !== 0) {
  // CI keeps only the output: the logs' own account of a failed journey (a refused renewal, an exchange Keycloak
  // turned down, a service's error) goes into it, where its tail shows.
  console.log('\ntest:engines: the journeys failed; what Keycloak and the product logged');
  for (const name of ['keycloak.log', 'product.log'])
    console.log(logExcerpt(name, join(running.folder, 'logs', name)));
}
console.log('test:engines: stopping the engines');
await running.stop();
engines = undefined;
// The closing line, after everything else.
console.log(
  `${passed} passed, ${failed} failed, ${skipped} skipped; ${seconds(performance.now() - started)} in all`,
);
await finish(code);
