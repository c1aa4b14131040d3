// One gateway and two auth replicas on one PostgreSQL: the real gateway process, with AUTH_SERVICE_ADDR naming
// both replicas' gRPC servers, spreads the logins over them (round robin), and the per-account wait after wrong
// passwords (5 free tries, ADR 0019, 0035) is counted in Postgres before each password check: once an account
// must wait, every further attempt is refused with 429 whichever replica answers, wrong passwords sent at once
// included, and other accounts are untouched. The owner gets in with the captcha the 429 asks for.
import { type ChildProcess, spawn } from 'node:child_process';
import type {
  ServerUnaryCall,
  ServiceError,
  sendUnaryData,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { AuthServiceService } from '@rotunda/protos/auth';
import {
  createLogger,
  loadConfig,
  migrate,
  NODE_FLAGS,
  type RunningGrpcServer,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, testCallers } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcAuthService } from '../src/adapters/grpc-auth-service.ts';
import { authConfigSchema } from '../src/config.ts';
import { seedDemoAccounts } from '../src/seed/demo-accounts.ts';
import { wireAuth } from '../src/wiring.ts';
import { freePort, solveCaptcha } from './support.ts';

const logger = createLogger('auth-test', 'silent');
const gatewayDir = new URL('../../../gateway/', import.meta.url).pathname;
const WRONG = 'Wrong#Password1';

interface Replica {
  name: string;
  server: RunningGrpcServer;
  close: () => Promise<void>;
}

/** Which replica answered each login, and with which gRPC code (0: OK). */
const logins: { replica: string; code: number }[] = [];

/** An auth replica as main.ts wires it (its own pools and limiters), counting the logins it answers. */
async function startReplica(name: string, databaseUrl: string): Promise<Replica> {
  const config = loadConfig(authConfigSchema, {
    DATABASE_URL: databaseUrl,
    SMTP_URL: 'smtp://127.0.0.1:1',
    CAPTCHA_HMAC_KEY: 'one-key-for-every-replica',
    CAPTCHA_MAX_NUMBER: '2000',
    AUTH_LOGIN_FREE_FAILURES: '5',
    LOG_LEVEL: 'silent',
  });
  const { prisma, identity, lists, auth, access, agencies } = wireAuth(config, logger);
  if (name === 'a') await seedDemoAccounts(identity, lists);
  const implementation = grpcAuthService(
    auth,
    identity,
    access,
    agencies,
    logger,
  ) as UntypedServiceImplementation & {
    login: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
  };
  const login = implementation.login;
  const server = await startGrpcServer({
    callers: testCallers.verifier,
    host: '127.0.0.1',
    port: 0,
    logger,
    services: [
      {
        name: 'rotunda.auth.v1.AuthService',
        definition: AuthServiceService,
        implementation: {
          ...implementation,
          login: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
            login(call, (error, value) => {
              logins.push({ replica: name, code: (error as ServiceError | null)?.code ?? 0 });
              callback(error, value);
            }),
        },
      },
    ],
  });
  return {
    name,
    server,
    close: async () => {
      await server.shutdown();
      await prisma.$disconnect();
    },
  };
}

/** The gateway as `npm start` runs it, its own process, with the auth replicas' addresses. */
async function startGateway(authAddress: string): Promise<{ base: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: gatewayDir,
    env: {
      ...process.env,
      ...testCallers.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
      AUTH_SERVICE_ADDR: authAddress,
      PROFILE_SERVICE_ADDR: '127.0.0.1:1',
      ORG_SERVICE_ADDR: '127.0.0.1:1',
      POST_SERVICE_ADDR: '127.0.0.1:1',
      NEWS_SERVICE_ADDR: '127.0.0.1:1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const up = await fetch(`${base}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) return { base, process: child };
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let replicas: Replica[] = [];
let gateway: { base: string; process: ChildProcess } | undefined;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const migrationsDir = new URL('../prisma/migrations', import.meta.url).pathname;
  await migrate({ databaseUrl, schema: 'auth', migrationsDir, logger });
  replicas = [await startReplica('a', databaseUrl), await startReplica('b', databaseUrl)];
  gateway = await startGateway(replicas.map((replica) => `127.0.0.1:${replica.server.port}`).join(','));
});
afterAll(async () => {
  if (gateway) {
    const exited = new Promise((resolve) => gateway?.process.once('exit', resolve));
    gateway.process.kill('SIGTERM');
    await exited;
  }
  for (const replica of replicas) await replica.close();
});

