// One step of a release check (test:stack, test:cluster): a command run in the foreground with its output shown,
// answering its exit code.
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';

const REPO = join(import.meta.dirname, '../../..');

export function step(
  command: string,
  args: string[],
  cwd: string = REPO,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return new Promise((resolve, reject) => {
    // The repo's own Node (the `node` package's binary first on PATH, as under `npm run`), whatever the shell's is.
    const path = `${join(REPO, 'node_modules/.bin')}${delimiter}${env.PATH ?? ''}`;
    const child = spawn(command, args, { cwd, env: { ...env, PATH: path }, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}
