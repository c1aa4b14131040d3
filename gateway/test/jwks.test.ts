// Keycloak's published keys while Keycloak is away: a real HTTP server stands in for its certs endpoint and is
// closed and opened again. Tokens already issued keep verifying with the keys fetched before, past the keys'
// maximum age too; a token that needs keys nobody can fetch is answered 503 with Retry-After, never 401 or 500;
// and once the server is back, the next fetch after the cooldown picks the keys up again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONWebKeySet } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS_UNAVAILABLE, remoteJwks } from '../src/auth/jwks.ts';
import { createTokenVerifier } from '../src/auth/verify.ts';
import { accessToken, ISSUER, MEMBER, signingKey } from './support/fake-auth.ts';

const key = await signingKey('k1');
const servers: Server[] = [];

/** A certs endpoint on `port` (0: any free one), counting the fetches it answered. */
async function certsEndpoint(jwks: JSONWebKeySet, port = 0) {
  const state = { fetches: 0 };
  const server = createServer((_req, res) => {
    state.fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { state, port: (server.address() as AddressInfo).port, close };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function verifierAt(port: number, clock: { now: number }) {
  const keys = remoteJwks(`http://127.0.0.1:${port}/realms/rotunda/protocol/openid-connect/certs`, {
    cooldownMs: 5_000,
    maxAgeMs: 60_000,
    now: () => clock.now,
  });
  // Every call reaches the keys: this is about the key cache, not the verified-token memory.
  return createTokenVerifier({ issuer: ISSUER, keys, clients: ['rotunda-web'], rememberTokens: 0 });
}

describe('remoteJwks while the provider is away', () => {
  it('keeps verifying issued tokens past the keys’ maximum age, and refreshes once the provider is back', async () => {
    const certs = await certsEndpoint({ keys: [key.jwk] });
    const clock = { now: 1_000_000 };
    const verify = verifierAt(certs.port, clock);
    const token = await accessToken(key);
    expect((await verify(token)).caller.userId).toBe(MEMBER.sub);
    expect(certs.state.fetches).toBe(1);

    await certs.close();
    // Far past the maximum age: jose's own remote key set would fail every token from here on.
    clock.now += 10 * 60_000;
    expect((await verify(token)).caller.userId).toBe(MEMBER.sub);
    clock.now += 6_000;
    expect((await verify(token)).caller.userId).toBe(MEMBER.sub);

    const back = await certsEndpoint({ keys: [key.jwk] }, certs.port);
    clock.now += 6_000;
    expect((await verify(token)).caller.userId).toBe(MEMBER.sub);
    expect(back.state.fetches).toBe(1);
  });

  it('answers 503 with Retry-After when no key was ever fetched, and verifies as soon as the provider answers', async () => {
    const certs = await certsEndpoint({ keys: [key.jwk] });
    const port = certs.port;
    await certs.close();
    const clock = { now: 1_000_000 };
    const verify = verifierAt(port, clock);
    const token = await accessToken(key);
    const refused = await verify(token).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, message: KEYS_UNAVAILABLE, retryAfter: 5 });

    await certsEndpoint({ keys: [key.jwk] }, port);
    // A failed first fetch is not remembered: the next request fetches again, without waiting for a cooldown.
    expect((await verify(token)).caller.userId).toBe(MEMBER.sub);
  });

  it('gives up on a provider that accepts the connection but never answers, within the fetch timeout', async () => {
    const hung = createServer(() => {});
    servers.push(hung);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const verify = verifierAt((hung.address() as AddressInfo).port, { now: 1_000_000 });
    const started = performance.now();
    const refused = await verify(await accessToken(key)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, message: KEYS_UNAVAILABLE });
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});
