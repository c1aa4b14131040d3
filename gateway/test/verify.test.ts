// Units of token verification: the checks of createTokenVerifier and why each refusal is 'expired', 'ended' or
// 'invalid'; the watch on ended sessions (asks with its cursor, keeps ids as long as they matter, survives an
// outage); the key cache (one fetch for a crowd, refetch on unknown kid at most once per cooldown, stale keys
// kept when the provider blips); Retry-After parsing; the identity settings of the configuration.
import { ConfigError, loadConfig, metricsRegistry } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { type EndedSessionsPage, watchEndedSessions } from '../src/auth/ended-sessions.ts';
import { cachedJwks, KEYS_UNAVAILABLE } from '../src/auth/jwks.ts';
import { createTokenVerifier, TokenRejected } from '../src/auth/verify.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { retryAfterSeconds } from '../src/http/errors.ts';
import { accessToken, ISSUER, logger, MEMBER, signingKey } from './support/fake-auth.ts';

const CLIENTS = ['rotunda-web'];
const key = await signingKey('k1');
const other = await signingKey('k2');
const verifier = createTokenVerifier({
  issuer: ISSUER,
  keys: createLocalJWKSet({ keys: [key.jwk] }),
  clients: CLIENTS,
});

async function rejection(token: string, verify = verifier): Promise<TokenRejected> {
  const error = await verify(token).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TokenRejected);
  return error as TokenRejected;
}

describe('createTokenVerifier', () => {
  it('answers the caller named by a valid access token', async () => {
    expect((await verifier(await accessToken(key, { roles: ['contributor'] }))).caller).toEqual({
      userId: MEMBER.sub,
      email: MEMBER.email,
      roles: ['default-roles-rotunda', 'contributor'],
    });
  });

  it('answers the session a token belongs to (its sid), and refuses a token naming none', async () => {
    expect((await verifier(await accessToken(key, { claims: { sid: 'session-1' } }))).sessionId).toBe(
      'session-1',
    );
    // Without a sid its session could never be found ended: such a token would outlive every logout.
    for (const sid of [undefined, '', 42])
      expect((await rejection(await accessToken(key, { claims: { sid } }))).reason).toBe('invalid');
  });

  it('tolerates tokens without email or realm roles, and ignores roles that are not text', async () => {
    const bare = await accessToken(key, { claims: { email: undefined, realm_access: undefined } });
    expect((await verifier(bare)).caller).toEqual({ userId: MEMBER.sub, email: '', roles: [] });
    const odd = await accessToken(key, { claims: { realm_access: { roles: ['contributor', 7, null] } } });
    expect((await verifier(odd)).caller.roles).toEqual(['contributor']);
  });

  it('calls an expired token expired, past the clock tolerance only', async () => {
    expect((await rejection(await accessToken(key, { expiresIn: -31 }))).reason).toBe('expired');
    await expect(verifier(await accessToken(key, { expiresIn: -25 }))).resolves.toBeTruthy();
    const strict = createTokenVerifier({
      issuer: ISSUER,
      keys: createLocalJWKSet({ keys: [key.jwk] }),
      clients: CLIENTS,
      clockToleranceSeconds: 0,
    });
    expect((await rejection(await accessToken(key, { expiresIn: -2 }), strict)).reason).toBe('expired');
  });

  it.each([
    ['no expiry', { exp: undefined }],
    ['a refresh token', { typ: 'Refresh' }],
    ['another issuer', { iss: 'https://evil.example/realms/rotunda' }],
    ['an empty subject', { sub: '' }],
    ['another client of the realm (admin-cli)', { azp: 'admin-cli' }],
    ["the auth service's client, where only the web client is accepted", { azp: 'rotunda-auth' }],
    ['no authorized party', { azp: undefined }],
    ['an unconfirmed email', { email_verified: false }],
    ['no email_verified claim (a service account)', { email_verified: undefined }],
  ])('calls a token with %s invalid', async (_name, claims) => {
    expect((await rejection(await accessToken(key, { claims }))).reason).toBe('invalid');
  });

  it('accepts every client it is given, and only those (Keycloak: the web client and the sign-in client)', async () => {
    const keycloak = createTokenVerifier({
      issuer: ISSUER,
      keys: createLocalJWKSet({ keys: [key.jwk] }),
      clients: ['rotunda-web', 'rotunda-auth'],
    });
    await expect(keycloak(await accessToken(key, { claims: { azp: 'rotunda-auth' } }))).resolves.toBeTruthy();
    await expect(keycloak(await accessToken(key))).resolves.toBeTruthy();
    expect((await rejection(await accessToken(key, { claims: { azp: 'admin-cli' } }), keycloak)).reason).toBe(
      'invalid',
    );
  });

  it('calls a token from an unknown key invalid', async () => {
    expect((await rejection(await accessToken(other))).reason).toBe('invalid');
  });

  it('answers 503 when no keys can be fetched (the provider is down, not the token bad)', async () => {
    const down = createTokenVerifier({
      issuer: ISSUER,
      keys: cachedJwks(() => Promise.reject(new Error('auth: connect ECONNREFUSED'))),
      clients: CLIENTS,
    });
    const refused = await down(await accessToken(key)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, message: KEYS_UNAVAILABLE, retryAfter: 5 });
    expect((refused as Error).cause).toMatchObject({ message: 'auth: connect ECONNREFUSED' });
  });
});

