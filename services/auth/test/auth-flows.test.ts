// The auth service's rules end to end inside the service: real PostgreSQL, the built-in identity provider,
// real SMTP into MailDev, real ALTCHA challenges, the throttles counted in Postgres. Every path's happy case
// and its refusals; sessions that end for good, and the list of them the gateways read; a member's data
// exported, and their account deleted with the event the other services act on.
import { randomUUID } from 'node:crypto';
import { credentials, type ServiceError, status } from '@grpc/grpc-js';
import { ensureEventTables } from '@rotunda/events';
import { AuthServiceClient, AuthServiceService } from '@rotunda/protos/auth';
import { CAPTCHA_MESSAGES } from '@rotunda/rules';
import {
  type Caller,
  createLogger,
  createSmtpMailer,
  DomainError,
  migrate,
  prismaAdapter,
  type RunningGrpcServer,
  startGrpcServer,
} from '@rotunda/service-kit';
import {
  createTestDatabase,
  diffSchemaAndDatabase,
  refusal as grpcRefusal,
  rpcCalls,
  testCallers,
} from '@rotunda/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaAccountDeletion } from '../src/adapters/account-deletion.ts';
import { createAltchaCaptcha } from '../src/adapters/altcha-captcha.ts';
import { NO_AGENCY_BROKER } from '../src/adapters/builtin-agencies.ts';
import { createBuiltinIdentity, deleteBuiltinAccount } from '../src/adapters/builtin-identity.ts';
import { grpcAuthService } from '../src/adapters/grpc-auth-service.ts';
import { KEYCLOAK_UNAVAILABLE, KeycloakUnavailableError } from '../src/adapters/keycloak-oidc.ts';
import { prismaAgencies, prismaAgencySignIns } from '../src/adapters/prisma-agencies.ts';
import {
  prismaAccessLists,
  prismaAdminLog,
  prismaEndedSessions,
  prismaOneTimeTokens,
  prismaSpentCaptchas,
} from '../src/adapters/prisma-stores.ts';
import { createGrowingDelay, createWindowLimit } from '../src/adapters/rate-limit.ts';
import { createAccessAdmin } from '../src/domain/access-admin.ts';
import { createAgencies } from '../src/domain/agencies.ts';
import {
  AccountSlowedDown,
  type AuthService,
  createAuthService,
  MESSAGES,
} from '../src/domain/auth-service.ts';
import { seedDemoAccounts } from '../src/seed/demo-accounts.ts';
import { type Inbox, linkIn, solveCaptcha, startInbox } from './support.ts';

const root = new URL('..', import.meta.url).pathname;
const logger = createLogger('auth-test', 'silent');
const APP = 'http://localhost:8080';
const PASSWORD = 'Capitol#Dome2026';

let databaseUrl: string;
let prisma: PrismaClient;
let inbox: Inbox;
let auth: AuthService;
let identity: ReturnType<typeof createBuiltinIdentity>;

const captchaPayload = async () => solveCaptcha(await auth.createCaptchaChallenge());
const uniqueEmail = (domain = 'dof.ca.gov') => `t.${randomUUID().slice(0, 8)}@${domain}`;
/** An address of its own (an IPv6 /48 of its own), for calls that are not about the per-address limits. */
const uniqueIp = () => `fd00:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::1`;

// The throttles of this suite: small, so that tests reach them quickly.
const FREE_FAILURES = 3;
const FIRST_DELAY = 30;
const MAX_DELAY = 120;
const ADDRESS_FAILURES = 8;
const REQUESTS_PER_ADDRESS = 6;
/** How many more requests an IPv6 /48 may send than one /64 in it. */
const NETWORK_FACTOR = 2;
const REQUESTS_PER_EMAIL = 2;
const CHECKS_PER_ADDRESS = 10;
const CHECKS_PER_EMAIL = 3;
const RETAIN_SECONDS = 360;
const REFRESHES_PER_ADDRESS = 30;
const IMAGE_UPLOADS_PER_HOUR = 4;
const PROFILE_READS_PER_MINUTE = 6;

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

async function registered(email = uniqueEmail()) {
  await auth.register({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email,
    password: PASSWORD,
    captchaPayload: await captchaPayload(),
    appUrl: APP,
    clientIp: uniqueIp(),
  });
  const mail = await inbox.waitFor(email, /confirm/i);
  return { email, token: linkIn(mail, '/confirm-email/').split('/confirm-email/')[1] as string, mail };
}

async function confirmed(email = uniqueEmail()) {
  const { token } = await registered(email);
  await auth.confirmRegistration(token);
  return email;
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  await migrate({ databaseUrl, schema: 'auth', migrationsDir: `${root}prisma/migrations`, logger });
  await ensureEventTables(databaseUrl, 'auth_events');
  prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
  inbox = await startInbox();
  identity = createBuiltinIdentity({
    prisma,
    issuer: `${APP}/realms/rotunda`,
    clientId: 'rotunda-web',
    accessTokenSeconds: 300,
    sessionIdleSeconds: 1800,
    sessionMaxSeconds: 36_000,
  });
  const lists = prismaAccessLists(prisma);
  const perHour = (name: string, points: number) =>
    createWindowLimit(prisma, { name, points, windowSeconds: 3600 });
  const perAddress = (name: string, points: number) => ({
    host: perHour(name, points),
    network: perHour(`${name}/48`, points * NETWORK_FACTOR),
  });
  auth = createAuthService({
    identity,
    tokens: prismaOneTimeTokens(prisma),
    lists,
    mailer: createSmtpMailer({ url: inbox.smtpUrl, from: 'Rotunda <no-reply@rotunda.example>' }),
    captcha: createAltchaCaptcha({
      hmacKey: 'test-hmac-key-0123456789',
      maxNumber: 2000,
      markSpent: prismaSpentCaptchas(prisma),
    }),
    limits: {
      accountFailures: createGrowingDelay(prisma, {
        name: 'password:account',
        freeFailures: FREE_FAILURES,
        firstDelaySeconds: FIRST_DELAY,
        maxDelaySeconds: MAX_DELAY,
        memorySeconds: 24 * 3600,
      }),
      addressFailures: perAddress('password:address', ADDRESS_FAILURES),
      register: {
        byAddress: perAddress('register:address', REQUESTS_PER_ADDRESS),
        byEmail: perHour('register:email', REQUESTS_PER_EMAIL),
      },
      checkEmail: {
        byAddress: perAddress('check-email:address', CHECKS_PER_ADDRESS),
        byEmail: perHour('check-email:email', CHECKS_PER_EMAIL),
      },
      passwordReset: {
        byAddress: perAddress('reset:address', REQUESTS_PER_ADDRESS),
        byEmail: perHour('reset:email', REQUESTS_PER_EMAIL),
      },
      refreshByAddress: perHour('refresh:address', REFRESHES_PER_ADDRESS),
      quotas: {
        'image-upload': perHour('quota:image-upload', IMAGE_UPLOADS_PER_HOUR),
        'profile-read': createWindowLimit(prisma, {
          name: 'quota:profile-read',
          points: PROFILE_READS_PER_MINUTE,
          windowSeconds: 60,
        }),
      },
    },
    endedSessions: prismaEndedSessions(prisma, { schema: 'auth', retainSeconds: async () => RETAIN_SECONDS }),
    accounts: prismaAccountDeletion(prisma, {
      schema: 'auth',
      eventsSchema: 'auth_events',
      remove: (tx, userId) => deleteBuiltinAccount(tx, userId, 300),
    }),
    settings: {
      productName: 'Rotunda',
      accessEmail: 'membership@rotunda.example',
      confirmLinkHours: 24,
      resetLinkMinutes: 60,
    },
  });
  await seedDemoAccounts(identity, lists);
}, 60_000);

afterAll(async () => {
  await prisma?.$disconnect();
  await inbox?.stop();
});

