// Agency sign-in's rules with in-memory stand-ins for Keycloak and the stores: administrators register and remove
// agencies (refused to everyone else, every change logged), a member is sent to the agency of their email's exact
// domain and comes back signed in only when Keycloak linked the account to that agency and its email is one of
// the agency's, a state works once and for ten minutes, and only a genuine back-channel logout token ends a
// session. The built-in identity provider brokers nothing.
import { createHash } from 'node:crypto';
import { type Caller, invalidArgument } from '@rotunda/service-kit';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { NO_AGENCY_BROKER } from '../src/adapters/builtin-agencies.ts';
import { BACKCHANNEL_LOGOUT_EVENT, createAgencies, slugOf } from '../src/domain/agencies.ts';
import type {
  AdminLogEntry,
  AgencyBroker,
  AgencyRecord,
  AgencySignIns,
  AgencyStore,
  IdentityProvider,
  IdentityUser,
  StartedAgencySignIn,
  TokenSet,
} from '../src/domain/ports.ts';

const ISSUER = 'http://keycloak.test/realms/rotunda';
const AUDIENCE = 'rotunda-auth';
const APP = 'https://rotunda.test';
const admin: Caller = { userId: 'a1', email: 'admin@demo.ca.gov', roles: ['admin'] };
const member: Caller = { userId: 'm1', email: 'member@demo.ca.gov', roles: [] };
const contributor: Caller = { userId: 'c1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };

const { privateKey, publicKey } = await generateKeyPair('RS256');
const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
const { privateKey: strangerKey } = await generateKeyPair('RS256');

const unsignedJwt = (claims: Record<string, unknown>) =>
  `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;

const tokenSet = (sid: string): TokenSet => ({
  accessToken: `access-${sid}`,
  expiresIn: 300,
  refreshToken: `refresh-${sid}`,
  refreshExpiresIn: 1800,
  tokenType: 'Bearer',
  sessionState: sid,
  scope: 'openid',
});

/** The world the rules see: Keycloak's accounts, links and sessions, and the stores, all in memory. */
function world() {
  let now = Date.parse('2026-12-02T10:00:00Z');
  const users = new Map<string, IdentityUser & { createdAt: Date }>();
  const links = new Map<string, string[]>();
  const loggedOut: string[] = [];
  const deleted: string[] = [];
  const registered = new Map<string, { protocol: string; clientSecret: string }>();
  const agencies = new Map<string, AgencyRecord>();
  const started = new Map<string, StartedAgencySignIn & { startedAt: Date }>();
  const log: Omit<AdminLogEntry, 'id' | 'at'>[] = [];
  const ended: string[] = [];
  /** What Keycloak answers to the next code: the account it signed in and the nonce it echoes. */
  const codes = new Map<string, { userId: string; nonce?: string; verifier?: string }>();
  let unreadable = false;
  /** Sign-ins begun per client; the fourth from one client waits a minute. */
  const starts = new Map<string, number>();

  const identity = {
    findUserById: async (id: string) => users.get(id) ?? null,
    createdAt: async (id: string) => users.get(id)?.createdAt ?? null,
    logout: async (refreshToken: string) => {
      loggedOut.push(refreshToken);
      return refreshToken.replace('refresh-', '');
    },
    jwks: async () => ({ keys: [publicJwk as Record<string, unknown>] }),
  } as unknown as IdentityProvider;

  const broker: AgencyBroker = {
    available: true,
    async register(agency) {
      if (unreadable) {
        throw invalidArgument(`Keycloak could not read the provider's metadata at ${agency.metadataUrl}.`);
      }
      registered.set(agency.alias, { protocol: agency.protocol, clientSecret: agency.clientSecret });
    },
    async unregister(alias) {
      registered.delete(alias);
    },
    endpoints: (alias, protocol) => ({
      redirectUri: `http://kc/broker/${alias}/endpoint`,
      logoutUrl: protocol === 'oidc' ? `http://kc/protocol/openid-connect/logout/backchannel-logout` : 'saml',
      spMetadataUrl: protocol === 'saml' ? `http://kc/broker/${alias}/endpoint/descriptor` : '',
    }),
    authorizationUrl: (request) => `http://kc/auth?${new URLSearchParams(request)}`,
    async exchangeCode({ code, codeVerifier }) {
      const answer = codes.get(code);
      codes.delete(code);
      if (!answer) return null;
      if (answer.verifier && answer.verifier !== codeVerifier) return null;
      return {
        tokens: tokenSet(`s-${code}`),
        idToken: unsignedJwt({ sub: answer.userId, nonce: answer.nonce }),
      };
    },
    federatedLinks: async (userId) => links.get(userId) ?? [],
    async deleteUser(userId) {
      deleted.push(userId);
      users.delete(userId);
    },
  };

  const store: AgencyStore = {
    list: async () => [...agencies.values()].sort((a, b) => a.name.localeCompare(b.name)),
    find: async (alias) => agencies.get(alias) ?? null,
    byDomain: async (domain) => [...agencies.values()].find((a) => a.domains.includes(domain)) ?? null,
    async add(agency) {
      const record = { ...agency, createdAt: new Date(now) };
      agencies.set(agency.alias, record);
      return record;
    },
    remove: async (alias) => agencies.delete(alias),
  };

  const signIns: AgencySignIns = {
    async begin(stateDigest, signIn) {
      started.set(stateDigest, { ...signIn, startedAt: new Date(now) });
    },
    async take(stateDigest, maxAgeSeconds) {
      const signIn = started.get(stateDigest);
      started.delete(stateDigest);
      return signIn && now - signIn.startedAt.getTime() < maxAgeSeconds * 1000 ? signIn : null;
    },
  };

  const rules = createAgencies({
    identity,
    broker,
    store,
    signIns,
    log: { record: async (entry) => void log.push(entry), page: async () => [] },
    endedSessions: { record: async (ids) => void ended.push(...ids), since: async () => ({}) as never },
    startsByAddress: {
      async attempt(key) {
        starts.set(key, (starts.get(key) ?? 0) + 1);
        return (starts.get(key) ?? 0) > 3 ? 60 : 0;
      },
      refund: async () => {},
    },
    logoutToken: { issuer: ISSUER, audience: AUDIENCE },
  });

  return {
    rules,
    users,
    links,
    loggedOut,
    deleted,
    registered,
    log,
    ended,
    codes,
    started,
    tick: (seconds: number) => {
      now += seconds * 1000;
    },
    now: () => new Date(now),
    setUnreadable: (value: boolean) => {
      unreadable = value;
    },
  };
}

