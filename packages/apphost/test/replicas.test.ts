// `npm start -- --replicas 2` as an operator lives it: two processes of every service on the one PostgreSQL, each
// on its own gRPC and metrics port and named on the console, DATA_DIR/pids.json and in its own log; the gateway
// as two cluster workers sharing the app's port, each serving its own /metrics; the demo seeded once; a killed
// replica restarted under its own name, a killed gateway worker forked again, and Ctrl-C stopping them all (each
// gateway worker draining on the SIGTERM its primary passes on). A replica count outside 1 to 4 is refused before
// anything starts. Runs API-only (SERVE_WEB=false) so it needs no web build.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
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
// The app, PostgreSQL, S3, mail (2), gRPC from +5 (replica 2 from +15), then the metrics from +21: the gateway's
// two workers at +21 and +22, the services' replicas from +31 and +41.
const PORTS = 47;
const base = await freePortRun(PORTS);
// At info, the gateway's log says when each worker starts its drain.
const env = productEnv(base, dataDir, { METRICS_PORT_BASE: String(base + 21), LOG_LEVEL: 'info' });

interface Listed {
  pid: number;
  service: string;
  replica?: number;
  grpcPort?: number;
  metricsPorts: number[];
}
const pids = () => JSON.parse(readFileSync(join(dataDir, 'pids.json'), 'utf8')) as Record<string, Listed>;

const headlines = async () => (await (await fetch(`http://127.0.0.1:${base}/api/news`)).json()) as unknown[];

