// npm run test:stack: the production stack proven as a release is — built and started from this clone
// (`npm run stack -- up`), checked where only a running stack can be (stack-tests/), the browser suite run against
// its front door in Keycloak mode, then removed (`down`), leaving nothing behind. Not part of `npm test`: with the
// image builds it takes longer than CI's budget allows; run it before every release (README, "Production stack").
// STACK_KEEP=true leaves the stack running afterwards.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { down, MAIL_URL, STACK_URL, say, stackSetting, up } from './stack.ts';
import { step } from './step.ts';

const REPO = join(import.meta.dirname, '../../..');
/** Where the browser suite reaches Keycloak's admin API (docker-compose.yml publishes it on loopback). */
const KEYCLOAK_URL = 'http://localhost:8081';
/** Keycloak's address for the containers beside it (docker-compose.yml's service name and port). */
const KEYCLOAK_URL_IN_STACK = 'http://keycloak:8080';
/** The realm's access-token lifespan under test, as `npm run test:engines` has it: renewals show within a journey. */
const TEST_ACCESS_TOKEN_SECONDS = 20;

/** An access token for Keycloak's admin API, as its console's administrator. */
async function keycloakAdminToken(): Promise<string> {
  const login = await fetch(`${KEYCLOAK_URL}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: 'admin',
      password: stackSetting('KEYCLOAK_ADMIN_PASSWORD'),
    }),
  });
  if (!login.ok) throw new Error(`Keycloak's admin login failed with HTTP ${login.status}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

/** Shortens the realm's access tokens through Keycloak's admin API, as an operator would from its console. */
async function shortenAccessTokens(): Promise<void> {
  const token = await keycloakAdminToken();
  const updated = await fetch(`${KEYCLOAK_URL}/admin/realms/rotunda`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accessTokenLifespan: TEST_ACCESS_TOKEN_SECONDS }),
  });
  if (!updated.ok) throw new Error(`updating the realm failed with HTTP ${updated.status}`);
}

/**
 * The journeys that drive `npm start`'s own parts, which a stack has not, each proven on the stack another way:
 * agency sign-in sends the browser to the agency's Keycloak at the address Keycloak has inside the stack, which the
 * host's browser cannot resolve (the administrator's agency calls, which only Keycloak follows, run: the
 * authorization matrix registers and removes an agency); the remote rollout
 * serves a local `mf-feed/dist` in place of the product's (stack-tests/release-roll.test.ts rolls the image); the
 * digest runs `npm run admin` with `npm start`'s environment (stack.test.ts runs the image's digest job); the
 * deletion during downtime kills the processes `npm start` lists in its pids.json (stack.test.ts crashes a replica
 * and checks its restart; the outbox that completes the deletion is the same code under both).
 */
const NOT_ON_THE_STACK = [
  /agency sign-in/,
  /remote-rollout\.spec\.ts/,
  /a digest from `npm run admin -- send-digests`/,
  /a deletion made while the post service is down/,
];

/**
 * The realm that plays an agency's identity provider in `npm run test:engines` (packages/engines/realms), added to
 * the stack's Keycloak so that the administrator's agency calls register a real provider. Keycloak reads the
 * provider's metadata itself, so the suite names it by the address Keycloak has inside the stack.
 */
async function addAgencyRealm(): Promise<void> {
  // The export's placeholder for Keycloak's own address, as Keycloak's import fills it under test:engines.
  const realm = readFileSync(join(REPO, 'packages/engines/realms/realm-agency.json'), 'utf8').replace(
    /\$\{ROTUNDA_KEYCLOAK_URL\}/g,
    KEYCLOAK_URL_IN_STACK,
  );
  const added = await fetch(`${KEYCLOAK_URL}/admin/realms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await keycloakAdminToken()}`, 'content-type': 'application/json' },
    body: realm,
  });
  // 409: kept from an earlier run of a stack left up (STACK_KEEP).
  if (!added.ok && added.status !== 409)
    throw new Error(`adding the agency realm failed with HTTP ${added.status}`);
}

/** The browser suite's CPU weight, a quarter of Docker's whole group (1024 under cgroup v1, 100 under v2). */
const BROWSER_CPU = { v1: { file: 'cpu.shares', value: '256' }, v2: { file: 'cpu.weight', value: '25' } };

