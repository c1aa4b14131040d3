// Access administration over gRPC, as the gateway calls it, on real PostgreSQL with the built-in identity
// provider wired as main.ts wires it: administrators read and change the access lists (at once for check-email
// and registration) and grant or take away roles (shown at the next sign-in); members, contributors and
// visitors are refused; every change, and every change made with `npm run admin`, is in the log, newest first.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { credentials, type ServiceError, status } from '@grpc/grpc-js';
import {
  type AddAgencyRequest,
  AuthServiceClient,
  AuthServiceService,
  type LoginResponse,
} from '@rotunda/protos/auth';
import { ACCESS_MESSAGES } from '@rotunda/rules';
import {
  type Caller,
  createLogger,
  loadConfig,
  migrate,
  type RunningGrpcServer,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, rpcCalls, testCallers, type UnaryMethodOf } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcAuthService } from '../src/adapters/grpc-auth-service.ts';
import { authConfigSchema } from '../src/config.ts';
import { seedDemoAccounts } from '../src/seed/demo-accounts.ts';
import { wireAuth } from '../src/wiring.ts';
import { type Inbox, solveCaptcha, startInbox } from './support.ts';

const root = new URL('..', import.meta.url).pathname;
const logger = createLogger('auth-test', 'silent');
const PASSWORD = 'Capitol#Dome2026';

let databaseUrl: string;
let inbox: Inbox;
let wired: ReturnType<typeof wireAuth>;
let server: RunningGrpcServer;
let client: AuthServiceClient;
const callers: Record<'admin' | 'member' | 'contributor', Caller> = {} as never;

const uniqueIp = () => `fd00:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::1`;

const rpc = rpcCalls(AuthServiceService, () => client);
type Method = UnaryMethodOf<AuthServiceClient>;

/** One call as `caller` (none: a visitor); answers the response or the refusal. */
function ask<K extends Method>(method: K, request: Parameters<typeof rpc<K>>[1], caller?: Caller) {
  return rpc(method, request, caller).then(
    (response) => ({ error: null, response }),
    (error: ServiceError) => ({ error, response: undefined }),
  );
}

/** One call as `caller` (the administrator unless named); answers the response, throws the refusal. */
const answer = <K extends Method>(method: K, request: Parameters<typeof rpc<K>>[1], caller = callers.admin) =>
  rpc(method, request, caller);

const AN_AGENCY: AddAgencyRequest = {
  name: 'Department of Finance',
  protocol: 'oidc',
  domains: ['dof.ca.gov'],
  metadata_url: 'https://login.dof.ca.gov/.well-known/openid-configuration',
  client_id: 'rotunda',
  client_secret: 'secret',
};

const lists = (caller?: Caller) => ask('getAccessLists', {}, caller);
const change = (list: string, value: string, add: boolean, caller: Caller = callers.admin) =>
  ask('changeAccessList', { list, value, add }, caller);
const setRole = (email: string, role: string, grant: boolean, caller: Caller = callers.admin) =>
  ask('setRole', { email, role, grant }, caller);
const log = async (before = 0, limit = 0) => (await answer('listAdminLog', { before, limit })).entries;

const login = (email: string, password: string) =>
  new Promise<LoginResponse>((resolve, reject) =>
    client.login({ email, password, client_ip: uniqueIp(), captcha_payload: '' }, (error, response) =>
      error ? reject(error) : resolve(response),
    ),
  );

const checkEmail = (email: string) =>
  new Promise<boolean>((resolve, reject) =>
    client.checkEmail({ email, client_ip: uniqueIp() }, (error, response) =>
      error ? reject(error) : resolve(response.eligible),
    ),
  );

const register = async (email: string) =>
  wired.auth
    .register({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
      captchaPayload: await solveCaptcha(await wired.auth.createCaptchaChallenge()),
      appUrl: 'http://localhost:8080',
      clientIp: uniqueIp(),
    })
    .then(
      (message) => ({ ok: true, message }),
      (error: Error) => ({ ok: false, message: error.message }),
    );

async function callerOf(email: string): Promise<Caller> {
  const user = await wired.identity.findUserByEmail(email);
  if (!user) throw new Error(`no account ${email}`);
  return { userId: user.id, email: user.email, roles: user.roles };
}

