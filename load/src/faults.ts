// `npm run bench -- faults`: the product on two replicas of every process (npm start --replicas 2, API only)
// under the replicas bench's mixed load, plus a profile picture uploaded every second, while in turn each thing it
// depends on fails for BENCH_FAULTS_SECONDS (10 s) and comes back: a service replica killed outright (post-2), a
// gateway worker killed with live unread-count streams open, PostgreSQL killed outright (the apphost restarts the
// replica and PostgreSQL after RESTART_DELAY_MS, set to the fault's time), and the upload store's disk filled to
// the last byte; with --engines (the real engines of `npm run engines`, started here on free ports) also the
// search engine, Keycloak and the S3 server stopped and started again. For each: failed reads and writes while it lasted and after it came back, acknowledged writes
// lost (by the end's check), the time from its return to the first write that succeeds and to a read p50 back
// within 2× the normal one, and what members saw (the gateway's status and message, counted). A sign-in every
// 2 s runs alongside. On the embedded defaults search, identity and the S3 server have no process of their own to
// stop. Prints a table and writes bench-results/faults.json.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEngines } from '@rotunda/engines';
import type { BenchContext } from './bench-context.ts';
import { mountUploadDisk } from './faults/disk.ts';
import {
  type Fault,
  fillUploadDisk,
  killGatewayWorker,
  killPostgres,
  killReplica,
  stopEngine,
} from './faults/kinds.ts';
import { BASELINE_S, FAULT_S, OBSERVE_S, RETURN_GIVE_UP_S, STEADY_S, STREAMS } from './faults/plan.ts';
import { type FaultTimeline, reportFaults } from './faults/report.ts';
import { signIns } from './faults/sign-ins.ts';
import { holdStreams } from './faults/streams.ts';
import { lostPictures, uploadPictures } from './faults/uploads.ts';
import { readPids } from './replicas/metrics.ts';
import { drive, lostWrites, mixedLoadProductEnv, restoreName, Tally } from './replicas/mixed-load.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchFaults(ctx: BenchContext, options: { engines: boolean }): Promise<void> {
  const base = `http://127.0.0.1:${ctx.port}`;
  // Its own data with the engines: the demo member's profile names the identity provider's user id.
  const dataDir = join(ctx.dataDir, options.engines ? 'faults-engines' : 'faults');
  // With --engines, the real ones on free ports, a fresh set (as test:engines: SeaweedFS freezes a set's volume
  // growth when it comes back on other ports), so the product's data starts afresh too: Keycloak's user ids are new.
  if (options.engines) rmSync(dataDir, { recursive: true, force: true });
  const engines = options.engines
    ? await startEngines({
        instance: 'bench-faults',
        fresh: true,
        portBase: 'free',
        publicUrl: base,
        accessTokenSeconds: 3600,
        say: (line) => ctx.print(`  ${line}`),
      })
    : undefined;
  const disk = engines
    ? 'the S3 server is the real one, on its own disk'
    : mountUploadDisk(join(dataDir, 's3'));
  let product: Awaited<ReturnType<BenchContext['startProduct']>> | undefined;
  try {
    product = await ctx.startProduct({
      ...engines?.env,
      ...mixedLoadProductEnv(dataDir, 2, FAULT_S * 1000),
      // A picture a second from one member: theirs is 30 an hour (ADR 0038).
      AUTH_IMAGE_UPLOADS_PER_HOUR: '1000000',
      // The run outlasts the default 5 minutes' token, which the load signs in for once.
      AUTH_ACCESS_TOKEN_SECONDS: '3600',
    });
    const faults: Fault[] = [
      killReplica(dataDir, 'post-2'),
      killGatewayWorker(dataDir),
      killPostgres(dataDir),
      ...(typeof disk === 'string' ? [] : [fillUploadDisk(disk)]),
      ...(engines
        ? (['search', 'keycloak', 's3'] as const).map((name) => stopEngine(engines.outage, name))
        : []),
    ];
    const uploads = new Tally();
    const signInTally = new Tally();
    const timelines: FaultTimeline[] = [];
    let acknowledgedPictures: { url: string; atMs: number }[] = [];
    let baseline = { from: 0, to: 0 };
    const result = await drive(base, 'until during ends', async (elapsed, member) => {
      const uploader = uploadPictures({ base, token: member.token, tally: uploads, elapsed });
      const signingIn = signIns({ base, tally: signInTally, elapsed });
      acknowledgedPictures = uploader.acknowledged;
      const at = () => `${(elapsed() / 1000).toFixed(1)} s`;
      let events: string[] = [];
      // Every process the apphost starts again, the killed one and any other that died of the fault: when, its pid.
      let watching = true;
      const restarts = (async () => {
        let listed = readPids(dataDir);
        while (watching) {
          await sleep(250);
          const now = readPids(dataDir);
          for (const [name, was] of Object.entries(listed)) {
            const pid = now[name]?.pid;
            if (pid !== undefined && pid !== was.pid)
              events.push(`${at()}: ${name} started again by the apphost (pid ${was.pid} → ${pid})`);
          }
          listed = now;
        }
      })();
      await sleep(BASELINE_S * 1000);
      baseline = { from: (BASELINE_S / 2) * 1000, to: elapsed() };
      for (const fault of faults) {
        events = [];
        const steadyFrom = elapsed();
        const streams = fault.streams ? holdStreams(base, member.token, STREAMS) : undefined;
        await sleep(STEADY_S * 1000);
        const injectedAt = elapsed();
        events.push(`${at()}: ${await fault.inject()}`);
        const ending = sleep(FAULT_S * 1000).then(async () => {
          events.push(`${at()}: the fault's ${FAULT_S} s are up`);
          const line = await fault.end();
          if (line) events.push(`${at()}: ${line}`);
        });
        let returnedAt: number | undefined;
        while (elapsed() < injectedAt + (FAULT_S + RETURN_GIVE_UP_S) * 1000) {
          if (await fault.back()) {
            returnedAt = elapsed();
            events.push(`${at()}: back`);
            break;
          }
          await sleep(100);
        }
        await ending;
        // Brought back by the bench itself (an engine's start) later than the wait above gave it.
        if (returnedAt === undefined && (await fault.back())) {
          returnedAt = elapsed();
          events.push(`${at()}: back, later than ${RETURN_GIVE_UP_S} s after the fault`);
        }
        if (returnedAt === undefined) events.push(`${at()}: not back ${RETURN_GIVE_UP_S} s after the fault`);
        await sleep(Math.max(0, (returnedAt ?? elapsed()) + OBSERVE_S * 1000 - elapsed()));
        await streams?.stop();
        timelines.push({
          fault,
          steadyFrom,
          injectedAt,
          returnedAt,
          observedUntil: elapsed(),
          events,
          streams: streams?.figures,
        });
      }
      watching = false;
      await Promise.all([uploader.stop(), signingIn.stop(), restarts]);
    });
    const lost = await lostWrites(base, result);
    const picturesLost = await lostPictures(base, acknowledgedPictures);
    await restoreName(base, result);
    result.agent.destroy();
    await ctx.stopProduct(product.child);
    product = undefined;
    reportFaults(ctx, {
      result,
      uploads,
      signIns: signInTally,
      lost,
      picturesLost,
      picturesAcknowledged: acknowledgedPictures.length,
      timelines,
      baseline,
      left: [
        ...(typeof disk === 'string' ? [`upload disk full (${disk})`] : []),
        ...(engines
          ? []
          : ['search engine, Keycloak, S3 server stopped: the real engines’ faults (--engines)']),
      ],
    });
  } finally {
    // A run that failed midway stops what it started, PostgreSQL (the apphost's to stop) included.
    if (product) await ctx.stopProduct(product.child);
    if (typeof disk !== 'string') disk.unmount();
    await engines?.stop();
  }
}
