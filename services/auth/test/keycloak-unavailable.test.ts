// The Keycloak adapter while Keycloak is away, against a local stand-in for its endpoints that is closed, hung or
// answering 503, then back: every call (token grants, the admin API, the signing keys) fails as
// KeycloakUnavailableError with the text a member reads (a sign-in within the gateway's 3 s deadline even when
// Keycloak hangs),
// never as a wrong password or a server fault; once Keycloak answers again, the next call succeeds. The same
// against the real Keycloak, stopped and started again, is in packages/engines/test/outages.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeycloakIdentity } from '../src/adapters/keycloak-identity.ts';
import {
  KEYCLOAK_UNAVAILABLE,
  KeycloakUnavailableError,
  SIGN_IN_TIMEOUT_MS,
} from '../src/adapters/keycloak-oidc.ts';

/** The gateway's deadline for a sign-in (its PASSWORD_DEADLINE_MS). */
const GATEWAY_DEADLINE_MS = 10_000;
const TOKEN_PATH = '/realms/rotunda/protocol/openid-connect/token';
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A stand-in for Keycloak on `port` (0: any): `answer` decides each response; `hang` never answers. */
async function keycloak(
  mode: 'answer' | 'hang' | 'down',
  port = 0,
): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    if (mode === 'hang') return;
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (mode === 'down') return json(503, { error: 'unknown_error' });
    if (request.url === TOKEN_PATH)
      return json(200, {
        access_token: 'e30.e30.sig',
        expires_in: 300,
        refresh_token: 'e30.e30.sig',
        refresh_expires_in: 1800,
        token_type: 'Bearer',
        session_state: 'session-1',
      });
    if (request.url?.startsWith('/admin/realms/rotunda/users/?')) return json(200, []);
    return json(404, {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** A port nothing listens on: one a server held a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const identityAt = (port: number) =>
  createKeycloakIdentity({
    url: `http://127.0.0.1:${port}`,
    realm: 'rotunda',
    clientId: 'rotunda-auth',
    clientSecret: 'fake-secret',
    exchangedTokens: {
      claim: async () => ({ kind: 'claimed' }),
      exchanged: async () => {},
      release: async () => {},
      sessionOf: async () => null,
    },
  });

/** Each call a member's sign-in, registration or password reset makes of Keycloak. */
const calls = (identity: ReturnType<typeof identityAt>) => ({
  'the password grant (sign-in)': () => identity.passwordGrant('ada@example.ca.gov', 'secret#1'),
  'a refresh': () =>
    identity.refresh(
      `e30.${Buffer.from('{"sid":"6f1c2a3e-0000-4000-8000-000000000001"}').toString('base64url')}.sig`,
    ),
  'the admin API (registration, password reset)': () => identity.findUserByEmail('ada@example.ca.gov'),
  'account creation': () =>
    identity.createUser({
      email: 'ada@example.ca.gov',
      firstName: 'Ada',
      lastName: 'L',
      password: 'secret#1',
    }),
  'the signing keys': () => identity.jwks(),
});

async function unavailableWithin(call: () => Promise<unknown>, ms: number) {
  const started = performance.now();
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(KeycloakUnavailableError);
  expect(error).toMatchObject({ message: KEYCLOAK_UNAVAILABLE, dependency: 'identity' });
  expect(performance.now() - started).toBeLessThan(ms);
}

describe('the Keycloak adapter while Keycloak is away', () => {
  it('answers unavailable at once when nothing listens, for every kind of call', async () => {
    const port = await closedPort();
    for (const [what, call] of Object.entries(calls(identityAt(port))))
      await unavailableWithin(call, 1_000).catch((error: unknown) => {
        throw new Error(`${what}: ${String(error)}`);
      });
  });

  it('answers unavailable when Keycloak (or its proxy) answers 503', async () => {
    const { port } = await keycloak('down');
    for (const call of Object.values(calls(identityAt(port)))) await unavailableWithin(call, 1_000);
  });

  it('gives up a sign-in at a Keycloak that takes the connection and never answers, within the gateway deadline', async () => {
    const { port } = await keycloak('hang');
    await unavailableWithin(calls(identityAt(port))['the password grant (sign-in)'], GATEWAY_DEADLINE_MS);
    expect(SIGN_IN_TIMEOUT_MS).toBeLessThan(GATEWAY_DEADLINE_MS);
  });

  it('signs in and reaches the admin API again as soon as Keycloak is back, without a new adapter', async () => {
    const port = await closedPort();
    const identity = identityAt(port);
    await unavailableWithin(calls(identity)['the password grant (sign-in)'], 1_000);
    await unavailableWithin(calls(identity)['the admin API (registration, password reset)'], 1_000);

    const back = await keycloak('answer', port);
    expect(await identity.passwordGrant('ada@example.ca.gov', 'secret#1')).toMatchObject({
      accessToken: 'e30.e30.sig',
    });
    expect(await identity.findUserByEmail('ada@example.ca.gov')).toBeNull();
    // The admin API's service token, which the outage never let it have, was asked for on the way.
    expect(back.seen.filter((line) => line === `POST ${TOKEN_PATH}`)).toHaveLength(2);
  });
});

describe('a password Keycloak refuses without checking it', () => {
  /** Keycloak refusing every password grant as a wrong password, its brute-force detection holding the account or not. */
  async function refusing(held: boolean | 'no answer'): Promise<number> {
    const user = { id: '6f1c2a3e-0000-4000-8000-000000000002', email: 'ada@example.ca.gov' };
    const server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const json = (status: number, answer: unknown) =>
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        if (request.url === TOKEN_PATH && new URLSearchParams(body).get('grant_type') === 'password')
          return json(401, { error: 'invalid_grant', error_description: 'Invalid user credentials' });
        if (request.url === TOKEN_PATH)
          return json(200, { access_token: 'e30.e30.sig', expires_in: 300, token_type: 'Bearer' });
        if (request.url?.startsWith('/admin/realms/rotunda/users/?')) return json(200, [user]);
        if (request.url === `/admin/realms/rotunda/attack-detection/brute-force/users/${user.id}`)
          return held === 'no answer' ? undefined : json(200, { disabled: held, numFailures: 0 });
        return json(404, {});
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('answers unavailable, not a wrong password, while brute-force detection holds the account', async () => {
    await unavailableWithin(calls(identityAt(await refusing(true)))['the password grant (sign-in)'], 1_000);
  });

  it('answers unavailable within the gateway deadline when Keycloak does not say whether it holds it', async () => {
    await unavailableWithin(
      calls(identityAt(await refusing('no answer')))['the password grant (sign-in)'],
      GATEWAY_DEADLINE_MS,
    );
  });

  it('answers a wrong password when the account is not held', async () => {
    expect(await calls(identityAt(await refusing(false)))['the password grant (sign-in)']()).toBeNull();
  });
});
