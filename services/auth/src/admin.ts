// `npm run admin -- <command>`: manages who may register and who is a contributor, through the same
// identity provider the service uses (the built-in one, or Keycloak's realm role in Keycloak mode), and rebuilds
// the search indices through the services that own them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CONTRIBUTOR_ROLE, createLogger, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import { authConfigSchema } from './config.ts';
import type { AccessListName } from './domain/ports.ts';
import { wireAuth } from './wiring.ts';

const USAGE = `Usage: npm run admin -- <command> [value]

  approve-domain <domain>       let anyone at this domain register      (remove-domain <domain>)
  approve-email <email>         let this work email register            (remove-email <email>)
  add-beta-email <email>        let this beta tester register           (remove-beta-email <email>)
  grant-contributor <email>     make this member a Concierge contributor
  revoke-contributor <email>    take the contributor role away
  list                          print the approved domains, approved emails and beta emails
  rotate-keys                   start signing tokens with a new key (built-in identity provider)
  reindex <index>               rebuild a search index from its service's tables: organizations, people,
                                posts or all`;

/** Each index is rebuilt by the script of the service that owns it, which reads that service's configuration. */
const REINDEX_SCRIPTS: Record<string, URL> = {
  organizations: new URL('../../org/src/reindex.ts', import.meta.url),
  people: new URL('../../profile/src/reindex.ts', import.meta.url),
  posts: new URL('../../post/src/reindex.ts', import.meta.url),
};

const LISTS: Record<string, [AccessListName, 'add' | 'remove']> = {
  'approve-domain': ['approved-domain', 'add'],
  'remove-domain': ['approved-domain', 'remove'],
  'approve-email': ['approved-email', 'add'],
  'remove-email': ['approved-email', 'remove'],
  'add-beta-email': ['beta-email', 'add'],
  'remove-beta-email': ['beta-email', 'remove'],
};

const [command, value] = process.argv.slice(2);

if (command === 'reindex') {
  const names = value === 'all' ? Object.keys(REINDEX_SCRIPTS) : value ? [value] : [];
  if (names.length === 0 || names.some((name) => !REINDEX_SCRIPTS[name])) {
    process.stderr.write(
      `${value ? `Unknown index: ${value}` : 'reindex needs an index'}. ` +
        `Usage: npm run admin -- reindex <organizations|people|posts|all>\n`,
    );
    process.exit(64); // EX_USAGE
  }
  process.exit(await reindex(names));
}

/** Runs each index's script in turn, in a child process with this environment; 1 when any failed. */
async function reindex(names: string[]): Promise<number> {
  const started = performance.now();
  const failed: string[] = [];
  for (const name of names) {
    const script = REINDEX_SCRIPTS[name] as URL;
    if (!existsSync(script)) {
      // The auth service's image holds only its own code: there, each service's image runs its own script.
      process.stderr.write(
        `reindex ${name}: ${script.pathname} is not here; run it where that service runs.\n`,
      );
      failed.push(name);
      continue;
    }
    const code = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [script.pathname], { stdio: 'inherit', env: process.env });
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
const needsValue = command !== 'list' && command !== 'rotate-keys';
if (
  !command ||
  (!LISTS[command] && !['grant-contributor', 'revoke-contributor', 'list', 'rotate-keys'].includes(command))
) {
  process.stderr.write(`${command ? `Unknown command: ${command}\n\n` : ''}${USAGE}\n`);
  process.exit(2);
}
if (needsValue && !value?.trim()) {
  process.stderr.write(`${command} needs a value.\n\n${USAGE}\n`);
  process.exit(2);
}

const config = loadConfigOrExit(authConfigSchema, 'admin');
const logger = createLogger('admin', 'warn');
const say = (line: string) => process.stdout.write(`${line}\n`);

async function run(): Promise<number> {
  await migrate({
    databaseUrl: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger,
  });
  const { prisma, identity, builtin, lists } = wireAuth(config, logger);
  try {
    const list = command ? LISTS[command] : undefined;
    if (list) {
      const stored = await lists[list[1]](list[0], value as string);
      say(`${list[1] === 'add' ? 'Added' : 'Removed'} ${stored} (${list[0]}).`);
      return 0;
    }
    if (command === 'list') {
      say(`Approved domains: ${(await lists.approvedDomains()).join(', ') || '(none)'}`);
      say(`Approved emails:  ${(await lists.approvedEmails()).join(', ') || '(none)'}`);
      say(`Beta emails:      ${(await lists.betaEmails()).join(', ') || '(none)'}`);
      return 0;
    }
    if (command === 'rotate-keys') {
      if (!builtin) {
        say('Keys are managed by Keycloak in this configuration (IDENTITY_PROVIDER=keycloak).');
        return 1;
      }
      say(
        `Now signing with key ${await builtin.rotateSigningKey()}; earlier keys still verify their tokens.`,
      );
      return 0;
    }
    const user = await identity.findUserByEmail(value as string);
    if (!user) {
      say(`No account for ${value}.`);
      return 1;
    }
    if (command === 'grant-contributor') {
      await identity.grantRole(user.id, CONTRIBUTOR_ROLE);
      say(
        `${user.email} is a contributor. The role shows in their next token (at the latest after a refresh).`,
      );
    } else {
      await identity.revokeRole(user.id, CONTRIBUTOR_ROLE);
      say(`${user.email} is no longer a contributor.`);
    }
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write('Is the product running (npm start), or DATABASE_URL set to its database?\n');
    process.exit(1);
  },
);