type World = ReturnType<typeof world>;

const oidcAgency = {
  name: 'Department of Finance',
  protocol: 'oidc',
  domains: ['dof.ca.gov', '@DOF-Mail.ca.gov '],
  metadataUrl: 'https://login.dof.ca.gov/.well-known/openid-configuration',
  clientId: 'rotunda',
  clientSecret: 's3cret',
};
const samlAgency = {
  name: 'Franchise Tax Board',
  protocol: 'saml',
  domains: ['ftb.ca.gov'],
  metadataUrl: 'https://adfs.ftb.ca.gov/FederationMetadata/2007-06/FederationMetadata.xml',
};

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { kind: (error as { kind?: string }).kind ?? 'error', message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('registering agencies', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  it('registers an OIDC agency with normalized domains, its secret only in the broker, logged', async () => {
    const agency = await w.rules.addAgency(admin, oidcAgency);
    expect(agency).toMatchObject({
      alias: 'department-of-finance',
      name: 'Department of Finance',
      protocol: 'oidc',
      domains: ['dof.ca.gov', 'dof-mail.ca.gov'],
      clientId: 'rotunda',
      redirectUri: 'http://kc/broker/department-of-finance/endpoint',
      logoutUrl: 'http://kc/protocol/openid-connect/logout/backchannel-logout',
      spMetadataUrl: '',
    });
    expect(JSON.stringify(agency)).not.toContain('s3cret');
    expect(w.registered.get('department-of-finance')?.clientSecret).toBe('s3cret');
    expect(w.log).toEqual([
      {
        actor: { userId: 'a1', email: 'admin@demo.ca.gov' },
        action: 'add',
        subject: 'agencies',
        value: agency.alias,
      },
    ]);
  });

  it('registers a SAML agency without a client, with its service provider metadata address', async () => {
    const agency = await w.rules.addAgency(admin, {
      ...samlAgency,
      clientId: 'ignored',
      clientSecret: 'ignored',
    });
    expect(agency).toMatchObject({
      protocol: 'saml',
      clientId: '',
      spMetadataUrl: expect.stringContaining('descriptor'),
    });
    expect(w.registered.get(agency.alias)?.clientSecret).toBe('');
  });

  it('gives a second agency of the same name its own alias', async () => {
    await w.rules.addAgency(admin, oidcAgency);
    const second = await w.rules.addAgency(admin, { ...oidcAgency, domains: ['other.ca.gov'] });
    expect(second.alias).toBe('department-of-finance-2');
    expect(slugOf('  Él Café & Co.  ')).toBe('el-cafe-co');
    expect(slugOf('***')).toBe('agency');
  });

  it('refuses a domain another agency signs in, naming it', async () => {
    await w.rules.addAgency(admin, oidcAgency);
    expect(await refusal(w.rules.addAgency(admin, { ...samlAgency, domains: ['DOF.ca.gov'] }))).toEqual({
      kind: 'invalid_argument',
      message: 'dof.ca.gov already signs in with Department of Finance.',
    });
    expect(w.registered.size).toBe(1);
  });

  it.each([
    [{ name: ' ' }, 'Enter the agency’s name.'],
    [{ name: 'x'.repeat(101) }, 'The agency’s name can be at most 100 characters.'],
    [{ protocol: 'ldap' }, 'Choose OpenID Connect or SAML 2.0.'],
    [{ domains: [] }, 'Enter at least one email domain, such as agency.ca.gov.'],
    [
      { domains: ['not a domain'] },
      '"not a domain" is not a domain. Enter host names only, like agency.ca.gov.',
    ],
    [{ domains: ['gmail.com'] }, '"gmail.com" is not a domain. Enter host names only, like agency.ca.gov.'],
    [
      { metadataUrl: 'ftp://dof.ca.gov/meta' },
      'Enter the provider’s metadata address, starting with https://.',
    ],
    [{ metadataUrl: 'not a url' }, 'Enter the provider’s metadata address, starting with https://.'],
    [{ clientId: '' }, 'Enter the client ID the agency issued Rotunda.'],
    [{ clientSecret: '' }, 'Enter the client secret the agency issued Rotunda.'],
  ])('refuses %o', async (change, message) => {
    expect(await refusal(w.rules.addAgency(admin, { ...oidcAgency, ...change }))).toEqual({
      kind: 'invalid_argument',
      message,
    });
    expect(w.registered.size).toBe(0);
    expect(w.log).toEqual([]);
  });

  it('passes on the broker’s refusal of unreadable metadata, storing nothing', async () => {
    w.setUnreadable(true);
    expect((await refusal(w.rules.addAgency(admin, oidcAgency))).message).toBe(
      `Keycloak could not read the provider's metadata at ${oidcAgency.metadataUrl}.`,
    );
    expect((await w.rules.listAgencies(admin)).agencies).toEqual([]);
  });

  it('removes an agency from the broker and the list, logged; an unknown alias is not found', async () => {
    const agency = await w.rules.addAgency(admin, oidcAgency);
    await w.rules.removeAgency(admin, agency.alias);
    expect(w.registered.size).toBe(0);
    expect(await w.rules.listAgencies(admin)).toEqual({ available: true, agencies: [] });
    expect(w.log.at(-1)).toMatchObject({ action: 'remove', subject: 'agencies', value: agency.alias });
    expect((await refusal(w.rules.removeAgency(admin, agency.alias))).kind).toBe('not_found');
  });

  it('answers administrators only: members and contributors are refused, visitors asked to log in', async () => {
    for (const caller of [member, contributor]) {
      expect((await refusal(w.rules.listAgencies(caller))).kind).toBe('permission_denied');
      expect((await refusal(w.rules.addAgency(caller, oidcAgency))).kind).toBe('permission_denied');
      expect((await refusal(w.rules.removeAgency(caller, 'x'))).kind).toBe('permission_denied');
    }
    expect((await refusal(w.rules.listAgencies(undefined))).kind).toBe('unauthenticated');
    expect((await refusal(w.rules.addAgency(undefined, oidcAgency))).kind).toBe('unauthenticated');
    expect(w.registered.size).toBe(0);
  });
});

