// `npm start` as an operator lives it: the stack comes up healthy with demo data, refuses to start twice on
// the same ports (naming the port), restarts a service, the gateway or PostgreSQL that dies and serves again (a
// member signs in on the restarted database), stops every
// process and PostgreSQL on Ctrl-C, a second start reuses the data instead of seeding it again, and when the
// apphost is killed outright its services stop on their own. Runs API-only (SERVE_WEB=false) so it needs no web
// build.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portsInUse } from '../src/ports.ts';
import {
  childIn,
  dataFolder,
  freePortRun,
  nodeChildrenOf,
  type ProductRun,
  productEnv,
  running,
  startProduct,
  until,
  untilHealthy,
} from './support/product.ts';

const dataDir = dataFolder();
// The app, PostgreSQL, S3, mail (2), six gRPC, then the metrics: the gateway's at +11, the services' at +21.
const PORTS = 27;
const base = await freePortRun(PORTS);
const env = productEnv(base, dataDir, { METRICS_PORT_BASE: String(base + 11) });
const start = () => startProduct(env);

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
  const runs: ProductRun[] = [];
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
    // Once healthy, the due email digests are sent (none are due on a new stack) and the run is logged.
    const digestsLog = join(dataDir, 'logs', 'digests.log');
    expect(
      await until(
        () => existsSync(digestsLog) && /Digests: 0 sent/.test(readFileSync(digestsLog, 'utf8')),
        30_000,
      ),
    ).toBe(true);
  });

  it('refuses a second start on the same ports, naming the port and the variable', async () => {
    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `Port ${base} (the app) is already in use. Stop what is using it, or set PORT to another port.`,
    );
  });

  it('restarts the gateway or a service that was killed outright, which then serves again', async () => {
    const run = runs[0] as ProductRun;
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
    expect(nodeChildrenOf(apphost)).toHaveLength(7);
  });

  it('restarts PostgreSQL killed outright, on its data and port, and the services use it again', async () => {
    const run = runs[0] as ProductRun;
    const listed = () =>
      (JSON.parse(readFileSync(join(dataDir, 'pids.json'), 'utf8')) as Record<string, { pid: number }>)
        .postgres?.pid;
    const postmaster = listed() as number;
    expect(postmaster).toBe(
      Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
    );
    process.kill(postmaster, 'SIGKILL');
    expect(await until(() => run.output().includes('PostgreSQL restarted'), 30_000), run.output()).toBe(true);
    expect(run.output()).toMatch(
      new RegExp(`✗ [\\d:]{8} PostgreSQL \\(pid ${postmaster}\\) exited unexpectedly after [\\d.]+ s`),
    );
    const restarted = listed() as number;
    expect(restarted).not.toBe(postmaster);
    expect(running(restarted)).toBe(true);
    // The auth service checks the password against its rows: the restarted database, reached again by itself.
    const signIn = () =>
      fetch(`http://127.0.0.1:${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'member@demo.ca.gov', password: 'Member#2024x' }),
      }).then((res) => res.status);
    const deadline = Date.now() + 30_000;
    let status = await signIn().catch(() => 0);
    while (status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = await signIn().catch(() => 0);
    }
    expect(status).toBe(200);
    expect(run.child.exitCode).toBeNull();
  });

  it('stops every process and PostgreSQL on Ctrl-C, freeing every port', async () => {
    const run = runs[0] as ProductRun;
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped.');
    expect(
      await portsInUse(Array.from({ length: PORTS }, (_, i) => ({ port: base + i, what: 'test' }))),
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
    // Six services and the gateway, once the digests' run that starts with them has ended.
    expect(await until(() => nodeChildrenOf(run.child.pid as number).length === 7, 30_000)).toBe(true);
    const children = nodeChildrenOf(run.child.pid as number);
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
