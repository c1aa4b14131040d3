// The Keycloak identity broker against a real Keycloak when KEYCLOAK_URL is set (skipped, and saying so,
// otherwise; failing when ENGINES_REQUIRED=true asks for the real engines): an agency's OpenID Connect provider
// registered from its discovery document (the engines' `agency` realm) and a SAML one from its metadata (the
// `agency-saml` realm), listed, their secrets unreadable through the admin API, a sign-in sent on to the agency,
// and removed; unreadable metadata and a forged code refused. And whole brokered sign-ins through the agency realm
// as a browser makes them: a first sign-in makes a confirmed account, the next is no first, an existing account
// is linked only after its Rotunda password proves it, and an agency vouching for an email outside its domains is
// refused and leaves no account behind.
import { randomUUID } from 'node:crypto';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import {
  type Caller,
  createLogger,
  DomainError,
  loadConfig,
  migrate,
  prismaAdapter,
} from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createKeycloakAgencies } from '../src/adapters/keycloak-agencies.ts';
import { createKeycloakIdentity, type KeycloakIdentity } from '../src/adapters/keycloak-identity.ts';
import { prismaExchangedRefreshTokens } from '../src/adapters/prisma-exchanged-refresh-tokens.ts';
import { authConfigSchema } from '../src/config.ts';
import type { AgencyBroker } from '../src/domain/ports.ts';
import { wireAuth } from '../src/wiring.ts';

const keycloakUrl = process.env.KEYCLOAK_URL;
const required = process.env.ENGINES_REQUIRED === 'true';
const appUrl = process.env.PUBLIC_URL ?? 'http://localhost:8080';

if (!keycloakUrl && !required) {
  console.log('Keycloak agencies: SKIPPED — KEYCLOAK_URL is not set (npm run test:engines runs it)');
}

/** Keycloak's cookies as a browser keeps them: per name and path, sent where their path matches. */
function cookieJar() {
  const jar = new Map<string, { value: string; path: string }>();
  return {
    header(url: string) {
      const { pathname } = new URL(url);
      return [...jar.values()]
        .filter((cookie) => pathname.startsWith(cookie.path))
        .map((cookie) => cookie.value)
        .join('; ');
    },
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
        const path = attributes.find((part) => part.toLowerCase().startsWith('path='))?.slice(5) || '/';
        jar.set(`${pair.slice(0, pair.indexOf('='))} ${path}`, { value: pair, path });
      }
    },
  };
}

/** Where a browser ends up: back at Rotunda's sign-in page with Keycloak's answer, or on a page of Keycloak's. */
type Landing = { callback: URL } | { page: string; url: string };

/** A browser without scripts on Keycloak's pages: follows redirects, keeps cookies, submits forms. */
function browser() {
  const jar = cookieJar();

  async function go(start: string, body?: URLSearchParams): Promise<Landing> {
    let url = start;
    let form = body;
    for (let hop = 0; hop < 15; hop += 1) {
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        body: form,
        redirect: 'manual',
        headers: { cookie: jar.header(url) },
      });
      jar.keep(response);
      form = undefined;
      const location = response.headers.get('location');
      if (!location) {
        const page = await response.text();
        if (response.status !== 200) throw new Error(`Keycloak answered ${response.status} at ${url}`);
        return { page, url };
      }
      url = new URL(location, url).href;
      if (url.startsWith(`${appUrl}/agency-sign-in`)) return { callback: new URL(url) };
    }
    throw new Error(`still redirected after 15 hops; last ${url}`);
  }

  /** Submits the page's form (the one with this id) with these fields. */
  function submit(landing: Landing, formId: string, fields: Record<string, string>): Promise<Landing> {
    if ('callback' in landing) throw new Error(`expected a page with form ${formId}, came back to Rotunda`);
    const tag = new RegExp(`<form[^>]*id="${formId}"[^>]*>`).exec(landing.page)?.[0];
    const action = tag && /action="([^"]+)"/.exec(tag)?.[1];
    if (!action) {
      const title = /<title>([^<]*)<\/title>/.exec(landing.page)?.[1] ?? '';
      throw new Error(`no form ${formId} on "${title}" at ${landing.url}`);
    }
    return go(new URL(action.replaceAll('&amp;', '&'), landing.url).href, new URLSearchParams(fields));
  }

  return { go, submit };
}

const AGENCY_PASSWORD = 'Agency#2024x';