/** Starts a sign-in and answers its state, verifier's challenge and nonce as the browser's URL carries them. */
async function start(w: World, email: string) {
  const url = new URL(await w.rules.startSignIn({ email, appUrl: `${APP}/`, clientIp: '192.0.2.1' }));
  const field = (name: string) => url.searchParams.get(name) ?? '';
  return {
    alias: field('alias'),
    email: field('email'),
    redirectUri: field('redirectUri'),
    state: field('state'),
    nonce: field('nonce'),
    codeChallenge: field('codeChallenge'),
  };
}

/** An account Keycloak has, linked to these agencies, made this many seconds from now (negative: before). */
function account(w: World, email: string, aliases: string[], madeIn = -86_400) {
  const id = `u-${email}`;
  w.users.set(id, {
    id,
    email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    emailVerified: true,
    roles: [],
    createdAt: new Date(w.now().getTime() + madeIn * 1000),
  });
  w.links.set(id, aliases);
  return id;
}

describe('signing in with an agency', () => {
  let w: World;
  let alias: string;
  beforeEach(async () => {
    w = world();
    alias = (await w.rules.addAgency(admin, oidcAgency)).alias;
  });

  it('finds the agency of the email’s exact domain only', async () => {
    expect(await w.rules.findAgency(' Jane@DOF.ca.gov ')).toEqual({ alias, name: 'Department of Finance' });
    expect(await w.rules.findAgency('jane@sub.dof.ca.gov')).toBeNull();
    expect(await w.rules.findAgency('jane@ca.gov')).toBeNull();
    expect(await w.rules.findAgency('not an email')).toBeNull();
  });

  it('sends the browser to the broker with the agency hint, PKCE and the callback', async () => {
    const request = await start(w, 'Jane@dof.ca.gov');
    expect(request).toMatchObject({
      alias,
      email: 'jane@dof.ca.gov',
      redirectUri: `${APP}/agency-sign-in`,
    });
    expect(request.state).toMatch(/^[\w-]{43}$/);
    expect(request.nonce).toMatch(/^[\w-]{43}$/);
    expect(request.codeChallenge).toMatch(/^[\w-]{43}$/);
    expect(
      (await refusal(w.rules.startSignIn({ email: 'jane@gmail.com', appUrl: APP, clientIp: '192.0.2.1' })))
        .kind,
    ).toBe('not_found');
  });

  it('makes a client that begins sign-in after sign-in wait, others not', async () => {
    for (let n = 0; n < 3; n += 1) await start(w, 'jane@dof.ca.gov');
    expect(
      await refusal(w.rules.startSignIn({ email: 'jane@dof.ca.gov', appUrl: APP, clientIp: '192.0.2.1' })),
    ).toEqual({
      kind: 'resource_exhausted',
      message: 'Too many attempts. Try again in 60 seconds.',
    });
    expect(
      await w.rules.startSignIn({ email: 'jane@dof.ca.gov', appUrl: APP, clientIp: '192.0.2.2' }),
    ).toContain('http://kc/auth');
  });

  it('signs in a linked account made in this sign-in as a first sign-in', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    const id = account(w, 'jane@dof.ca.gov', [alias], 5);
    w.codes.set('c1', { userId: id, nonce });
    const answer = await w.rules.completeSignIn({ code: 'c1', state, appUrl: APP });
    expect(answer).toMatchObject({
      user: { userId: id, email: 'jane@dof.ca.gov', emailConfirmed: true, admin: false },
      tokens: { refreshToken: 'refresh-s-c1' },
      firstSignIn: true,
    });
  });

  it('signs in an account made earlier (linked after proof) as no first sign-in', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    w.codes.set('c1', { userId: account(w, 'jane@dof.ca.gov', [alias]), nonce });
    expect((await w.rules.completeSignIn({ code: 'c1', state, appUrl: APP })).firstSignIn).toBe(false);
  });

  it('refuses a state used twice, and one older than ten minutes', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    const id = account(w, 'jane@dof.ca.gov', [alias]);
    w.codes.set('c1', { userId: id, nonce });
    await w.rules.completeSignIn({ code: 'c1', state, appUrl: APP });
    w.codes.set('c2', { userId: id, nonce });
    const again = await refusal(w.rules.completeSignIn({ code: 'c2', state, appUrl: APP }));
    expect(again).toEqual({
      kind: 'invalid_argument',
      message: 'This sign-in has expired or was already used. Start again from the sign-in dialog.',
    });

    const late = await start(w, 'jane@dof.ca.gov');
    w.tick(601);
    w.codes.set('c3', { userId: id, nonce: late.nonce });
    expect((await refusal(w.rules.completeSignIn({ code: 'c3', state: late.state, appUrl: APP }))).kind).toBe(
      'invalid_argument',
    );
    expect((await refusal(w.rules.completeSignIn({ code: 'c3', state: 'forged', appUrl: APP }))).kind).toBe(
      'invalid_argument',
    );
  });

  it('refuses a code the broker refuses, and an ID token with another nonce (ending its session)', async () => {
    const first = await start(w, 'jane@dof.ca.gov');
    expect(
      (await refusal(w.rules.completeSignIn({ code: 'unknown', state: first.state, appUrl: APP }))).kind,
    ).toBe('invalid_argument');
    const second = await start(w, 'jane@dof.ca.gov');
    w.codes.set('c1', { userId: account(w, 'jane@dof.ca.gov', [alias]), nonce: 'another' });
    expect(
      (await refusal(w.rules.completeSignIn({ code: 'c1', state: second.state, appUrl: APP }))).kind,
    ).toBe('invalid_argument');
    expect(w.loggedOut).toEqual(['refresh-s-c1']);
  });

  it('refuses an email outside the agency’s domains, removing the account this sign-in made', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    const id = account(w, 'jane@elsewhere.gov', [alias], 5);
    w.codes.set('c1', { userId: id, nonce });
    expect(await refusal(w.rules.completeSignIn({ code: 'c1', state, appUrl: APP }))).toEqual({
      kind: 'permission_denied',
      message:
        'Department of Finance signed you in with an email outside its domains, so Rotunda cannot accept it. Ask your agency’s IT office to check your email address.',
    });
    expect(w.loggedOut).toEqual(['refresh-s-c1']);
    expect(w.deleted).toEqual([id]);
  });

  it('refuses an account not linked to that agency, keeping an account made before', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    const id = account(w, 'jane@dof.ca.gov', ['some-other-agency']);
    w.codes.set('c1', { userId: id, nonce });
    expect((await refusal(w.rules.completeSignIn({ code: 'c1', state, appUrl: APP }))).kind).toBe(
      'permission_denied',
    );
    expect(w.loggedOut).toEqual(['refresh-s-c1']);
    expect(w.deleted).toEqual([]);
  });

  it('refuses a sign-in whose agency was removed meanwhile', async () => {
    const { state, nonce } = await start(w, 'jane@dof.ca.gov');
    w.codes.set('c1', { userId: account(w, 'jane@dof.ca.gov', [alias]), nonce });
    await w.rules.removeAgency(admin, alias);
    expect((await refusal(w.rules.completeSignIn({ code: 'c1', state, appUrl: APP }))).kind).toBe(
      'permission_denied',
    );
  });
});