describe('the auth schema', () => {
  it('matches schema.prisma after the migrations', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'auth',
      }),
    ).toEqual([]);
  });
});

describe('email eligibility', () => {
  it('accepts .ca.gov, approved domains, approved and beta emails; refuses the rest', async () => {
    expect(await auth.checkEmail({ email: 'someone@dof.ca.gov', clientIp: uniqueIp() })).toBe(true);
    expect(await auth.checkEmail({ email: 'Someone@CapitolAdvocates.org', clientIp: uniqueIp() })).toBe(true);
    expect(
      await auth.checkEmail({ email: 'policy.director@valleywater.example', clientIp: uniqueIp() }),
    ).toBe(true);
    expect(await auth.checkEmail({ email: 'beta.tester@civicpartners.example', clientIp: uniqueIp() })).toBe(
      true,
    );
    expect(await auth.checkEmail({ email: 'someone@gmail.com', clientIp: uniqueIp() })).toBe(false);
    expect(await auth.checkEmail({ email: 'someone@ca.gov.evil.example', clientIp: uniqueIp() })).toBe(false);
  });
});

describe('registration', () => {
  const input = async (overrides: Record<string, string> = {}) => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: uniqueEmail(),
    password: PASSWORD,
    captchaPayload: await captchaPayload(),
    appUrl: APP,
    clientIp: uniqueIp(),
    ...overrides,
  });

  it('creates an unconfirmed account and mails a one-time confirmation link', async () => {
    const { email, mail } = await registered();
    expect(mail.subject).toMatch(/Rotunda/);
    expect(mail.text).toContain('membership@rotunda.example');
    const user = await identity.findUserByEmail(email);
    expect(user?.emailVerified).toBe(false);
  });

  it('refuses a weak password, a missing or forged or replayed captcha, and an ineligible email', async () => {
    expect(await refusal(auth.register(await input({ password: 'short#1A' })))).toEqual({
      kind: 'invalid_argument',
      message: 'Password does not meet criteria.',
    });
    expect(await refusal(auth.register(await input({ captchaPayload: '' })))).toEqual({
      kind: 'invalid_argument',
      message: 'Please verify the reCAPTCHA!',
    });
    const forged = Buffer.from(
      JSON.stringify({ algorithm: 'SHA-256', challenge: 'x', number: 1, salt: 's', signature: 'y' }),
    ).toString('base64');
    expect(await refusal(auth.register(await input({ captchaPayload: forged })))).toEqual({
      kind: 'invalid_argument',
      message: 'reCAPTCHA validation failed!',
    });
    const once = await captchaPayload();
    await auth.register(await input({ captchaPayload: once }));
    expect((await refusal(auth.register(await input({ captchaPayload: once })))).message).toBe(
      'reCAPTCHA validation failed!',
    );
    const ineligible = await refusal(auth.register(await input({ email: 'someone@gmail.com' })));
    expect(ineligible.kind).toBe('permission_denied');
    expect(ineligible.message).toContain('membership@rotunda.example');
    expect(await identity.findUserByEmail('someone@gmail.com')).toBeNull();
  });

  it('lists the missing required fields in the spec’s words', async () => {
    expect(await refusal(auth.register(await input({ firstName: ' ', email: '' })))).toEqual({
      kind: 'invalid_argument',
      message: 'Please provide entries for the following required fields: First Name, Email',
    });
  });

  it('answers an existing address the same way and tells its owner instead of creating a second account', async () => {
    const email = await confirmed();
    expect(await auth.register(await input({ email: email.toUpperCase() }))).toBe(MESSAGES.registered);
    const notice = await inbox.waitFor(email);
    expect(notice.subject).not.toMatch(/confirm/i);
    expect(await prisma.user.count({ where: { email } })).toBe(1);
  });
});

describe('email confirmation', () => {
  it('confirms once; a replayed or unknown token is refused', async () => {
    const { email, token } = await registered();
    expect(await auth.confirmRegistration(token)).toBe('Your email is confirmed!');
    expect((await identity.findUserByEmail(email))?.emailVerified).toBe(true);
    expect(await refusal(auth.confirmRegistration(token))).toEqual({
      kind: 'invalid_argument',
      message: MESSAGES.confirmLinkInvalid,
    });
    expect((await refusal(auth.confirmRegistration('not-a-token'))).kind).toBe('invalid_argument');
  });

  it('refuses an expired token', async () => {
    const { email } = await registered();
    const user = await identity.findUserByEmail(email);
    const token = await prismaOneTimeTokens(prisma).issue(
      { userId: user?.id as string, email },
      'confirm-email',
      1,
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await refusal(auth.confirmRegistration(token))).kind).toBe('invalid_argument');
  });
});

describe('one-time links', () => {
  it('work only while the account still has the address they were mailed to', async () => {
    const { email, token } = await registered();
    const moved = uniqueEmail();
    // The account's email changed since (Keycloak's account console, an operator): the old inbox's link is dead.
    await prisma.user.update({ where: { email }, data: { email: moved } });
    expect(await refusal(auth.confirmRegistration(token))).toEqual({
      kind: 'invalid_argument',
      message: MESSAGES.confirmLinkInvalid,
    });
    expect((await identity.findUserByEmail(moved))?.emailVerified).toBe(false);

    const owner = await confirmed();
    await auth.requestPasswordReset({
      email: owner,
      captchaPayload: await captchaPayload(),
      appUrl: APP,
      clientIp: uniqueIp(),
    });
    const reset = linkIn(await inbox.waitFor(owner, /reset/i), '/reset-password/').split(
      '/reset-password/',
    )[1] as string;
    const ownersNew = uniqueEmail();
    await prisma.user.update({ where: { email: owner }, data: { email: ownersNew } });
    expect(await refusal(auth.resetPassword(reset, 'Fresh#Start2026'))).toEqual({
      kind: 'invalid_argument',
      message: MESSAGES.resetLinkInvalid,
    });
    expect(await identity.checkPassword(ownersNew, PASSWORD)).toBe(true);
  });
});

describe('login', () => {
  it('answers the member and Keycloak-shaped tokens', async () => {
    const { user, tokens } = await auth.login({
      email: 'CONCIERGE@demo.ca.gov',
      password: 'Concierge#2024',
      clientIp: '10.0.0.1',
    });
    expect(user).toMatchObject({
      email: 'concierge@demo.ca.gov',
      contributor: true,
      emailConfirmed: true,
      firstName: 'Camila',
    });
    const claims = decodeJwt(tokens.accessToken);
    expect(claims).toMatchObject({
      iss: `${APP}/realms/rotunda`,
      sub: user.userId,
      typ: 'Bearer',
      azp: 'rotunda-web',
      email: 'concierge@demo.ca.gov',
      email_verified: true,
      given_name: 'Camila',
      family_name: 'Reyes',
      realm_access: { roles: ['contributor'] },
    });
    expect(decodeJwt(tokens.refreshToken)).toMatchObject({ typ: 'Refresh', sid: tokens.sessionState });
    expect(tokens).toMatchObject({ expiresIn: 300, refreshExpiresIn: 1800, tokenType: 'Bearer' });
  });

  it('tells an unconfirmed member to confirm, only once the password is right', async () => {
    const { email } = await registered();
    expect(await refusal(auth.login({ email, password: PASSWORD, clientIp: '10.0.0.2' }))).toEqual({
      kind: 'unauthenticated',
      message: 'Please confirm your email to log in',
    });
    expect(await refusal(auth.login({ email, password: 'Wrong#Password1', clientIp: '10.0.0.2' }))).toEqual({
      kind: 'unauthenticated',
      message: 'Invalid credentials',
    });
  });

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const unknown = await refusal(
      auth.login({ email: 'nobody@dof.ca.gov', password: PASSWORD, clientIp: '10.0.0.3' }),
    );
    const wrong = await refusal(
      auth.login({ email: 'member@demo.ca.gov', password: 'Wrong#Password1', clientIp: '10.0.0.3' }),
    );
    expect(unknown).toEqual(wrong);
  });
});

