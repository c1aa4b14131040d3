// `npm start` as the lifecycle tests run it: on a block of free ports with its own data folder, its output
// collected, and the processes it started found from Linux's /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portsInUse } from '../../src/ports.ts';

const main = new URL('../../src/main.ts', import.meta.url).pathname;

/**
 * A base port with `count` free ports after it, away from the defaults a developer may be running and below
 * Linux's ephemeral range (32768 up): there, the product's own outgoing connections could take a port between
 * the check and a service binding it.
 */
export async function freePortRun(count: number): Promise<number> {
  for (let base = 21000 + Math.floor(Math.random() * 10000); ; base += count) {
    if (
      (await portsInUse(Array.from({ length: count }, (_, i) => ({ port: base + i, what: 'test' }))))
        .length === 0
    ) {
      return base;
    }
  }
}

/** A fresh data folder; as root, PostgreSQL runs as the postgres user, who must be able to reach it. */
export function dataFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-apphost-'));
  chmodSync(dataDir, 0o755);
  return dataDir;
}

/** The product's environment on ports from `base`: the app, PostgreSQL, S3, mail (2), gRPC from base + 5. */
export function productEnv(base: number, dataDir: string, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    PORT: String(base),
    POSTGRES_PORT: String(base + 1),
    S3_PORT: String(base + 2),
    MAILDEV_WEB_PORT: String(base + 3),
    MAILDEV_SMTP_PORT: String(base + 4),
    GRPC_PORT_BASE: String(base + 5),
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

export interface ProductRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function startProduct(env: NodeJS.ProcessEnv, args: string[] = []): ProductRun {
  const child = spawn(process.execPath, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

export async function untilHealthy(run: ProductRun, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!run.output().includes('Press Ctrl-C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`did not start:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The Node processes `pid` started (the services and the gateway, or a gateway's workers), from /proc. */
export function nodeChildrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid; the command name before it may hold spaces.
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === pid && command.includes('src/main.ts')) children.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return children;
}

/** The child of `pid` running in `folder` (the gateway, services/news), from its working directory. */
export function childIn(pid: number, folder: string): number {
  const child = nodeChildrenOf(pid).find((candidate) =>
    readlinkSync(`/proc/${candidate}/cwd`).endsWith(`/${folder}`),
  );
  if (child === undefined) throw new Error(`no child in ${folder}`);
  return child;
}

export const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return condition();
}
