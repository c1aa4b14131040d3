// `npm test -w e2e`: the browser suite in lanes (lanes.ts). The spec files are shared out before the run, longest
// first to the lane with the least time so far, by the seconds each took when durations.json was last written;
// each lane is one Playwright run with one browser against its own product. Its output is prefixed with its lane;
// the exit code is non-zero when any lane fails. With arguments (a spec file, a -g filter…), or against a product
// already up (E2E_BASE_URL), it is one Playwright run, as `playwright test` alone would be. After a run, the
// files' measured seconds are written to test-results/durations.json: copy it over durations.json when the
// suite's shape has changed.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { laneOf } from './lanes.ts';

const HERE = import.meta.dirname;
const PLAYWRIGHT = join(HERE, '..', 'node_modules', '.bin', 'playwright');
const LANES = Number(process.env.E2E_LANES ?? 2);
/** E2E_FIRST_LANE=1: the lanes from 1 on, leaving lane 0's ports (the product `npm start` runs) alone. */
const FIRST_LANE = Number(process.env.E2E_FIRST_LANE ?? 0);

const passThrough = process.argv.slice(2);
// A deployment already up (E2E_BASE_URL) is one product: its journeys go one at a time.
if (passThrough.length > 0 || LANES === 1 || process.env.E2E_BASE_URL) {
  const run = spawnSync(PLAYWRIGHT, ['test', ...passThrough], { cwd: HERE, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

interface Suite {
  file: string;
  suites?: Suite[];
  specs?: { tests: { results: { duration: number }[] }[] }[];
}

/** The spec files this configuration runs (its testIgnore applied), as Playwright names them. */
function specFiles(): string[] {
  const listed = spawnSync(PLAYWRIGHT, ['test', '--list', '--reporter=json'], {
    cwd: HERE,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) {
    process.stderr.write(listed.stderr);
    throw new Error(`playwright test --list exited ${listed.status}`);
  }
  return (JSON.parse(listed.stdout) as { suites: Suite[] }).suites.map((suite) => suite.file);
}

/** Longest first, each to the lane with the least so far: within about one file's time of even. */
function shareOut(files: string[], seconds: Record<string, number>, lanes: number): string[][] {
  const known = Object.values(seconds).sort((a, b) => a - b);
  const typical = known[Math.floor(known.length / 2)] ?? 30;
  const plan = Array.from({ length: lanes }, () => ({ files: [] as string[], total: 0 }));
  const longestFirst = [...files].sort((a, b) => (seconds[b] ?? typical) - (seconds[a] ?? typical));
  for (const file of longestFirst) {
    const lane = plan.reduce((least, each) => (each.total < least.total ? each : least));
    lane.files.push(file);
    lane.total += seconds[file] ?? typical;
  }
  return plan.map((lane) => lane.files);
}

/** Seconds per spec file in a Playwright JSON report (every test's attempts, hooks excluded). */
function secondsPerFile(report: { suites: Suite[] }): Record<string, number> {
  const sum = (suite: Suite): number =>
    (suite.specs ?? []).reduce(
      (total, spec) =>
        total +
        spec.tests.reduce(
          (all, test) => all + test.results.reduce((each, result) => each + result.duration, 0),
          0,
        ),
      0,
    ) + (suite.suites ?? []).reduce((total, inner) => total + sum(inner), 0);
  return Object.fromEntries(report.suites.map((suite) => [suite.file, Math.round(sum(suite) / 1000)]));
}

const seconds = JSON.parse(readFileSync(join(HERE, 'durations.json'), 'utf8')) as Record<string, number>;
const plan = shareOut(specFiles(), seconds, LANES).filter((files) => files.length > 0);
const reports: string[] = [];
const running: ReturnType<typeof spawn>[] = [];
const started = performance.now();
const exits = plan.map((files, position) => {
  const index = FIRST_LANE + position;
  const lane = laneOf(String(index));
  const expected = files.reduce((total, file) => total + (seconds[file] ?? 0), 0);
  console.log(
    `e2e lane ${index}: ${files.length} files (about ${expected} s when last measured), ${lane.baseURL}`,
  );
  const outputDir = join(HERE, lane.outputDir);
  // Written when the run ends; Playwright empties its output folder only as it starts.
  const report = join(outputDir, 'lane-report.json');
  reports.push(report);
  const child = spawn(PLAYWRIGHT, ['test', '--reporter=list,json', ...files.map((file) => `tests/${file}`)], {
    cwd: HERE,
    env: { ...process.env, E2E_LANE: String(index), PLAYWRIGHT_JSON_OUTPUT_NAME: report, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => console.log(`[lane ${index}] ${line}`));
  return new Promise<number>((done) => child.once('exit', (code, signal) => done(signal ? 1 : (code ?? 1))));
});
// Stopped: each Playwright run is interrupted as by Ctrl-C, which stops its browser and the product it started.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of running) child.kill('SIGINT');
  });

const codes = await Promise.all(exits);
const measured: Record<string, number> = {};
for (const report of reports) {
  try {
    Object.assign(measured, secondsPerFile(JSON.parse(readFileSync(report, 'utf8')) as { suites: Suite[] }));
  } catch {
    // A lane that failed before its report: its own output says why.
  }
}
mkdirSync(join(HERE, 'test-results'), { recursive: true });
writeFileSync(join(HERE, 'test-results', 'durations.json'), `${JSON.stringify(measured, null, 2)}\n`);
const failedLanes = codes.flatMap((code, position) => (code === 0 ? [] : [FIRST_LANE + position]));
console.log(
  `e2e: ${plan.length} lanes in ${Math.round((performance.now() - started) / 1000)} s; ` +
    (failedLanes.length === 0
      ? 'all passed'
      : `lane ${failedLanes.join(' and ')} failed (see its lines above)`),
);
process.exit(failedLanes.length === 0 ? 0 : 1);