describe('remembering verified tokens', () => {
  /** A verifier on a hand-driven clock that counts how often a signature was checked (one key lookup each). */
  function counting(rememberTokens?: number) {
    const state = { now: Date.now(), checks: 0 };
    const local = createLocalJWKSet({ keys: [key.jwk] });
    const verify = createTokenVerifier({
      issuer: ISSUER,
      keys: (header, token) => {
        state.checks += 1;
        return local(header, token);
      },
      clients: CLIENTS,
      now: () => state.now,
      ...(rememberTokens === undefined ? {} : { rememberTokens }),
    });
    return { state, verify };
  }

  it('checks a token once, then answers the same caller for it until it expires', async () => {
    const { state, verify } = counting();
    const token = await accessToken(key, { roles: ['contributor'], expiresIn: 60 });
    const first = await verify(token);
    expect(await verify(token)).toEqual(first);
    expect(state.checks).toBe(1);
    // Past expiry and the clock tolerance, the token is checked again, and refused as expired.
    state.now += 91_000;
    expect((await rejection(token, verify)).reason).toBe('expired');
    expect(state.checks).toBe(2);
  });

  it('never remembers a refused token', async () => {
    const { state, verify } = counting();
    const refresh = await accessToken(key, { claims: { typ: 'Refresh' } });
    expect((await rejection(refresh, verify)).reason).toBe('invalid');
    expect((await rejection(refresh, verify)).reason).toBe('invalid');
    expect(state.checks).toBe(2);
  });

  it('remembers at most the configured number, forgetting the oldest first', async () => {
    const { state, verify } = counting(2);
    const [a, b, c] = await Promise.all([1, 2, 3].map((n) => accessToken(key, { claims: { sub: `m${n}` } })));
    for (const token of [a, b, c, c, b]) await verify(token as string);
    expect(state.checks).toBe(3);
    expect((await verify(a as string)).caller.userId).toBe('m1');
    expect(state.checks).toBe(4);
  });

  it('answers a caller that cannot be changed for the next request', async () => {
    const { verify } = counting();
    const token = await accessToken(key, { roles: ['contributor'] });
    const { caller } = await verify(token);
    expect(() => caller.roles.push('admin')).toThrow(TypeError);
    expect((await verify(token)).caller.roles).not.toContain('admin');
  });
});

