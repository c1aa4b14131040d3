// TRUST_PROXY: behind nginx or an Ingress, the client's address (what the auth service limits login and reset
// attempts by) comes from the trusted proxy's forwarded headers; the same headers from any other peer are
// ignored; and the setting is validated at start. (/app-config.json's identity URL is PUBLIC_URL, whatever a
// request's headers say: gateway.test.ts.)
import { ConfigError, loadConfig } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfigSchema } from '../src/config.ts';
import {
  type FakeAuth,
  post,
  type RunningGateway,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';

let fake: FakeAuth;
/** The tests reach the gateways from 127.0.0.1, so that is the proxy's address here. */
const gateways = {} as Record<'hopCount' | 'address' | 'elsewhere', RunningGateway>;

beforeAll(async () => {
  fake = await startFakeAuth([await signingKey('key-1')]);
  const start = (TRUST_PROXY: string) => startGateway({ AUTH_SERVICE_ADDR: fake.address, TRUST_PROXY });
  // One hop, as in docker-compose.yml and the Kubernetes manifests; the proxy's own address; and proxies on
  // another network, which makes the tests' peer an untrusted client.
  gateways.hopCount = await start('1');
  gateways.address = await start('127.0.0.1, ::1');
  gateways.elsewhere = await start('10.0.0.0/8');
});
afterEach(() => fake.reset());
afterAll(async () => {
  await Promise.all(Object.values(gateways).map((gateway) => gateway.close()));
  await fake.server.shutdown();
});

/** Forwarded headers as nginx sends them: the client's claimed chain, then the address nginx saw. */
const FORWARDED = { 'x-forwarded-for': '198.51.100.66, 203.0.113.7', 'x-forwarded-proto': 'https' };

async function loginAddress(gateway: RunningGateway, headers: Record<string, string>) {
  const res = await post(
    `${gateway.base}/auth/login`,
    { email: 'member@demo.ca.gov', password: 'Member#2024x' },
    headers,
  );
  expect(res.status).toBe(200);
  return fake.callsTo('login').at(-1)?.request.client_ip;
}

describe('behind a trusted proxy', () => {
  it.each(['hopCount', 'address'] as const)(
    'limits logins and resets by the address the proxy saw, not one the client claimed (%s)',
    async (which) => {
      expect(await loginAddress(gateways[which], FORWARDED)).toBe('203.0.113.7');
      const reset = await post(
        `${gateways[which].base}/auth/request-password-reset`,
        { email: 'member@demo.ca.gov', reCaptcha_token: 'solved' },
        FORWARDED,
      );
      expect(reset.status).toBe(200);
      expect(fake.callsTo('requestPasswordReset')[0]?.request.client_ip).toBe('203.0.113.7');
    },
  );
});

describe('reached by a peer that is not a trusted proxy', () => {
  it('ignores its forwarded headers: the address is the connection’s', async () => {
    expect(await loginAddress(gateways.elsewhere, FORWARDED)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });
});

describe('the TRUST_PROXY setting', () => {
  const trustProxy = (TRUST_PROXY?: string) =>
    loadConfig(
      gatewayConfigSchema,
      TRUST_PROXY === undefined ? testCallers.env : { ...testCallers.env, TRUST_PROXY },
    ).TRUST_PROXY;
  const refusal = (TRUST_PROXY: string) => {
    try {
      trustProxy(TRUST_PROXY);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error(`TRUST_PROXY=${TRUST_PROXY} was accepted`);
  };

  it('trusts only loopback by default, and takes a hop count or addresses and ranges', () => {
    expect(trustProxy()).toEqual(['loopback']);
    expect(trustProxy('')).toEqual(['loopback']);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy(' 10.0.0.0/8, 192.168.1.10 ,fd00::/8,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  it('refuses every peer and what is not an address, a range or a hop count, naming it', () => {
    expect(refusal('true')).toContain('TRUST_PROXY');
    expect(refusal('true')).toContain('cannot be true (every peer)');
    for (const wrong of ['nginx', '10.0.0.0/33', '::1/129', '1.2.3', '1.5', '10.0.0.0/8/1'])
      expect(refusal(`loopback,${wrong}`), wrong).toContain(`(not "${wrong}")`);
    expect(refusal('loopback,,10.0.0.1')).toContain('(not "")');
  });
});