describe('failed logins', () => {
  // Only Date is faked (the database, SMTP and argon2 run for real), to move through the waits.
  afterEach(() => {
    vi.useRealTimers();
  });
  const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
  const tryLogin = (email: string, password: string, clientIp: string) =>
    auth.login({ email, password, clientIp }).then(
      () => 'ok',
      (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        return error.kind === 'resource_exhausted' ? error.message : error.kind;
      },
    );

  it('are free a few times, then the account waits longer with each one, up to a cap, and the waits end', async () => {
    const email = await confirmed();
    vi.useFakeTimers({ toFake: ['Date'] });
    const wrong = () => tryLogin(email, 'Wrong#Password1', uniqueIp());
    for (let i = 0; i < FREE_FAILURES; i++) expect(await wrong()).toBe('unauthenticated');
    // The first failure past the free ones is still answered, and sets the first wait.
    expect(await wrong()).toBe('unauthenticated');
    // While the account waits, even the right password is refused unchecked, from any address.
    expect(await tryLogin(email, PASSWORD, uniqueIp())).toBe('Too many attempts. Try again in 30 seconds.');
    advance(29);
    expect(await wrong()).toBe('Too many attempts. Try again in 1 second.');
    advance(1);
    expect(await wrong()).toBe('unauthenticated');
    expect(await wrong()).toBe('Too many attempts. Try again in 60 seconds.');
    advance(60);
    expect(await wrong()).toBe('unauthenticated');
    expect(await wrong()).toBe('Too many attempts. Try again in 2 minutes.');
    advance(120);
    expect(await wrong()).toBe('unauthenticated');
    // Capped: never a permanent lock.
    expect(await wrong()).toBe('Too many attempts. Try again in 2 minutes.');
    advance(120);
    expect(await tryLogin(email, PASSWORD, uniqueIp())).toBe('ok');
    // A success forgives the account's failures.
    for (let i = 0; i < FREE_FAILURES; i++) expect(await wrong()).toBe('unauthenticated');
  });

  it('are taken before the password check: of 40 wrong passwords sent at once, the free ones and one more are checked', async () => {
    const email = await confirmed();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => tryLogin(email, 'Wrong#Password1', uniqueIp())),
    );
    expect(answers.filter((answer) => answer === 'unauthenticated')).toHaveLength(FREE_FAILURES + 1);
    expect(answers.filter((answer) => answer === 'Too many attempts. Try again in 30 seconds.')).toHaveLength(
      40 - FREE_FAILURES - 1,
    );
  });

  it('from one address sent at once across many accounts: only the address’s limit reaches a check', async () => {
    const address = uniqueIp();
    // 20, not more: enough to pass the limit more than twice over, few enough to answer in time on a busy machine.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => tryLogin(uniqueEmail(), 'Wrong#Password1', address)),
    );
    expect(answers.filter((answer) => answer === 'unauthenticated')).toHaveLength(ADDRESS_FAILURES);
    for (const answer of answers.filter((answer) => answer !== 'unauthenticated'))
      expect(answer).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/);
  });

  it('count against their address, refused ones too, while right passwords never do (an office behind one NAT)', async () => {
    const victim = await confirmed();
    const colleague = await confirmed();
    const office = uniqueIp();
    // The office logs in all morning: a right password gives its address point back.
    for (let i = 0; i < 2 * ADDRESS_FAILURES; i++)
      expect(await tryLogin(colleague, PASSWORD, office)).toBe('ok');
    // Someone at the office keeps one account slowed down: every try counts, the refused ones too.
    const answers: string[] = [];
    for (let i = 0; i < ADDRESS_FAILURES; i++)
      answers.push(await tryLogin(victim, 'Wrong#Password1', office));
    expect(answers.filter((answer) => answer === 'unauthenticated')).toHaveLength(FREE_FAILURES + 1);
    expect(answers.filter((answer) => answer.startsWith('Too many attempts'))).toHaveLength(
      ADDRESS_FAILURES - FREE_FAILURES - 1,
    );
    // That address now waits, whichever account it names; the colleague elsewhere does not.
    expect(await tryLogin(colleague, PASSWORD, office)).toMatch(
      /^Too many attempts\. Try again in \d+ minutes\.$/,
    );
    expect(await tryLogin(colleague, PASSWORD, uniqueIp())).toBe('ok');
  });

  it('count per IPv6 /64 and, with a higher limit, per /48; IPv4 written as IPv6 is that IPv4 address', async () => {
    const site = `fd01:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
    const guess = (clientIp: string) => tryLogin(uniqueEmail(), 'Wrong#Password1', clientIp);
    // A fresh host part per request is the same client.
    for (let i = 1; i <= ADDRESS_FAILURES; i++)
      expect(await guess(`${site}:1::${i.toString(16)}`)).toBe('unauthenticated');
    expect(await guess(`${site}:1:ffff:ffff:ffff:ffff`)).toMatch(/^Too many attempts/);
    // Another /64 of the site goes on, until the /48 has sent its own limit.
    const nextSubnet: string[] = [];
    for (let i = 1; i <= ADDRESS_FAILURES; i++) nextSubnet.push(await guess(`${site}:2::${i.toString(16)}`));
    const networkLeft = ADDRESS_FAILURES * NETWORK_FACTOR - ADDRESS_FAILURES - 1;
    expect(nextSubnet.filter((answer) => answer === 'unauthenticated')).toHaveLength(networkLeft);
    expect(await guess(`${site}:3::1`)).toMatch(/^Too many attempts/);

    const v4 = `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
    for (let i = 0; i < ADDRESS_FAILURES; i++) await guess(`::ffff:${v4}`);
    expect(await guess(v4)).toMatch(/^Too many attempts/);
  });

  it('are not counted while the identity provider is away: the first sign-in after its return gets in', async () => {
    const email = await confirmed();
    const office = uniqueIp();
    const away = vi
      .spyOn(identity, 'passwordGrant')
      .mockRejectedValue(new KeycloakUnavailableError('token grant', new TypeError('fetch failed')));
    // A member signing in every couple of seconds through the outage: each is refused as unavailable, not throttled.
    for (let i = 0; i < 2 * ADDRESS_FAILURES; i++)
      await expect(auth.login({ email, password: PASSWORD, clientIp: office })).rejects.toThrow(
        KEYCLOAK_UNAVAILABLE,
      );
    away.mockRestore();
    expect(await tryLogin(email, PASSWORD, office)).toBe('ok');
    // The account's free tries are all still there.
    for (let i = 0; i <= FREE_FAILURES; i++)
      expect(await tryLogin(email, 'Wrong#Password1', office)).toBe('unauthenticated');
  });

  it('let the owner in while someone keeps the account slowed down: the right password and a solved captcha', async () => {
    const owner = await confirmed();
    const attacker = uniqueIp();
    const withCaptcha = async (password: string, clientIp: string, captcha?: string) =>
      auth
        .login({ email: owner, password, clientIp, captchaPayload: captcha ?? (await captchaPayload()) })
        .then(
          () => 'ok',
          (error: unknown) => {
            if (!(error instanceof DomainError)) throw error;
            return error.kind === 'invalid_argument' ? error.message : error.kind;
          },
        );
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i <= FREE_FAILURES; i++) await tryLogin(owner, 'Wrong#Password1', attacker);
    // Without a captcha even the right password waits; the refusal says a captcha would let it through.
    const slowed = await auth
      .login({ email: owner, password: PASSWORD, clientIp: uniqueIp() })
      .catch((e) => e);
    expect(slowed).toBeInstanceOf(AccountSlowedDown);
    expect(slowed.message).toBe('Too many attempts. Try again in 30 seconds.');
    // A captcha never stands in for the password: a wrong one is wrong, and counts against the account…
    expect(await withCaptcha('Wrong#Password1', attacker)).toBe('unauthenticated');
    expect(await withCaptcha('Wrong#Password1', attacker)).toBe('unauthenticated');
    // …and against the address: the attacker's tries, with captchas or without, run out.
    const more: string[] = [];
    for (let i = 0; i < ADDRESS_FAILURES; i++) more.push(await withCaptcha('Wrong#Password1', attacker));
    expect(more.filter((answer) => answer === 'unauthenticated')).toHaveLength(
      ADDRESS_FAILURES - FREE_FAILURES - 3,
    );
    expect(await tryLogin(owner, PASSWORD, attacker)).toMatch(
      /^Too many attempts\. Try again in \d+ minutes\.$/,
    );
    // A captcha is spent once.
    const home = uniqueIp();
    const payload = await captchaPayload();
    expect(await withCaptcha('Wrong#Password1', home, payload)).toBe('unauthenticated');
    expect(await withCaptcha(PASSWORD, home, payload)).toBe(CAPTCHA_MESSAGES.failed);
    // The owner, with the right password and a fresh captcha, is in, and the account's waits are forgotten.
    expect(await withCaptcha(PASSWORD, home)).toBe('ok');
    for (let i = 0; i < FREE_FAILURES; i++)
      expect(await tryLogin(owner, 'Wrong#Password1', home)).toBe('unauthenticated');
  });

  it('with a captcha still count against the account: the next waits grow', async () => {
    const owner = await confirmed();
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i <= FREE_FAILURES; i++) await tryLogin(owner, 'Wrong#Password1', uniqueIp());
    for (let i = 0; i < 2; i++)
      expect(
        await refusal(
          auth.login({
            email: owner,
            password: 'Wrong#Password1',
            clientIp: uniqueIp(),
            captchaPayload: await captchaPayload(),
          }),
        ),
      ).toEqual({ kind: 'unauthenticated', message: 'Invalid credentials' });
    advance(30);
    expect(await tryLogin(owner, 'Wrong#Password1', uniqueIp())).toBe('unauthenticated');
    // Three failures past the free ones: the next wait is 30 × 2³ = 240 s, capped at 2 minutes.
    expect(await tryLogin(owner, PASSWORD, uniqueIp())).toBe('Too many attempts. Try again in 2 minutes.');
  });

  it('end with a completed password reset: the owner logs in at once with the new password', async () => {
    const owner = await confirmed();
    const attacker = uniqueIp();
    for (let i = 0; i <= FREE_FAILURES; i++) await tryLogin(owner, 'Wrong#Password1', attacker);
    expect(await tryLogin(owner, PASSWORD, uniqueIp())).toMatch(/^Too many attempts/);
    await auth.requestPasswordReset({
      email: owner,
      captchaPayload: await captchaPayload(),
      appUrl: APP,
      clientIp: uniqueIp(),
    });
    const token = linkIn(await inbox.waitFor(owner, /reset/i), '/reset-password/').split(
      '/reset-password/',
    )[1] as string;
    await auth.resetPassword(token, 'Fresh#Start2026');
    expect(await tryLogin(owner, 'Fresh#Start2026', uniqueIp())).toBe('ok');
  });

  it('from one address across many accounts stop that address, and only it', async () => {
    const address = uniqueIp();
    const accounts = await Promise.all([confirmed(), confirmed(), confirmed(), confirmed()]);
    // Each account adds its free failures only: three accounts reach the address's limit.
    for (const email of accounts.slice(0, 3))
      for (let i = 0; i < FREE_FAILURES; i++) await tryLogin(email, 'Wrong#Password1', address);
    expect(ADDRESS_FAILURES).toBeLessThan(3 * FREE_FAILURES);
    const stopped = await tryLogin(accounts[3] as string, PASSWORD, address);
    expect(stopped).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/);
    // The same account from elsewhere is not held back.
    expect(await tryLogin(accounts[3] as string, PASSWORD, uniqueIp())).toBe('ok');
  });
});

