// `npm run admin`: an operator manages who may register and who is a contributor, with clear answers, names
// the search index to rebuild (the rebuild itself is tested with each service that owns an index), and sends the
// digests due with the environment `npm start` wrote for them (the digests are tested with their service).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase, testCallers } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The accounts the commands act on are made as the auth service's own tests make them.
import { PrismaClient } from '../../../services/auth/generated/prisma/client.ts';
import { createBuiltinIdentity } from '../../../services/auth/src/adapters/builtin-identity.ts';
import { prismaAccessLists } from '../../../services/auth/src/adapters/prisma-stores.ts';
import { seedDemoAccounts } from '../../../services/auth/src/seed/demo-accounts.ts';
// The auth and profile services the digest job asks, and the inbox, as the notification service's tests have them.
import { startFakeMembers, startInbox } from '../../../services/notification/test/support.ts';

const main = new URL('../src/main.ts', import.meta.url).pathname;
const authRoot = new URL('../../../services/auth/', import.meta.url).pathname;
const notificationRoot = new URL('../../../services/notification/', import.meta.url).pathname;
let databaseUrl: string;
let prisma: PrismaClient;

const admin = (...args: string[]) => adminWith({ DATABASE_URL: databaseUrl }, ...args);
const adminWith = (env: Record<string, string>, ...args: string[]) => {
  const result = spawnSync(process.execPath, [main, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
};

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: `${authRoot}prisma/migrations`,
    logger: createLogger('t', 'silent'),
  });
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
  const identity = createBuiltinIdentity({
    prisma,
    issuer: 'http://localhost:8080/realms/rotunda',
    clientId: 'rotunda-web',
    accessTokenSeconds: 300,
    sessionIdleSeconds: 1800,
    sessionMaxSeconds: 36_000,
  });
  await seedDemoAccounts(identity, prismaAccessLists(prisma));
});
afterAll(() => prisma.$disconnect());

describe('npm run admin', () => {
  it('grants and revokes the contributor role', async () => {
    expect(admin('grant-contributor', 'Member@demo.ca.gov')).toMatchObject({ code: 0 });
    const roles = async () =>
      (
        await prisma.user.findUniqueOrThrow({
          where: { email: 'member@demo.ca.gov' },
          include: { roles: true },
        })
      ).roles.map((r) => r.role);
    expect(await roles()).toEqual(['contributor']);
    expect(admin('revoke-contributor', 'member@demo.ca.gov').out).toContain(
      'member@demo.ca.gov is no longer a contributor.',
    );
    expect(await roles()).toEqual([]);
  });

  it('approves domains and emails, and lists them', () => {
    expect(admin('approve-domain', '@AssemblyStaff.Example').out).toBe(
      'Added assemblystaff.example (approved-domain).\n',
    );
    expect(admin('approve-email', 'chief.of.staff@district9.example').code).toBe(0);
    expect(admin('add-beta-email', 'pilot@partners.example').code).toBe(0);
    const listed = admin('list').out;
    expect(listed).toContain('assemblystaff.example');
    expect(listed).toContain('chief.of.staff@district9.example');
    expect(listed).toContain('pilot@partners.example');
    expect(admin('remove-domain', 'assemblystaff.example').code).toBe(0);
    expect(admin('list').out).not.toContain('assemblystaff.example');
  });

  it('rotates the signing key', () => {
    expect(admin('rotate-keys').out).toMatch(
      /^Now signing with key [0-9a-f-]{36}; earlier keys still verify their tokens\.\n$/,
    );
  });

  it('says so for an unknown account, an unknown command and a missing value', () => {
    expect(admin('grant-contributor', 'nobody@dof.ca.gov')).toMatchObject({
      code: 1,
      out: 'No account for nobody@dof.ca.gov.\n',
    });
    const unknown = admin('make-admin', 'x');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command: make-admin');
    expect(unknown.err).toMatch(/^ {2}send-digests {2,}send the email digests due now/m);
    expect(admin('approve-domain').err).toContain('approve-domain needs a value.');
  });

  it('refuses to reindex an unknown or missing index with the usage (EX_USAGE)', () => {
    const usage = 'Usage: npm run admin -- reindex <organizations|people|posts|all>';
    expect(admin('reindex', 'members')).toEqual({
      code: 64,
      out: '',
      err: `Unknown index: members. ${usage}\n`,
    });
    expect(admin('reindex')).toEqual({ code: 64, out: '', err: `reindex needs an index. ${usage}\n` });
  });

  it('rebuilds an index through the reindex command of the service that owns it, and says when it failed', () => {
    // No database answers here: the post service's own command says so, then the admin command sums up.
    const failed = adminWith(
      { DATABASE_URL: 'postgres://rotunda:rotunda@127.0.0.1:1/rotunda' },
      'reindex',
      'posts',
    );
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('reindex posts: connect ECONNREFUSED 127.0.0.1:1\n');
    expect(failed.err).toMatch(/reindex failed for: posts\n$/);
  });
});

describe('npm run admin -- send-digests', () => {
  /** A DATA_DIR as `npm start` leaves it while running: run/notification.env, values quoted as it quotes them. */
  function dataDirWith(env: Record<string, string>): string {
    const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-admin-'));
    mkdirSync(join(dataDir, 'run'));
    const lines = Object.entries(env).map(([name, value]) => `${name}='${value}'\n`);
    writeFileSync(join(dataDir, 'run', 'notification.env'), lines.join(''), { mode: 0o600 });
    return dataDir;
  }

  /** The command in a child process, this one free meanwhile to play the services the job calls. */
  function sendDigests(
    env: Record<string, string>,
  ): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, [main, 'send-digests'], {
      env: { PATH: process.env.PATH, ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  }

  const dataDirs: string[] = [];
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the notification service’s digest job with the environment npm start wrote', async () => {
    await migrate({
      databaseUrl,
      schema: 'notification',
      migrationsDir: `${notificationRoot}prisma/migrations`,
      logger: createLogger('t', 'silent'),
    });
    const inbox = await startInbox();
    const members = await startFakeMembers([
      { userId: 'user-1', email: 'm1@agency.ca.gov', profileId: 11, issueAreaIds: [7] },
    ]);
    try {
      const dataDir = dataDirWith({
        DATABASE_URL: databaseUrl,
        SMTP_URL: inbox.smtpUrl,
        MAIL_FROM: 'Rotunda <no-reply@rotunda.example>',
        AUTH_SERVICE_ADDR: `127.0.0.1:${members.port}`,
        PROFILE_SERVICE_ADDR: `127.0.0.1:${members.port}`,
        SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
      });
      dataDirs.push(dataDir);
      expect(await sendDigests({ DATA_DIR: dataDir })).toEqual({
        code: 0,
        out: expect.stringMatching(/^Digests: 0 sent, 1 member considered, \d+\.\d s\n$/),
        err: '',
      });
      expect(members.calls).toEqual(['issue-areas']);
    } finally {
      await members.shutdown();
      await inbox.stop();
    }
  });

  it('lets the environment it is given win over the file, and says what is wrong with either', async () => {
    const dataDir = dataDirWith({ DATABASE_URL: 'not-a-url', SMTP_URL: 'mail.example' });
    dataDirs.push(dataDir);
    expect(await sendDigests({ DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:1025' })).toEqual({
      code: 78,
      out: '',
      err: 'send-digests: Invalid configuration:\n  DATABASE_URL: must be a postgresql:// URL (got "not-a-url")\n',
    });
  });
});
