// The live checks' view of the running stack through Docker's client: a command's output, and a compose service's
// containers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT } from '../../src/compose.ts';
import { DOCKER, dockerEnv } from '../../src/engine.ts';

const run = promisify(execFile);

/** A docker command's standard output, trimmed. */
export async function docker(...args: string[]): Promise<string> {
  return (await run(DOCKER, args, { env: dockerEnv(), maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
}

/** The project's containers of one compose service, by id: running ones, or with `all`, every state. */
export async function containersOf(service: string, { all = true } = {}): Promise<string[]> {
  const ids = await docker(
    'container',
    'ls',
    ...(all ? ['--all'] : []),
    '--quiet',
    '--filter',
    `label=com.docker.compose.project=${PROJECT}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  );
  return ids.split('\n').filter(Boolean);
}
