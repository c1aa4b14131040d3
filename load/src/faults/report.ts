// The faults benchmark's figures and report: for each fault, what failed while it lasted and after it came back,
// what acknowledged writes were lost, how long from its return to the first write that succeeded and to normal
// read latency, and what members saw; printed as a table and saved as bench-results/faults.json.
import type { BenchContext } from '../bench-context.ts';
import { percentile } from '../measure.ts';
import type { Lost, MixedLoad, Tally } from '../replicas/mixed-load.ts';
import type { Fault } from './kinds.ts';
import {
  FAULT_S,
  LATENCY_MIN_READS,
  LATENCY_STEP_MS,
  LATENCY_WINDOW_MS,
  NORMAL_LATENCY_FACTOR,
  OBSERVE_S,
  STEADY_S,
  STREAMS,
  TARGETS,
} from './plan.ts';
import type { StreamFigures } from './streams.ts';

/** When each part of one fault happened, ms from the load's start. */
export interface FaultTimeline {
  fault: Fault;
  steadyFrom: number;
  injectedAt: number;
  /** When the dependency was back; undefined: never within the time given. */
  returnedAt: number | undefined;
  observedUntil: number;
  events: string[];
  streams?: StreamFigures;
}

export interface FaultsRun {
  result: MixedLoad;
  uploads: Tally;
  signIns: Tally;
  lost: Lost;
  picturesLost: { url: string; atMs: number }[];
  picturesAcknowledged: number;
  timelines: FaultTimeline[];
  /** The unharmed load whose read p50 is normal latency (ms from the load's start). */
  baseline: { from: number; to: number };
  /** The faults not made, and why. */
  left: string[];
}

/** The calls of `tally` that ended in [from, to): how many, how many failed. */
function window(tally: Tally, from: number, to: number) {
  let calls = 0;
  let failed = 0;
  tally.ends.forEach((end, i) => {
    if (end < from || end >= to) return;
    calls++;
    if (!tally.succeeded[i]) failed++;
  });
  return { calls, failed };
}

/** The sorted latencies of the successful calls of `tally` that ended in [from, to). */
const latenciesIn = (tally: Tally, from: number, to: number) =>
  tally.latencies
    .filter((_, i) => tally.succeeded[i] && (tally.ends[i] ?? 0) >= from && (tally.ends[i] ?? 0) < to)
    .sort((a, b) => a - b);