describe('sessions', () => {
  it('refreshes, and ends on logout; a tampered refresh token is refused', async () => {
    const { tokens } = await auth.login({
      email: 'member@demo.ca.gov',
      password: 'Member#2024x',
      clientIp: '10.2.0.1',
    });
    const refreshed = await auth.refresh(tokens.refreshToken);
    expect(decodeJwt(refreshed.accessToken).sub).toBe(decodeJwt(tokens.accessToken).sub);
    const [header, payload, signature] = refreshed.refreshToken.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const tampered = [
      header,
      Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url'),
      signature,
    ].join('.');
    expect((await refusal(auth.refresh(tampered))).kind).toBe('unauthenticated');
    await auth.logout(refreshed.refreshToken);
    expect(await refusal(auth.refresh(tokens.refreshToken))).toEqual({
      kind: 'unauthenticated',
      message: 'Session not active',
    });
  });
});

describe('password reset', () => {
  it('mails a link only to an existing account, answering the same either way', async () => {
    const before = (await inbox.all()).length;
    expect(
      await auth.requestPasswordReset({
        email: 'nobody@dof.ca.gov',
        captchaPayload: await captchaPayload(),
        appUrl: APP,
        clientIp: '10.3.0.1',
      }),
    ).toBe('Password reset link has been sent to your email');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await inbox.all()).length).toBe(before);
  });

  it('resets once: old password and old sessions stop working, the new password works', async () => {
    const email = await confirmed();
    const { tokens } = await auth.login({ email, password: PASSWORD, clientIp: '10.3.0.2' });
    await auth.requestPasswordReset({
      email,
      captchaPayload: await captchaPayload(),
      appUrl: APP,
      clientIp: '10.3.0.2',
    });
    const token = linkIn(await inbox.waitFor(email, /reset/i), '/reset-password/').split(
      '/reset-password/',
    )[1] as string;
    expect(await refusal(auth.resetPassword(token, 'weakpass'))).toEqual({
      kind: 'invalid_argument',
      message: 'Password does not meet criteria.',
    });
    expect(await auth.resetPassword(token, 'Fresh#Start2026')).toBe('Password has been reset');
    expect((await refusal(auth.login({ email, password: PASSWORD, clientIp: '10.3.0.2' }))).message).toBe(
      'Invalid credentials',
    );
    expect((await auth.login({ email, password: 'Fresh#Start2026', clientIp: '10.3.0.2' })).user.email).toBe(
      email,
    );
    expect((await refusal(auth.refresh(tokens.refreshToken))).kind).toBe('unauthenticated');
    expect(await refusal(auth.resetPassword(token, 'Another#Pass2026'))).toEqual({
      kind: 'invalid_argument',
      message: MESSAGES.resetLinkInvalid,
    });
  });

  it('requires the captcha', async () => {
    expect(
      (
        await refusal(
          auth.requestPasswordReset({
            email: 'member@demo.ca.gov',
            captchaPayload: '',
            appUrl: APP,
            clientIp: uniqueIp(),
          }),
        )
      ).message,
    ).toBe('Please verify the reCAPTCHA!');
  });
});

