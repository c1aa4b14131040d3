// Runs each service and the gateway as its own Node process (real gRPC between processes), writes its logs to
// .data/logs/<name>.log, echoes its warnings and errors to the console, restarts it when it exits unexpectedly
// (after a delay that doubles with each exit in a row, saying so on the console), and stops it gracefully.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { NODE_FLAGS } from '@rotunda/service-kit';

export interface Backoff {
  /** The delay before the first restart; each further exit in a row doubles it. */
  firstMs: number;
  /** The longest delay. */
  maxMs: number;
  /** A process that ran this long before it exited counts as a first exit again. */
  stableMs: number;
}

export const RESTART_BACKOFF: Backoff = { firstMs: 1000, maxMs: 30_000, stableMs: 60_000 };

/** The delay before restarting after the `exits`-th unexpected exit in a row (the first waits firstMs). */
export function restartDelayMs(exits: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, exits - 1));
}

export interface Child {
  name: string;
  /** The process running now: a new one after each restart. */
  readonly process: ChildProcess;
  /** Stops it for good (SIGTERM, then SIGKILL after `graceMs`) and cancels a restart under way. */
  stop: (graceMs: number) => Promise<void>;
}

const LEVELS: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };

function echo(name: string, line: string, print: (text: string) => void) {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
    const level = LEVELS[entry.level ?? 0];
    if (level)
      print(`  [${name}] ${level}: ${entry.msg ?? ''}${entry.err?.message ? ` — ${entry.err.message}` : ''}`);
  } catch {
    if (line.trim()) print(`  [${name}] ${line}`);
  }
}

const clock = (at = new Date()) => at.toTimeString().slice(0, 8);
const inSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export function startChild(options: {
  name: string;
  script: string;
  /** Its V8 heap ceiling in MiB; unset: V8's own. */
  maxOldSpaceMiB?: number | undefined;
  cwd: string;
  env: Record<string, string>;
  logDir: string;
  print: (text: string) => void;
  backoff?: Backoff;
  /** Told each process's pid as it starts, the first and every restart. */
  onStart?: (pid: number | undefined) => void;
}): Child {
  const { name, print, backoff = RESTART_BACKOFF } = options;
  const logFile = join(options.logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  let stopping = false;
  let exitsInARow = 0;
  let restart: NodeJS.Timeout | undefined;
  let exited: Promise<void>;

  const run = (): ChildProcess => {
    const startedAt = performance.now();
    const heap = options.maxOldSpaceMiB ? [`--max-old-space-size=${options.maxOldSpaceMiB}`] : [];
    const child = spawn(process.execPath, [...NODE_FLAGS, ...heap, options.script], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      // The IPC channel tells the child when this process is gone (service kit's stopWithParent).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // Both piped above; the fourth descriptor (the channel) leaves them typed as possibly absent.
    for (const stream of [child.stdout, child.stderr] as Readable[]) {
      stream.pipe(log, { end: false });
      createInterface({ input: stream }).on('line', (line) => echo(name, line, print));
    }
    exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        resolve();
        if (stopping) return;
        const ranMs = performance.now() - startedAt;
        exitsInARow = ranMs >= backoff.stableMs ? 1 : exitsInARow + 1;
        const delayMs = restartDelayMs(exitsInARow, backoff);
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        print(
          `  ✗ ${clock()} ${name} exited unexpectedly (${how}) after ${inSeconds(ranMs)}; restarting in ` +
            `${inSeconds(delayMs)}, at ${clock(new Date(Date.now() + delayMs))}; see ` +
            `${relative(process.cwd(), logFile) || logFile}`,
        );
        restart = setTimeout(() => {
          restart = undefined;
          current = run();
          options.onStart?.(current.pid);
          print(`  ↻ ${clock()} ${name} restarted (pid ${current.pid})`);
        }, delayMs);
      }),
    );
    return child;
  };
  let current = run();
  options.onStart?.(current.pid);

  return {
    name,
    get process() {
      return current;
    },
    stop: async (graceMs) => {
      stopping = true;
      clearTimeout(restart);
      if (current.exitCode === null && current.signalCode === null) current.kill('SIGTERM');
      const kill = setTimeout(() => current.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(kill);
      log.end();
    },
  };
}

/** Stops every child for good: SIGTERM, then SIGKILL for whoever is still running after the grace period. */
export async function stopChildren(children: readonly Child[], graceMs = 8000): Promise<void> {
  await Promise.all(children.map((child) => child.stop(graceMs)));
}
