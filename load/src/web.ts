// `npm run bench -- web`: the first load of the web app with an empty cache, in Debian's Chromium driven over the
// DevTools protocol: /public-square as a visitor and /directory as a signed-in member, on a desktop (1280×800,
// unthrottled) and on a phone (400 px, 4× CPU slowdown, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up). Prints, per
// page and profile, the median over BENCH_WEB_RUNS loads of the requests, the bytes over the wire by kind (as sent:
// compressed when the server compressed), whether text arrived compressed, FCP and LCP, judged against
// ADR 0030's targets, and writes bench-results/web.json. A visitor's /public-square and a post address (the
// first post of the square's first page) are also measured, in the same run and profiles, against the same
// first screen saved as static HTML (scripts removed, same CSS and images; web-metrics.ts staticCopyOf) that
// the same gateway serves: the app's LCP over the static copy's is what the app costs over its physical limit
// (ADR 0053: ≤ 1.3×).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type CDPSession, chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { DEMO_MEMBER } from '../k6/journeys.js';
import type { BenchContext } from './bench-context.ts';
import {
  KINDS,
  type Kind,
  kindOf,
  type LoadedResponse,
  medianRun,
  type ProfileName,
  type Run,
  staticCopyOf,
  staticRatioVerdict,
  TARGETS,
  totals,
  type Verdict,
  verdicts,
} from './web-metrics.ts';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
/** The longest wait for one step of a load (navigation, first cards, network idle) before the bench gives up. */
const STEP_TIMEOUT_MS = 60_000;
/** How long the network must stay quiet for a load to count as settled (as Playwright's networkidle). */
const QUIET_MS = 500;

interface Profile {
  name: ProfileName;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  /** Network.emulateNetworkConditions and Emulation.setCPUThrottlingRate; none: unthrottled. */
  throttling?: { latencyMs: number; downloadBytesPerS: number; uploadBytesPerS: number; cpuSlowdown: number };
}

const PROFILES: Profile[] = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  {
    name: 'phone',
    viewport: { width: 400, height: 800 },
    deviceScaleFactor: 2,
    isMobile: true,
    throttling: { latencyMs: 150, downloadBytesPerS: 200_000, uploadBytesPerS: 93_750, cpuSlowdown: 4 },
  },
];

interface Screen {
  path: string;
  who: 'visitor' | 'member';
  /** The first cards of the screen's list: the load counts as settled once one shows (and the network is idle). */
  firstCard: string;
  cardName: string;
  /** The app's page this one is the static copy of. */
  staticOf?: string;
}

/** Where the static copies are written: the shell's build, which the gateway serves as it is. */
const STATIC_FOLDER = 'bench-static';
const STATIC_DIR = new URL(`../../shell/dist/${STATIC_FOLDER}/`, import.meta.url).pathname;

/** The screens measured: the square and a post address for a visitor (each with its static copy), a member's directory. */
function screensFor(postId: number): { app: Screen[]; copies: Screen[] } {
  const square: Screen = {
    path: '/public-square',
    who: 'visitor',
    firstCard: 'article.post-card',
    cardName: 'post cards',
  };
  const post: Screen = {
    path: `/public-square/post/${postId}`,
    who: 'visitor',
    firstCard: 'dialog[open] .read-post__body',
    cardName: 'read dialog',
  };
  const copy = (screen: Screen, name: string): Screen => ({
    ...screen,
    path: `/${STATIC_FOLDER}/${name}.html`,
    staticOf: screen.path,
  });
  return {
    app: [
      square,
      post,
      { path: '/directory', who: 'member', firstCard: 'a.dir-card', cardName: 'people cards' },
    ],
    copies: [copy(square, 'public-square'), copy(post, 'post')],
  };
}

/** The first post of the square's first page, whose address is measured. */
async function firstPostId(base: string): Promise<number> {
  const response = await fetch(`${base}/api/posts/all`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offset: 0, limit: 20, sort: 'recent' }),
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  const [first] = (await response.json()) as { post_id: number }[];
  if (!first)
    throw new Error('the public square has no post to measure an address of: seed the product first');
  return first.post_id;
}

/** Writes `copy`: the app's page as rendered once settled (desktop, unthrottled), as static HTML. */
async function saveStaticCopy(browser: Browser, base: string, app: Screen, copy: Screen): Promise<void> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await within(`${app.path} did not load`, page.goto(`${base}${app.path}`, { timeout: STEP_TIMEOUT_MS }));
    await within(
      `${app.path} showed no ${app.cardName}`,
      page.locator(app.firstCard).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS }),
    );
    await page.waitForLoadState('networkidle', { timeout: STEP_TIMEOUT_MS });
    writeFileSync(
      join(STATIC_DIR, copy.path.slice(`/${STATIC_FOLDER}/`.length)),
      staticCopyOf(await page.content()),
    );
  } finally {
    await context.close().catch(() => {});
  }
}