describe('back-channel logout', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  const claims = { sid: 'session-1', events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, sub: 'u1', jti: 'j1' };
  const sign = (
    body: Record<string, unknown>,
    options: { issuer?: string; audience?: string | string[]; iat?: number; key?: typeof privateKey } = {},
  ) =>
    new SignJWT(body)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'logout+jwt' })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? AUDIENCE)
      .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
      .setExpirationTime('2m')
      .sign(options.key ?? privateKey);

  it('ends the session a genuine logout token names', async () => {
    await w.rules.backchannelLogout(await sign(claims, { audience: [AUDIENCE, 'account'] }));
    expect(w.ended).toEqual(['session-1']);
  });

  it.each([
    ['another issuer', () => sign(claims, { issuer: 'http://evil.test/realms/rotunda' })],
    ['another audience', () => sign(claims, { audience: 'rotunda-web' })],
    ['another key', () => sign(claims, { key: strangerKey })],
    ['no sid', () => sign({ ...claims, sid: undefined })],
    ['no logout event', () => sign({ ...claims, events: { other: {} } })],
    ['a nonce', () => sign({ ...claims, nonce: 'n' })],
    ['an old iat', () => sign(claims, { iat: Math.floor(Date.now() / 1000) - 600 })],
    [
      'no signature',
      async () => unsignedJwt({ ...claims, iss: ISSUER, aud: AUDIENCE, iat: Date.now() / 1000 }),
    ],
    ['garbage', async () => 'not.a.token'],
  ])('refuses a token with %s', async (_what, token) => {
    expect(await refusal(w.rules.backchannelLogout(await token()))).toEqual({
      kind: 'invalid_argument',
      message: 'The logout token does not verify.',
    });
    expect(w.ended).toEqual([]);
  });
});

