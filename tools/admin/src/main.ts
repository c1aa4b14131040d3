// `npm run admin -- <command>`: the product's admin command. Access lists, contributors and signing keys go to
// the auth service's administration entry point; `reindex` runs the reindex entry point of each service that owns
// an index, and `send-digests` the notification service's digest job, each reading that service's configuration
// from the environment.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { AUTH_ADMIN_COMMANDS, runAuthAdmin } from '@rotunda/auth-service/admin';

const USAGE = `Usage: npm run admin -- <command> [value]

${AUTH_ADMIN_COMMANDS}
  reindex <index>               rebuild a search index from its service's tables: organizations, people,
                                posts or all
  send-digests                  send the email digests due now (npm start does so every DIGEST_EVERY_MINUTES)`;

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Each index is rebuilt by the service that owns it, through that service's reindex entry point. */
const REINDEX_ENTRY_POINTS: Record<string, string> = {
  organizations: '@rotunda/org-service/reindex',
  people: '@rotunda/profile-service/reindex',
  posts: '@rotunda/post-service/reindex',
};

const [command, value] = process.argv.slice(2);

if (command === 'reindex') {
  const names = value === 'all' ? Object.keys(REINDEX_ENTRY_POINTS) : value ? [value] : [];
  if (names.length === 0 || names.some((name) => !REINDEX_ENTRY_POINTS[name])) {
    process.stderr.write(
      `${value ? `Unknown index: ${value}` : 'reindex needs an index'}. ` +
        `Usage: npm run admin -- reindex <organizations|people|posts|all>\n`,
    );
    process.exit(64); // EX_USAGE
  }
  process.exit(await reindex(names));
}
if (command === 'send-digests') process.exit(await sendDigests());
process.exit(await runAuthAdmin(process.argv.slice(2), USAGE));

/** Runs each index's rebuild in turn, in a child process with this environment; 1 when any failed. */
async function reindex(names: string[]): Promise<number> {
  const started = performance.now();
  const failed: string[] = [];
  for (const name of names) {
    if ((await runEntryPoint(REINDEX_ENTRY_POINTS[name] as string, process.env)) !== 0) failed.push(name);
  }
  if (names.length > 1) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `${names.length - failed.length} of ${names.length} indices rebuilt in ${seconds} s\n`,
    );
  }
  if (failed.length > 0) process.stderr.write(`reindex failed for: ${failed.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

/**
 * The notification service's digest job, with this environment over the one `npm start` writes for it at start
 * (DATA_DIR/run/notification.env: that start's database role and service key), when it is running.
 */
function sendDigests(): Promise<number> {
  const file = join(resolve(REPO_ROOT, process.env.DATA_DIR || '.data'), 'run', 'notification.env');
  const started = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return runEntryPoint('@rotunda/notification-service/send-digests', { ...started, ...process.env });
}

/** Runs a service's entry point in a child process with this output; answers its exit code. */
function runEntryPoint(specifier: string, env: NodeJS.ProcessEnv): Promise<number> {
  const script = fileURLToPath(import.meta.resolve(specifier));
  return new Promise<number>((done) => {
    const child = spawn(process.execPath, [script], { stdio: 'inherit', env });
    child.on('error', () => done(1));
    child.on('exit', (exitCode) => done(exitCode ?? 1));
  });
}
