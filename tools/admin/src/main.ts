// `npm run admin -- <command>`: the product's admin command. Access lists, contributors and signing keys go to
// the auth service's administration entry point; `reindex` runs the reindex entry point of each service that owns
// an index, which reads that service's configuration from the environment.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AUTH_ADMIN_COMMANDS, runAuthAdmin } from '@rotunda/auth-service/admin';

const USAGE = `Usage: npm run admin -- <command> [value]

${AUTH_ADMIN_COMMANDS}
  reindex <index>               rebuild a search index from its service's tables: organizations, people,
                                posts or all`;

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
process.exit(await runAuthAdmin(process.argv.slice(2), USAGE));

/** Runs each index's rebuild in turn, in a child process with this environment; 1 when any failed. */
async function reindex(names: string[]): Promise<number> {
  const started = performance.now();
  const failed: string[] = [];
  for (const name of names) {
    const script = fileURLToPath(import.meta.resolve(REINDEX_ENTRY_POINTS[name] as string));
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [script], { stdio: 'inherit', env: process.env });
      child.on('error', () => resolve(1));
      child.on('exit', (exitCode) => resolve(exitCode ?? 1));
    });
    if (code !== 0) failed.push(name);
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