/** What the app keeps in localStorage 'auth' once signed in (packages/session), from POST /auth/login. */
async function signIn(base: string): Promise<unknown> {
  const response = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_MEMBER),
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
  });
  if (!response.ok)
    throw new Error(`login of ${DEMO_MEMBER.email} answered ${response.status}: ${await response.text()}`);
  const { token, refreshToken, user } = (await response.json()) as Record<string, unknown>;
  return { token, refreshToken, isAuthenticated: true, loading: false, user };
}

/** Awaits `step`, or fails naming what did not happen in time. */
async function within<T>(what: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`${what} (waited up to ${STEP_TIMEOUT_MS / 1000} s): ${reason}`);
  }
}

interface Pending {
  url: string;
  resourceType: string;
  mimeType: string;
  contentEncoding: string;
  status: number;
  decodedBytes: number;
  encodedBytes: number;
  finished: boolean;
  failure?: string;
}

/** Records every http(s) request of the page from the DevTools protocol's Network events. */
function recordNetwork(cdp: CDPSession) {
  const requests = new Map<string, Pending>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (!/^https?:/.test(event.request.url) || requests.has(event.requestId)) return;
    requests.set(event.requestId, {
      url: event.request.url,
      resourceType: event.type ?? 'Other',
      mimeType: '',
      contentEncoding: '',
      status: 0,
      decodedBytes: 0,
      encodedBytes: 0,
      finished: false,
    });
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.resourceType = event.type;
    request.mimeType = event.response.mimeType;
    request.status = event.response.status;
    const encoding = Object.entries(event.response.headers).find(
      ([name]) => name.toLowerCase() === 'content-encoding',
    );
    request.contentEncoding = encoding ? String(encoding[1]) : '';
  });
  cdp.on('Network.dataReceived', (event) => {
    const request = requests.get(event.requestId);
    if (request) request.decodedBytes += event.dataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.encodedBytes = event.encodedDataLength;
    request.finished = true;
  });
  cdp.on('Network.loadingFailed', (event) => {
    const request = requests.get(event.requestId);
    if (!request) return;
    request.failure = event.errorText;
    request.finished = true;
  });
  // A stream of events (the member's notification count) stays open as long as the page: it is never "finished".
  const isStream = (request: Pending) => request.mimeType === 'text/event-stream';
  return {
    unfinished: () =>
      [...requests.values()].filter((request) => !request.finished && !isStream(request)).length,
    all: () => [...requests.values()].filter((request) => request.finished || !isStream(request)),
  };
}

/** Waits until no request but an event stream has been open for QUIET_MS: networkidle, streams aside. */
async function quietNetwork(network: ReturnType<typeof recordNetwork>): Promise<void> {
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  let quietSince = performance.now();
  while (performance.now() - quietSince < QUIET_MS) {
    if (performance.now() > deadline) throw new Error(`${network.unfinished()} request(s) still open`);
    if (network.unfinished() > 0) quietSince = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** FCP and LCP from the page's own performance timeline (LCP is only observable, never listed). */
function paintTimes(): Promise<{ fcpMs: number; lcpMs: number }> {
  return new Promise((resolve) => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
    let lcp = Number.NaN;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) lcp = entry.startTime;
    });
    // Runs in Chromium; Node's types, which this file is checked against, list only Node's entry types.
    observer.observe({ type: 'largest-contentful-paint' as 'mark', buffered: true });
    // Buffered entries arrive in a task of their own; this leaves them time to.
    setTimeout(() => resolve({ fcpMs: fcp, lcpMs: lcp }), 250);
  });
}

interface Measured extends Run {
  /** Requests that failed or answered ≥ 400: a load that is not what a member gets. */
  problems: string[];
  /** Every response, largest first, for finding what to trim (web.json only). */
  files: { path: string; kind: Kind; encodedBytes: number; decodedBytes: number; contentEncoding: string }[];
}