describe('tokens of ended sessions', () => {
  it('are refused as ended, remembered or not, while tokens of other sessions go on', async () => {
    const ended = new Set<string>();
    const verify = createTokenVerifier({
      issuer: ISSUER,
      keys: createLocalJWKSet({ keys: [key.jwk] }),
      clients: CLIENTS,
      isEnded: (sessionId) => ended.has(sessionId),
    });
    const phone = await accessToken(key, { claims: { sid: 'phone' } });
    const laptop = await accessToken(key, { claims: { sid: 'laptop' } });
    await verify(phone);
    ended.add('phone');
    const refusal = await rejection(phone, verify);
    expect(refusal.reason).toBe('ended');
    expect((await verify(laptop)).sessionId).toBe('laptop');
    // A fresh token of the ended session (were one signed) is refused too.
    expect((await rejection(await accessToken(key, { claims: { sid: 'phone' } }), verify)).reason).toBe(
      'ended',
    );
  });
});

describe('watchEndedSessions', () => {
  /** A fake ListEndedSessions: answers what it is given, recording the cursors it was asked with. */
  function fakeSource(...pages: EndedSessionsPage[]) {
    const state = { cursors: [] as string[], pages, fail: false, now: 1_000_000 };
    const watch = watchEndedSessions({
      load: async (cursor) => {
        state.cursors.push(cursor);
        if (state.fail) throw new Error('auth: connect ECONNREFUSED');
        return state.pages.shift() ?? { sessionIds: [], cursor, retainSeconds: 60 };
      },
      intervalMs: 5,
      logger,
      now: () => state.now,
    });
    return { state, watch };
  }

  it('asks at once with no cursor, then again and again with the cursor of each answer', async () => {
    const { state, watch } = fakeSource(
      { sessionIds: ['s1'], cursor: 'c1', retainSeconds: 60 },
      { sessionIds: ['s2'], cursor: 'c2', retainSeconds: 60 },
    );
    await expect.poll(() => state.cursors.length).toBeGreaterThanOrEqual(3);
    expect(state.cursors.slice(0, 3)).toEqual(['', 'c1', 'c2']);
    expect(watch.has('s1')).toBe(true);
    expect(watch.has('s2')).toBe(true);
    expect(watch.has('s3')).toBe(false);
    watch.close();
  });

  it('keeps an id as long as a token of its session may live, then forgets it', async () => {
    const { state, watch } = fakeSource({ sessionIds: ['s1'], cursor: 'c1', retainSeconds: 60 });
    await expect.poll(() => watch.has('s1')).toBe(true);
    state.now += 59_000;
    const asked = state.cursors.length;
    await expect.poll(() => state.cursors.length).toBeGreaterThan(asked + 1);
    expect(watch.has('s1')).toBe(true);
    state.now += 1_000;
    await expect.poll(() => watch.has('s1')).toBe(false);
    watch.close();
  });

  it('keeps what it knows while the auth service fails, and catches up from its cursor after', async () => {
    const { state, watch } = fakeSource({ sessionIds: ['s1'], cursor: 'c1', retainSeconds: 60 });
    await expect.poll(() => watch.has('s1')).toBe(true);
    state.fail = true;
    const asked = state.cursors.length;
    await expect.poll(() => state.cursors.length).toBeGreaterThan(asked + 2);
    expect(watch.has('s1')).toBe(true);
    state.pages.push({ sessionIds: ['s2'], cursor: 'c2', retainSeconds: 60 });
    state.fail = false;
    await expect.poll(() => watch.has('s2')).toBe(true);
    expect(new Set(state.cursors.slice(asked))).toEqual(new Set(['c1', 'c2']));
    watch.close();
  });

  it('follows the pages of one answer until caught up, asking for a bounded page each time', async () => {
    const limits: number[] = [];
    const pages: EndedSessionsPage[] = [
      { sessionIds: ['p1'], cursor: 'c1', retainSeconds: 60, more: true },
      { sessionIds: ['p2'], cursor: 'c2', retainSeconds: 60, more: true },
      { sessionIds: ['p3'], cursor: 'c3', retainSeconds: 60, more: false },
    ];
    const cursors: string[] = [];
    const watch = watchEndedSessions({
      load: async (cursor, limit) => {
        cursors.push(cursor);
        limits.push(limit);
        return pages.shift() ?? { sessionIds: [], cursor, retainSeconds: 60 };
      },
      // Long: the three pages must come in one round, not one per interval.
      intervalMs: 60_000,
      logger,
    });
    await expect.poll(() => watch.has('p3'), { timeout: 1_000 }).toBe(true);
    expect(cursors).toEqual(['', 'c1', 'c2']);
    expect(watch.has('p1') && watch.has('p2')).toBe(true);
    for (const limit of limits) expect(limit).toBeGreaterThan(0);
    watch.close();
  });

  it('says in its health and in the metrics that its poll keeps failing, and when it recovers', async () => {
    const metric = async (name: string) =>
      (await metricsRegistry.getSingleMetric(name)?.get())?.values[0]?.value ?? Number.NaN;
    const { state, watch } = fakeSource({ sessionIds: ['s1'], cursor: 'c1', retainSeconds: 60 });
    await expect.poll(() => watch.health().status).toBe('ok');
    expect(await metric('rotunda_ended_sessions_poll_failing')).toBe(0);
    const failedBefore = await metric('rotunda_ended_sessions_poll_failures_total');
    state.fail = true;
    await expect.poll(() => watch.health().failures).toBeGreaterThan(2);
    expect(watch.health()).toMatchObject({ status: 'failing', lastAnswerSecondsAgo: 0 });
    expect(await metric('rotunda_ended_sessions_poll_failing')).toBe(1);
    expect(await metric('rotunda_ended_sessions_poll_failures_total')).toBeGreaterThan(failedBefore + 2);
    state.fail = false;
    await expect.poll(() => watch.health()).toEqual({ status: 'ok', failures: 0, lastAnswerSecondsAgo: 0 });
    expect(await metric('rotunda_ended_sessions_poll_failing')).toBe(0);
    watch.close();
  });

  it('stops asking once closed', async () => {
    const { state, watch } = fakeSource();
    await expect.poll(() => state.cursors.length).toBeGreaterThan(0);
    watch.close();
    const asked = state.cursors.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.cursors.length).toBeLessThanOrEqual(asked + 1);
  });
});

