// Docker Compose v2, built once from the Go module proxy into the engines' build cache (the way SeaweedFS is) and
// run as a standalone binary against docker-compose.yml. v2.35.1: later releases build only through the buildx
// plugin, which Debian's docker.io does not carry; the stack builds its images itself (images.ts) anyway.
import { spawn } from 'node:child_process';
import { defaultCacheFolder, goBuild } from '@rotunda/engines';
import { dockerEnv } from './engine.ts';

export const COMPOSE = {
  module: 'github.com/docker/compose/v2',
  version: 'v2.35.1',
  package: './cmd',
} as const;

/** The project name: its containers, networks and volumes carry it, which is how `down` finds them all. */
export const PROJECT = 'rotunda';

/** The compose binary, built on a machine's first run (a few minutes) and reused by every clone after it. */
export function composeBinary(options: { logFile: string; say: (line: string) => void }): Promise<string> {
  return goBuild(
    { cache: defaultCacheFolder(), logFile: options.logFile, say: options.say },
    { path: COMPOSE.module, version: COMPOSE.version, package: COMPOSE.package },
    `docker-compose-${COMPOSE.version}`,
    'docker-compose',
  );
}

/** The arguments naming the project, its file and its settings, before a compose command. */
export function projectArgs(options: { composeFile: string; envFile: string }): string[] {
  return ['--project-name', PROJECT, '--file', options.composeFile, '--env-file', options.envFile];
}

/** Runs compose with its output shown; fails with the command when it fails. */
export function runCompose(binary: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, env: dockerEnv(), stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`docker compose ${args.join(' ')} failed (exit code ${code})`)),
    );
  });
}
