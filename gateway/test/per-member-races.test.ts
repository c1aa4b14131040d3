// The per-member allowances under races, end to end: two gateways (as two machines, or two workers) in front of
// the real auth service (its own process, as `npm start` runs it) on a real PostgreSQL, over real gRPC, with a fake
// ProfileService. One member's reads of other members' profile pages sent all at once, across both gateways,
// get exactly the allowance (60) answered and the rest 429 with Retry-After; likewise one member's image uploads
// (30 stored, the rest refused before the service sees them). Another member, and the member's own profile, are
// unaffected. Tokens are checked against a key set served here (JWKS_URL), since the real auth service's
// built-in provider did not sign them.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NODE_FLAGS } from '@rotunda/service-kit';
import { createTestDatabase, freePort, testCallers } from '@rotunda/service-kit/testing';
import startTestPostgres from '@rotunda/service-kit/testing/global-setup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  ISSUER,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeProfile, PICTURE_URL, PROFILE, startFakeProfile } from './support/fake-profile.ts';

const authServiceDir = new URL('../../services/auth', import.meta.url).pathname;
/** The auth service's defaults, which these races prove. */
const PROFILE_READS_PER_MINUTE = 60;
const IMAGE_UPLOADS_PER_HOUR = 30;

let stopPostgres: () => Promise<void>;
let key: SigningKey;
let jwks: Server;
let authService: ChildProcess;
let authOutput = '';
let profile: FakeProfile;
let gateways: RunningGateway[] = [];

const memberToken = async (n: number) => ({
  'x-auth-token': await accessToken(key, {
    claims: { sub: `9d2e4c1a-0b7f-4e3a-8c5d-${String(n).padStart(12, '0')}`, email: `racer${n}@demo.ca.gov` },
  }),
});

beforeAll(async () => {
  stopPostgres = await startTestPostgres();
  const databaseUrl = await createTestDatabase();
  key = await signingKey('key-1');
  jwks = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [key.jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  profile = await startFakeProfile();
  // Every profile read here is someone else's, and every upload is stored.
  profile.answer('getProfile', async () => ({ ...PROFILE, user_id: 'someone-else' }));
  profile.answer('uploadPicture', async () => ({ url: PICTURE_URL }));
  const grpcPort = await freePort();
  authService = spawn(process.execPath, [...NODE_FLAGS, 'src/main.ts'], {
    cwd: authServiceDir,
    env: {
      ...process.env,
      ...testCallers.env,
      DATABASE_URL: databaseUrl,
      GRPC_PORT: String(grpcPort),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  authService.stdout?.on('data', (chunk) => (authOutput += chunk));
  authService.stderr?.on('data', (chunk) => (authOutput += chunk));
  const env = {
    AUTH_SERVICE_ADDR: `127.0.0.1:${grpcPort}`,
    PROFILE_SERVICE_ADDR: profile.address,
    JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/certs`,
    TOKEN_ISSUER: ISSUER,
    // Many uploads of one member at once, so that the race is the hourly allowance's.
    UPLOADS_AT_ONCE: '100',
    UPLOADS_AT_ONCE_PER_MEMBER: '100',
  };
  gateways = [await startGateway(env), await startGateway(env)];
  // Ready once the auth service answers (a member of its own, so the members below start with a full allowance).
  const warmUp = await memberToken(0);
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${gateways[0]?.base}/api/profiles/profile/7`, { headers: warmUp })).status !== 200) {
    if (authService.exitCode !== null || Date.now() > deadline)
      throw new Error(`the auth service did not start:\n${authOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  for (const gateway of gateways) await gateway.close();
  if (authService && authService.exitCode === null) {
    const exited = new Promise((resolve) => authService.once('exit', resolve));
    authService.kill('SIGTERM');
    await exited;
  }
  await profile?.server.shutdown();
  await new Promise((resolve) => jwks?.close(resolve));
  await stopPostgres?.();
}, 30_000);

/** `count` requests at once, alternating between the two gateways; their statuses and Retry-After headers. */
async function atOnce(count: number, send: (base: string) => Promise<Response>) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => send((gateways[i % 2] as RunningGateway).base)),
  );
  return answers.map((res) => ({ status: res.status, retryAfter: Number(res.headers.get('retry-after')) }));
}

describe('one member’s allowances under races, across two gateways, on the real auth service', () => {
  it(`answers exactly ${PROFILE_READS_PER_MINUTE} of 80 other profiles read at once; the rest 429`, async () => {
    const member = await memberToken(1);
    const answers = await atOnce(80, (base) => fetch(`${base}/api/profiles/profile/7`, { headers: member }));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PROFILE_READS_PER_MINUTE);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(80 - PROFILE_READS_PER_MINUTE);
    for (const answer of refused) {
      expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
      expect(answer.retryAfter).toBeLessThanOrEqual(60);
    }
    // Another member reads as usual, and so does this one their own profile.
    const other = await memberToken(2);
    expect((await fetch(`${gateways[1]?.base}/api/profiles/profile/7`, { headers: other })).status).toBe(200);
    profile.answer('getProfile', async (_request, context) => ({
      ...PROFILE,
      user_id: context.caller?.userId,
    }));
    expect((await fetch(`${gateways[0]?.base}/api/profiles/profile/7`, { headers: member })).status).toBe(
      200,
    );
    profile.answer('getProfile', async () => ({ ...PROFILE, user_id: 'someone-else' }));
  });

  it(`stores exactly ${IMAGE_UPLOADS_PER_HOUR} of 40 images uploaded at once; the rest 429`, async () => {
    const member = await memberToken(3);
    const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    const stored = profile.callsTo('uploadPicture').length;
    const answers = await atOnce(40, (base) => {
      const form = new FormData();
      form.append('profile_picture', new Blob([JPEG]), 'me.jpg');
      return fetch(`${base}/api/profiles/upload-profile-picture`, {
        method: 'POST',
        headers: member,
        body: form,
      });
    });
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(IMAGE_UPLOADS_PER_HOUR);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(40 - IMAGE_UPLOADS_PER_HOUR);
    for (const answer of refused) {
      expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
      expect(answer.retryAfter).toBeLessThanOrEqual(3600);
    }
    expect(profile.callsTo('uploadPicture').length - stored).toBe(IMAGE_UPLOADS_PER_HOUR);
  });
});
