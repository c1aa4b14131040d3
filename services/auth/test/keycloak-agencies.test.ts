// The Keycloak identity broker against a real Keycloak when KEYCLOAK_URL is set (skipped, and saying so,
// otherwise; failing when ENGINES_REQUIRED=true asks for the real engines): an agency's OpenID Connect provider
// registered from its discovery document (the engines' `agency` realm) and a SAML one from its metadata (the
// `agency-saml` realm), listed, their secrets unreadable through the admin API, a sign-in sent on to the agency,
// and removed; unreadable metadata and a forged code refused.
import { randomUUID } from 'node:crypto';
import { createLogger, DomainError, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createKeycloakAgencies } from '../src/adapters/keycloak-agencies.ts';
import { createKeycloakIdentity, type KeycloakIdentity } from '../src/adapters/keycloak-identity.ts';
import { prismaExchangedRefreshTokens } from '../src/adapters/prisma-exchanged-refresh-tokens.ts';
import type { AgencyBroker } from '../src/domain/ports.ts';

const keycloakUrl = process.env.KEYCLOAK_URL;
const required = process.env.ENGINES_REQUIRED === 'true';
const appUrl = process.env.PUBLIC_URL ?? 'http://localhost:8080';

if (!keycloakUrl && !required) {
  console.log('Keycloak agencies: SKIPPED — KEYCLOAK_URL is not set (npm run test:engines runs it)');
}

