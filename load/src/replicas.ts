// `npm run bench -- replicas`: the product on two replicas of every process (npm start --replicas 2, API only)
// under mixed load for 60 s — visitors reading the public square, members searching the directory and opening
// profiles, reading their fresh feed, posting and commenting — while one profile replica and one post replica are
// killed outright at 20 s and restarted by the apphost at 40 s (RESTART_DELAY_MS=20000). Counts the reads that
// did not answer 2xx, the acknowledged writes not readable at the end, what a write sent again with its
// Idempotency-Key after a 503 or no answer made twice (ADR 0046), the longest time from an acknowledged
// write to search through the gateway finding it (a renamed profile in the directory, a post in the feed's
// search), and each replica's share of its service's gRPC calls from its own /metrics. The same load on one
// replica for 20 s first is the throughput baseline. BENCH_REPLICAS_SECONDS shortens the run (kill and restart at
// its thirds).
import { join } from 'node:path';
import type { BenchContext } from './bench-context.ts';
import { gatewayRequests, handledCalls, readPids, sample } from './replicas/metrics.ts';
import { drive, lostWrites, mixedLoadProductEnv, restoreName } from './replicas/mixed-load.ts';
import { BASELINE_S, KILL_AT_S, KILLED, LOAD_S, RESTART_DELAY_MS } from './replicas/plan.ts';
import { reportReplicas, type Shares } from './replicas/report.ts';