/** A key source with a hand-driven clock and a count of fetches. */
function fakeSource(initial: JSONWebKeySet, cooldownMs = 5_000, maxAgeMs = 600_000) {
  const state = { now: 1_000_000, loads: 0, jwks: initial, fail: false };
  const keys = cachedJwks(
    async () => {
      state.loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (state.fail) throw new Error('unavailable');
      return state.jwks;
    },
    { cooldownMs, maxAgeMs, now: () => state.now },
  );
  // Every call reaches the keys: these tests are about the key cache, not the verified-token memory.
  return {
    state,
    verify: createTokenVerifier({ issuer: ISSUER, keys, clients: CLIENTS, rememberTokens: 0 }),
  };
}

describe('cachedJwks', () => {
  it('fetches once for a crowd of first requests', async () => {
    const { state, verify } = fakeSource({ keys: [key.jwk] });
    const token = await accessToken(key);
    await Promise.all(Array.from({ length: 20 }, () => verify(token)));
    expect(state.loads).toBe(1);
  });

  it('refetches on an unknown kid at most once per cooldown, however many arrive', async () => {
    const { state, verify } = fakeSource({ keys: [key.jwk] });
    await verify(await accessToken(key));
    const forged = await Promise.all(
      Array.from({ length: 30 }, (_, i) => accessToken(other, { kid: `forged-${i}` })),
    );
    for (const token of forged) expect((await rejection(token, verify)).reason).toBe('invalid');
    expect(state.loads).toBe(1);

    state.now += 5_000;
    const results = await Promise.allSettled(forged.map((token) => verify(token)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(state.loads).toBe(2);
  });

  it('picks up a rotated key after the cooldown', async () => {
    const { state, verify } = fakeSource({ keys: [key.jwk] });
    await verify(await accessToken(key));
    state.jwks = { keys: [key.jwk, other.jwk] };
    state.now += 6_000;
    expect((await verify(await accessToken(other))).caller.userId).toBe(MEMBER.sub);
    expect(state.loads).toBe(2);
  });

  it('retries a failed first fetch on the next request', async () => {
    const { state, verify } = fakeSource({ keys: [key.jwk] });
    state.fail = true;
    const token = await accessToken(key);
    await expect(verify(token)).rejects.toThrow(KEYS_UNAVAILABLE);
    state.fail = false;
    await expect(verify(token)).resolves.toBeTruthy();
    expect(state.loads).toBe(2);
  });

  it('refreshes old keys, keeping them while the provider is unreachable, and drops withdrawn ones', async () => {
    const { state, verify } = fakeSource({ keys: [key.jwk] }, 5_000, 60_000);
    const token = await accessToken(key);
    await verify(token);
    state.now += 61_000;
    state.fail = true;
    await expect(verify(token)).resolves.toBeTruthy();
    expect(state.loads).toBe(2);
    state.now += 6_000;
    state.fail = false;
    state.jwks = { keys: [other.jwk] };
    expect((await rejection(token, verify)).reason).toBe('invalid');
    expect(state.loads).toBe(3);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    ['Too many attempts. Try again in 42 seconds.', 42],
    ['Try again in 1 second', 1],
    ['Too many requests. Try again in 2 minutes.', 120],
    ['Try again in 0 seconds.', 1],
    ['Too many attempts.', 60],
  ])('reads "%s" as %i', (details, seconds) => {
    expect(retryAfterSeconds(details)).toBe(seconds);
  });
});

describe('identity configuration', () => {
  it('defaults the issuer to the built-in provider on this port and realm', () => {
    expect(loadConfig(gatewayConfigSchema, testCallers.env).TOKEN_ISSUER).toBe(
      'http://localhost:8080/realms/rotunda',
    );
    const config = loadConfig(gatewayConfigSchema, {
      ...testCallers.env,
      PORT: '9090',
      REALM: 'capitol',
      JWKS_URL: ' ',
    });
    expect(config).toMatchObject({ TOKEN_ISSUER: 'http://localhost:9090/realms/capitol', REALM: 'capitol' });
    expect(config.JWKS_URL).toBeUndefined();
  });

  it('accepts the web client’s tokens by default, and the clients TOKEN_CLIENT_IDS names instead', () => {
    expect(loadConfig(gatewayConfigSchema, testCallers.env).TOKEN_CLIENT_IDS).toEqual(['rotunda-web']);
    expect(
      loadConfig(gatewayConfigSchema, { ...testCallers.env, WEB_CLIENT_ID: 'capitol-web' }).TOKEN_CLIENT_IDS,
    ).toEqual(['capitol-web']);
    expect(
      loadConfig(gatewayConfigSchema, { ...testCallers.env, TOKEN_CLIENT_IDS: 'rotunda-web, rotunda-auth' })
        .TOKEN_CLIENT_IDS,
    ).toEqual(['rotunda-web', 'rotunda-auth']);
  });

  it('needs TOKEN_ISSUER with JWKS_URL, and URLs that are http(s)', () => {
    expect(() =>
      loadConfig(gatewayConfigSchema, {
        ...testCallers.env,
        JWKS_URL: 'http://keycloak:8080/realms/rotunda/protocol/openid-connect/certs',
      }),
    ).toThrow(/TOKEN_ISSUER: is required when JWKS_URL is set/);
    expect(() =>
      loadConfig(gatewayConfigSchema, {
        ...testCallers.env,
        JWKS_URL: 'file:///etc/passwd',
        TOKEN_ISSUER: 'x',
      }),
    ).toThrow(ConfigError);
    expect(
      loadConfig(gatewayConfigSchema, {
        ...testCallers.env,
        JWKS_URL: 'https://sso.example.gov/realms/rotunda/protocol/openid-connect/certs',
        TOKEN_ISSUER: 'https://sso.example.gov/realms/rotunda',
      }).TOKEN_ISSUER,
    ).toBe('https://sso.example.gov/realms/rotunda');
  });
});
