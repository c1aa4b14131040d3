// The container engine the stack runs on: Debian's docker.io (its daemon and the client of the same version,
// whose `DOCKER_BUILDKIT=1` builds run on the daemon's own BuildKit without the buildx plugin). Installed with
// apt-get when missing and started by hand when no daemon answers, as on a machine without systemd; a daemon
// this command started keeps running after it (`down` stops the containers, not the engine).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's client, the daemon's own version: another client on PATH may lack the plugins its builds need. */
export const DOCKER = '/usr/bin/docker';
const DOCKERD = '/usr/sbin/dockerd';
const DAEMON_START_MS = 60_000;

/** The environment every docker call runs with: builds on the daemon's BuildKit. */
export function dockerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, DOCKER_BUILDKIT: '1' };
}

function answers(): boolean {
  return spawnSync(DOCKER, ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore' }).status === 0;
}

function asRoot(command: string[]): string[] {
  return process.getuid?.() === 0 ? command : ['sudo', ...command];
}

/** Installs Debian packages with apt-get (as root, or through sudo), as the stack's tools need them. */
export function aptInstall(packages: readonly string[]): void {
  for (const command of [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', ...packages],
  ]) {
    const [program, ...args] = asRoot(command);
    const result = spawnSync(program ?? '', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`${command.join(' ')} failed (exit code ${result.status})`);
  }
}

/** Whether a program is on PATH. */
export function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/** Makes sure a daemon answers: installs docker.io when it is missing and starts dockerd when none runs. */
export async function ensureEngine(options: { logFile: string; say: (line: string) => void }): Promise<void> {
  if (!existsSync(DOCKER) || !existsSync(DOCKERD)) {
    options.say("installing Debian's docker.io (the container engine)");
    aptInstall(['docker.io']);
  }
  if (answers()) return;
  options.say(`starting dockerd (its log: ${options.logFile})`);
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  const [program, ...args] = asRoot([DOCKERD]);
  // Its own session: the daemon outlives this command and is not stopped by a Ctrl-C meant for it.
  const daemon = spawn(program ?? DOCKERD, args, { detached: true, stdio: ['ignore', log, log] });
  daemon.unref();
  const until = Date.now() + DAEMON_START_MS;
  while (Date.now() < until) {
    if (answers()) return;
    if (daemon.exitCode !== null) break;
    await sleep(500);
  }
  throw new Error(`dockerd did not answer within ${DAEMON_START_MS / 1000} s; see ${options.logFile}`);
}