describe('npm start --replicas 2', { timeout: 180_000 }, () => {
  const runs: ProductRun[] = [];
  afterAll(async () => {
    for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGINT');
    await Promise.all(runs.map((run) => run.exited));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a replica count outside 1 to 4, and an option it does not know, before starting anything', async () => {
    const five = startProduct(env, ['--replicas', '5']);
    expect(await five.exited).toBe(78);
    expect(five.output()).toContain('REPLICAS: must be a whole number from 1 to 4 (got "5")');
    const unknown = startProduct(env, ['--replica', '2']);
    expect(await unknown.exited).toBe(64);
    expect(unknown.output()).toContain('the one option is --replicas N (1 to 4)');
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  });

  it('runs two of every service and two gateway workers, prints where each serves metrics and where traces go, seeds once', async () => {
    const run = startProduct(env, ['--replicas', '2']);
    runs.push(run);
    await untilHealthy(run, 120_000);
    const output = run.output();
    expect(output).toContain(
      '2 of each of services auth, profile, org, post, news, notification and the gateway (2 workers)',
    );
    expect(output).toContain(
      `Metrics      gateway http://127.0.0.1:${base + 21}–${base + 22}/metrics (one port per worker)`,
    );
    expect(output).toContain(
      `services auth, profile, org, post, news, notification http://127.0.0.1:${base + 41}–${base + 46}/metrics (replica 2)`,
    );
    // Traces are off unless the OTEL_* variables name an exporter; the console says how to turn them on.
    expect(output).toContain('Traces       off (OTEL_TRACES_EXPORTER=console prints each span');
    // Both news replicas started on an empty database, and the demo's headlines are there once.
    expect(await headlines()).toHaveLength(12);

    const apphost = run.child.pid as number;
    const listed = pids();
    expect(Object.keys(listed).sort()).toEqual(
      ['auth', 'gateway', 'news', 'notification', 'org', 'post', 'postgres', 'profile']
        .flatMap((name) => (['gateway', 'postgres'].includes(name) ? [name] : [`${name}-1`, `${name}-2`]))
        .sort(),
    );
    // PostgreSQL's postmaster, the one process that is not Node's.
    expect(listed.postgres).toEqual({ pid: expect.any(Number), service: 'postgres', metricsPorts: [] });
    expect(listed['profile-2']).toEqual({
      pid: expect.any(Number),
      service: 'profile',
      replica: 2,
      grpcPort: base + 16,
      metricsPorts: [base + 42],
    });
    expect(listed.gateway?.metricsPorts).toEqual([base + 21, base + 22]);
    expect(
      Object.values(listed)
        .filter((process) => process.service !== 'postgres')
        .map((process) => process.pid)
        .sort(),
    ).toEqual(nodeChildrenOf(apphost).sort());
    expect(nodeChildrenOf(childIn(apphost, 'gateway'))).toHaveLength(2);
    expect(existsSync(join(dataDir, 'logs', 'profile-2.log'))).toBe(true);
    expect(existsSync(join(dataDir, 'logs', 'profile-1.log'))).toBe(true);
  });

  it('serves each process’s metrics on the ports it printed, and both gateway workers take requests', async () => {
    // A new connection each: the cluster's primary hands connections to its workers in turn.
    for (let i = 0; i < 10; i++) {
      await new Promise<void>((resolve, reject) =>
        get(`http://127.0.0.1:${base}/api/news`, { agent: false }, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', reject),
      );
    }
    const metrics = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const port of [base + 21, base + 22]) {
      const served = (await metrics(port))
        .split('\n')
        .filter((line) => line.startsWith('rotunda_http_requests_total{') && line.includes('/api/news'))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
      expect(served, `the worker on :${port}`).toBeGreaterThan(0);
    }
    for (const listed of Object.values(pids()).filter((process) => process.replica !== undefined))
      expect(await metrics(listed.metricsPorts[0] as number)).toContain('rotunda_grpc_server_handled_total');
  });

  it('restarts a killed replica under its own name and forks a killed gateway worker again', async () => {
    const run = runs[0] as ProductRun;
    const apphost = run.child.pid as number;
    const victim = pids()['profile-2']?.pid as number;
    const other = pids()['profile-1']?.pid as number;
    process.kill(victim, 'SIGKILL');
    expect(await until(() => run.output().includes('profile-2 restarted'), 20_000), run.output()).toBe(true);
    expect(run.output()).toMatch(
      /✗ [\d:]{8} profile-2 exited unexpectedly \(signal SIGKILL\) after [\d.]+ s; restarting in 1 s/,
    );
    const restarted = pids()['profile-2']?.pid as number;
    expect(restarted).not.toBe(victim);
    expect(running(restarted)).toBe(true);
    // Its sibling served on, untouched.
    expect(pids()['profile-1']?.pid).toBe(other);
    expect(running(other)).toBe(true);

    const gateway = childIn(apphost, 'gateway');
    const [worker] = nodeChildrenOf(gateway);
    process.kill(worker as number, 'SIGKILL');
    expect(
      await until(() => {
        const workers = nodeChildrenOf(gateway);
        return workers.length === 2 && !workers.includes(worker as number);
      }, 15_000),
    ).toBe(true);
    expect(run.output()).toContain('[gateway] error: gateway worker 1 exited; forking another in 1 s');
    // The new worker listens too: two at the start, then it.
    const listening = () =>
      readFileSync(join(dataDir, 'logs', 'gateway.log'), 'utf8').match(/"msg":"gateway listening"/g)?.length;
    expect(await until(() => listening() === 3, 15_000)).toBe(true);
    expect(await headlines()).toHaveLength(12);
    expect(nodeChildrenOf(apphost)).toHaveLength(13);
  });

  it('stops every replica, every gateway worker and PostgreSQL on Ctrl-C, freeing every port', async () => {
    const run = runs[0] as ProductRun;
    const everyone = [
      ...nodeChildrenOf(run.child.pid as number),
      ...nodeChildrenOf(childIn(run.child.pid as number, 'gateway')),
    ];
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Stopped.');
    expect(everyone.filter(running)).toEqual([]);
    // The primary passed the stop on as SIGTERM, and each of its two workers drained.
    const gatewayLog = readFileSync(join(dataDir, 'logs', 'gateway.log'), 'utf8');
    expect(gatewayLog).toContain('shutting down: each worker finishes its requests in flight');
    expect(gatewayLog.match(/"signal":"SIGTERM","msg":"shutting down"}/g)).toHaveLength(2);
    expect(existsSync(join(dataDir, 'pids.json'))).toBe(false);
    expect(
      await portsInUse(Array.from({ length: PORTS }, (_, i) => ({ port: base + i, what: 'test' }))),
    ).toEqual([]);
  });
});