describe('update password', () => {
  const change = (
    caller: Caller | undefined,
    currentPassword: string,
    newPassword: string,
    sessionId = '',
    clientIp = uniqueIp(),
  ) => auth.updatePassword(caller, { currentPassword, newPassword, sessionId, clientIp });

  async function member() {
    const email = await confirmed();
    const user = await identity.findUserByEmail(email);
    return { email, caller: { userId: user?.id as string, email, roles: [] } satisfies Caller };
  }

  it('checks the current password and needs a caller', async () => {
    const { email, caller } = await member();
    expect(await refusal(change(caller, 'Wrong#Password1', 'Newer#Pass2026'))).toEqual({
      kind: 'invalid_argument',
      message: 'Your current password is incorrect.',
    });
    expect((await refusal(change(undefined, PASSWORD, 'Newer#Pass2026'))).kind).toBe('unauthenticated');
    expect((await refusal(change(caller, PASSWORD, 'weak'))).message).toBe(
      'Password does not meet criteria.',
    );
    expect(await change(caller, PASSWORD, 'Newer#Pass2026')).toBe('Password has been updated');
    expect((await auth.login({ email, password: 'Newer#Pass2026', clientIp: '10.4.0.1' })).user.email).toBe(
      email,
    );
  });

  it('ends every other session of the member; the one it was made in goes on', async () => {
    const { email, caller } = await member();
    const phone = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const laptop = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const stranger = (
      await auth.login({ email: 'member@demo.ca.gov', password: 'Member#2024x', clientIp: uniqueIp() })
    ).tokens;
    await change(caller, PASSWORD, 'Newer#Pass2026', laptop.sessionState);
    expect(await refusal(auth.refresh(phone.refreshToken))).toEqual({
      kind: 'unauthenticated',
      message: 'Session not active',
    });
    const renewed = await auth.refresh(laptop.refreshToken);
    expect(decodeJwt(renewed.accessToken)).toMatchObject({ sub: caller.userId, sid: laptop.sessionState });
    // Another member's session is none of this change's business.
    await auth.refresh(stranger.refreshToken);
    const { sessionIds } = await auth.listEndedSessions('');
    expect(sessionIds).toContain(phone.sessionState);
    expect(sessionIds).not.toContain(laptop.sessionState);
    expect(sessionIds).not.toContain(stranger.sessionState);
  });

  it('throttles wrong current passwords like failed logins, and a refused change changes nothing', async () => {
    const { email, caller } = await member();
    const session = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    for (let i = 0; i <= FREE_FAILURES; i++)
      expect((await refusal(change(caller, 'Wrong#Password1', 'Newer#Pass2026'))).kind).toBe(
        'invalid_argument',
      );
    // The account now waits: the right current password is refused unchecked, and so is a login.
    expect(await refusal(change(caller, PASSWORD, 'Newer#Pass2026', session.sessionState))).toEqual({
      kind: 'resource_exhausted',
      message: 'Too many attempts. Try again in 30 seconds.',
    });
    expect((await refusal(auth.login({ email, password: PASSWORD, clientIp: uniqueIp() }))).kind).toBe(
      'resource_exhausted',
    );
    expect(await identity.checkPassword(email, PASSWORD)).toBe(true);
    expect(await identity.checkPassword(email, 'Newer#Pass2026')).toBe(false);
    await auth.refresh(session.refreshToken);
  });
});

describe('update password, tried at once', () => {
  it('takes wrong current passwords before checking them: of 40 at once, the free ones and one more are checked', async () => {
    const email = await confirmed();
    const user = await identity.findUserByEmail(email);
    const caller: Caller = { userId: user?.id as string, email, roles: [] };
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        refusal(
          auth.updatePassword(caller, {
            currentPassword: 'Wrong#Password1',
            newPassword: 'Newer#Pass2026',
            sessionId: '',
            clientIp: uniqueIp(),
          }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.kind === 'invalid_argument')).toHaveLength(FREE_FAILURES + 1);
    expect(answers.filter((answer) => answer.kind === 'resource_exhausted')).toHaveLength(
      40 - FREE_FAILURES - 1,
    );
    expect(await identity.checkPassword(email, PASSWORD)).toBe(true);
  });
});

describe('refresh tokens', () => {
  it('rotate: one reused after its successor was used is refused and ends its session, the latest token too', async () => {
    const email = await confirmed();
    const { tokens } = await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() });
    const next = await auth.refresh(tokens.refreshToken);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    const latest = await auth.refresh(next.refreshToken);
    expect(await refusal(auth.refresh(tokens.refreshToken))).toEqual({
      kind: 'unauthenticated',
      message: 'Session not active',
    });
    expect(await refusal(auth.refresh(latest.refreshToken))).toEqual({
      kind: 'unauthenticated',
      message: 'Session not active',
    });
    expect((await auth.listEndedSessions('')).sessionIds).toContain(tokens.sessionState);
  });
});

describe('ended sessions', () => {
  it('lists logouts and resets; a later cursor answers only what ended since', async () => {
    const email = await confirmed();
    const first = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    await auth.logout(first.refreshToken);
    const page = await auth.listEndedSessions('');
    expect(page.sessionIds).toContain(first.sessionState);
    expect(page.retainSeconds).toBe(RETAIN_SECONDS);
    // A cursor from the future: nothing has ended after it yet.
    const later = String(Number(page.cursor) + 60_000);
    expect((await auth.listEndedSessions(later)).sessionIds).toEqual([]);

    const second = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const user = await identity.findUserByEmail(email);
    const token = await prismaOneTimeTokens(prisma).issue(
      { userId: user?.id as string, email },
      'reset-password',
      60,
    );
    await auth.resetPassword(token, 'Fresh#Start2026');
    const next = await auth.listEndedSessions(page.cursor);
    expect(next.sessionIds).toContain(second.sessionState);
    expect(Number(next.cursor)).toBeGreaterThanOrEqual(Number(page.cursor));
  });

  it('lists nothing for a logout that ended nothing, and takes a malformed cursor as none', async () => {
    const before = await auth.listEndedSessions('');
    await auth.logout('not-a-token');
    const after = await auth.listEndedSessions('not-a-cursor');
    expect(after.sessionIds.sort()).toEqual(before.sessionIds.sort());
  });
});