/** One first load of `screen` in a fresh browser context (empty cache, the HTTP cache disabled besides). */
async function loadOnce(browser: Browser, base: string, screen: Screen, profile: Profile): Promise<Measured> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
    serviceWorkers: 'block',
  });
  try {
    if (screen.who === 'member')
      await context.addInitScript(
        (auth) => localStorage.setItem('auth', JSON.stringify(auth)),
        await signIn(base),
      );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const network = recordNetwork(cdp);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (profile.throttling) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: profile.throttling.latencyMs,
        downloadThroughput: profile.throttling.downloadBytesPerS,
        uploadThroughput: profile.throttling.uploadBytesPerS,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.throttling.cpuSlowdown });
    }
    const url = `${base}${screen.path}`;
    // What went wrong in the page, for a load that never shows its cards.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const response = await within(
      `${url} did not load`,
      page.goto(url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS }),
    );
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
    await within(
      `${screen.path} showed no ${screen.cardName} (${screen.firstCard})`,
      page.locator(screen.firstCard).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS }),
    ).catch(async (error: Error) => {
      const shown = (
        (await page
          .locator('#root')
          .textContent()
          .catch(() => '')) ?? ''
      ).slice(0, 300);
      throw new Error(
        `${error.message}; page errors: ${errors.join(' | ') || 'none'}; the page shows: ${shown}`,
      );
    });
    await within(`${screen.path} kept the network busy`, quietNetwork(network));
    const paints = await within(`${screen.path}: reading its paint times failed`, page.evaluate(paintTimes));
    const requests = network.all();
    const responses: LoadedResponse[] = requests.filter((request) => request.finished && !request.failure);
    const problems = requests
      .filter((request) => request.failure || request.status >= 400 || !request.finished)
      .map(
        (request) =>
          `${request.url}: ${request.failure ?? (request.finished ? request.status : 'unfinished')}`,
      );
    const files = responses
      .map((response) => ({
        path: response.url.startsWith(base) ? response.url.slice(base.length) : response.url,
        kind: kindOf(response.resourceType, response.mimeType),
        encodedBytes: response.encodedBytes,
        decodedBytes: response.decodedBytes,
        contentEncoding: response.contentEncoding,
      }))
      .sort((a, b) => b.encodedBytes - a.encodedBytes);
    return { ...totals(responses), requests: requests.length, ...paints, problems, files };
  } finally {
    await context.close().catch(() => {});
  }
}

interface Result {
  path: string;
  who: Screen['who'];
  profile: ProfileName;
  runs: Measured[];
  median: Run;
  verdicts: Verdict[];
  staticOf?: string;
}

interface Comparison {
  path: string;
  profile: ProfileName;
  appLcpMs: number;
  staticLcpMs: number;
  javascriptBytes: number;
  verdict: Verdict;
}

/** Each app page against its static copy, profile by profile. */
function compare(results: readonly Result[]): Comparison[] {
  return results.flatMap((copy) => {
    const app = results.find((result) => result.path === copy.staticOf && result.profile === copy.profile);
    if (!copy.staticOf || !app) return [];
    return [
      {
        path: app.path,
        profile: app.profile,
        appLcpMs: app.median.lcpMs,
        staticLcpMs: copy.median.lcpMs,
        javascriptBytes: app.median.wireBytes.javascript,
        verdict: staticRatioVerdict(app.median, copy.median),
      },
    ];
  });
}

function printComparisons(print: (text?: string) => void, comparisons: readonly Comparison[]) {
  print('\n  the app against the same first screen as static HTML (scripts removed), same run and profile:');
  for (const comparison of comparisons) {
    const { verdict } = comparison;
    print(
      `  ${`${comparison.path} (${comparison.profile})`.padEnd(34)} LCP app ${ms(comparison.appLcpMs)} ms, static ${ms(comparison.staticLcpMs)} ms: ${
        Number.isFinite(verdict.value) ? verdict.value.toFixed(2) : '–'
      }× ≤ ${verdict.limit}× ${verdict.pass ? '✓ pass' : '✗ fail'}; JS ${kb(comparison.javascriptBytes)} KB`,
    );
  }
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '–');
const KIND_LABELS: Record<Kind, string> = {
  javascript: 'JS',
  css: 'CSS',
  font: 'font',
  image: 'img',
  json: 'JSON',
  html: 'HTML',
  other: 'other',
};

function verdictText(verdict: Verdict): string {
  const mark = verdict.pass ? '✓ pass' : '✗ fail';
  return verdict.what === 'lcpMs'
    ? `LCP ${ms(verdict.value)} ms ≤ ${verdict.limit} ms ${mark}`
    : `JS ${kb(verdict.value)} KB ≤ ${kb(verdict.limit)} KB ${mark}`;
}