export async function benchReplicas(ctx: BenchContext): Promise<void> {
  const base = `http://127.0.0.1:${ctx.port}`;
  const dataDir = join(ctx.dataDir, 'replicas');
  const productEnv = (replicas: number) => mixedLoadProductEnv(dataDir, replicas, RESTART_DELAY_MS);

  // The baseline: the same load on one replica of everything, for as long as the two-replica run goes unharmed.
  const single = await ctx.startProduct(productEnv(1));
  const baseline = await drive(base, BASELINE_S, async () => {});
  const baselineLost = await lostWrites(base, baseline);
  await restoreName(base, baseline);
  baseline.agent.destroy();
  await ctx.stopProduct(single.child);

  const product = await ctx.startProduct(productEnv(2));
  const pids = readPids(dataDir);
  // The service replicas (the gateway and PostgreSQL are listed without a replica number).
  const replicas = Object.entries(pids).filter(([, listed]) => listed.replica !== undefined);
  const samples: Record<string, Map<string, number | undefined>> = {};
  const events: string[] = [];
  const killed = new Map<
    string,
    { pid: number; atMs: number; restartedAtMs?: number; upAtMs?: number; servingAtMs?: number }
  >();
  const gatewayPorts = pids.gateway?.metricsPorts ?? [];
  let gatewayAtStart: (number | undefined)[] = [];
  let gatewayAtEnd: (number | undefined)[] = [];
  const result = await drive(base, LOAD_S, async (elapsed) => {
    gatewayAtStart = await gatewayRequests(gatewayPorts);
    samples.start = await sample(replicas);
    const sleepUntil = (ms: number) =>
      new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - elapsed())));
    await sleepUntil(KILL_AT_S * 1000);
    samples.beforeKill = await sample(replicas);
    for (const service of KILLED) {
      const name = `${service}-2`;
      const pid = pids[name]?.pid as number;
      process.kill(pid, 'SIGKILL');
      killed.set(name, { pid, atMs: elapsed() });
      events.push(`${(elapsed() / 1000).toFixed(1)} s: kill -9 ${name} (pid ${pid})`);
    }
    // Watch for the restarts (a new pid in pids.json), each new process up (its /metrics answers) and the first
    // call it handles (which waits for the callers' channels to connect to it again).
    while (elapsed() < LOAD_S * 1000 - 300) {
      const now = readPids(dataDir);
      for (const [name, victim] of killed) {
        if (victim.restartedAtMs === undefined && now[name]?.pid !== victim.pid) {
          victim.restartedAtMs = elapsed();
          events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} restarted (pid ${now[name]?.pid})`);
        }
        if (victim.restartedAtMs !== undefined && victim.servingAtMs === undefined) {
          const calls = await handledCalls(pids[name]?.metricsPorts[0] ?? 0, 1);
          if (calls !== undefined && victim.upAtMs === undefined) {
            victim.upAtMs = elapsed();
            events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} is up (its /metrics answers)`);
          }
          if (calls !== undefined && calls > 0) {
            victim.servingAtMs = elapsed();
            samples[`serving ${name}`] = await sample(replicas);
            events.push(`${(elapsed() / 1000).toFixed(1)} s: ${name} handles calls again`);
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    samples.end = await sample(replicas);
    gatewayAtEnd = await gatewayRequests(gatewayPorts);
  });
  const workerRequests = gatewayPorts.map((_, i) =>
    Math.max(0, (gatewayAtEnd[i] ?? 0) - (gatewayAtStart[i] ?? 0)),
  );
  const gatewayTotal = workerRequests.reduce((a, b) => a + b, 0);
  const workerShare = workerRequests.map((count) => (gatewayTotal ? count / gatewayTotal : 0));
  const lost = await lostWrites(base, result);
  await restoreName(base, result);
  result.agent.destroy();
  await ctx.stopProduct(product.child);

  // Each replica's calls per phase: both live before the kill, and both live again from the moment the restarted
  // replica handles calls (its counter starts over in its new process) to the end.
  const delta = (name: string, from: string, to: string) => {
    const start = samples[from]?.get(name);
    const end = samples[to]?.get(name);
    return start === undefined || end === undefined ? 0 : Math.max(0, end - start);
  };
  const services = [...new Set(replicas.map(([, listed]) => listed.service))];
  /** When both replicas of `service` serve again: its own restarted replica's, else the first to come back. */
  const servingAgain = (service: string) =>
    samples[`serving ${service}-2`]
      ? `serving ${service}-2`
      : Object.keys(samples).find((key) => key.startsWith('serving '));
  const shares = (phase: (name: string, service: string) => number) =>
    Object.fromEntries(
      services.map((service) => {
        const names = replicas.filter(([, l]) => l.service === service).map(([name]) => name);
        const counts = names.map((name) => phase(name, service));
        const total = counts.reduce((a, b) => a + b, 0);
        return [
          service,
          {
            total,
            share: Object.fromEntries(names.map((name, i) => [name, total ? (counts[i] ?? 0) / total : 0])),
          },
        ];
      }),
    ) as Shares;
  const beforeKill = shares((name) => delta(name, 'start', 'beforeKill'));
  const afterRestart = shares((name, service) => {
    const from = servingAgain(service);
    return from ? delta(name, from, 'end') : 0;
  });
  const whole = shares((name) =>
    killed.has(name)
      ? delta(name, 'start', 'beforeKill') + (samples.end?.get(name) ?? 0)
      : delta(name, 'start', 'end'),
  );
  // Per service and replica: its share while both were live before the kill, while both were live after the
  // restart (from the restarted one's first call), and over the whole run (the kill included).
  const perReplicaShare = Object.fromEntries([
    [
      'gateway',
      Object.fromEntries(workerShare.map((share, i) => [`gateway worker ${i + 1}`, { wholeRun: share }])),
    ],
    ...services.map((service) => [
      service,
      Object.fromEntries(
        Object.keys(whole[service]?.share ?? {}).map((name) => [
          name,
          {
            beforeKill: beforeKill[service]?.share[name] ?? 0,
            afterRestart: afterRestart[service]?.share[name] ?? 0,
            wholeRun: whole[service]?.share[name] ?? 0,
          },
        ]),
      ),
    ]),
  ]);

  reportReplicas(ctx, {
    result,
    lost,
    baseline,
    baselineLost,
    events,
    killed,
    services,
    beforeKill,
    afterRestart,
    whole,
    perReplicaShare,
    workerShare,
    gatewayTotal,
  });
}