/**
 * A CPU control group for the browser suite, or null where this host gives none (not root, no cpu controller).
 * Members' browsers run on their own machines, never beside the servers; here Chromium and Playwright share two
 * cores with the whole stack. Under cgroup v1 each browser thread weighed as much as all the stack's containers
 * together (Docker's one parent group), so a burst of rendering starved Keycloak: a sign-in's password grant
 * waited past its 6 s and answered 503 (docs/production.md). `nice` cannot help: Chromium, as root, raises its
 * own threads' priority. In its group the browser takes what the servers leave.
 */
function browserCgroup(): string | null {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const dir = v2 ? '/sys/fs/cgroup/rotunda-browser-suite' : '/sys/fs/cgroup/cpu/rotunda-browser-suite';
  const { file, value } = v2 ? BROWSER_CPU.v2 : BROWSER_CPU.v1;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), value);
    return dir;
  } catch (error) {
    say(`the browser suite shares the CPU with the stack at full weight (${(error as Error).message})`);
    return null;
  }
}

/** Runs the command inside the control group, when there is one: the shell joins it, then becomes the command. */
function inCgroup(cgroup: string | null, command: string, args: string[]): [string, string[]] {
  if (!cgroup) return [command, args];
  return ['sh', ['-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, command, ...args]];
}

const started = performance.now();
const minutes = (since: number) => `${((performance.now() - since) / 60_000).toFixed(1)} min`;
// The browser suite reads every profile it checks as its oracle, and uploads in several specs (ADR 0038).
process.env.SEED_DEMO = 'true';
process.env.AUTH_PROFILE_READS_PER_MINUTE = '1000';
process.env.AUTH_IMAGE_UPLOADS_PER_HOUR = '1000';
const results: Record<string, number> = {};
try {
  await up();
  await shortenAccessTokens();
  await addAgencyRealm();
  const checksStarted = performance.now();
  results.checks = await step(
    join(REPO, 'node_modules/.bin/vitest'),
    ['run', '--config', 'vitest.stack.config.ts'],
    join(REPO, 'tools/stack'),
  );
  say(`stack checks: ${results.checks === 0 ? 'passed' : 'FAILED'} in ${minutes(checksStarted)}`);
  const browserStarted = performance.now();
  const cgroup = browserCgroup();
  results.browser = await step(
    ...inCgroup(cgroup, join(REPO, 'node_modules/.bin/playwright'), [
      'test',
      '--grep-invert',
      NOT_ON_THE_STACK.map((journey) => journey.source).join('|'),
    ]),
    join(REPO, 'e2e'),
    {
      ...process.env,
      E2E_BASE_URL: STACK_URL,
      E2E_MAILDEV_URL: MAIL_URL,
      E2E_IDENTITY_PROVIDER: 'keycloak',
      E2E_KEYCLOAK_URL: KEYCLOAK_URL,
      E2E_AGENCY_KEYCLOAK_URL: KEYCLOAK_URL_IN_STACK,
      E2E_KEYCLOAK_ADMIN_PASSWORD: stackSetting('KEYCLOAK_ADMIN_PASSWORD'),
    },
  );
  say(`browser suite: ${results.browser === 0 ? 'passed' : 'FAILED'} in ${minutes(browserStarted)}`);
  if (cgroup) {
    try {
      rmdirSync(cgroup);
    } catch {
      say(`${cgroup} stays: a process of the browser suite is still in it (the next run reuses the group)`);
    }
  }
} catch (error) {
  console.error(`stack: ${error instanceof Error ? error.message : String(error)}`);
  results.up = 1;
} finally {
  if (process.env.STACK_KEEP !== 'true')
    await down().catch((error: unknown) => {
      console.error(`stack: down failed: ${error instanceof Error ? error.message : String(error)}`);
      results.down = 1;
    });
}
const failed = Object.entries(results).filter(([, code]) => code !== 0);
say(
  `test:stack ${failed.length === 0 ? 'passed' : `failed (${failed.map(([name]) => name).join(', ')})`} in ${minutes(started)}`,
);
process.exit(failed.length === 0 ? 0 : 1);
