// The replicas benchmark's report: the events of the run, each figure against its target, each replica's share of
// its service's calls, the throughput next to one replica's, printed and saved as bench-results/replicas.json.
import type { BenchContext } from '../bench-context.ts';
import { percentile } from '../measure.ts';
import type { MixedLoad } from './mixed-load.ts';
import {
  BASELINE_S,
  CONVERGENCE_GIVE_UP_MS,
  JUDGED_CALLS,
  KILL_AT_S,
  LOAD_S,
  RESTART_DELAY_MS,
  TARGETS,
} from './plan.ts';

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);

/** A service's calls in one phase, and each of its replicas' share of them. */
export type Shares = Record<string, { total: number; share: Record<string, number> }>;

export interface ReplicasRun {
  result: MixedLoad;
  lost: {
    lostPosts: number;
    lostComments: number;
    lostProfileEdit: number;
    total: number;
    duplicates: number;
  };
  baseline: MixedLoad;
  baselineLost: { total: number };
  events: string[];
  killed: Map<
    string,
    { pid: number; atMs: number; restartedAtMs?: number; upAtMs?: number; servingAtMs?: number }
  >;
  services: string[];
  beforeKill: Shares;
  afterRestart: Shares;
  whole: Shares;
  perReplicaShare: Record<string, unknown>;
  workerShare: number[];
  gatewayTotal: number;
}