describe('deleting an account', () => {
  const remove = (caller: Caller | undefined, password: string, clientIp = uniqueIp()) =>
    auth.deleteAccount(caller, { password, clientIp });
  const callerOf = async (email: string): Promise<Caller> => {
    const user = await identity.findUserByEmail(email);
    return { userId: user?.id as string, email, roles: [] };
  };
  /** What the outbox holds about this account, as the other services will read it. */
  const recorded = async (userId: string) =>
    prisma.$queryRawUnsafe<{ topic: string; payload: unknown }[]>(
      `SELECT topic, payload FROM auth_events.outbox WHERE payload->>'user_id' = $1`,
      userId,
    );

  it('needs a signed-in caller', async () => {
    expect(await refusal(remove(undefined, PASSWORD))).toEqual({
      kind: 'unauthenticated',
      message: MESSAGES.loginRequired,
    });
  });

  it('refuses a wrong password as a login does and deletes nothing: the account, its sessions, no event', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    const session = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    expect(await refusal(remove(caller, 'Wrong#Password1'))).toEqual({
      kind: 'unauthenticated',
      message: 'Invalid credentials',
    });
    expect((await refusal(remove(caller, ''))).kind).toBe('unauthenticated');
    expect(await identity.findUserById(caller.userId)).not.toBeNull();
    expect(await recorded(caller.userId)).toEqual([]);
    expect((await auth.listEndedSessions('')).sessionIds).not.toContain(session.sessionState);
    await auth.refresh(session.refreshToken);
    expect((await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).user.email).toBe(email);
  });

  it('counts wrong passwords against the account like failed logins: slowed down, even the right one waits', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    for (let i = 0; i <= FREE_FAILURES; i++)
      expect((await refusal(remove(caller, 'Wrong#Password1'))).kind).toBe('unauthenticated');
    expect(await refusal(remove(caller, PASSWORD))).toEqual({
      kind: 'resource_exhausted',
      message: 'Too many attempts. Try again in 30 seconds.',
    });
    expect((await refusal(auth.login({ email, password: PASSWORD, clientIp: uniqueIp() }))).kind).toBe(
      'resource_exhausted',
    );
    expect(await identity.findUserById(caller.userId)).not.toBeNull();
    expect(await recorded(caller.userId)).toEqual([]);
  });

  it('takes wrong passwords sent at once before checking them: the free ones and one more are checked', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refusal(remove(caller, 'Wrong#Password1'))),
    );
    expect(answers.filter((answer) => answer.kind === 'unauthenticated')).toHaveLength(FREE_FAILURES + 1);
    expect(answers.filter((answer) => answer.kind === 'resource_exhausted')).toHaveLength(
      20 - FREE_FAILURES - 1,
    );
  });

  it('with the right password deletes the account: sessions end at once, account.deleted is recorded, sign-in answers as for an unknown email', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    const phone = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const laptop = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const stranger = (
      await auth.login({ email: 'member@demo.ca.gov', password: 'Member#2024x', clientIp: uniqueIp() })
    ).tokens;
    const before = await auth.listEndedSessions('');
    // A reset link still open: it must not outlive the account.
    await auth.requestPasswordReset({
      email,
      captchaPayload: await captchaPayload(),
      appUrl: APP,
      clientIp: uniqueIp(),
    });
    const resetLink = linkIn(await inbox.waitFor(email, /reset/i), '/reset-password/');

    await remove(caller, PASSWORD);

    expect(await identity.findUserById(caller.userId)).toBeNull();
    expect(await identity.findUserByEmail(email)).toBeNull();
    expect(await prisma.session.count({ where: { userId: caller.userId } })).toBe(0);
    expect(await prisma.oneTimeToken.count({ where: { userId: caller.userId } })).toBe(0);
    expect(await recorded(caller.userId)).toEqual([
      { topic: 'account.deleted', payload: { user_id: caller.userId } },
    ]);
    // The gateways read both sessions as ended at their next poll, from the cursor they already held.
    const ended = await auth.listEndedSessions(before.cursor);
    expect(ended.sessionIds).toEqual(expect.arrayContaining([phone.sessionState, laptop.sessionState]));
    expect(ended.sessionIds).not.toContain(stranger.sessionState);
    for (const session of [phone, laptop])
      expect(await refusal(auth.refresh(session.refreshToken))).toEqual({
        kind: 'unauthenticated',
        message: 'Session not active',
      });
    await auth.refresh(stranger.refreshToken);
    // Sign-in answers exactly as for an address that never had an account.
    expect(await refusal(auth.login({ email, password: PASSWORD, clientIp: uniqueIp() }))).toEqual({
      kind: 'unauthenticated',
      message: 'Invalid credentials',
    });
    expect(
      await refusal(auth.resetPassword(resetLink.split('/reset-password/')[1] as string, 'Fresh#Start2026')),
    ).toEqual({ kind: 'invalid_argument', message: MESSAGES.resetLinkInvalid });
    // A second request with the deleted account's caller finds nothing to delete.
    expect((await refusal(remove(caller, PASSWORD))).kind).toBe('unauthenticated');
  });

  it('leaves the address free: the same email registers again as a new account', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    await remove(caller, PASSWORD);
    const again = await confirmed(email);
    const user = await identity.findUserByEmail(again);
    expect(user?.id).toBeDefined();
    expect(user?.id).not.toBe(caller.userId);
    expect((await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).user.userId).toBe(
      user?.id,
    );
  });

  it('deletes a demo account like any other', async () => {
    const caller = await callerOf('newbie@demo.ca.gov');
    await remove(caller, 'Newbie#2024x');
    expect(await identity.findUserByEmail('newbie@demo.ca.gov')).toBeNull();
    expect(await recorded(caller.userId)).toHaveLength(1);
    // The next start with demo data seeds it afresh.
    expect(await seedDemoAccounts(identity, prismaAccessLists(prisma))).toBe(1);
  });

  it('records nothing and deletes nothing when the identity provider refuses its part (one transaction)', async () => {
    const email = await confirmed();
    const caller = await callerOf(email);
    const session = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const failing = prismaAccountDeletion(prisma, {
      schema: 'auth',
      eventsSchema: 'auth_events',
      remove: async (tx, userId) => {
        await deleteBuiltinAccount(tx, userId, 300);
        throw new Error('Keycloak refused the deletion');
      },
    });
    await expect(failing.deleteAccount(caller.userId)).rejects.toThrow('Keycloak refused the deletion');
    expect(await identity.findUserById(caller.userId)).not.toBeNull();
    expect(await recorded(caller.userId)).toEqual([]);
    expect((await auth.listEndedSessions('')).sessionIds).not.toContain(session.sessionState);
    await auth.refresh(session.refreshToken);
  });
});

describe('exporting my data', () => {
  it('answers the account as held, never a password hash, token or secret', async () => {
    const email = await confirmed();
    const user = await identity.findUserByEmail(email);
    await identity.grantRole(user?.id as string, 'contributor');
    await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() });
    const before = Date.now();
    const exported = await auth.exportMine({ userId: user?.id as string, email, roles: [] });
    expect(exported).toEqual({
      account: {
        user_id: user?.id,
        email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email_confirmed: true,
        contributor: true,
        roles: ['contributor'],
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    });
    expect(Date.parse(exported.account.created_at as string)).toBeLessThanOrEqual(before);
    const row = await prisma.user.findUniqueOrThrow({ where: { id: user?.id as string } });
    const text = JSON.stringify(exported);
    expect(text).not.toContain(row.passwordHash);
    expect(text).not.toMatch(/password|hash|token|secret|captcha/i);
  });

  it('needs a signed-in caller whose account exists', async () => {
    expect((await refusal(auth.exportMine(undefined))).kind).toBe('unauthenticated');
    expect(
      (await refusal(auth.exportMine({ userId: randomUUID(), email: 'gone@dof.ca.gov', roles: [] }))).kind,
    ).toBe('unauthenticated');
  });
});

describe('throttled requests', () => {
  const registration = async (email: string, clientIp: string) =>
    auth.register({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
      captchaPayload: await captchaPayload(),
      appUrl: APP,
      clientIp,
    });
  const resetRequest = async (email: string, clientIp: string) =>
    auth.requestPasswordReset({ email, captchaPayload: await captchaPayload(), appUrl: APP, clientIp });
  const mailsTo = async (email: string) =>
    (await inbox.all()).filter((mail) => mail.to.some((to) => to.address === email)).length;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('registration: a few per email, more per address; a refused one creates nothing and mails no one', async () => {
    const target = uniqueEmail();
    for (let i = 0; i < REQUESTS_PER_EMAIL; i++) await registration(target, uniqueIp());
    await settle();
    expect(await mailsTo(target)).toBe(REQUESTS_PER_EMAIL);
    const byEmail = await refusal(registration(target, uniqueIp()));
    expect(byEmail).toEqual({
      kind: 'resource_exhausted',
      message: 'Too many attempts. Try again in 60 minutes.',
    });
    await settle();
    expect(await mailsTo(target)).toBe(REQUESTS_PER_EMAIL);

    const address = uniqueIp();
    for (let i = 0; i < REQUESTS_PER_ADDRESS; i++) await registration(uniqueEmail(), address);
    const stranger = uniqueEmail();
    expect((await refusal(registration(stranger, address))).kind).toBe('resource_exhausted');
    await settle();
    expect(await identity.findUserByEmail(stranger)).toBeNull();
    expect(await mailsTo(stranger)).toBe(0);
    // From another address the same person registers.
    expect(await registration(stranger, uniqueIp())).toBe(MESSAGES.registered);
  });

  it('reset requests: a few per email, more per address; a refused one mails no one', async () => {
    const email = await confirmed();
    const before = await mailsTo(email);
    for (let i = 0; i < REQUESTS_PER_EMAIL; i++) await resetRequest(email, uniqueIp());
    expect((await refusal(resetRequest(email, uniqueIp()))).kind).toBe('resource_exhausted');
    await settle();
    expect(await mailsTo(email)).toBe(before + REQUESTS_PER_EMAIL);

    const address = uniqueIp();
    for (let i = 0; i < REQUESTS_PER_ADDRESS; i++) await resetRequest(uniqueEmail(), address);
    const other = await confirmed();
    const otherBefore = await mailsTo(other);
    expect((await refusal(resetRequest(other, address))).kind).toBe('resource_exhausted');
    await settle();
    expect(await mailsTo(other)).toBe(otherBefore);
  });

  it('eligibility checks: a few per email, more per address', async () => {
    const check = (email: string, clientIp: string) => auth.checkEmail({ email, clientIp });
    for (let i = 0; i < CHECKS_PER_EMAIL; i++) expect(await check('Probe@DOF.ca.gov', uniqueIp())).toBe(true);
    expect((await refusal(check('probe@dof.ca.gov', uniqueIp()))).kind).toBe('resource_exhausted');
    const address = uniqueIp();
    for (let i = 0; i < CHECKS_PER_ADDRESS; i++) await check(uniqueEmail(), address);
    expect(await refusal(check(uniqueEmail(), address))).toEqual({
      kind: 'resource_exhausted',
      message: 'Too many attempts. Try again in 60 minutes.',
    });
    expect(await check(uniqueEmail(), uniqueIp())).toBe(true);
  });
});

