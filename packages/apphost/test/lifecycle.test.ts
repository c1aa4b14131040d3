// `npm start` as an operator lives it: the stack comes up healthy with demo data, refuses to start twice on
// the same ports (naming the port), restarts a service or the gateway that dies and serves again, stops every
// process and PostgreSQL on Ctrl-C, a second start reuses the data instead of seeding it again, and when the
// apphost is killed outright its services stop on their own. Runs API-only (SERVE_WEB=false) so it needs no web
// build.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portsInUse } from '../src/ports.ts';

const main = new URL('../src/main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-apphost-'));
// As root, PostgreSQL runs as the postgres user, who must be able to reach its folder, like a repo's .data/.
chmodSync(dataDir, 0o755);

async function freePortRun(count: number): Promise<number> {
  // A base port with `count` free ports after it, away from the defaults a developer may be running and below
  // Linux's ephemeral range (32768 up): there, the product's own outgoing connections could take a port between
  // the check and a service binding it.
  for (let base = 21000 + Math.floor(Math.random() * 10000); ; base += count) {
    if (
      (await portsInUse(Array.from({ length: count }, (_, i) => ({ port: base + i, what: 'test' }))))
        .length === 0
    ) {
      return base;
    }
  }
}

const base = await freePortRun(10);
const env = {
  ...process.env,
  PORT: String(base),
  POSTGRES_PORT: String(base + 1),
  S3_PORT: String(base + 2),
  MAILDEV_WEB_PORT: String(base + 3),
  MAILDEV_SMTP_PORT: String(base + 4),
  GRPC_PORT_BASE: String(base + 5),
  DATA_DIR: dataDir,
  SERVE_WEB: 'false',
  LOG_LEVEL: 'warn',
};

function start(): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

async function untilHealthy(run: ReturnType<typeof start>): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!run.output().includes('Press Ctrl-C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`did not start:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The Node processes `pid` started (the services and the gateway), from Linux's /proc. */
function nodeChildrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid; the command name before it may hold spaces.
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === pid && command.includes('src/main.ts')) children.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return children;
}

/** The child of `pid` running in `folder` (the gateway, services/news), from its working directory. */
function childIn(pid: number, folder: string): number {
  const child = nodeChildrenOf(pid).find((candidate) =>
    readlinkSync(`/proc/${candidate}/cwd`).endsWith(`/${folder}`),
  );
  if (child === undefined) throw new Error(`no child in ${folder}`);
  return child;
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return condition();
}

const headlines = async () => (await (await fetch(`http://127.0.0.1:${base}/api/news`)).json()) as unknown[];

/** How many headlines /api/news answers once it answers them, trying for up to `ms` (0 if it never does). */
async function headlinesWithin(ms: number): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await headlines().catch(() => undefined);
    if (Array.isArray(answer) || Date.now() > deadline) return answer?.length ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('npm start', { timeout: 180_000 }, () => {
  const runs: ReturnType<typeof start>[] = [];
  afterAll(async () => {
    for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGINT');
    await Promise.all(runs.map((run) => run.exited));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts healthy, prints the URLs, and serves the demo headlines', async () => {
    const run = start();
    runs.push(run);
    await untilHealthy(run);
    expect(run.output()).toContain(`App          http://localhost:${base}`);
    expect(run.output()).toContain(`Mail inbox   http://localhost:${base + 3}`);
    const health = await fetch(`http://127.0.0.1:${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await headlines()).toHaveLength(12);
  });

  it('refuses a second start on the same ports, naming the port and the variable', async () => {
    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `Port ${base} (the app) is already in use. Stop what is using it, or set PORT to another port.`,
    );
  });

  it('restarts the gateway or a service that was killed outright, which then serves again', async () => {
    const run = runs[0] as ReturnType<typeof start>;
    const apphost = run.child.pid as number;
    for (const [name, folder] of [
      ['gateway', 'gateway'],
      ['news', 'services/news'],
    ] as const) {
      const victim = childIn(apphost, folder);
      process.kill(victim, 'SIGKILL');
      expect(await until(() => run.output().includes(`${name} restarted`), 20_000), run.output()).toBe(true);
      expect(run.output()).toMatch(
        new RegExp(
          `✗ [\\d:]{8} ${name} exited unexpectedly \\(signal SIGKILL\\) after [\\d.]+ s; restarting in 1 s`,
        ),
      );
      expect(childIn(apphost, folder)).not.toBe(victim);
      expect(await headlinesWithin(30_000), name).toBe(12);
    }
    expect(run.child.exitCode).toBeNull();
    expect(nodeChildrenOf(apphost)).toHaveLength(6);
  });

  it('stops every process and PostgreSQL on Ctrl-C, freeing every port', async () => {
    const run = runs[0] as ReturnType<typeof start>;
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped.');
    expect(
      await portsInUse(Array.from({ length: 10 }, (_, i) => ({ port: base + i, what: 'test' }))),
    ).toEqual([]);
  });

  it('reuses the data on the next start instead of seeding again', async () => {
    const run = start();
    runs.push(run);
    await untilHealthy(run);
    expect(await headlines()).toHaveLength(12);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('stops the services and the gateway when the apphost is killed outright, leaving no orphans', async () => {
    const run = start();
    runs.push(run);
    await untilHealthy(run);
    const children = nodeChildrenOf(run.child.pid as number);
    expect(children).toHaveLength(6);
    run.child.kill('SIGKILL');
    await run.exited;
    // Nobody told them: each notices its channel to the apphost closing and stops gracefully.
    expect(await until(() => children.every((pid) => !running(pid)), 15_000)).toBe(true);
    // PostgreSQL is not a Node process and outlives a killed apphost; stopped here by its pid file.
    const postmaster = Number(
      readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    process.kill(postmaster, 'SIGINT');
    expect(await until(() => !running(postmaster), 15_000)).toBe(true);
  });
});
