// The auth service's administration, its public entry point for the product's admin command (tools/admin,
// `npm run admin`): who may register and who is a contributor or administrator (each change in the admin log),
// through the same identity provider the service uses (the built-in one, or Keycloak's realm roles in Keycloak
// mode), and the built-in provider's signing key.
// Run on its own where only the auth service is (its image): `node src/admin.ts <command> [value]`.
import type { AccessList, AdminRole } from '@rotunda/rules';
import { createLogger, DomainError, loadConfigOrExit, migrate } from '@rotunda/service-kit';
import { type AuthConfig, authConfigSchema } from './config.ts';
import { COMMAND_LINE_ACTOR } from './domain/access-admin.ts';
import type { AccessListName } from './domain/ports.ts';
import { wireAuth } from './wiring.ts';

/** The commands this entry point runs, as the usage lists them. */
export const AUTH_ADMIN_COMMANDS = `  approve-domain <domain>       let anyone at this domain register      (remove-domain <domain>)
  approve-email <email>         let this work email register            (remove-email <email>)
  add-beta-email <email>        let this beta tester register           (remove-beta-email <email>)
  grant-contributor <email>     make this member a Concierge contributor
  revoke-contributor <email>    take the contributor role away
  grant-admin <email>           let this member administer access       (revoke-admin <email>)
  list                          print the approved domains, approved emails and beta emails
  rotate-keys                   start signing tokens with a new key (built-in identity provider)`;

const LISTS: Record<string, [AccessList, AccessListName, 'add' | 'remove']> = {
  'approve-domain': ['domains', 'approved-domain', 'add'],
  'remove-domain': ['domains', 'approved-domain', 'remove'],
  'approve-email': ['emails', 'approved-email', 'add'],
  'remove-email': ['emails', 'approved-email', 'remove'],
  'add-beta-email': ['beta_emails', 'beta-email', 'add'],
  'remove-beta-email': ['beta_emails', 'beta-email', 'remove'],
};

const ROLES: Record<string, [AdminRole, boolean]> = {
  'grant-contributor': ['contributor', true],
  'revoke-contributor': ['contributor', false],
  'grant-admin': ['admin', true],
  'revoke-admin': ['admin', false],
};

const OTHER_COMMANDS = ['list', 'rotate-keys'];

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Runs one command against the auth service's database (migrated first) with the auth service's configuration
 * from the environment; answers the exit code. `usage` is printed for an unknown command or a missing value.
 */
export async function runAuthAdmin(args: readonly string[], usage: string): Promise<number> {
  const [command, value] = args;
  if (!command || (!LISTS[command] && !ROLES[command] && !OTHER_COMMANDS.includes(command))) {
    process.stderr.write(`${command ? `Unknown command: ${command}\n\n` : ''}${usage}\n`);
    return 2;
  }
  if (!OTHER_COMMANDS.includes(command) && !value?.trim()) {
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
  const { prisma, builtin, lists, access } = wireAuth(config, logger);
  try {
    return await runWith(command, value, { builtin, lists, access });
  } catch (error) {
    // A value the rules refuse, or an unknown account: the operator's mistake, said in the screen's words.
    if (!(error instanceof DomainError)) throw error;
    say(error.kind === 'not_found' ? `No account for ${value}.` : error.message);
    return 1;
  } finally {
    await prisma.$disconnect();
  }
}

/** Changes go through the access rules as the command-line actor, so the admin log records them too. */
async function runWith(
  command: string,
  value: string,
  { builtin, lists, access }: Pick<ReturnType<typeof wireAuth>, 'builtin' | 'lists' | 'access'>,
): Promise<number> {
  const list = LISTS[command];
  if (list) {
    const stored = await access.changeList(COMMAND_LINE_ACTOR, list[0], value, list[2] === 'add');
    say(`${list[2] === 'add' ? 'Added' : 'Removed'} ${stored} (${list[1]}).`);
    return 0;
  }
  const role = ROLES[command];
  if (role) {
    const email = await access.setRole(COMMAND_LINE_ACTOR, value, role[0], role[1]);
    const name = role[0] === 'admin' ? 'an administrator' : 'a contributor';
    say(
      role[1]
        ? `${email} is ${name}. The role shows in their next token (at the latest after a refresh).`
        : `${email} is no longer ${name}.`,
    );
    return 0;
  }
  if (command === 'list') {
    say(`Approved domains: ${(await lists.approvedDomains()).join(', ') || '(none)'}`);
    say(`Approved emails:  ${(await lists.approvedEmails()).join(', ') || '(none)'}`);
    say(`Beta emails:      ${(await lists.betaEmails()).join(', ') || '(none)'}`);
    return 0;
  }
  if (!builtin) {
    say('Keys are managed by Keycloak in this configuration (IDENTITY_PROVIDER=keycloak).');
    return 1;
  }
  say(`Now signing with key ${await builtin.rotateSigningKey()}; earlier keys still verify their tokens.`);
  return 0;
}

if (import.meta.main) {
  const usage = `Usage: node src/admin.ts <command> [value]\n\n${AUTH_ADMIN_COMMANDS}`;
  process.exit(await runAuthAdmin(process.argv.slice(2), usage));
}