describe('access lists', () => {
  it('answer contributors only', async () => {
    const member: Caller = { userId: randomUUID(), email: 'member@demo.ca.gov', roles: [] };
    const contributor: Caller = {
      userId: randomUUID(),
      email: 'concierge@demo.ca.gov',
      roles: ['contributor'],
    };
    expect((await refusal(auth.listBetaEmails(undefined))).kind).toBe('unauthenticated');
    expect(await refusal(auth.listApprovedEmails(member))).toEqual({
      kind: 'permission_denied',
      message: 'Contributors only',
    });
    expect(await auth.listBetaEmails(contributor)).toContain('beta.tester@civicpartners.example');
    expect(await auth.listEmailDomains()).toContain('capitoladvocates.org');
  });
});

/** A call's answer, or the refusal it ended with. */
const outcome = <T>(answer: Promise<T>) =>
  answer.then(
    (response) => ({ error: null, response }),
    (error: ServiceError) => ({ error, response: undefined }),
  );

describe('over gRPC', () => {
  let server: RunningGrpcServer;
  let client: AuthServiceClient;
  beforeAll(async () => {
    server = await startGrpcServer({
      callers: testCallers.verifier,
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        {
          name: 'rotunda.auth.v1.AuthService',
          definition: AuthServiceService,
          implementation: grpcAuthService(
            auth,
            identity,
            createAccessAdmin({ identity, lists: prismaAccessLists(prisma), log: prismaAdminLog(prisma) }),
            createAgencies({
              identity,
              broker: NO_AGENCY_BROKER,
              store: prismaAgencies(prisma),
              signIns: prismaAgencySignIns(prisma, { schema: 'auth' }),
              log: prismaAdminLog(prisma),
              endedSessions: prismaEndedSessions(prisma, {
                schema: 'auth',
                retainSeconds: async () => RETAIN_SECONDS,
              }),
              startsByAddress: createWindowLimit(prisma, {
                name: 'agency-start:address',
                points: 100,
                windowSeconds: 3600,
              }),
              logoutToken: { issuer: 'http://localhost:8080/realms/rotunda', audience: 'rotunda-auth' },
            }),
            logger,
          ),
        },
      ],
    });
    client = new AuthServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
      interceptors: [testCallers.signing],
    });
  });
  afterAll(async () => {
    client.close();
    await server.shutdown();
  });
  const rpc = rpcCalls(AuthServiceService, () => client);
  /** Another service's client: it names itself with its own key (ADR 0039). */
  const asService = (name: string) =>
    new AuthServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
      interceptors: [testCallers.asService(name)],
    });

  it('answers login with the member and tokens, and refusals as gRPC statuses with the message', async () => {
    const login = (password: string) =>
      outcome(rpc('login', { email: 'member@demo.ca.gov', password, client_ip: '10.5.0.1' }));
    const ok = await login('Member#2024x');
    expect(ok.response?.user).toMatchObject({
      email: 'member@demo.ca.gov',
      contributor: false,
      email_confirmed: true,
    });
    expect(ok.response?.tokens?.token_type).toBe('Bearer');
    const wrong = await login('Wrong#Password1');
    expect(wrong.error?.code).toBe(status.UNAUTHENTICATED);
    expect(wrong.error?.details).toBe('Invalid credentials');
  });

  it('FindUserIdsByEmail answers a verified service the accounts of known emails (any case), leaving unknown ones out', async () => {
    // The profile service's seed asks it.
    const profile = asService('profile');
    const member = await identity.findUserByEmail('member@demo.ca.gov');
    const concierge = await identity.findUserByEmail('concierge@demo.ca.gov');
    const answer = await rpc.on(profile)('findUserIdsByEmail', {
      emails: [' Member@Demo.ca.gov', 'concierge@demo.ca.gov', 'nobody@demo.ca.gov', 'member@demo.ca.gov'],
    });
    expect(answer.users).toEqual([
      { email: 'member@demo.ca.gov', user_id: member?.id },
      { email: 'concierge@demo.ca.gov', user_id: concierge?.id },
    ]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `p${i}@demo.ca.gov`);
    const refused = await grpcRefusal(rpc.on(profile)('findUserIdsByEmail', { emails: tooMany }));
    expect(refused.code).toBe(status.INVALID_ARGUMENT);
    profile.close();
  });

  it('FindUserIdsByEmail refuses any caller but a verified service: a bare call, a member, a contributor', async () => {
    const contributor: Caller = {
      userId: randomUUID(),
      email: 'concierge@demo.ca.gov',
      roles: ['contributor'],
    };
    for (const caller of [undefined, contributor]) {
      const refused = await grpcRefusal(
        rpc('findUserIdsByEmail', { emails: ['member@demo.ca.gov'] }, caller),
      );
      expect(refused.code).toBe(status.UNAUTHENTICATED);
    }
  });

  it('changes the password in the session named, ending the others, which ListEndedSessions then names', async () => {
    const email = await confirmed();
    const user = await identity.findUserByEmail(email);
    const kept = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const other = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    const changed = await rpc(
      'updatePassword',
      {
        current_password: PASSWORD,
        new_password: 'Newer#Pass2026',
        session_id: kept.sessionState,
        client_ip: uniqueIp(),
      },
      { userId: user?.id as string, email, roles: [] },
    );
    expect(changed.message).toBe('Password has been updated');
    const ended = await rpc('listEndedSessions', { cursor: '', limit: 0 });
    expect(ended.session_ids).toContain(other.sessionState);
    expect(ended.session_ids).not.toContain(kept.sessionState);
    expect(ended.retain_seconds).toBe(RETAIN_SECONDS);
    expect(ended.cursor).toMatch(/^\d+$/);
    await auth.refresh(kept.refreshToken);
  });

  it('answers a throttled call with RESOURCE_EXHAUSTED and the wait in words', async () => {
    const check = () => outcome(rpc('checkEmail', { email: 'grpc.probe@dof.ca.gov', client_ip: uniqueIp() }));
    for (let i = 0; i < CHECKS_PER_EMAIL; i++) expect((await check()).error).toBeNull();
    const refused = (await check()).error;
    expect(refused?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(refused?.details).toBe('Too many attempts. Try again in 60 minutes.');
  });

  it('answers a slowed-down account’s login with RESOURCE_EXHAUSTED and the captcha-required trailer', async () => {
    const email = await confirmed();
    const login = (password: string, captcha = '', clientIp = uniqueIp()) =>
      outcome(rpc('login', { email, password, client_ip: clientIp, captcha_payload: captcha }));
    for (let i = 0; i <= FREE_FAILURES; i++)
      expect((await login('Wrong#Password1')).error?.code).toBe(status.UNAUTHENTICATED);
    const slowed = await login(PASSWORD);
    expect(slowed.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(slowed.error?.details).toBe('Too many attempts. Try again in 30 seconds.');
    expect(slowed.error?.metadata.get('captcha-required')).toEqual(['true']);
    const signedIn = await login(PASSWORD, await captchaPayload());
    expect(signedIn.error).toBeNull();
    expect(signedIn.response?.user?.email).toBe(email);

    // An address over its limit: a captcha would not help, and the refusal does not ask for one.
    const address = uniqueIp();
    for (let i = 0; i < ADDRESS_FAILURES; i++) await login('Wrong#Password1', '', address);
    const byAddress = await login(PASSWORD, '', address);
    expect(byAddress.error?.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(byAddress.error?.metadata.get('captcha-required')).toEqual([]);
  });

  describe('ConsumeQuota', () => {
    const consume = async (quota: string, caller?: Caller) => {
      const { error, response } = await outcome(rpc('consumeQuota', { quota }, caller));
      return { error, wait: response?.retry_after_seconds };
    };
    const someMember = (): Caller => ({ userId: randomUUID(), email: uniqueEmail(), roles: [] });

    it('allows each member so many profile reads a minute, even sent at once, then answers the wait', async () => {
      const reader = someMember();
      // A script's burst: parallel reads against the shared Postgres count exactly the quota through.
      const burst = await Promise.all(Array.from({ length: 20 }, () => consume('profile-read', reader)));
      expect(burst.map((answer) => answer.error)).toEqual(Array(20).fill(null));
      expect(burst.filter((answer) => answer.wait === 0)).toHaveLength(PROFILE_READS_PER_MINUTE);
      for (const refused of burst.filter((answer) => answer.wait !== 0)) {
        expect(refused.wait).toBeGreaterThan(0);
        expect(refused.wait).toBeLessThanOrEqual(60);
      }
      // Another member browsing at the same time never notices.
      expect(await consume('profile-read', someMember())).toEqual({ error: null, wait: 0 });
      // Quotas are apart: the reader may still upload.
      expect(await consume('image-upload', reader)).toEqual({ error: null, wait: 0 });
    });

    it('allows so many image uploads an hour, then answers a wait of up to the hour', async () => {
      const uploader = someMember();
      for (let i = 0; i < IMAGE_UPLOADS_PER_HOUR; i++)
        expect(await consume('image-upload', uploader)).toEqual({ error: null, wait: 0 });
      const over = await consume('image-upload', uploader);
      expect(over.error).toBeNull();
      expect(over.wait).toBeGreaterThan(60);
      expect(over.wait).toBeLessThanOrEqual(3600);
    });

    it('needs a signed-in caller and a known quota', async () => {
      expect((await consume('profile-read')).error?.code).toBe(status.UNAUTHENTICATED);
      const unknown = await consume('downloads', someMember());
      expect(unknown.error?.code).toBe(status.INVALID_ARGUMENT);
      expect(unknown.error?.details).toBe('Unknown quota: downloads');
      expect((await consume('constructor', someMember())).error?.code).toBe(status.INVALID_ARGUMENT);
    });
  });

  describe('members’ data', () => {
    const asMember = async (email: string) => {
      const user = await identity.findUserByEmail(email);
      const caller: Caller = { userId: user?.id as string, email, roles: [] };
      return { caller, userId: user?.id as string };
    };
    const deleteAccount = async (password: string, caller?: Caller) =>
      (await outcome(rpc('deleteAccount', { password, client_ip: uniqueIp() }, caller))).error;
    const memberEmails = async (userIds: string[], through: AuthServiceClient, caller?: Caller) => {
      const { error, response } = await outcome(
        rpc.on(through)('getMemberEmails', { user_ids: userIds }, caller),
      );
      return { error, members: response?.members };
    };

    it('ExportMine answers the caller’s account as JSON, and UNAUTHENTICATED to a visitor', async () => {
      const email = await confirmed();
      const { caller, userId } = await asMember(email);
      const answer = await rpc('exportMine', {}, caller);
      expect(JSON.parse(answer.json || '{}')).toMatchObject({
        account: { user_id: userId, email, email_confirmed: true, contributor: false, roles: [] },
      });
      expect((await grpcRefusal(rpc('exportMine', {}))).code).toBe(status.UNAUTHENTICATED);
    });

    it('DeleteAccount answers a wrong password UNAUTHENTICATED with the login’s message, the right one deletes', async () => {
      const email = await confirmed();
      const { caller, userId } = await asMember(email);
      const wrong = await deleteAccount('Wrong#Password1', caller);
      expect(wrong?.code).toBe(status.UNAUTHENTICATED);
      expect(wrong?.details).toBe('Invalid credentials');
      expect(await identity.findUserById(userId)).not.toBeNull();
      expect(await deleteAccount(PASSWORD, caller)).toBeNull();
      expect(await identity.findUserById(userId)).toBeNull();
      expect((await deleteAccount(PASSWORD))?.code).toBe(status.UNAUTHENTICATED);
    });

    it('GetMemberEmails answers a verified service the email of each known member, unknown ones left out', async () => {
      const notification = asService('notification');
      const member = await identity.findUserByEmail('member@demo.ca.gov');
      const concierge = await identity.findUserByEmail('concierge@demo.ca.gov');
      const answer = await memberEmails(
        [member?.id as string, randomUUID(), concierge?.id as string, 'not-a-user-id', member?.id as string],
        notification,
      );
      expect(answer.error).toBeNull();
      expect(answer.members?.sort((a, b) => a.email.localeCompare(b.email))).toEqual([
        { user_id: concierge?.id, email: 'concierge@demo.ca.gov' },
        { user_id: member?.id, email: 'member@demo.ca.gov' },
      ]);
      expect((await memberEmails([], notification)).members).toEqual([]);
      const full = Array.from({ length: 1000 }, () => randomUUID());
      expect((await memberEmails([...full.slice(1), member?.id as string], notification)).members).toEqual([
        { user_id: member?.id, email: 'member@demo.ca.gov' },
      ]);
      const tooMany = await memberEmails([...full, randomUUID()], notification);
      expect(tooMany.error?.code).toBe(status.INVALID_ARGUMENT);
      expect(tooMany.error?.details).toBe('Ask for at most 1000 members at a time.');
      notification.close();
    });

    it('GetMemberEmails refuses a member (even a contributor) PERMISSION_DENIED and a bare call UNAUTHENTICATED', async () => {
      const member = await identity.findUserByEmail('member@demo.ca.gov');
      const contributor: Caller = {
        userId: randomUUID(),
        email: 'concierge@demo.ca.gov',
        roles: ['contributor'],
      };
      const refused = await memberEmails([member?.id as string], client, contributor);
      expect(refused.error?.code).toBe(status.PERMISSION_DENIED);
      expect(refused.members).toBeUndefined();
      expect((await memberEmails([member?.id as string], client))?.error?.code).toBe(status.UNAUTHENTICATED);
    });
  });

  it('reads the caller from the metadata for contributor-only lists', async () => {
    const member: Caller = { userId: randomUUID(), email: 'm@demo.ca.gov', roles: [] };
    expect((await grpcRefusal(rpc('listBetaEmails', {}, member))).code).toBe(status.PERMISSION_DENIED);
    const jwks = (await rpc('getJwks', {})).jwks_json;
    expect(JSON.parse(jwks).keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(JSON.parse(jwks).keys[0].d).toBeUndefined();
  });
});

describe('token renewals', () => {
  it('are limited per address, generously: one address over its limit waits, another goes on', async () => {
    const email = await confirmed();
    const busy = uniqueIp();
    let { refreshToken } = (await auth.login({ email, password: PASSWORD, clientIp: uniqueIp() })).tokens;
    for (let renewal = 0; renewal < REFRESHES_PER_ADDRESS; renewal += 1)
      ({ refreshToken } = await auth.refresh(refreshToken, busy));
    const refused = await refusal(auth.refresh(refreshToken, busy));
    expect(refused.kind).toBe('resource_exhausted');
    expect(refused.message).toMatch(/Try again in/);
    // Refused before the token was looked at: it still works from elsewhere.
    expect((await auth.refresh(refreshToken, uniqueIp())).accessToken.length).toBeGreaterThan(0);
  });
});