function figuresOf(run: FaultsRun, timeline: FaultTimeline) {
  const { result, uploads, signIns } = run;
  const { fault, steadyFrom, injectedAt, returnedAt, observedUntil } = timeline;
  const backAt = returnedAt ?? observedUntil;
  // Every call that changes something: posts, comments, profile edits, picture uploads and sign-ins.
  const writeTallies = [result.writes, uploads, signIns];
  const sum = (tallies: Tally[], from: number, to: number) =>
    tallies
      .map((tally) => window(tally, from, to))
      .reduce((a, b) => ({ calls: a.calls + b.calls, failed: a.failed + b.failed }));
  const during = {
    reads: window(result.reads, injectedAt, backAt),
    writes: sum(writeTallies, injectedAt, backAt),
  };
  const after = {
    reads: window(result.reads, backAt, observedUntil),
    writes: sum(writeTallies, backAt, observedUntil),
  };
  // Acknowledged in this fault's span and not there at the end.
  const inSpan = (atMs: number | undefined) =>
    atMs !== undefined && atMs >= steadyFrom && atMs < observedUntil;
  const lostWrites =
    run.lost.lost.filter((id) => inSpan(result.acknowledgedAt.get(id))).length +
    run.picturesLost.filter((picture) => inSpan(picture.atMs)).length;

  // The first write of the kind that reaches what failed, sent after its return, that succeeded.
  const probe = { writes: result.writes, uploads, 'sign-ins': signIns }[fault.writes];
  let firstSuccessMs: number | null = null;
  if (returnedAt !== undefined)
    probe.ends.forEach((end, i) => {
      const startedAt = end - (probe.latencies[i] ?? 0);
      if (firstSuccessMs === null && probe.succeeded[i] && startedAt >= returnedAt)
        firstSuccessMs = end - returnedAt;
    });

  const steadyP50 = percentile(latenciesIn(result.reads, steadyFrom, injectedAt), 50);
  const normalP50 = percentile(latenciesIn(result.reads, run.baseline.from, run.baseline.to), 50);
  // The end of the first window after the return whose calls all succeeded, with a read p50 within the factor.
  let normalLatencyMs: number | null = null;
  if (returnedAt !== undefined)
    for (let from = returnedAt; from + LATENCY_WINDOW_MS <= observedUntil; from += LATENCY_STEP_MS) {
      const to = from + LATENCY_WINDOW_MS;
      const reads = window(result.reads, from, to);
      const writes = sum(writeTallies, from, to);
      const p50 = percentile(latenciesIn(result.reads, from, to), 50);
      if (
        reads.calls >= LATENCY_MIN_READS &&
        reads.failed + writes.failed === 0 &&
        p50 <= NORMAL_LATENCY_FACTOR * normalP50
      ) {
        normalLatencyMs = to - returnedAt;
        break;
      }
    }

  // The last call after the return that still failed: until then, members still met the fault.
  const lastFailure = Math.max(
    ...[result.reads, ...writeTallies].flatMap((tally) =>
      tally.failedAt.map(({ atMs }) => atMs).filter((atMs) => atMs >= backAt && atMs < observedUntil),
    ),
  );
  const failuresEndMs =
    returnedAt === undefined || lastFailure === -Infinity ? null : lastFailure - returnedAt;
  // Each failure after the return: when (from the return), how long it took, and what the member read.
  const failedAfterReturn = [result.reads, ...writeTallies]
    .flatMap((tally) => tally.failedAt)
    .filter(({ atMs }) => returnedAt !== undefined && atMs >= backAt && atMs < observedUntil)
    .sort((a, b) => a.atMs - b.atMs)
    .map(({ atMs, tookMs, failure }) => ({ afterReturnMs: atMs - (returnedAt as number), tookMs, failure }));

  const seen = new Map<string, number>();
  for (const tally of [result.reads, ...writeTallies])
    for (const { atMs, failure } of tally.failedAt)
      if (atMs >= injectedAt && atMs < observedUntil) seen.set(failure, (seen.get(failure) ?? 0) + 1);
  for (const [refusal, count] of timeline.streams?.refused ?? [])
    seen.set(`stream ${refusal}`, (seen.get(`stream ${refusal}`) ?? 0) + count);

  const failedReads = during.reads.failed + after.reads.failed;
  const recovered =
    firstSuccessMs !== null &&
    firstSuccessMs <= TARGETS.recoveryMs &&
    normalLatencyMs !== null &&
    normalLatencyMs <= TARGETS.recoveryMs &&
    (failuresEndMs === null || failuresEndMs <= TARGETS.recoveryMs);
  const pass =
    lostWrites === TARGETS.lostWrites &&
    (!fault.aReplicaLives || failedReads === TARGETS.failedReadsWhileAReplicaLives) &&
    recovered;
  return {
    fault: fault.name,
    what: fault.what,
    lastedMs: returnedAt === undefined ? null : returnedAt - injectedAt,
    during,
    after,
    lostWrites,
    firstSuccessMs: firstSuccessMs as number | null,
    normalLatencyMs,
    /** From the return to the end of the last call that failed after it; null: none failed after. */
    failuresEndMs,
    /** Up to 20 of the failures after the return, oldest first. */
    failedAfterReturn: failedAfterReturn.slice(0, 20),
    steadyReadP50Ms: steadyP50,
    afterReadP50Ms: percentile(latenciesIn(result.reads, backAt, observedUntil), 50),
    membersSaw: Object.fromEntries([...seen].sort((a, b) => b[1] - a[1])),
    streams: timeline.streams && {
      held: STREAMS,
      opened: timeline.streams.opened,
      cut: timeline.streams.cut,
      reconnected: timeline.streams.reconnected,
      refusedAttempts: [...timeline.streams.refused.values()].reduce((a, b) => a + b, 0),
      maxGapMs: timeline.streams.gapsMs.length ? Math.max(...timeline.streams.gapsMs) : null,
    },
    events: timeline.events,
    pass,
  };
}

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);

