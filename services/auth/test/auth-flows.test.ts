// The auth service's rules end to end inside the service: real PostgreSQL, the built-in identity provider,
// real SMTP into MailDev, real ALTCHA challenges. Every path's happy case and its refusals.
import { randomUUID } from 'node:crypto';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { AuthServiceClient, AuthServiceService, type LoginResponse } from '@rotunda/protos/auth';
import {
  type Caller,
  createLogger,
  DomainError,
  migrate,
  prismaAdapter,
  type RunningGrpcServer,
  setCallerMetadata,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, diffSchemaAndDatabase, testCallers } from '@rotunda/service-kit/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createAltchaCaptcha } from '../src/adapters/altcha-captcha.ts';
import { createBuiltinIdentity } from '../src/adapters/builtin-identity.ts';
import { grpcAuthService } from '../src/adapters/grpc-auth-service.ts';
import {
  prismaAccessLists,
  prismaOneTimeTokens,
  prismaSpentCaptchas,
} from '../src/adapters/prisma-stores.ts';
import { createRateLimit } from '../src/adapters/rate-limit.ts';
import { createSmtpMailer } from '../src/adapters/smtp-mailer.ts';
import { type AuthService, createAuthService, MESSAGES } from '../src/domain/auth-service.ts';
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
    loginLimit: createRateLimit({ points: 5, durationSeconds: 60, blockSeconds: 60 }),
    resetLimit: createRateLimit({ points: 50, durationSeconds: 60, blockSeconds: 60 }),
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
    expect(await auth.checkEmail('someone@dof.ca.gov')).toBe(true);
    expect(await auth.checkEmail('Someone@CapitolAdvocates.org')).toBe(true);
    expect(await auth.checkEmail('policy.director@valleywater.example')).toBe(true);
    expect(await auth.checkEmail('beta.tester@civicpartners.example')).toBe(true);
    expect(await auth.checkEmail('someone@gmail.com')).toBe(false);
    expect(await auth.checkEmail('someone@ca.gov.evil.example')).toBe(false);
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
    const token = await prismaOneTimeTokens(prisma).issue(user?.id as string, 'confirm-email', 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await refusal(auth.confirmRegistration(token))).kind).toBe('invalid_argument');
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

  it('pauses an account after a burst of failures, with the wait in the message', async () => {
    const email = await confirmed();
    for (let i = 0; i < 5; i++)
      await refusal(auth.login({ email, password: 'Wrong#Password1', clientIp: `10.1.0.${i}` }));
    const limited = await refusal(auth.login({ email, password: PASSWORD, clientIp: '10.1.0.9' }));
    expect(limited.kind).toBe('resource_exhausted');
    expect(limited.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
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
            clientIp: '1',
          }),
        )
      ).message,
    ).toBe('Please verify the reCAPTCHA!');
  });
});

describe('update password', () => {
  it('checks the current password and needs a caller', async () => {
    const email = await confirmed();
    const user = await identity.findUserByEmail(email);
    const caller: Caller = { userId: user?.id as string, email, roles: [] };
    expect(await refusal(auth.updatePassword(caller, 'Wrong#Password1', 'Newer#Pass2026'))).toEqual({
      kind: 'invalid_argument',
      message: 'Your current password is incorrect.',
    });
    expect((await refusal(auth.updatePassword(undefined, PASSWORD, 'Newer#Pass2026'))).kind).toBe(
      'unauthenticated',
    );
    expect((await refusal(auth.updatePassword(caller, PASSWORD, 'weak'))).message).toBe(
      'Password does not meet criteria.',
    );
    expect(await auth.updatePassword(caller, PASSWORD, 'Newer#Pass2026')).toBe('Password has been updated');
    expect((await auth.login({ email, password: 'Newer#Pass2026', clientIp: '10.4.0.1' })).user.email).toBe(
      email,
    );
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
          implementation: grpcAuthService(auth, identity, logger),
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

  it('answers login with the member and tokens, and refusals as gRPC statuses with the message', async () => {
    const login = (password: string) =>
      new Promise<{ error: ServiceError | null; response?: LoginResponse }>((resolve) =>
        client.login({ email: 'member@demo.ca.gov', password, client_ip: '10.5.0.1' }, (error, response) =>
          resolve({ error, response }),
        ),
      );
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

  it('FindUserIdsByEmail answers the accounts of known emails (any case) and leaves unknown ones out', async () => {
    const member = await identity.findUserByEmail('member@demo.ca.gov');
    const concierge = await identity.findUserByEmail('concierge@demo.ca.gov');
    const answer = await new Promise<{ error: ServiceError | null; users?: unknown }>((resolve) =>
      client.findUserIdsByEmail(
        {
          emails: [
            ' Member@Demo.ca.gov',
            'concierge@demo.ca.gov',
            'nobody@demo.ca.gov',
            'member@demo.ca.gov',
          ],
        },
        (error, response) => resolve({ error, users: response?.users }),
      ),
    );
    expect(answer.error).toBeNull();
    expect(answer.users).toEqual([
      { email: 'member@demo.ca.gov', user_id: member?.id },
      { email: 'concierge@demo.ca.gov', user_id: concierge?.id },
    ]);
    const tooMany = Array.from({ length: 101 }, (_, i) => `p${i}@demo.ca.gov`);
    const refused = await new Promise<ServiceError | null>((resolve) =>
      client.findUserIdsByEmail({ emails: tooMany }, (error) => resolve(error)),
    );
    expect(refused?.code).toBe(status.INVALID_ARGUMENT);
  });

  it('reads the caller from the metadata for contributor-only lists', async () => {
    const metadata = new Metadata();
    setCallerMetadata(metadata, { userId: randomUUID(), email: 'm@demo.ca.gov', roles: [] });
    const refused = await new Promise<ServiceError | null>((resolve) =>
      client.listBetaEmails({}, metadata, (error) => resolve(error)),
    );
    expect(refused?.code).toBe(status.PERMISSION_DENIED);
    const jwks = await new Promise<string>((resolve) =>
      client.getJwks({}, (_error, response) => resolve(response.jwks_json)),
    );
    expect(JSON.parse(jwks).keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(JSON.parse(jwks).keys[0].d).toBeUndefined();
  });
});
