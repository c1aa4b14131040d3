// Starting, watching and stopping engine processes so that none outlives us.
//
// Each engine runs in a process group of its own (its launcher script and the JVM or Go server it starts), so
// one signal reaches all of it. A stop sends SIGTERM to the group, then SIGKILL after a grace period. If this
// Node process dies without stopping them (SIGKILL, a crash), a small watchdog shell per engine notices within a
// second that we are gone and ends the group the same way: no engine is left behind, whatever happens to us.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * $1: the process to outlive, $2: the group to end when it is gone (or to stop watching once it is empty).
 * Plain POSIX sh (Debian's is dash, whose kill takes no `--`).
 */
const WATCHDOG = `
while kill -0 "$1" 2>/dev/null; do kill -0 "-$2" 2>/dev/null || exit 0; sleep 1; done
kill -TERM "-$2" 2>/dev/null
i=0; while [ $i -lt 30 ] && kill -0 "-$2" 2>/dev/null; do sleep 1; i=$((i+1)); done
kill -KILL "-$2" 2>/dev/null
`;

export interface Supervised {
  name: string;
  /** The pid of the group's leader, which is also the group's id. */
  pid: number;
  /** Resolves when the group's leader exits, for whatever reason, with its exit code (null: a signal). */
  exited: Promise<number | null>;
  /** True once the leader has exited. */
  hasExited(): boolean;
  /** The log's last lines, for saying why an engine failed. */
  logTail(lines?: number): string;
  /** SIGTERM to the whole group, SIGKILL to whatever is left after `graceMs`; resolves when the group is empty. */
  stop(graceMs?: number): Promise<void>;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

async function groupGone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (groupAlive(pgid)) {
    if (performance.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

export function supervise(options: {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logFile: string;
}): Supervised {
  const log = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  // A command that cannot be started at all (not installed) surfaces as pid undefined below.
  child.once('error', () => {});
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not start ${options.command}`);
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      done = true;
      resolve(code);
    });
  });
  const watchdog = spawn(
    'sh',
    ['-c', WATCHDOG, `${options.name}-watchdog`, String(process.pid), String(pid)],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  watchdog.unref();

  return {
    name: options.name,
    pid,
    exited,
    hasExited: () => done,
    logTail(lines = 30) {
      try {
        return readFileSync(options.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
    async stop(graceMs = 30_000) {
      signalGroup(pid, 'SIGTERM');
      if (!(await groupGone(pid, graceMs))) {
        signalGroup(pid, 'SIGKILL');
        await groupGone(pid, 10_000);
      }
      await exited;
      // Nothing left to watch: end the watchdog (and its sleep) now rather than at its next look.
      if (watchdog.pid !== undefined) signalGroup(watchdog.pid, 'SIGTERM');
    },
  };
}

/** Polls `url` until it answers 2xx; fails early, with the log's tail, if the engine exits first. */
export async function waitHealthy(
  engine: Supervised,
  url: string,
  timeoutMs: number,
  /** A request other than a GET answered within 2 s: a write that must land (timeoutMs: how long it may take). */
  probe: { method: string; body: string; timeoutMs: number } = { method: 'GET', body: '', timeoutMs: 2000 },
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (engine.hasExited())
      throw new Error(`${engine.name} exited while starting; the end of its log:\n${engine.logTail()}`);
    try {
      const answer = await fetch(url, {
        method: probe.method,
        ...(probe.body && { body: probe.body }),
        signal: AbortSignal.timeout(probe.timeoutMs),
      });
      await answer.body?.cancel();
      if (answer.ok) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > timeoutMs)
      throw new Error(
        `${engine.name} did not answer ${url} within ${timeoutMs / 1000} s; the end of its log:\n${engine.logTail()}`,
      );
    await sleep(500);
  }
}

/** Runs a one-shot command (a fetch or a build) to completion, its output appended to `logFile`. */
export async function runStep(options: {
  what: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  logFile: string;
}): Promise<void> {
  const step = supervise({ ...options, name: options.what });
  const code = await step.exited;
  if (code !== 0)
    throw new Error(
      `${options.what} failed (exit code ${code}); the end of its output:\n${step.logTail(40)}`,
    );
}
