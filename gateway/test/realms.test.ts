// The built-in identity provider's OpenID endpoints (/realms/<realm>/...) against a fake AuthService: the
// discovery document, the JWKS, the refresh-token grant (a reused refresh token ending its session's access
// tokens too) and logout with their form handling and OAuth error shapes; and, with JWKS_URL set (Keycloak),
// tokens verified against keys served over HTTP instead, still refused once their session ended.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  get,
  ISSUER,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';

let key: SigningKey;
let fake: FakeAuth;
let gateway: RunningGateway;

beforeAll(async () => {
  key = await signingKey('key-1');
  fake = await startFakeAuth([key]);
  gateway = await startGateway({ AUTH_SERVICE_ADDR: fake.address });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await gateway.close();
  await fake.server.shutdown();
});

const realm = (path: string) => `${gateway.base}/realms/rotunda${path}`;

async function form(url: string, fields: Record<string, string> | string, contentType?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType ?? 'application/x-www-form-urlencoded' },
    body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe('/realms/rotunda (built-in provider)', () => {
  it('publishes a discovery document with only the endpoints that exist', async () => {
    const res = await get(realm('/.well-known/openid-configuration'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/protocol/openid-connect/certs`,
      token_endpoint: `${ISSUER}/protocol/openid-connect/token`,
      end_session_endpoint: `${ISSUER}/protocol/openid-connect/logout`,
      grant_types_supported: ['refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
    });
    expect(res.body).not.toHaveProperty('authorization_endpoint');
  });

  it('publishes the auth service’s JWKS, cacheable for a minute', async () => {
    const res = await get(realm('/protocol/openid-connect/certs'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: [key.jwk] });
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 404 for another realm (names are case-sensitive) and unknown endpoints', async () => {
    for (const path of [
      '/realms/master/.well-known/openid-configuration',
      '/realms/ROTUNDA/protocol/openid-connect/certs',
    ]) {
      expect(await get(`${gateway.base}${path}`)).toMatchObject({
        status: 404,
        body: { error: 'Realm does not exist' },
      });
    }
    expect(await get(realm('/protocol/openid-connect/auth'))).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });

  it('refreshes a session with Keycloak’s token response, never cached', async () => {
    const res = await form(realm('/protocol/openid-connect/token'), {
      grant_type: 'refresh_token',
      refresh_token: 'refresh.jwt.value',
      client_id: 'rotunda-web',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: 'access.jwt.refreshed',
      expires_in: 300,
      refresh_expires_in: 1800,
      refresh_token: 'refresh.jwt.value',
      token_type: 'Bearer',
      session_state: 'session-1',
      scope: 'email profile',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    // With the client's address, which the renewals' rate limit counts.
    expect(fake.callsTo('refreshTokens')[0]?.request).toEqual({
      refresh_token: 'refresh.jwt.value',
      client_ip: expect.stringMatching(/127\.0\.0\.1$/),
    });
  });

  it('answers 429 with Retry-After when the address has renewed too often', async () => {
    fake.answer('refreshTokens', async () => {
      throw new DomainError('resource_exhausted', 'Too many attempts. Try again in 30 seconds.');
    });
    const res = await form(realm('/protocol/openid-connect/token'), {
      grant_type: 'refresh_token',
      refresh_token: 'refresh.jwt.value',
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.body).toMatchObject({ error: 'invalid_request' });
  });

  it("says in /healthz's detail when the ended-sessions poll keeps failing, without failing /healthz for it", async () => {
    const detail = async () => (await get(`${gateway.base}/healthz`)).body.endedSessions;
    await expect.poll(detail).toMatchObject({ status: 'ok', failures: 0 });
    fake.answer('listEndedSessions', async () => {
      throw new Error('auth: database unreachable');
    });
    await expect.poll(detail, { timeout: 3_000 }).toMatchObject({ status: 'failing' });
    expect((await detail()).failures).toBeGreaterThan(0);
    fake.reset();
    await expect.poll(detail, { timeout: 3_000 }).toMatchObject({ status: 'ok', failures: 0 });
  });

  it('answers invalid_grant "Session not active" when the service refuses the refresh token', async () => {
    fake.answer('refreshTokens', async () => {
      throw new DomainError('unauthenticated', 'Refresh token expired or revoked');
    });
    const res = await form(realm('/protocol/openid-connect/token'), {
      grant_type: 'refresh_token',
      refresh_token: 'revoked',
      client_id: 'rotunda-web',
    });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Session not active' },
    });
  });

  it('a refresh token used again answers invalid_grant, and its session’s access tokens stop working', async () => {
    const accessOfSession = await accessToken(key, {
      roles: ['contributor'],
      claims: { sid: 'session-stolen' },
    });
    const probe = () => get(`${gateway.base}/auth/beta-access`, { 'x-auth-token': accessOfSession });
    expect((await probe()).status).toBe(200);
    // What the auth service does with a reused refresh token: it ends the session and lists it as ended.
    fake.answer('refreshTokens', async () => {
      fake.endedSessions.push('session-stolen');
      throw new DomainError('unauthenticated', 'Session not active');
    });
    const res = await form(realm('/protocol/openid-connect/token'), {
      grant_type: 'refresh_token',
      refresh_token: 'already.used.token',
      client_id: 'rotunda-web',
    });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Session not active' },
    });
    await expect.poll(async () => (await probe()).status, { timeout: 3_000 }).toBe(401);
  });

  it.each([
    [
      { grant_type: 'password', username: 'a', password: 'b' },
      'unsupported_grant_type',
      'Unsupported grant_type',
    ],
    [{ grant_type: 'client_credentials' }, 'unsupported_grant_type', 'Unsupported grant_type'],
    [{ refresh_token: 'x' }, 'invalid_request', 'Missing form parameter: grant_type'],
    [{ grant_type: 'refresh_token' }, 'invalid_request', 'Missing parameter: refresh_token'],
    [
      'grant_type=refresh_token&grant_type=password&refresh_token=x',
      'invalid_request',
      'Duplicated form parameter: grant_type',
    ],
  ])('refuses %j with 400 %s without asking the service', async (fields, error, description) => {
    const res = await form(realm('/protocol/openid-connect/token'), fields);
    expect(res).toMatchObject({ status: 400, body: { error, error_description: description } });
    expect(fake.calls).toEqual([]);
  });

  it('reads only form bodies at the token endpoint', async () => {
    const res = await form(
      realm('/protocol/openid-connect/token'),
      JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x' }),
      'application/json',
    );
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(fake.calls).toEqual([]);
  });

  it('ends a session at the logout endpoint with 204', async () => {
    const res = await form(realm('/protocol/openid-connect/logout'), {
      refresh_token: 'refresh.jwt.value',
      client_id: 'rotunda-web',
    });
    expect(res.status).toBe(204);
    expect(fake.callsTo('logout')[0]?.request).toEqual({ refresh_token: 'refresh.jwt.value' });
    expect(await form(realm('/protocol/openid-connect/logout'), { client_id: 'rotunda-web' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'No refresh token' },
    });
  });

  it('answers temporarily_unavailable when the auth service is down', async () => {
    const orphan = await startGateway({ AUTH_SERVICE_ADDR: '127.0.0.1:1' });
    try {
      const res = await form(`${orphan.base}/realms/rotunda/protocol/openid-connect/token`, {
        grant_type: 'refresh_token',
        refresh_token: 'x',
      });
      expect(res).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    } finally {
      await orphan.close();
    }
  });
});

describe('JWKS_URL (Keycloak)', () => {
  const KEYCLOAK_ISSUER = 'http://keycloak.test:8081/realms/rotunda';
  let jwksServer: Server;
  let served: { keys: unknown[] };
  let hits = 0;
  let keycloak: RunningGateway;

  beforeAll(async () => {
    served = { keys: [key.jwk] };
    jwksServer = createServer((_req, res) => {
      hits += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const { port } = jwksServer.address() as AddressInfo;
    keycloak = await startGateway(
      {
        AUTH_SERVICE_ADDR: fake.address,
        JWKS_URL: `http://127.0.0.1:${port}/realms/rotunda/protocol/openid-connect/certs`,
        TOKEN_ISSUER: KEYCLOAK_ISSUER,
      },
      { cooldownMs: 0 },
    );
  });
  afterAll(async () => {
    await keycloak.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  const probe = (token: string) => get(`${keycloak.base}/auth/beta-access`, { 'x-auth-token': token });

  it('verifies tokens against the keys at JWKS_URL, not the auth service’s', async () => {
    const token = await accessToken(key, { roles: ['contributor'], claims: { iss: KEYCLOAK_ISSUER } });
    expect((await probe(token)).status).toBe(200);
    expect(hits).toBe(1);
    expect(fake.callsTo('getJwks')).toEqual([]);
    // The built-in provider's issuer is not this gateway's.
    const builtIn = await accessToken(key, { roles: ['contributor'] });
    expect(await probe(builtIn)).toMatchObject({ status: 401, body: { errors: [{ msg: 'Invalid token' }] } });
  });

  it('re-fetches the keys once when Keycloak rotates them', async () => {
    const before = hits;
    const next = await signingKey('kc-2');
    served = { keys: [key.jwk, next.jwk] };
    const token = await accessToken(next, { roles: ['contributor'], claims: { iss: KEYCLOAK_ISSUER } });
    expect((await probe(token)).status).toBe(200);
    expect((await probe(token)).status).toBe(200);
    expect(hits - before).toBe(1);
  });

  it("refuses a Keycloak token once the auth service lists its session (Keycloak's sid) as ended", async () => {
    const token = await accessToken(key, {
      roles: ['contributor'],
      claims: { iss: KEYCLOAK_ISSUER, sid: 'keycloak-session-1' },
    });
    expect((await probe(token)).status).toBe(200);
    fake.endedSessions.push('keycloak-session-1');
    await expect.poll(async () => (await probe(token)).status, { timeout: 3_000 }).toBe(401);
  });

  it('still refreshes sessions through the auth service, which holds the Keycloak client', async () => {
    expect((await get(`${keycloak.base}/realms/rotunda/.well-known/openid-configuration`)).status).toBe(200);
  });
});