export function reportFaults(ctx: BenchContext, run: FaultsRun): void {
  const { print } = ctx;
  const figures = run.timelines.map((timeline) => figuresOf(run, timeline));
  const normalP50 = percentile(latenciesIn(run.result.reads, run.baseline.from, run.baseline.to), 50);
  print(
    `\nfaults: npm start --replicas 2 (2 gateway workers, API only), the replicas bench's mixed load and a picture ` +
      `upload a second; each fault ${FAULT_S} s after ${STEADY_S} s steady, watched ${OBSERVE_S} s after its return`,
  );
  print(
    `  normal latency: read p50 ${normalP50.toFixed(1)} ms over the unharmed load before the first fault`,
  );
  for (const timeline of figures) for (const event of timeline.events) print(`  ${event}`);
  print(
    `  ${'fault'.padEnd(24)} ${'back after'.padStart(10)} ${'failed reads'.padStart(14)} ${'failed writes'.padStart(14)} ${'lost'.padStart(5)} ${'1st write ok'.padStart(12)} ${'p50 ≤ 2×'.padStart(9)} ${'failures'.padStart(9)}`,
  );
  print(
    `  ${''.padEnd(24)} ${''.padStart(10)} ${'during/after'.padStart(14)} ${'during/after'.padStart(14)} ${''.padStart(5)} ${'after return'.padStart(12)} ${'after'.padStart(9)} ${'end after'.padStart(9)}`,
  );
  for (const f of figures)
    print(
      `  ${f.fault.padEnd(24)} ${seconds(f.lastedMs).padStart(10)} ${`${f.during.reads.failed}/${f.after.reads.failed}`.padStart(14)} ${`${f.during.writes.failed}/${f.after.writes.failed}`.padStart(14)} ${String(f.lostWrites).padStart(5)} ${seconds(f.firstSuccessMs).padStart(12)} ${seconds(f.normalLatencyMs).padStart(9)} ${seconds(f.failuresEndMs).padStart(9)}  ${f.pass ? 'pass' : 'MISS'}`,
    );
  for (const f of figures) {
    print(
      `  ${f.fault}: ${f.during.reads.calls} reads and ${f.during.writes.calls} writes while it lasted, ${f.after.reads.calls} and ${f.after.writes.calls} after; read p50 ${f.steadyReadP50Ms.toFixed(1)} ms just before, ${f.afterReadP50Ms.toFixed(1)} ms after`,
    );
    if (f.streams)
      print(
        `    streams: ${f.streams.held} held, ${f.streams.cut} cut, ${f.streams.reconnected} reconnected (longest gap ${seconds(f.streams.maxGapMs)}), ${f.streams.refusedAttempts} attempts refused`,
      );
    for (const [text, count] of Object.entries(f.membersSaw).slice(0, 8)) print(`    ${count}× ${text}`);
    for (const { afterReturnMs, tookMs, failure } of f.failedAfterReturn.slice(0, 5))
      print(`    ${seconds(afterReturnMs)} after the return, in ${tookMs} ms: ${failure}`);
  }
  print(
    `  lost over the whole run: ${run.lost.lostPosts} posts, ${run.lost.lostComments} comments, ${run.lost.lostProfileEdit} profile edits, ${run.picturesLost.length} pictures (of ${run.result.posts.size} posts, ${[...run.result.posts.values()].flat().length} comments, ${run.picturesAcknowledged} pictures acknowledged); made twice: ${run.lost.duplicates}`,
  );
  for (const line of run.left) print(`  not made: ${line}`);
  print(
    `  targets: 0 acknowledged writes lost; 0 failed reads while a replica of what died lives; first write ok, read p50 within ${NORMAL_LATENCY_FACTOR}× of normal and the last failure ≤ ${TARGETS.recoveryMs / 1000} s after the return`,
  );
  const lostTotal = run.lost.total + run.picturesLost.length;
  print(
    figures.every((f) => f.pass) && lostTotal === 0
      ? '  every target held'
      : '  some targets were missed (MISS above)',
  );
  ctx.save('faults', {
    date: new Date().toISOString(),
    faultSeconds: FAULT_S,
    steadySeconds: STEADY_S,
    observeSeconds: OBSERVE_S,
    normalReadP50Ms: normalP50,
    faults: figures,
    lostWrites: lostTotal,
    duplicateWrites: run.lost.duplicates,
    lost: { ...run.lost, lost: undefined, pictures: run.picturesLost.length },
    acknowledged: {
      posts: run.result.posts.size,
      comments: [...run.result.posts.values()].flat().length,
      profileEdits: run.result.profileEdits.filter((edit) => edit.acknowledged).length,
      pictures: run.picturesAcknowledged,
    },
    notMade: run.left,
    targets: TARGETS,
  });
}