describe('with the built-in identity provider', () => {
  it('has no agencies: none found, none started, none added, the list unavailable', async () => {
    const rules = createAgencies({
      identity: {} as IdentityProvider,
      broker: NO_AGENCY_BROKER,
      store: { byDomain: async () => null } as unknown as AgencyStore,
      signIns: {} as AgencySignIns,
      log: { record: async () => {}, page: async () => [] },
      endedSessions: { record: async () => {}, since: async () => ({}) as never },
      startsByAddress: { attempt: async () => 0, refund: async () => {} },
      logoutToken: { issuer: ISSUER, audience: AUDIENCE },
    });
    expect(await rules.findAgency('jane@dof.ca.gov')).toBeNull();
    expect(
      (await refusal(rules.startSignIn({ email: 'jane@dof.ca.gov', appUrl: APP, clientIp: '192.0.2.1' })))
        .kind,
    ).toBe('not_found');
    expect(await rules.listAgencies(admin)).toEqual({ available: false, agencies: [] });
    expect(await refusal(rules.addAgency(admin, oidcAgency))).toEqual({
      kind: 'failed_precondition',
      message: 'Agency sign-in needs Keycloak.',
    });
  });
});

// The state's digest is what the store keys a sign-in by: the state itself is never kept.
it('keeps a started sign-in under the state’s SHA-256 only', async () => {
  const w = world();
  await w.rules.addAgency(admin, oidcAgency);
  const { state } = await start(w, 'jane@dof.ca.gov');
  expect([...w.started.keys()]).toEqual([createHash('sha256').update(state).digest('hex')]);
});