describe.skipIf(!keycloakUrl && !required)('Keycloak agencies (real Keycloak)', () => {
  let prisma: PrismaClient;
  let identity: KeycloakIdentity;
  let broker: AgencyBroker;
  const made: string[] = [];

  beforeAll(async () => {
    if (!keycloakUrl) throw new Error('ENGINES_REQUIRED=true but KEYCLOAK_URL is not set');
    const clientSecret = process.env.KEYCLOAK_CLIENT_SECRET;
    if (!clientSecret) throw new Error('KEYCLOAK_URL is set but KEYCLOAK_CLIENT_SECRET is not');
    const databaseUrl = await createTestDatabase();
    await migrate({
      databaseUrl,
      schema: 'auth',
      migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
      logger: createLogger('test', 'silent'),
    });
    prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
    identity = createKeycloakIdentity({
      url: keycloakUrl,
      realm: process.env.KEYCLOAK_REALM || 'rotunda',
      clientId: process.env.KEYCLOAK_CLIENT_ID || 'rotunda-auth',
      clientSecret,
      exchangedTokens: prismaExchangedRefreshTokens(prisma, { graceSeconds: 1 }),
    });
    broker = createKeycloakAgencies({
      identity,
      publicUrl: keycloakUrl,
      realm: process.env.KEYCLOAK_REALM || 'rotunda',
      clientId: process.env.KEYCLOAK_CLIENT_ID || 'rotunda-auth',
    });
  }, 60_000);

  afterAll(async () => {
    // The realm is left as it was found, whatever a failed case left behind.
    for (const alias of made) await broker?.unregister(alias);
    await prisma?.$disconnect();
  });

  const instance = (alias: string) =>
    identity.withAdmin((admin) => admin.identityProviders.findOne({ alias }));

  /** Follows Keycloak's redirects (keeping its cookies) until one leaves for another realm; answers that address. */
  async function followToAgency(start: string, agencyRealm: string): Promise<string> {
    let url = start;
    const cookies = new Map<string, string>();
    for (let hop = 0; hop < 5; hop += 1) {
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`Keycloak answered ${response.status} without a redirect at ${url}`);
      url = new URL(location, url).href;
      if (url.includes(`/realms/${agencyRealm}/`)) return url;
    }
    throw new Error(`never left for realm ${agencyRealm}; last ${url}`);
  }

  it('registers an OIDC agency from its discovery URL, keeps its secret unreadable, sends sign-ins on, removes it', async () => {
    const alias = `test-oidc-${randomUUID().slice(0, 8)}`;
    made.push(alias);
    await broker.register({
      alias,
      name: 'Agency (OIDC)',
      protocol: 'oidc',
      metadataUrl: `${keycloakUrl}/realms/agency/.well-known/openid-configuration`,
      clientId: 'rotunda',
      clientSecret: 'agency-client-secret',
    });
    const stored = await instance(alias);
    expect(stored).toMatchObject({
      alias,
      displayName: 'Agency (OIDC)',
      providerId: 'oidc',
      enabled: true,
      trustEmail: true,
      firstBrokerLoginFlowAlias: 'first broker login',
    });
    expect(stored?.config).toMatchObject({
      clientId: 'rotunda',
      authorizationUrl: `${keycloakUrl}/realms/agency/protocol/openid-connect/auth`,
      tokenUrl: `${keycloakUrl}/realms/agency/protocol/openid-connect/token`,
      pkceEnabled: 'true',
      backchannelSupported: 'true',
    });
    // The secret went in, and nothing reads it back out.
    expect(JSON.stringify(stored)).not.toContain('agency-client-secret');

    const endpoints = broker.endpoints(alias, 'oidc');
    expect(endpoints).toEqual({
      redirectUri: `${keycloakUrl}/realms/rotunda/broker/${alias}/endpoint`,
      logoutUrl: `${keycloakUrl}/realms/rotunda/broker/${alias}/backchannel_logout`,
      spMetadataUrl: '',
    });

    const start = broker.authorizationUrl({
      alias,
      email: 'jane@agency.example',
      state: 'state-1',
      nonce: 'nonce-1',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      redirectUri: `${appUrl}/auth/agency/callback`,
    });
    const atAgency = new URL(await followToAgency(start, 'agency'));
    expect(atAgency.pathname).toBe('/realms/agency/protocol/openid-connect/auth');
    expect(atAgency.searchParams.get('client_id')).toBe('rotunda');
    expect(atAgency.searchParams.get('redirect_uri')).toBe(endpoints.redirectUri);
    expect(atAgency.searchParams.get('login_hint')).toBe('jane@agency.example');

    await broker.unregister(alias);
    expect(await instance(alias)).toBeNull();
    // Removing it again is no error.
    await broker.unregister(alias);
  });

  it('registers a SAML agency from its metadata with the attribute mappers, and removes it', async () => {
    const alias = `test-saml-${randomUUID().slice(0, 8)}`;
    made.push(alias);
    await broker.register({
      alias,
      name: 'Agency (SAML)',
      protocol: 'saml',
      metadataUrl: `${keycloakUrl}/realms/agency-saml/protocol/saml/descriptor`,
      clientId: '',
      clientSecret: '',
    });
    const stored = await instance(alias);
    expect(stored).toMatchObject({ alias, providerId: 'saml', trustEmail: true });
    expect(stored?.config).toMatchObject({
      entityId: `${keycloakUrl}/realms/rotunda`,
      nameIDPolicyFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      postBindingResponse: 'true',
      singleSignOnServiceUrl: expect.stringContaining('/realms/agency-saml/protocol/saml'),
    });
    const mappers = await identity.withAdmin((admin) => admin.identityProviders.findMappers({ alias }));
    expect(mappers.map((mapper) => mapper.config?.['attribute.name']).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
    ]);
    expect(broker.endpoints(alias, 'saml')).toEqual({
      redirectUri: `${keycloakUrl}/realms/rotunda/broker/${alias}/endpoint`,
      logoutUrl: `${keycloakUrl}/realms/rotunda/broker/${alias}/endpoint`,
      spMetadataUrl: `${keycloakUrl}/realms/rotunda/broker/${alias}/endpoint/descriptor`,
    });
    const descriptor = await fetch(broker.endpoints(alias, 'saml').spMetadataUrl);
    expect(descriptor.status).toBe(200);
    expect(await descriptor.text()).toContain('EntityDescriptor');

    await broker.unregister(alias);
    expect(await instance(alias)).toBeNull();
  });

  it('refuses metadata Keycloak cannot read, creating nothing', async () => {
    const alias = `test-bad-${randomUUID().slice(0, 8)}`;
    made.push(alias);
    const metadataUrl = `${keycloakUrl}/realms/agency/no-such-document`;
    const refusal = await broker
      .register({
        alias,
        name: 'Nowhere',
        protocol: 'oidc',
        metadataUrl,
        clientId: 'rotunda',
        clientSecret: 'x',
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({
      kind: 'invalid_argument',
      message: `Keycloak could not read the provider's metadata at ${metadataUrl}.`,
    });
    expect(await instance(alias)).toBeNull();
  });

  it('refuses a forged code, and knows no agency links of an unknown account', async () => {
    expect(
      await broker.exchangeCode({
        code: 'forged',
        codeVerifier: 'v'.repeat(43),
        redirectUri: `${appUrl}/auth/agency/callback`,
      }),
    ).toBeNull();
    expect(await broker.federatedLinks(randomUUID())).toEqual([]);
  });
});
