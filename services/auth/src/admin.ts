// The auth service's administration, its public entry point for the product's admin command (tools/admin,
// `npm run admin`): who may register and who is a contributor, through the same identity provider the service
// uses (the built-in one, or Keycloak's realm role in Keycloak mode), and the built-in provider's signing key.
// Run on its own where only the auth service is (its image): `node src/admin.ts <command> [value]`.
import { CONTRIBUTOR_ROLE, createLogger, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import { type AuthConfig, authConfigSchema } from './config.ts';
import type { AccessListName } from './domain/ports.ts';
import { wireAuth } from './wiring.ts';

/** The commands this entry point runs, as the usage lists them. */
export const AUTH_ADMIN_COMMANDS = `  approve-domain <domain>       let anyone at this domain register      (remove-domain <domain>)
  approve-email <email>         let this work email register            (remove-email <email>)
  add-beta-email <email>        let this beta tester register           (remove-beta-email <email>)
  grant-contributor <email>     make this member a Concierge contributor
  revoke-contributor <email>    take the contributor role away
  list                          print the approved domains, approved emails and beta emails
  rotate-keys                   start signing tokens with a new key (built-in identity provider)`;

const LISTS: Record<string, [AccessListName, 'add' | 'remove']> = {
  'approve-domain': ['approved-domain', 'add'],
  'remove-domain': ['approved-domain', 'remove'],
  'approve-email': ['approved-email', 'add'],
  'remove-email': ['approved-email', 'remove'],
  'add-beta-email': ['beta-email', 'add'],
  'remove-beta-email': ['beta-email', 'remove'],
};

const OTHER_COMMANDS = ['grant-contributor', 'revoke-contributor', 'list', 'rotate-keys'];

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Runs one command against the auth service's database (migrated first) with the auth service's configuration
 * from the environment; answers the exit code. `usage` is printed for an unknown command or a missing value.
 */
export async function runAuthAdmin(args: readonly string[], usage: string): Promise<number> {
  const [command, value] = args;
  if (!command || (!LISTS[command] && !OTHER_COMMANDS.includes(command))) {
    process.stderr.write(`${command ? `Unknown command: ${command}\n\n` : ''}${usage}\n`);
    return 2;
  }
  if (command !== 'list' && command !== 'rotate-keys' && !value?.trim()) {
    process.stderr.write(`${command} needs a value.\n\n${usage}\n`);
    return 2;
  }
  const config = loadConfigOrExit(authConfigSchema, 'admin');
  try {
    return await run(config, command, value as string);
  } catch (error) {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write('Is the product running (npm start), or DATABASE_URL set to its database?\n');
    return 1;
  }
}

async function run(config: AuthConfig, command: string, value: string): Promise<number> {
  const logger = createLogger('admin', 'warn');
  await migrate({
    databaseUrl: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger,
  });
  const { prisma, identity, builtin, lists } = wireAuth(config, logger);
  try {
    const list = LISTS[command];
    if (list) {
      const stored = await lists[list[1]](list[0], value);
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
    const user = await identity.findUserByEmail(value);
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

if (import.meta.main) {
  const usage = `Usage: node src/admin.ts <command> [value]\n\n${AUTH_ADMIN_COMMANDS}`;
  process.exit(await runAuthAdmin(process.argv.slice(2), usage));
}