/** Signs in at the agency as this person, from the address StartAgencySignIn answered; where it lands. */
async function signInAtAgency(start: string, username: string, client = browser()): Promise<Landing> {
  return client.submit(await client.go(start), 'kc-form-login', { username, password: AGENCY_PASSWORD });
}

/** The callback's code and state, for CompleteAgencySignIn. */
function answerOf(landing: Landing): { code: string; state: string } {
  if (!('callback' in landing)) {
    const title = /<title>([^<]*)<\/title>/.exec(landing.page)?.[1] ?? '';
    throw new Error(`stopped on Keycloak's page "${title}" at ${landing.url}`);
  }
  return {
    code: landing.callback.searchParams.get('code') ?? '',
    state: landing.callback.searchParams.get('state') ?? '',
  };
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
      logoutUrl: `${keycloakUrl}/realms/rotunda/protocol/openid-connect/logout/backchannel-logout`,
      spMetadataUrl: '',
    });

    const start = broker.authorizationUrl({
      alias,
      email: 'jane@agency.example',
      state: 'state-1',
      nonce: 'nonce-1',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      redirectUri: `${appUrl}/agency-sign-in`,
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
        redirectUri: `${appUrl}/agency-sign-in`,
      }),
    ).toBeNull();
    expect(await broker.federatedLinks(randomUUID())).toEqual([]);
  });
});

