// The browser login journeys in Keycloak mode: `npm start` (packages/apphost) on the real engines — its own free
// ports, a throwaway data folder, Keycloak, the S3 server and the search engine from the engines' environment —
// then Playwright's login, registration, password-reset and session specs against it (e2e/). Used by
// test-engines.ts. The product runs supervised like an engine: its own process group, stopped on request, and
// ended by the watchdog if this process dies.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isFree } from './layout.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';

const REPO = resolve(import.meta.dirname, '../../..');

/** The specs run in Keycloak mode (login.spec.ts also shows the contributor's Concierge stars; agency sign-in only here). */
const JOURNEY_SPECS = [
  'tests/agency-sign-in.spec.ts',
  'tests/login.spec.ts',
  'tests/registration.spec.ts',
  'tests/password-reset.spec.ts',
  'tests/session-lifetime.spec.ts',
];

/**
 * The apphost's ports: the app, PostgreSQL, the unused embedded S3 port, the mail inbox (2), five gRPC; from +10
 * the metrics ports (the gateway's at +10, the five services' at +20).
 */
const PRODUCT_PORTS = 30;

/**
 * Short access tokens, as the built-in mode's browser suite has them: journeys see a renewal refused after the
 * session ended elsewhere (the realm variant test-engines.ts starts Keycloak with).
 */
export const JOURNEY_ACCESS_TOKEN_SECONDS = 20;

/**
 * The first of a free block of loopback ports for the product, below Linux's ephemeral range (32768 up) where the
 * product's own outgoing connections could take one. Chosen before Keycloak starts: its realm names the product's
 * address (agency sign-in's redirect and back-channel logout).
 */
export async function productPortBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 22_000 + Math.floor(Math.random() * 300) * PRODUCT_PORTS;
    const free = await Promise.all(Array.from({ length: PRODUCT_PORTS }, (_, i) => isFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free block of loopback ports found for the product');
}

export interface RunningProduct {
  url: string;
  mailUrl: string;
  process: Supervised;
  stop(): Promise<void>;
}

export const productUrl = (base: number) => `http://localhost:${base}`;

/** Starts the product on the engines and waits until it is healthy (building missing web apps first). */
export async function startProduct(
  engineEnv: Record<string, string>,
  logFile: string,
  base: number,
): Promise<RunningProduct> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-journeys-'));
  // As root, PostgreSQL runs as the postgres user, who must be able to reach its folder.
  chmodSync(dataDir, 0o755);
  const product = supervise({
    name: 'product',
    command: join(REPO, 'node_modules/.bin/node'),
    args: [join(REPO, 'packages/apphost/src/main.ts')],
    cwd: REPO,
    env: {
      ...process.env,
      ...engineEnv,
      PORT: String(base),
      POSTGRES_PORT: String(base + 1),
      S3_PORT: String(base + 2),
      MAILDEV_WEB_PORT: String(base + 3),
      MAILDEV_SMTP_PORT: String(base + 4),
      GRPC_PORT_BASE: String(base + 5),
      METRICS_PORT_BASE: String(base + 11),
      DATA_DIR: dataDir,
      // The realm's access-token lifespan under test (test-engines.ts): renewals happen within a journey.
      AUTH_ACCESS_TOKEN_SECONDS: String(JOURNEY_ACCESS_TOKEN_SECONDS),
      LOG_LEVEL: 'warn',
    },
    logFile,
  });
  const stop = async () => {
    // Ctrl-C to the apphost alone: it stops its services, then PostgreSQL, in that order. Whatever of its group
    // is left after that (or after 30 s) is ended as a whole.
    if (!product.hasExited()) process.kill(product.pid, 'SIGINT');
    await Promise.race([product.exited, sleep(30_000)]);
    await product.stop(5_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // A fresh clone builds the five web apps first (minutes on 2 cores).
    await waitHealthy(product, `http://127.0.0.1:${base}/healthz`, 900_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: productUrl(base), mailUrl: `http://localhost:${base + 3}`, process: product, stop };
}

export interface JourneyCounts {
  passed: number;
  failed: number;
  /** Skipped: a failure of the run. */
  skipped: number;
  /** Playwright's exit code (null: a signal). */
  exitCode: number | null;
}

interface PlaywrightSpec {
  tests: { status: 'expected' | 'unexpected' | 'skipped' | 'flaky' }[];
}
interface PlaywrightSuite {
  specs?: PlaywrightSpec[];
  suites?: PlaywrightSuite[];
}

function specsOf(suite: PlaywrightSuite): PlaywrightSpec[] {
  return [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specsOf)];
}

/** Runs the journeys against the product; `started` receives Playwright's process so an interrupt can end it. */
export async function runJourneys(
  product: RunningProduct,
  engineEnv: Record<string, string>,
  started: (playwright: ReturnType<typeof spawn>) => void,
): Promise<JourneyCounts> {
  const output = mkdtempSync(join(tmpdir(), 'rotunda-journeys-report-'));
  const report = join(output, 'playwright.json');
  const playwright = spawn(
    join(REPO, 'node_modules/.bin/playwright'),
    ['test', ...JOURNEY_SPECS, '--reporter=list,json'],
    {
      cwd: join(REPO, 'e2e'),
      stdio: 'inherit',
      env: {
        ...process.env,
        E2E_BASE_URL: product.url,
        E2E_MAILDEV_URL: product.mailUrl,
        E2E_IDENTITY_PROVIDER: 'keycloak',
        // The agency sign-in journeys act as the agencies' IT offices on their realms.
        E2E_KEYCLOAK_URL: engineEnv.KEYCLOAK_URL,
        E2E_KEYCLOAK_ADMIN_PASSWORD: engineEnv.KEYCLOAK_ADMIN_PASSWORD,
        PLAYWRIGHT_JSON_OUTPUT_FILE: report,
      },
    },
  );
  started(playwright);
  const exitCode = await new Promise<number | null>((done) => playwright.once('exit', (code) => done(code)));
  const counts: JourneyCounts = { passed: 0, failed: 0, skipped: 0, exitCode };
  try {
    const json = JSON.parse(readFileSync(report, 'utf8')) as { suites: PlaywrightSuite[] };
    for (const spec of json.suites.flatMap(specsOf))
      for (const test of spec.tests) {
        if (test.status === 'expected') counts.passed += 1;
        else if (test.status === 'skipped') counts.skipped += 1;
        else counts.failed += 1; // unexpected, and flaky (retries are off: a flaky test failed once)
      }
  } catch {
    // No report: Playwright itself failed (its output above says why).
    counts.failed += 1;
  }
  rmSync(output, { recursive: true, force: true });
  return counts;
}