/** A new confirmed member. */
async function newMember(): Promise<string> {
  const email = `m.${randomUUID().slice(0, 8)}@dof.ca.gov`;
  await wired.identity.createUser({
    email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    password: PASSWORD,
    emailVerified: true,
  });
  return email;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'auth', migrationsDir: `${root}prisma/migrations`, logger });
  inbox = await startInbox();
  const config = loadConfig(authConfigSchema, {
    DATABASE_URL: databaseUrl,
    SMTP_URL: inbox.smtpUrl,
    CAPTCHA_MAX_NUMBER: '2000',
    LOG_LEVEL: 'silent',
  });
  wired = wireAuth(config, logger);
  await seedDemoAccounts(wired.identity, wired.lists);
  server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.auth.v1.AuthService',
        definition: AuthServiceService,
        implementation: grpcAuthService(wired.auth, wired.identity, wired.access, wired.agencies, logger),
      },
    ],
  });
  client = new AuthServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
  callers.admin = await callerOf('admin@demo.ca.gov');
  callers.member = await callerOf('member@demo.ca.gov');
  callers.contributor = await callerOf('concierge@demo.ca.gov');
}, 60_000);

afterAll(async () => {
  client?.close();
  await server?.shutdown();
  await wired?.prisma.$disconnect();
  await inbox?.stop();
});

describe('the demo administrator', () => {
  it('signs in with the admin flag; members and contributors without it', async () => {
    expect((await login('admin@demo.ca.gov', 'Admin#2024x')).user).toMatchObject({
      email: 'admin@demo.ca.gov',
      admin: true,
      contributor: false,
    });
    expect((await login('member@demo.ca.gov', 'Member#2024x')).user?.admin).toBe(false);
    expect((await login('concierge@demo.ca.gov', 'Concierge#2024')).user).toMatchObject({
      admin: false,
      contributor: true,
    });
  });
});

