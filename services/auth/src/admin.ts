// `npm run admin -- <command>`: manages who may register and who is a contributor, through the same
// identity provider the service uses (the built-in one, or Keycloak's realm role in Keycloak mode).
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
  rotate-keys                   start signing tokens with a new key (built-in identity provider)`;

const LISTS: Record<string, [AccessListName, 'add' | 'remove']> = {
  'approve-domain': ['approved-domain', 'add'],
  'remove-domain': ['approved-domain', 'remove'],
  'approve-email': ['approved-email', 'add'],
  'remove-email': ['approved-email', 'remove'],
  'add-beta-email': ['beta-email', 'add'],
  'remove-beta-email': ['beta-email', 'remove'],
};

const [command, value] = process.argv.slice(2);
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