async function login(email: string, password: string, captchaValue?: string) {
  const res = await fetch(`${gateway?.base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, captchaValue }),
  });
  const body = (await res.json()) as {
    errors?: { msg: string }[];
    user?: { email: string };
    captcha_required?: boolean;
  };
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

/** A challenge from the gateway's GET /auth/captcha, solved as the login dialog's widget does. */
async function solvedCaptcha(): Promise<string> {
  const challenge = (await (await fetch(`${gateway?.base}/auth/captcha`)).json()) as Record<string, unknown>;
  return solveCaptcha(challenge);
}

describe('one gateway, two auth replicas', () => {
  it('A test shows one gateway + two auth replicas refusing the 11th wrong password for one account no matter which replica answers', async () => {
    const attempts = [];
    for (let i = 0; i < 14; i++) attempts.push(await login('member@demo.ca.gov', WRONG));
    const statuses = attempts.map((attempt) => attempt.status);
    // Five free failures and the sixth, which starts the wait, are told the password is wrong; from then on
    // every attempt waits. Counted per replica, two replicas would each have let six through (twelve in all).
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429, 429]);
    expect(attempts[0]?.body).toEqual({ errors: [{ msg: 'Invalid credentials' }] });
    expect(attempts[10]?.status).toBe(429);
    for (const refused of attempts.slice(6)) {
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.body.errors?.[0]?.msg).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/);
    }

    // Both replicas answered, and both refused.
    const answered = (replica: string) => logins.filter((entry) => entry.replica === replica);
    const RESOURCE_EXHAUSTED = 8;
    for (const replica of ['a', 'b']) {
      expect(answered(replica).length).toBeGreaterThanOrEqual(4);
      expect(answered(replica).some((entry) => entry.code === RESOURCE_EXHAUSTED)).toBe(true);
    }
    expect(logins).toHaveLength(14);

    // The right password waits too, on either replica.
    const right = [
      await login('member@demo.ca.gov', 'Member#2024x'),
      await login('member@demo.ca.gov', 'Member#2024x'),
    ];
    expect(right.map((attempt) => attempt.status)).toEqual([429, 429]);
    expect(new Set(logins.slice(-2).map((entry) => entry.replica))).toEqual(new Set(['a', 'b']));
  });

  it('A test shows the slowed-down owner asked for a captcha, and signed in with it and the right password', async () => {
    const refused = await login('member@demo.ca.gov', 'Member#2024x');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      errors: [{ msg: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds?\.$/) }],
      captcha_required: true,
    });
    // The captcha never stands in for the password.
    expect((await login('member@demo.ca.gov', WRONG, await solvedCaptcha())).status).toBe(401);
    const signedIn = await login('member@demo.ca.gov', 'Member#2024x', await solvedCaptcha());
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user?.email).toBe('member@demo.ca.gov');
  });

  it('A test shows 40 wrong passwords sent at once for one account: at most 10 reach a password check, the rest answer 429 with Retry-After', async () => {
    const before = logins.length;
    const attempts = await Promise.all(Array.from({ length: 40 }, () => login('newbie@demo.ca.gov', WRONG)));
    const checked = attempts.filter((attempt) => attempt.status === 401);
    const refused = attempts.filter((attempt) => attempt.status === 429);
    // Five free tries and one try past them, whichever replica took each.
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(checked).toHaveLength(6);
    expect(refused).toHaveLength(40 - checked.length);
    for (const attempt of refused) {
      expect(Number(attempt.retryAfter)).toBeGreaterThan(0);
      expect(attempt.body.captcha_required).toBe(true);
    }
    expect(new Set(logins.slice(before).map((entry) => entry.replica))).toEqual(new Set(['a', 'b']));
  });

  it('leaves another account alone: its wrong password is only wrong, its right one signs in', async () => {
    expect(await login('concierge@demo.ca.gov', WRONG)).toMatchObject({
      status: 401,
      body: { errors: [{ msg: 'Invalid credentials' }] },
    });
    const signedIn = await login('concierge@demo.ca.gov', 'Concierge#2024');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user?.email).toBe('concierge@demo.ca.gov');
  });
});