describe.skipIf(!keycloakUrl && !required)('agency sign-in through Keycloak (real Keycloak)', () => {
  let wired: ReturnType<typeof wireAuth>;
  const admin: Caller = { userId: randomUUID(), email: 'admin@demo.ca.gov', roles: ['admin'] };
  // The engines' agency realm lets Keycloak's broker endpoint of this alias (the agency's name) back in.
  const agency = {
    name: 'State Water Board',
    protocol: 'oidc',
    domains: ['water.ca.gov'],
    metadataUrl: `${keycloakUrl}/realms/agency/.well-known/openid-configuration`,
    clientId: 'rotunda',
    clientSecret: 'agency-client-secret',
  };
  const people = [
    'lake.shore@water.ca.gov',
    'outsider@elsewhere.gov',
    'brook.fall@water.ca.gov',
    'river.stone@water.ca.gov',
  ];
  /** The agency's own administrator: disables people at the agency (the engines' master admin). */
  const agencyAdmin = new KcAdminClient({ baseUrl: keycloakUrl ?? '', realmName: 'master' });
  const setEnabledAtAgency = async (email: string, enabled: boolean) => {
    const [person] = await agencyAdmin.users.find({ realm: 'agency', email, exact: true });
    if (!person?.id) throw new Error(`no ${email} in the agency realm`);
    await agencyAdmin.users.update({ realm: 'agency', id: person.id }, { ...person, enabled });
  };

  beforeAll(async () => {
    if (!keycloakUrl) throw new Error('ENGINES_REQUIRED=true but KEYCLOAK_URL is not set');
    const databaseUrl = await createTestDatabase();
    await migrate({
      databaseUrl,
      schema: 'auth',
      migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
      logger: createLogger('test', 'silent'),
    });
    const config = loadConfig(authConfigSchema, {
      ...process.env,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
    });
    wired = wireAuth(config, createLogger('test', 'silent'));
    await agencyAdmin.auth({
      username: 'admin',
      password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? '',
      grantType: 'password',
      clientId: 'admin-cli',
    });
    for (const email of people) {
      if (await wired.identity.findUserByEmail(email))
        throw new Error(`${email} already has a Rotunda account`);
    }
  }, 60_000);

  afterAll(async () => {
    if (!wired) return;
    await setEnabledAtAgency('river.stone@water.ca.gov', true).catch(() => undefined);
    for (const email of people) {
      const user = await wired.identity.findUserByEmail(email);
      if (user) await wired.identity.endSessions(user.id);
      if (user) await (wired.identity as KeycloakIdentity).deleteUser(user.id);
    }
    await wired.agencies.remove({ userId: null, email: 'test' }, 'state-water-board').catch(() => undefined);
    await wired.prisma.$disconnect();
  });

  it('signs a member in through their agency: first an account made, confirmed, then no first sign-in', async () => {
    const added = await wired.agencies.addAgency(admin, agency);
    expect(added.alias).toBe('state-water-board');
    expect(await wired.agencies.findAgency('Lake.Shore@water.ca.gov')).toEqual({
      alias: 'state-water-board',
      name: 'State Water Board',
    });

    const signIn = async () => {
      const start = await wired.agencies.startSignIn({
        email: 'lake.shore@water.ca.gov',
        appUrl,
        clientIp: '127.0.0.1',
      });
      const landing = await signInAtAgency(start, 'lake.shore@water.ca.gov');
      return wired.agencies.completeSignIn({ ...answerOf(landing), appUrl });
    };
    const first = await signIn();
    expect(first).toMatchObject({
      user: { email: 'lake.shore@water.ca.gov', firstName: 'Lake', emailConfirmed: true, admin: false },
      tokens: { tokenType: 'Bearer', refreshToken: expect.any(String) },
      firstSignIn: true,
    });
    // Rotunda's own tokens: they renew like a password sign-in's.
    expect((await wired.identity.refresh(first.tokens.refreshToken)).accessToken).toEqual(expect.any(String));
    const again = await signIn();
    expect(again.firstSignIn).toBe(false);
    expect(again.user.userId).toBe(first.user.userId);
  });

  it('refuses an email the agency vouches for outside its domains, removing the account it made', async () => {
    const start = await wired.agencies.startSignIn({
      email: 'rain.cloud@water.ca.gov',
      appUrl,
      clientIp: '127.0.0.1',
    });
    const landing = await signInAtAgency(start, 'outsider@elsewhere.gov');
    const refusal = await wired.agencies
      .completeSignIn({ ...answerOf(landing), appUrl })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      kind: 'permission_denied',
      message: expect.stringContaining('State Water Board signed you in with an email outside its domains'),
    });
    expect(await wired.identity.findUserByEmail('outsider@elsewhere.gov')).toBeNull();
  });

  it('links an existing Rotunda account only after its password proves it is theirs', async () => {
    const existing = await wired.identity.createUser({
      email: 'brook.fall@water.ca.gov',
      firstName: 'Brook',
      lastName: 'Fall',
      password: 'Rotunda#2024x',
      emailVerified: true,
    });
    const start = await wired.agencies.startSignIn({
      email: 'brook.fall@water.ca.gov',
      appUrl,
      clientIp: '127.0.0.1',
    });
    const client = browser();
    // Signed in at the agency, but Keycloak does not come back: it asks first.
    const asked = await signInAtAgency(start, 'brook.fall@water.ca.gov', client);
    expect('page' in asked && asked.page).toContain('kc-register-form');
    const proof = await client.submit(asked, 'kc-register-form', { submitAction: 'linkAccount' });
    expect('page' in proof && proof.page).toContain('kc-form-login');
    // A wrong password links nothing and keeps asking.
    const wrong = await client.submit(proof, 'kc-form-login', {
      username: 'brook.fall@water.ca.gov',
      password: 'Not#The2024Password',
    });
    expect('page' in wrong).toBe(true);
    expect(await wired.identity.findUserById(existing.id)).not.toBeNull();
    const linked = await client.submit(wrong, 'kc-form-login', {
      username: 'brook.fall@water.ca.gov',
      password: 'Rotunda#2024x',
    });
    const signedIn = await wired.agencies.completeSignIn({ ...answerOf(linked), appUrl });
    expect(signedIn).toMatchObject({ user: { userId: existing.id }, firstSignIn: false });
  });

  it('ends the session of a person the agency disabled at their next renewal', async () => {
    const start = await wired.agencies.startSignIn({
      email: 'river.stone@water.ca.gov',
      appUrl,
      clientIp: '127.0.0.1',
    });
    const { tokens } = await wired.agencies.completeSignIn({
      ...answerOf(await signInAtAgency(start, 'river.stone@water.ca.gov')),
      appUrl,
    });
    // The agency still vouches: the renewal asks it and goes through.
    const renewed = await wired.auth.refresh(tokens.refreshToken, '127.0.0.1');
    await setEnabledAtAgency('river.stone@water.ca.gov', false);
    // Keycloak asks the agency again once the agency's own token has expired (10 s in the engines' realm).
    const lifespan = (await agencyAdmin.realms.findOne({ realm: 'agency' }))?.accessTokenLifespan ?? 10;
    await new Promise((resolve) => setTimeout(resolve, (lifespan + 1) * 1000));
    const refusal = await wired.auth
      .refresh(renewed.refreshToken, '127.0.0.1')
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ kind: 'unauthenticated', name: 'AgencyRefused' });
    const ended = await wired.auth.listEndedSessions('', 1000);
    expect(ended.sessionIds).toContain(renewed.sessionState);
  }, 60_000);
});