function printResults(print: (text?: string) => void, results: Result[], version: string) {
  print(
    `\nweb first load with an empty cache, median of ${RUNS} loads each (Chromium ${version}; KB = 1,000 bytes over the wire, headers included, as sent)`,
  );
  print('  desktop: 1280×800, unthrottled; phone: 400×800, 4× CPU slowdown, 150 ms latency, 1.6 Mbit/s down');
  const head = [
    'page'.padEnd(34),
    'profile'.padEnd(8),
    'reqs'.padStart(5),
    ...KINDS.map((kind) => `${KIND_LABELS[kind]} KB`.padStart(9)),
    'total KB'.padStart(9),
    'FCP ms'.padStart(7),
    'LCP ms'.padStart(7),
    '  compressed text',
  ];
  print(`  ${head.join(' ')}`);
  for (const result of results) {
    const run = result.median;
    const encodings = Object.entries(run.encodings)
      .map(([encoding, count]) => `${encoding} ${count}`)
      .join(', ');
    const cells = [
      `${result.path} (${result.staticOf ? 'static' : result.who})`.padEnd(34),
      result.profile.padEnd(8),
      String(run.requests).padStart(5),
      ...KINDS.map((kind) => kb(run.wireBytes[kind]).padStart(9)),
      kb(run.wireBytes.total).padStart(9),
      ms(run.fcpMs).padStart(7),
      ms(run.lcpMs).padStart(7),
      `  ${run.compressedTextResponses}/${run.textResponses}${encodings ? ` (${encodings})` : ''}`,
    ];
    print(`  ${cells.join(' ')}`);
    const lcps = result.runs.map((r) => ms(r.lcpMs)).join(', ');
    print(
      `      ${result.verdicts.map(verdictText).join('; ')}  (LCP per load: ${lcps} ms; JS decoded ${kb(run.javascriptDecodedBytes)} KB)`,
    );
    for (const problem of new Set(result.runs.flatMap((r) => r.problems))) print(`      ! ${problem}`);
  }
  const failed = results.flatMap((result) => result.verdicts.filter((verdict) => !verdict.pass));
  print(
    failed.length === 0
      ? '  every target met'
      : `  ${failed.length} target(s) not met (targets: docs/benchmarks.md, web)`,
  );
}

export async function benchWeb({
  port,
  startProduct,
  stopProduct,
  save,
  print,
}: BenchContext): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  // Builds the web apps first if a build is missing; /healthz answers only once they are served.
  const { child } = await startProduct({});
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(chromiumLaunchOptions).catch((error: Error) => {
      throw new Error(
        `Chromium did not start (${chromiumLaunchOptions.executablePath ?? "Playwright's own download"}): ${error.message.split('\n')[0]}`,
      );
    });
    const version = browser.version();
    const { app, copies } = screensFor(await firstPostId(base));
    // One unmeasured load of each screen first: the product's first answers after a start (cold code paths,
    // first queries) are not what a member's first visit meets.
    for (const screen of app) await loadOnce(browser, base, screen, PROFILES[0] as Profile);
    mkdirSync(STATIC_DIR, { recursive: true });
    for (const copy of copies) {
      const of = app.find((screen) => screen.path === copy.staticOf) as Screen;
      await saveStaticCopy(browser, base, of, copy);
    }
    const results: Result[] = [];
    for (const profile of PROFILES)
      for (const screen of [...app, ...copies]) {
        const runs: Measured[] = [];
        for (let run = 1; run <= RUNS; run++)
          runs.push(
            await loadOnce(browser, base, screen, profile).catch((error: Error) => {
              throw new Error(`${screen.path} (${profile.name}, load ${run} of ${RUNS}): ${error.message}`);
            }),
          );
        const median = medianRun(runs);
        results.push({
          path: screen.path,
          who: screen.who,
          profile: profile.name,
          runs,
          median,
          verdicts: screen.staticOf ? [] : verdicts(screen.path, profile.name, median),
          staticOf: screen.staticOf,
        });
      }
    const comparisons = compare(results);
    printResults(print, results, version);
    printComparisons(print, comparisons);
    save('web', {
      chromium: version,
      runs: RUNS,
      profiles: PROFILES,
      targets: TARGETS,
      pass:
        results.every((result) => result.verdicts.every((verdict) => verdict.pass)) &&
        comparisons.every((comparison) => comparison.verdict.pass),
      results,
      comparisons,
    });
  } finally {
    rmSync(STATIC_DIR, { recursive: true, force: true });
    await browser?.close().catch(() => {});
    await stopProduct(child);
  }
}
