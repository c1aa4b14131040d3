// Runs each service and the gateway as its own Node process (real gRPC between processes), writes its logs to
// .data/logs/<name>.log, echoes its warnings and errors to the console, and stops it gracefully.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { NODE_FLAGS } from '@rotunda/service-kit';

export interface Child {
  name: string;
  process: ChildProcess;
  exited: Promise<number | null>;
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

export function startChild(options: {
  name: string;
  script: string;
  cwd: string;
  env: Record<string, string>;
  logDir: string;
  print: (text: string) => void;
}): Child {
  const log = createWriteStream(join(options.logDir, `${options.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [...NODE_FLAGS, options.script], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    // The IPC channel tells the child when this process is gone (service kit's stopWithParent).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  // Both piped above; the fourth descriptor (the channel) leaves them typed as possibly absent.
  for (const stream of [child.stdout, child.stderr] as Readable[]) {
    stream.pipe(log, { end: false });
    createInterface({ input: stream }).on('line', (line) => echo(options.name, line, options.print));
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      log.end();
      resolve(code);
    }),
  );
  return { name: options.name, process: child, exited };
}

/** SIGTERM, then SIGKILL for whoever is still running after the grace period. */
export async function stopChildren(children: readonly Child[], graceMs = 8000): Promise<void> {
  for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGTERM');
  const timer = setTimeout(() => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
  }, graceMs);
  await Promise.all(children.map((child) => child.exited));
  clearTimeout(timer);
}