describe('refusals for everyone but administrators', () => {
  const calls = {
    GetAccessLists: (caller?: Caller) => lists(caller),
    // Through ask itself: the helpers below stand in the administrator for a missing caller.
    ChangeAccessList: (caller?: Caller) =>
      ask('changeAccessList', { list: 'domains', value: 'refused.example', add: true }, caller),
    SetRole: (caller?: Caller) =>
      ask('setRole', { email: 'member@demo.ca.gov', role: 'contributor', grant: true }, caller),
    ListAdminLog: (caller?: Caller) => ask('listAdminLog', { before: 0, limit: 0 }, caller),
    ListAgencies: (caller?: Caller) => ask('listAgencies', {}, caller),
    AddAgency: (caller?: Caller) => ask('addAgency', AN_AGENCY, caller),
    RemoveAgency: (caller?: Caller) => ask('removeAgency', { alias: 'dof' }, caller),
  };

  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: PERMISSION_DENIED for a member and a contributor, UNAUTHENTICATED for a visitor`, async () => {
      expect((await call(callers.member)).error?.code).toBe(status.PERMISSION_DENIED);
      expect((await call(callers.contributor)).error?.code).toBe(status.PERMISSION_DENIED);
      expect((await call()).error?.code).toBe(status.UNAUTHENTICATED);
    });
  }

  it('changed nothing and logged nothing for them', async () => {
    expect((await answer('getAccessLists', {})).domains).not.toContain('refused.example');
    expect(await wired.identity.findUserByEmail('member@demo.ca.gov')).toMatchObject({ roles: [] });
    expect((await log()).filter((entry) => entry.value === 'refused.example')).toEqual([]);
  });
});

describe('the access lists', () => {
  it('answers the demo lists', async () => {
    expect((await lists(callers.admin)).response).toEqual({
      domains: ['capitoladvocates.org', 'goldenstatelabor.org'],
      emails: ['policy.director@valleywater.example'],
      beta_emails: ['beta.tester@civicpartners.example'],
    });
  });

  it('an approved domain lets its people check and register at once; removed, it refuses them at once', async () => {
    const email = `aide.${randomUUID().slice(0, 6)}@countyclerks.example`;
    expect(await checkEmail(email)).toBe(false);
    expect((await register(email)).ok).toBe(false);

    const added = await change('domains', '  @WWW.CountyClerks.Example ', true);
    expect(added.error).toBeNull();
    expect(added.response?.domains).toContain('countyclerks.example');
    expect(await checkEmail(email)).toBe(true);
    expect(await register(email)).toMatchObject({ ok: true });

    expect((await change('domains', 'countyclerks.example', false)).response?.domains).not.toContain(
      'countyclerks.example',
    );
    expect(await checkEmail(`other.${email}`)).toBe(false);
  });

  it('approved and beta emails are stored lower-case and let that address register', async () => {
    const email = `Lead.${randomUUID().slice(0, 6)}@Partners.Example`;
    expect(await checkEmail(email)).toBe(false);
    const approved = await change('emails', ` ${email} `, true);
    expect(approved.response?.emails).toContain(email.toLowerCase());
    expect(await checkEmail(email)).toBe(true);

    const beta = `pilot.${randomUUID().slice(0, 6)}@testers.example`;
    expect((await change('beta_emails', beta, true)).response?.beta_emails).toContain(beta);
    expect(await register(beta)).toMatchObject({ ok: true });
  });

  it('refuses what a list cannot hold with the screen’s message', async () => {
    for (const value of ['not a domain', 'https://agency.ca.gov/x', 'localhost', '']) {
      expect((await change('domains', value, true)).error).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: ACCESS_MESSAGES.badDomain,
      });
    }
    for (const value of ['nobody', '@agency.ca.gov', 'a@b@agency.ca.gov', 'x@agency']) {
      expect((await change('emails', value, true)).error).toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: ACCESS_MESSAGES.badEmail,
      });
    }
    expect((await change('beta_emails', 'nobody', true)).error?.details).toBe(ACCESS_MESSAGES.badEmail);
    expect((await change('members', 'x@agency.ca.gov', true)).error?.code).toBe(status.INVALID_ARGUMENT);
  });

  it('adding a value already there or removing one absent is no error and logs nothing', async () => {
    const before = (await log(0, 1))[0]?.id ?? 0;
    expect((await change('domains', 'capitoladvocates.org', true)).error).toBeNull();
    expect((await change('emails', 'never.there@agency.example', false)).error).toBeNull();
    expect((await log(0, 1))[0]?.id ?? 0).toBe(before);
  });
});

describe('roles', () => {
  it('grants and takes away the contributor role, shown at the next sign-in', async () => {
    const email = await newMember();
    expect((await setRole(email.toUpperCase(), 'contributor', true)).error).toBeNull();
    expect((await login(email, PASSWORD)).user?.contributor).toBe(true);
    expect((await setRole(email, 'contributor', false)).error).toBeNull();
    expect((await login(email, PASSWORD)).user?.contributor).toBe(false);
  });

  it('makes another member an administrator, who may then administer', async () => {
    const email = await newMember();
    expect((await setRole(email, 'admin', true)).error).toBeNull();
    expect((await login(email, PASSWORD)).user?.admin).toBe(true);
    const second = await callerOf(email);
    expect((await lists(second)).error).toBeNull();
    // One administrator may take the role from another, never from themselves.
    expect((await setRole(email, 'admin', false, second)).error).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: ACCESS_MESSAGES.ownAdmin,
    });
    expect((await setRole(email, 'admin', false)).error).toBeNull();
    expect((await login(email, PASSWORD)).user?.admin).toBe(false);
  });

  it('refuses an administrator taking their own admin role', async () => {
    expect((await setRole('admin@demo.ca.gov', 'admin', false)).error).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: ACCESS_MESSAGES.ownAdmin,
    });
    expect((await login('admin@demo.ca.gov', 'Admin#2024x')).user?.admin).toBe(true);
  });

  it('refuses an unknown account, a bad email and an unknown role', async () => {
    expect((await setRole('nobody@dof.ca.gov', 'contributor', true)).error).toMatchObject({
      code: status.NOT_FOUND,
      details: ACCESS_MESSAGES.unknownAccount,
    });
    expect((await setRole('nobody', 'contributor', true)).error).toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: ACCESS_MESSAGES.badEmail,
    });
    expect((await setRole('member@demo.ca.gov', 'owner', true)).error?.code).toBe(status.INVALID_ARGUMENT);
  });
});

describe('the admin log', () => {
  it('records each change with who made it, newest first', async () => {
    const email = await newMember();
    await change('domains', 'logged.example', true);
    await setRole(email, 'contributor', true);
    await setRole(email, 'contributor', true);
    await change('domains', 'logged.example', false);
    const [removed, granted, added] = await log(0, 3);
    const actor = { actor_user_id: callers.admin.userId, actor_email: 'admin@demo.ca.gov' };
    expect(added).toMatchObject({ ...actor, action: 'add', subject: 'domains', value: 'logged.example' });
    expect(granted).toMatchObject({ ...actor, action: 'grant', subject: 'contributor', value: email });
    expect(removed).toMatchObject({
      ...actor,
      action: 'remove',
      subject: 'domains',
      value: 'logged.example',
    });
    expect(removed?.at).toBeInstanceOf(Date);
    expect(Number(removed?.id)).toBeGreaterThan(Number(added?.id));
  });

  it('records `npm run admin`’s changes as the command line, with no account', async () => {
    const email = await newMember();
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [`${root}src/admin.ts`, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
    expect(run('approve-email', 'Clerk@Cli.Example').stdout).toBe(
      'Added clerk@cli.example (approved-email).\n',
    );
    expect(run('grant-admin', email)).toMatchObject({ status: 0 });
    expect(await checkEmail('clerk@cli.example')).toBe(true);
    expect((await login(email, PASSWORD)).user?.admin).toBe(true);
    const [granted, added] = await log(0, 2);
    const commandLine = { actor_user_id: '', actor_email: 'npm run admin' };
    expect(added).toMatchObject({
      ...commandLine,
      action: 'add',
      subject: 'emails',
      value: 'clerk@cli.example',
    });
    expect(granted).toMatchObject({ ...commandLine, action: 'grant', subject: 'admin', value: email });
    // A value the rules refuse is refused on the command line too, and not logged.
    expect(run('approve-domain', 'not a domain')).toMatchObject({
      status: 1,
      stdout: `${ACCESS_MESSAGES.badDomain}\n`,
    });
    expect((await log(0, 1))[0]?.id).toBe(granted?.id);
  });

  it('pages older entries with before, and refuses a page size out of bounds', async () => {
    for (const n of [1, 2, 3]) await change('domains', `page${n}.example`, true);
    const [newest, middle, oldest] = await log(0, 3);
    expect([newest?.value, middle?.value, oldest?.value]).toEqual([
      'page3.example',
      'page2.example',
      'page1.example',
    ]);
    expect((await log(Number(newest?.id), 2)).map((entry) => entry.value)).toEqual([
      'page2.example',
      'page1.example',
    ]);
    expect((await log()).length).toBeLessThanOrEqual(50);
    expect((await ask('listAdminLog', { before: 0, limit: 101 }, callers.admin)).error?.code).toBe(
      status.INVALID_ARGUMENT,
    );
  });
});

// With the built-in identity provider there is nothing to broker: the login dialog finds no agency, the admin
// screen learns agencies are unavailable, and anything that would need Keycloak says so.
describe('agencies with the built-in identity provider', () => {
  it('finds no agency for any email, and starts no agency sign-in', async () => {
    expect((await ask('findAgency', { email: 'member@demo.ca.gov' })).response).toEqual({});
    const started = await ask('startAgencySignIn', {
      email: 'member@demo.ca.gov',
      app_url: 'http://localhost:8080',
      client_ip: uniqueIp(),
    });
    expect(started.error?.code).toBe(status.NOT_FOUND);
  });

  it('tells administrators agencies are unavailable, and refuses to add one', async () => {
    expect(await answer('listAgencies', {})).toEqual({ agencies: [], available: false });
    const added = await ask('addAgency', AN_AGENCY, callers.admin);
    expect(added.error?.code).toBe(status.FAILED_PRECONDITION);
    expect(added.error?.details).toBe('Agency sign-in needs Keycloak.');
    expect((await ask('removeAgency', { alias: 'dof' }, callers.admin)).error?.code).toBe(status.NOT_FOUND);
    expect((await log(0, 5)).filter((entry) => entry.subject === 'agencies')).toEqual([]);
  });

  it('refuses a completion with an unknown state, and a logout token that does not verify', async () => {
    const completed = await ask('completeAgencySignIn', {
      code: 'code',
      state: 'never-started',
      app_url: 'http://localhost:8080',
      client_ip: uniqueIp(),
    });
    expect(completed.error?.code).toBe(status.INVALID_ARGUMENT);
    const logout = await ask('backchannelLogout', { logout_token: 'not.a.token' });
    expect(logout.error?.code).toBe(status.INVALID_ARGUMENT);
    expect(logout.error?.details).toBe('The logout token does not verify.');
  });
});
