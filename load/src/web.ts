// `npm run bench -- web`: the first load of the web app with an empty cache, in Debian's Chromium driven over the
// DevTools protocol: /public-square as a visitor and /directory as a signed-in member, on a desktop (1280×800,
// unthrottled) and on a phone (400 px, 4× CPU slowdown, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up). Prints, per
// page and profile, the median over BENCH_WEB_RUNS loads of the requests, the bytes over the wire by kind (as sent:
// compressed when the server compressed), whether text arrived compressed, FCP and LCP, judged against issue 19's
// targets, and writes bench-results/web.json.
import { type Browser, type CDPSession, chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { DEMO_MEMBER } from '../k6/journeys.js';
import type { BenchContext } from './replicas.ts';
import {
  KINDS,
  type Kind,
  kindOf,
  type LoadedResponse,
  medianRun,
  type ProfileName,
  type Run,
  TARGETS,
  totals,
  type Verdict,
  verdicts,
} from './web-metrics.ts';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
/** The longest wait for one step of a load (navigation, first cards, network idle) before the bench gives up. */
const STEP_TIMEOUT_MS = 60_000;

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
}

const SCREENS: Screen[] = [
  { path: '/public-square', who: 'visitor', firstCard: 'article.post-card', cardName: 'post cards' },
  { path: '/directory', who: 'member', firstCard: 'a.dir-card', cardName: 'people cards' },
];

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
  return {
    unfinished: () => [...requests.values()].filter((request) => !request.finished).length,
    all: () => [...requests.values()],
  };
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
    const response = await within(
      `${url} did not load`,
      page.goto(url, { waitUntil: 'load', timeout: STEP_TIMEOUT_MS }),
    );
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
    await within(
      `${screen.path} showed no ${screen.cardName} (${screen.firstCard})`,
      page.locator(screen.firstCard).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS }),
    );
    await within(
      `${screen.path} kept the network busy`,
      page.waitForLoadState('networkidle', { timeout: STEP_TIMEOUT_MS }),
    );
    const settled = performance.now() + 5000;
    while (network.unfinished() > 0 && performance.now() < settled)
      await new Promise((resolve) => setTimeout(resolve, 50));
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
    'page'.padEnd(26),
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
      `${result.path} (${result.who})`.padEnd(26),
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
    failed.length === 0 ? '  every target met' : `  ${failed.length} target(s) not met (targets: issue 19)`,
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
    // One unmeasured load of each screen first: the product's first answers after a start (cold code paths,
    // first queries) are not what a member's first visit meets.
    for (const screen of SCREENS) await loadOnce(browser, base, screen, PROFILES[0] as Profile);
    const results: Result[] = [];
    for (const profile of PROFILES)
      for (const screen of SCREENS) {
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
          verdicts: verdicts(screen.path, profile.name, median),
        });
      }
    printResults(print, results, version);
    save('web', {
      chromium: version,
      runs: RUNS,
      profiles: PROFILES,
      targets: TARGETS,
      pass: results.every((result) => result.verdicts.every((verdict) => verdict.pass)),
      results,
    });
  } finally {
    await browser?.close().catch(() => {});
    await stopProduct(child);
  }
}