export function reportReplicas(ctx: BenchContext, run: ReplicasRun): void {
  const { print } = ctx;
  const converged = run.result.convergence.filter((c) => c.ms !== undefined).map((c) => c.ms as number);
  const notFound = run.result.convergence.length - converged.length;
  const maxConvergenceMs = notFound > 0 ? null : Math.max(0, ...converged);
  const requests = run.result.reads.ends.length + run.result.writes.ends.length;
  const acknowledgedWrites = run.result.writes.ends.length - run.result.writes.failed;
  const killAtMs = KILL_AT_S * 1000;

  print(
    `\nreplicas: npm start --replicas 2 (2 gateway workers, API only), mixed load ${LOAD_S} s; kill -9 profile-2 and post-2 at ${KILL_AT_S} s, restarted after RESTART_DELAY_MS=${RESTART_DELAY_MS}`,
  );
  print('  visitors: public square pages ×3 loops; members: fresh feed ×2, directory search + profile ×3,');
  print(
    '  post + comment ×2 (100 ms apart; the comment allowance lifted: one member writes them all), and a',
  );
  print('  probe (a profile rename or a post, then search through the gateway until it finds it)');
  for (const event of run.events) print(`  ${event}`);
  const sorted = [...run.result.reads.latencies].sort((a, b) => a - b);
  print(`  figure               value      target`);
  const row = (name: string, value: string, target: string, pass: boolean | undefined) =>
    print(
      `  ${name.padEnd(20)} ${value.padStart(9)}   ${target.padEnd(10)} ${pass === undefined ? '' : pass ? 'pass' : 'MISS'}`,
    );
  row('requests', String(requests), '', undefined);
  row('failedReads', String(run.result.reads.failed), '0', run.result.reads.failed === TARGETS.failedReads);
  row('acknowledgedWrites', String(acknowledgedWrites), '', undefined);
  row('retriedWrites', String(run.result.retriedWrites), '(same key)', undefined);
  row('failedWrites', String(run.result.writes.failed), '(2 retries)', undefined);
  row('lostWrites', String(run.lost.total), '0', run.lost.total === TARGETS.lostWrites);
  row('duplicateWrites', String(run.lost.duplicates), '0', run.lost.duplicates === TARGETS.duplicateWrites);
  row(
    'maxConvergenceMs',
    maxConvergenceMs === null ? `${notFound} unfound` : maxConvergenceMs.toFixed(0),
    '≤ 2000',
    maxConvergenceMs !== null && maxConvergenceMs <= TARGETS.maxConvergenceMs,
  );
  for (const [kind, list] of [
    ['profile', run.result.convergence.filter((c) => c.kind === 'profile')],
    ['post', run.result.convergence.filter((c) => c.kind === 'post')],
  ] as const) {
    const ms = list
      .filter((c) => c.ms !== undefined)
      .map((c) => c.ms as number)
      .sort((a, b) => a - b);
    print(
      `    ${kind} probes: ${list.length}, found in p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms${list.length > ms.length ? `, ${list.length - ms.length} not found within ${CONVERGENCE_GIVE_UP_MS / 1000} s` : ''}`,
    );
  }
  print(
    `  share of each service's gRPC calls (rotunda_grpc_server_handled_total), target 30–70 % per live replica:`,
  );
  const workersPass =
    run.gatewayTotal < JUDGED_CALLS ||
    run.workerShare.every((share) => share >= TARGETS.share[0] && share <= TARGETS.share[1]);
  print(
    `    gateway  workers (Node's cluster, kept-alive connections handed out in turn) ${run.workerShare.map(pct).join(' / ')} of ${run.gatewayTotal} requests  ${workersPass ? 'pass' : 'MISS'}`,
  );
  let sharesPass = workersPass;
  for (const service of run.services) {
    const judged = [run.beforeKill[service], run.afterRestart[service]];
    const phases = [
      ['before the kill', run.beforeKill[service]],
      ['after the restart', run.afterRestart[service]],
      ['whole run', run.whole[service]],
    ] as const;
    const cells = phases.map(([label, phase]) =>
      phase && phase.total > 0
        ? `${label} ${Object.values(phase.share).map(pct).join(' / ')} of ${phase.total}`
        : `${label} —`,
    );
    // Judged where both replicas were live and the service had calls to share; a replica that came back and
    // handled no call before the end was live and served 0 %.
    const victim = run.killed.get(`${service}-2`);
    const neverServed = victim !== undefined && victim.servingAtMs === undefined;
    if (neverServed)
      cells[1] = `after the restart ${service}-2 handled no call by the end (${victim.upAtMs === undefined ? 'never up' : `up at ${(victim.upAtMs / 1000).toFixed(1)} s`})`;
    const pass =
      !neverServed &&
      judged.every(
        (phase) =>
          !phase ||
          phase.total < JUDGED_CALLS ||
          Object.values(phase.share).every((share) => share >= TARGETS.share[0] && share <= TARGETS.share[1]),
      );
    if (!pass) sharesPass = false;
    print(`    ${service.padEnd(8)} ${cells.join('; ')}  ${pass ? 'pass' : 'MISS'}`);
  }
  const readRate = perSecond(run.result.reads.between(0, killAtMs), killAtMs);
  const baselineRate = perSecond(run.baseline.reads.ends.length, BASELINE_S * 1000);
  const writeRate = perSecond(run.result.writes.between(0, killAtMs), killAtMs);
  const baselineWriteRate = perSecond(run.baseline.writes.ends.length, BASELINE_S * 1000);
  const baselineSorted = [...run.baseline.reads.latencies].sort((a, b) => a - b);
  const firstPhase = run.result.reads.latencies
    .filter((_, i) => (run.result.reads.ends[i] ?? 0) < killAtMs)
    .sort((a, b) => a - b);
  print(
    `  throughput, same load           --replicas 1 (${BASELINE_S} s)   --replicas 2 (first ${KILL_AT_S} s, before the kill)`,
  );
  print(
    `    reads/s                     ${baselineRate.toFixed(0).padStart(10)}   ${readRate.toFixed(0).padStart(10)}`,
  );
  print(
    `    writes/s                    ${baselineWriteRate.toFixed(0).padStart(10)}   ${writeRate.toFixed(0).padStart(10)}`,
  );
  print(
    `    read p50 / p95 ms           ${`${percentile(baselineSorted, 50).toFixed(1)} / ${percentile(baselineSorted, 95).toFixed(1)}`.padStart(10)}   ${`${percentile(firstPhase, 50).toFixed(1)} / ${percentile(firstPhase, 95).toFixed(1)}`.padStart(10)}`,
  );
  print(
    `    failed reads, lost writes   ${`${run.baseline.reads.failed}, ${run.baselineLost.total}`.padStart(10)}   ${`${run.result.reads.failed}, ${run.lost.total}`.padStart(10)} (whole run)`,
  );
  print(
    `  read p50 / p95 over the whole run: ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 95).toFixed(1)} ms`,
  );
  for (const [kind, count] of [...run.result.reads.failures, ...run.result.writes.failures].slice(0, 6))
    print(`  ${count}× ${kind}`);
  for (const { atMs, failure } of [...run.result.reads.failedAt, ...run.result.writes.failedAt].slice(0, 12))
    print(`  at ${(atMs / 1000).toFixed(2)} s: ${failure}`);
  print(
    `  lost: ${run.lost.lostPosts} posts, ${run.lost.lostComments} comments, ${run.lost.lostProfileEdit} profile edits (of ${run.result.posts.size} posts, ${[...run.result.posts.values()].flat().length} comments, ${run.result.profileEdits.filter((e) => e.acknowledged).length} edits acknowledged)`,
  );
  print(
    [
      run.result.reads.failed === TARGETS.failedReads,
      run.lost.total === TARGETS.lostWrites,
      run.lost.duplicates === TARGETS.duplicateWrites,
      maxConvergenceMs !== null && maxConvergenceMs <= TARGETS.maxConvergenceMs,
      sharesPass,
    ].every(Boolean)
      ? '  every target held'
      : '  some targets were missed (MISS above)',
  );
  ctx.save('replicas', {
    requests,
    failedReads: run.result.reads.failed,
    acknowledgedWrites,
    lostWrites: run.lost.total,
    duplicateWrites: run.lost.duplicates,
    maxConvergenceMs,
    perReplicaShare: run.perReplicaShare,
    details: {
      loadSeconds: LOAD_S,
      killAtSeconds: KILL_AT_S,
      restartDelayMs: RESTART_DELAY_MS,
      events: run.events,
      failedWrites: run.result.writes.failed,
      retriedWrites: run.result.retriedWrites,
      failures: Object.fromEntries([...run.result.reads.failures, ...run.result.writes.failures]),
      failedAt: [...run.result.reads.failedAt, ...run.result.writes.failedAt],
      lost: run.lost,
      convergenceProbes: run.result.convergence.length,
      convergenceNotFound: notFound,
      serviceCalls: Object.fromEntries(
        run.services.map((service) => [
          service,
          {
            beforeKill: run.beforeKill[service]?.total ?? 0,
            afterRestart: run.afterRestart[service]?.total ?? 0,
            wholeRun: run.whole[service]?.total ?? 0,
          },
        ]),
      ),
      baseline: {
        replicas: 1,
        seconds: BASELINE_S,
        readsPerSecond: baselineRate,
        writesPerSecond: baselineWriteRate,
        readP50Ms: percentile(baselineSorted, 50),
        readP95Ms: percentile(baselineSorted, 95),
        failedReads: run.baseline.reads.failed,
        lostWrites: run.baselineLost.total,
      },
      beforeKill: {
        readsPerSecond: readRate,
        writesPerSecond: writeRate,
        readP50Ms: percentile(firstPhase, 50),
        readP95Ms: percentile(firstPhase, 95),
      },
    },
    targets: { ...TARGETS, share: undefined, liveReplicaShare: TARGETS.share },
  });
}
