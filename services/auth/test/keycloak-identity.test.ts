// The Keycloak adapter: the identity contract and account deletion against a real Keycloak when KEYCLOAK_URL is
// set (skipped, and saying so, otherwise; failing when ENGINES_REQUIRED=true asks for the real engines), and
// protocol-mapping tests of its token-endpoint and admin handling against a local fake, with two auth replicas on
// one real database.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import KcAdminClient from '@keycloak/keycloak-admin-client';
import { ensureEventTables } from '@rotunda/events';
import { createLogger, DomainError, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { prismaAccountDeletion } from '../src/adapters/account-deletion.ts';
import { createKeycloakIdentity, type KeycloakIdentity } from '../src/adapters/keycloak-identity.ts';
import { prismaExchangedRefreshTokens } from '../src/adapters/prisma-exchanged-refresh-tokens.ts';
import { prismaEndedSessions, prismaOneTimeTokens } from '../src/adapters/prisma-stores.ts';
import { AgencyRefused, type IdentityProvider, RefreshTokenReused } from '../src/domain/ports.ts';
import { identityContract } from './identity-contract.ts';

const keycloakUrl = process.env.KEYCLOAK_URL;
/** Short, so the cases can wait it out. */
const GRACE_SECONDS = 1;

/** The auth schema on a fresh test database, migrated; each replica opens its own Prisma Client on it. */
async function authDatabase() {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger: createLogger('test', 'silent'),
  });
  const clients: PrismaClient[] = [];
  return {
    databaseUrl,
    /** A Prisma Client of its own on the auth schema. */
    client() {
      const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
      clients.push(prisma);
      return prisma;
    },
    /** One replica's store of exchanged tokens, on a Prisma Client of its own. */
    replicaStore(graceSeconds = GRACE_SECONDS) {
      const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
      clients.push(prisma);
      return prismaExchangedRefreshTokens(prisma, { graceSeconds });
    },
    /** The rows as stored, to show what a copy of the database holds. */
    async rows() {
      const prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
      clients.push(prisma);
      return prisma.exchangedRefreshToken.findMany();
    },
    close: () => Promise.all(clients.map((client) => client.$disconnect())),
  };
}

identityContract(
  'keycloak',
  async () => {
    // The real-engine run (npm run test:engines) must not pass by running nothing.
    if (!keycloakUrl) throw new Error('ENGINES_REQUIRED=true but KEYCLOAK_URL is not set');
    const url = keycloakUrl;
    const realm = process.env.KEYCLOAK_REALM || 'rotunda';
    const clientId = process.env.KEYCLOAK_CLIENT_ID || 'rotunda-auth';
    const clientSecret = process.env.KEYCLOAK_CLIENT_SECRET;
    // Asked for a real Keycloak but not given the secret: fail loudly rather than skip quietly.
    if (!clientSecret) throw new Error('KEYCLOAK_URL is set but KEYCLOAK_CLIENT_SECRET is not');
    const database = await authDatabase();
    const inner = createKeycloakIdentity({
      url,
      realm,
      clientId,
      clientSecret,
      exchangedTokens: database.replicaStore(),
    });
    // Remember the accounts the contract makes, so the realm is left as it was found.
    const created: string[] = [];
    const provider: IdentityProvider = {
      ...inner,
      async createUser(user) {
        const made = await inner.createUser(user);
        created.push(made.id);
        return made;
      },
    };
    const cleanup = async () => {
      await database.close();
      if (created.length === 0) return;
      const admin = new KcAdminClient({ baseUrl: url, realmName: realm });
      await admin.auth({ grantType: 'client_credentials', clientId, clientSecret });
      for (const id of created) await admin.users.del({ id });
    };
    return { provider, cleanup, reuseGraceSeconds: GRACE_SECONDS };
  },
  keycloakUrl || process.env.ENGINES_REQUIRED === 'true'
    ? {}
    : {
        skipReason:
          'set KEYCLOAK_URL (and KEYCLOAK_CLIENT_SECRET) to run it against a real Keycloak (npm run test:engines does)',
      },
);

/**
 * A new member with a verified email in the realm the auth service signs in to, handed to `body`, then deleted
 * with its sessions.
 */
async function withVerifiedMember(
  prefix: string,
  body: (member: {
    provider: ReturnType<typeof createKeycloakIdentity>;
    realm: string;
    email: string;
    password: string;
    userId: string;
  }) => Promise<void>,
): Promise<void> {
  if (!keycloakUrl) throw new Error('ENGINES_REQUIRED=true but KEYCLOAK_URL is not set');
  const realm = process.env.KEYCLOAK_REALM || 'rotunda';
  const clientId = process.env.KEYCLOAK_CLIENT_ID || 'rotunda-auth';
  const clientSecret = process.env.KEYCLOAK_CLIENT_SECRET ?? '';
  const database = await authDatabase();
  const provider = createKeycloakIdentity({
    url: keycloakUrl,
    realm,
    clientId,
    clientSecret,
    exchangedTokens: database.replicaStore(),
  });
  const email = `${prefix}-${randomUUID()}@example.ca.gov`;
  const password = `Pw#${randomUUID()}`;
  const user = await provider.createUser({ email, firstName: 'Ada', lastName: 'Lovelace', password });
  try {
    await provider.setEmailVerified(user.id, true);
    await body({ provider, realm, email, password, userId: user.id });
  } finally {
    const admin = new KcAdminClient({ baseUrl: keycloakUrl, realmName: realm });
    await admin.auth({ grantType: 'client_credentials', clientId, clientSecret });
    await admin.users.del({ id: user.id });
    await database.close();
  }
}

// The realm as imported into the real Keycloak: a member's own token cannot change their email through the
// account console's API (the realm's user profile makes it admin-only).
describe.skipIf(!keycloakUrl && process.env.ENGINES_REQUIRED !== 'true')(
  'keycloak realm (real Keycloak)',
  () => {
    it("keeps a member's email as Rotunda set it when they try to change it in the account console", async () => {
      await withVerifiedMember('console', async ({ provider, realm, email, password, userId }) => {
        const tokens = await provider.passwordGrant(email, password);
        const res = await fetch(`${String(keycloakUrl).replace(/\/+$/, '')}/realms/${realm}/account/`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens?.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({
            username: email,
            email: 'elsewhere@example.com',
            firstName: 'Ada',
            lastName: 'L',
          }),
        });
        // The member reached the console's API (not turned away for the token), and the email stayed.
        expect([401, 403]).not.toContain(res.status);
        expect((await provider.findUserById(userId))?.email).toBe(email);
      });
    });

    it('signs one account in from several places at once: each right password answered with tokens', async () => {
      await withVerifiedMember('together', async ({ provider, email, password }) => {
        // One sign-in alone first: each grant must answer within the sign-in's 2.5 s, which a Keycloak still
        // compiling its first grants on two loaded cores need not, and that is not what this test is about.
        expect(await provider.passwordGrant(email, password)).toBeTruthy();
        // Keycloak's default refuses a grant while another for the account runs, as if brute-force detection held
        // it (KEYCLOAK_SETTINGS): a phone and a laptop at once, or a retry while a just-restarted Keycloak is slow.
        const grants = await Promise.allSettled(
          Array.from({ length: 3 }, () => provider.passwordGrant(email, password)),
        );
        const answers = grants.map((grant) =>
          grant.status === 'rejected' ? String(grant.reason) : grant.value ? 'tokens' : 'refused',
        );
        expect(answers).toEqual(Array(3).fill('tokens'));
      });
    });
  },
);

// Deleting an account in Keycloak mode: the user goes through the admin API inside the auth schema's transaction
// that records `account.deleted` and the sessions that ended.
describe.skipIf(!keycloakUrl && process.env.ENGINES_REQUIRED !== 'true')(
  'account deletion (real Keycloak)',
  () => {
    it('deletes the Keycloak user with its sessions, records account.deleted, and the email may register again', async () => {
      if (!keycloakUrl) throw new Error('ENGINES_REQUIRED=true but KEYCLOAK_URL is not set');
      const realm = process.env.KEYCLOAK_REALM || 'rotunda';
      const clientId = process.env.KEYCLOAK_CLIENT_ID || 'rotunda-auth';
      const clientSecret = process.env.KEYCLOAK_CLIENT_SECRET;
      if (!clientSecret) throw new Error('KEYCLOAK_URL is set but KEYCLOAK_CLIENT_SECRET is not');
      const database = await authDatabase();
      await ensureEventTables(database.databaseUrl, 'auth_events');
      const prisma = database.client();
      const provider = createKeycloakIdentity({
        url: keycloakUrl,
        realm,
        clientId,
        clientSecret,
        exchangedTokens: database.replicaStore(),
      });
      const deletion = prismaAccountDeletion(prisma, {
        schema: 'auth',
        eventsSchema: 'auth_events',
        remove: (_tx, userId) => provider.deleteUser(userId),
      });
      const ended = prismaEndedSessions(prisma, { schema: 'auth', retainSeconds: async () => 360 });
      const email = `deleted-${randomUUID()}@example.ca.gov`;
      const password = `Pw#${randomUUID()}`;
      const user = await provider.createUser({ email, firstName: 'Ada', lastName: 'Lovelace', password });
      let again: string | undefined;
      try {
        await provider.setEmailVerified(user.id, true);
        const phone = await provider.passwordGrant(email, password);
        const laptop = await provider.passwordGrant(email, password);
        if (!phone || !laptop) throw new Error('the password grant answered null');
        await prismaOneTimeTokens(prisma).issue({ userId: user.id, email }, 'reset-password', 600);

        expect((await deletion.deleteAccount(user.id)).sort()).toEqual(
          [phone.sessionState, laptop.sessionState].sort(),
        );

        expect(await provider.findUserById(user.id)).toBeNull();
        expect(await provider.findUserByEmail(email)).toBeNull();
        expect(await provider.passwordGrant(email, password)).toBeNull();
        for (const session of [phone, laptop]) {
          const refused = await provider.refresh(session.refreshToken).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(refused).toBeInstanceOf(DomainError);
          expect((refused as DomainError).kind).toBe('unauthenticated');
        }
        expect((await ended.since('')).sessionIds).toEqual(
          expect.arrayContaining([phone.sessionState, laptop.sessionState]),
        );
        expect(await prisma.oneTimeToken.count({ where: { userId: user.id } })).toBe(0);
        expect(
          await prisma.$queryRawUnsafe('SELECT topic, payload FROM auth_events.outbox ORDER BY id'),
        ).toEqual([{ topic: 'account.deleted', payload: { user_id: user.id } }]);
        // Asked again (a retry), there is nothing left to end.
        expect(await provider.deleteUser(user.id)).toEqual([]);

        const newcomer = await provider.createUser({
          email,
          firstName: 'Ada',
          lastName: 'Lovelace',
          password,
        });
        again = newcomer.id;
        expect(newcomer.id).not.toBe(user.id);
      } finally {
        const admin = new KcAdminClient({ baseUrl: keycloakUrl, realmName: realm });
        await admin.auth({ grantType: 'client_credentials', clientId, clientSecret });
        for (const id of [user.id, again]) if (id) await admin.users.del({ id }).catch(() => undefined);
        await database.close();
      }
    });
  },
);

// Protocol mapping only: a fake of Keycloak's token, logout and admin endpoints checks how the adapter reads
// Keycloak's responses and errors and which calls it makes. Whether Keycloak really answers this way is the
// contract's job, above (and Keycloak's admin API documentation's).
describe('keycloak adapter protocol mapping (local fake Keycloak endpoints, no Keycloak)', () => {
  interface Seen {
    method: string;
    path: string;
    form: URLSearchParams;
  }
  interface Answer {
    status: number;
    body: unknown;
  }
  let server: Server;
  let seen: Seen[] = [];
  let answer: Answer = { status: 500, body: {} };
  /** Answers by request when set; otherwise every request gets `answer`. */
  let route: ((request: Seen) => Answer | Promise<Answer>) | undefined;
  let provider: KeycloakIdentity;
  /** A second auth replica: its own adapter and Prisma Client, the same database, the same Keycloak. */
  let replica: IdentityProvider;
  let database: Awaited<ReturnType<typeof authDatabase>>;

  beforeAll(async () => {
    database = await authDatabase();
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const entry = {
          method: request.method ?? '',
          path: request.url ?? '',
          form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        };
        seen.push(entry);
        const { status, body } = route ? await route(entry) : answer;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(status === 204 ? undefined : JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const replicaOptions = () => ({
      url: `http://127.0.0.1:${port}/`,
      realm: 'rotunda',
      clientId: 'rotunda-auth',
      clientSecret: 'fake-secret',
      exchangedTokens: database.replicaStore(),
    });
    provider = createKeycloakIdentity(replicaOptions());
    replica = createKeycloakIdentity(replicaOptions());
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
  });
  beforeEach(() => {
    seen = [];
    route = undefined;
  });

  const keycloakTokens = {
    access_token: 'header.payload.signature',
    expires_in: 300,
    refresh_expires_in: 1800,
    refresh_token: 'refresh.payload.signature',
    token_type: 'Bearer',
    id_token: 'id.payload.signature',
    'not-before-policy': 0,
    session_state: '6f1c2a3e-session',
    scope: 'openid email profile',
  };
  /** A token whose payload names the session, as Keycloak's refresh tokens do (unsigned: the fake checks nothing). */
  const tokenOf = (sid: string, extra: Record<string, unknown> = {}) =>
    `e30.${Buffer.from(JSON.stringify({ sid, ...extra })).toString('base64url')}.sig`;
  const refused = (status: number, error: string, description: string) => ({
    status,
    body: { error, error_description: description },
  });

  it("maps Keycloak's password-grant response to a TokenSet, asking as a confidential client", async () => {
    answer = { status: 200, body: keycloakTokens };
    expect(await provider.passwordGrant(' Ada@Example.CA.gov ', 'secret#1')).toEqual({
      accessToken: 'header.payload.signature',
      expiresIn: 300,
      refreshToken: 'refresh.payload.signature',
      refreshExpiresIn: 1800,
      tokenType: 'Bearer',
      sessionState: '6f1c2a3e-session',
      scope: 'openid email profile',
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.path).toBe('/realms/rotunda/protocol/openid-connect/token');
    expect(Object.fromEntries(seen[0]?.form ?? [])).toEqual({
      grant_type: 'password',
      username: 'ada@example.ca.gov',
      password: 'secret#1',
      scope: 'openid',
      client_id: 'rotunda-auth',
      client_secret: 'fake-secret',
    });
  });

  it('maps a refresh response, taking the session from the sid claim when session_state is missing', async () => {
    const accessToken = `e30.${Buffer.from(JSON.stringify({ sid: 'sid-from-claim' })).toString('base64url')}.sig`;
    const { session_state: _unused, ...withoutSession } = keycloakTokens;
    answer = { status: 200, body: { ...withoutSession, access_token: accessToken, token_type: 'bearer' } };
    const old = tokenOf(randomUUID());
    const tokens = await provider.refresh(old);
    expect(tokens).toMatchObject({ accessToken, tokenType: 'Bearer', sessionState: 'sid-from-claim' });
    expect(seen[0]?.form.get('grant_type')).toBe('refresh_token');
    expect(seen[0]?.form.get('refresh_token')).toBe(old);
  });

  /** Keycloak refusing the password grant with `refusal`; the admin API finds no account held by attack detection. */
  const refusing =
    (refusal: Answer) =>
    (request: Seen): Answer => {
      if (request.path === TOKEN_PATH && request.form.get('grant_type') === 'client_credentials')
        return serviceToken;
      if (request.path === TOKEN_PATH) return refusal;
      return { status: 200, body: [] };
    };

  it('answers null when Keycloak refuses the credentials (401, or 400 invalid_grant)', async () => {
    route = refusing(refused(401, 'invalid_grant', 'Invalid user credentials'));
    expect(await provider.passwordGrant('ada@example.ca.gov', 'wrong')).toBeNull();
    route = refusing(refused(400, 'invalid_grant', 'Account disabled'));
    expect(await provider.passwordGrant('ada@example.ca.gov', 'whatever')).toBeNull();
  });

  it('throws, never null, when the service client itself is refused (a misconfiguration, not a bad password)', async () => {
    answer = refused(401, 'invalid_client', 'Invalid client or Invalid client credentials');
    await expect(provider.passwordGrant('ada@example.ca.gov', 'secret#1')).rejects.toThrow(/invalid_client/);
    answer = refused(400, 'invalid_grant', 'Account is not fully set up');
    await expect(provider.passwordGrant('ada@example.ca.gov', 'secret#1')).rejects.toThrow(
      /not fully set up/,
    );
  });

  it("turns a refused refresh (400 invalid_grant) into DomainError 'unauthenticated'", async () => {
    answer = refused(400, 'invalid_grant', 'Session not active');
    const error = await provider.refresh(tokenOf(randomUUID())).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('unauthenticated');
  });

  it("keeps Keycloak's own failures apart from ended sessions (503 is an error, not 'unauthenticated')", async () => {
    answer = { status: 503, body: {} };
    const error = await provider.refresh(tokenOf(randomUUID())).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
  });

  const TOKEN_PATH = '/realms/rotunda/protocol/openid-connect/token';
  const LOGOUT_PATH = '/realms/rotunda/protocol/openid-connect/logout';
  const INTROSPECT_PATH = '/realms/rotunda/protocol/openid-connect/token/introspect';
  const serviceToken = { status: 200, body: { access_token: 'service-token', expires_in: 300 } };
  const adminCalls = () =>
    seen.filter((call) => call.path.startsWith('/admin/')).map((call) => `${call.method} ${call.path}`);

  it('ends the whole user session when Keycloak reports a reused refresh token, and says which', async () => {
    route = (request) => {
      if (request.path === TOKEN_PATH && request.form.get('grant_type') === 'client_credentials')
        return serviceToken;
      if (request.path === TOKEN_PATH)
        return refused(400, 'invalid_grant', 'Maximum allowed refresh token reuse exceeded');
      if (request.method === 'DELETE') return { status: 204, body: undefined };
      return { status: 500, body: {} };
    };
    const session = randomUUID();
    const error = await provider.refresh(tokenOf(session)).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RefreshTokenReused);
    expect(error).toMatchObject({ kind: 'unauthenticated', sessionId: session });
    expect(adminCalls()).toEqual([`DELETE /admin/realms/rotunda/sessions/${session}?isOffline=false`]);
  });

  it('answers the id of the session a logout ended, and null when Keycloak had nothing to end', async () => {
    let active = true;
    route = (request) => {
      if (request.path === INTROSPECT_PATH) return { status: 200, body: { active } };
      if (request.path === LOGOUT_PATH) return { status: 204, body: undefined };
      return { status: 500, body: {} };
    };
    expect(await provider.logout(tokenOf('session-8'))).toBe('session-8');
    expect(seen.map((call) => call.path)).toEqual([INTROSPECT_PATH, LOGOUT_PATH]);
    expect(seen[0]?.form.get('token_type_hint')).toBe('refresh_token');
    // Keycloak answers 204 to a logout of a session that already ended: the adapter asks first.
    active = false;
    seen.length = 0;
    expect(await provider.logout(tokenOf('session-8'))).toBeNull();
    expect(seen.map((call) => call.path)).toEqual([INTROSPECT_PATH]);
  });

  it('ends the other sessions one by one, keeping the current one; without one to keep, all at once', async () => {
    route = (request) => {
      if (request.path === TOKEN_PATH) return serviceToken;
      if (request.method === 'GET' && request.path === '/admin/realms/rotunda/users/u-1/sessions')
        return { status: 200, body: [{ id: 's-1' }, { id: 's-2' }, { id: 's-3' }] };
      if (request.method === 'DELETE' || request.method === 'POST') return { status: 204, body: undefined };
      return { status: 500, body: {} };
    };
    expect(await provider.endSessions('u-1', 's-2')).toEqual(['s-1', 's-3']);
    // Not the account-wide logout: its not-before would end the kept session too.
    expect(adminCalls()).toEqual([
      'GET /admin/realms/rotunda/users/u-1/sessions',
      'DELETE /admin/realms/rotunda/sessions/s-1?isOffline=false',
      'DELETE /admin/realms/rotunda/sessions/s-3?isOffline=false',
    ]);
    seen = [];
    expect(await provider.endSessions('u-1')).toEqual(['s-1', 's-2', 's-3']);
    expect(adminCalls()).toEqual([
      'GET /admin/realms/rotunda/users/u-1/sessions',
      'POST /admin/realms/rotunda/users/u-1/logout',
    ]);
  });

  it('deletes a user through the admin API, answering the sessions it had; one already gone ends none', async () => {
    const id = '0b5f6a52-3c1e-4d7b-9a41-2f8e6c0d9b13';
    route = (request) => {
      if (request.path === TOKEN_PATH) return serviceToken;
      if (request.method === 'GET' && request.path === `/admin/realms/rotunda/users/${id}/sessions`)
        return { status: 200, body: [{ id: 's-1' }, { id: 's-2' }] };
      if (request.method === 'DELETE' && request.path === `/admin/realms/rotunda/users/${id}`)
        return { status: 204, body: undefined };
      return { status: 500, body: {} };
    };
    expect(await provider.deleteUser(id)).toEqual(['s-1', 's-2']);
    expect(adminCalls()).toEqual([
      `GET /admin/realms/rotunda/users/${id}/sessions`,
      `DELETE /admin/realms/rotunda/users/${id}`,
    ]);
    seen = [];
    route = (request) =>
      request.path === TOKEN_PATH ? serviceToken : { status: 404, body: { error: 'User not found' } };
    expect(await provider.deleteUser(id)).toEqual([]);
    // Anything but a user id never reaches an admin path.
    seen = [];
    expect(await provider.deleteUser('../clients')).toEqual([]);
    expect(adminCalls()).toEqual([]);
  });

  it('throws when Keycloak fails a deletion, so the transaction around it rolls back', async () => {
    route = (request) => (request.path === TOKEN_PATH ? serviceToken : { status: 503, body: {} });
    await expect(provider.deleteUser('0b5f6a52-3c1e-4d7b-9a41-2f8e6c0d9b13')).rejects.toThrow();
  });

  it('checks a password with a grant whose session it ends at once', async () => {
    route = (request) =>
      request.path === TOKEN_PATH
        ? { status: 200, body: { ...keycloakTokens, refresh_token: tokenOf('probe') } }
        : { status: 204, body: undefined };
    expect(await provider.checkPassword('ada@example.ca.gov', 'secret#1')).toBe(true);
    expect(seen.map((call) => call.path)).toEqual([TOKEN_PATH, LOGOUT_PATH]);
    expect(seen[1]?.form.get('refresh_token')).toBe(tokenOf('probe'));
    seen = [];
    route = refusing(refused(401, 'invalid_grant', 'Invalid user credentials'));
    expect(await provider.checkPassword('ada@example.ca.gov', 'wrong')).toBe(false);
    expect(seen[0]?.path).toBe(TOKEN_PATH);
    expect(seen.map((call) => call.path)).not.toContain(LOGOUT_PATH);
  });

  describe('two auth replicas', () => {
    /** Keycloak accepting the token: each exchange answers a new refresh token (for the same session). */
    let issued = 0;
    const exchangingKeycloak = (request: Seen): Answer => {
      if (request.path === TOKEN_PATH && request.form.get('grant_type') === 'client_credentials')
        return serviceToken;
      if (request.path === TOKEN_PATH) {
        issued += 1;
        const sid = JSON.parse(
          Buffer.from(request.form.get('refresh_token')?.split('.')[1] ?? '', 'base64url').toString('utf8'),
        ).sid as string;
        return { status: 200, body: { ...keycloakTokens, refresh_token: tokenOf(sid, { n: issued }) } };
      }
      if (request.path === INTROSPECT_PATH) return { status: 200, body: { active: sessionActive } };
      if (request.method === 'DELETE') return { status: 204, body: undefined };
      return { status: 500, body: {} };
    };
    /** Whether Keycloak's introspection finds the session still going. */
    let sessionActive = true;
    /** Keycloak refusing the token as it does a forged one. */
    const refusingKeycloak = (request: Seen): Answer =>
      request.path === TOKEN_PATH && request.form.get('grant_type') === 'client_credentials'
        ? serviceToken
        : request.path === TOKEN_PATH
          ? refused(400, 'invalid_grant', 'Invalid refresh token')
          : { status: request.method === 'DELETE' ? 204 : 500, body: {} };
    const refreshCalls = () =>
      seen.filter((call) => call.path === TOKEN_PATH && call.form.get('grant_type') === 'refresh_token');
    const waitOutGrace = () => new Promise((resolve) => setTimeout(resolve, GRACE_SECONDS * 1000 + 300));

    it('answers a token given to both replicas at once with one exchange, the same tokens to both', async () => {
      route = exchangingKeycloak;
      const token = tokenOf(randomUUID());
      const answers = await Promise.all([
        provider.refresh(token),
        replica.refresh(token),
        replica.refresh(token),
      ]);
      expect(new Set(answers.map((answer) => answer.refreshToken)).size).toBe(1);
      expect(answers[1]).toEqual(answers[0]);
      expect(refreshCalls()).toHaveLength(1);
      expect(adminCalls()).toEqual([]);
    });

    it('ends the session a logout names with a token whose renewal is still in flight', async () => {
      let answerRenewal = () => {};
      const renewalHeld = new Promise<void>((resolve) => {
        answerRenewal = resolve;
      });
      route = async (request) => {
        if (request.path === TOKEN_PATH && request.form.get('grant_type') === 'refresh_token')
          await renewalHeld;
        // Keycloak rotated the token as it renewed: the logout's token is no longer active.
        if (request.path === INTROSPECT_PATH) return { status: 200, body: { active: false } };
        return exchangingKeycloak(request);
      };
      const session = randomUUID();
      const token = tokenOf(session);
      const renewing = provider.refresh(token);
      await vi.waitFor(() => expect(refreshCalls()).toHaveLength(1));
      const loggingOut = replica.logout(token);
      await vi.waitFor(() => expect(seen.some((call) => call.path === INTROSPECT_PATH)).toBe(true));
      answerRenewal();
      await renewing;
      expect(await loggingOut).toBe(session);
      expect(adminCalls()).toContain(`DELETE /admin/realms/rotunda/sessions/${session}?isOffline=false`);
    });

    it('answers a copy replayed through the other replica within the grace period without a second exchange', async () => {
      route = exchangingKeycloak;
      sessionActive = true;
      const token = tokenOf(randomUUID());
      const first = await provider.refresh(token);
      expect(await replica.refresh(token)).toEqual(first);
      expect(refreshCalls()).toHaveLength(1);
      expect(adminCalls()).toEqual([]);
    });

    it('refuses a copy within the grace period once the session has ended (a logout, a password change)', async () => {
      route = exchangingKeycloak;
      sessionActive = true;
      const token = tokenOf(randomUUID());
      await provider.refresh(token);
      sessionActive = false;
      await expect(replica.refresh(token)).rejects.toMatchObject({ kind: 'unauthenticated' });
      expect(refreshCalls()).toHaveLength(1);
      sessionActive = true;
    });

    it('ends the whole session for a copy after the grace period, never reaching Keycloak', async () => {
      route = exchangingKeycloak;
      const session = randomUUID();
      const token = tokenOf(session);
      await provider.refresh(token);
      await waitOutGrace();
      const error = await replica.refresh(token).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(RefreshTokenReused);
      expect(error).toMatchObject({ kind: 'unauthenticated', sessionId: session });
      expect(adminCalls()).toEqual([`DELETE /admin/realms/rotunda/sessions/${session}?isOffline=false`]);
      expect(refreshCalls()).toHaveLength(1);
    });

    it('ends the whole session for a copy once its successor was used, within the grace period too', async () => {
      route = exchangingKeycloak;
      const session = randomUUID();
      const token = tokenOf(session);
      const next = await provider.refresh(token);
      await replica.refresh(next.refreshToken);
      await expect(provider.refresh(token)).rejects.toBeInstanceOf(RefreshTokenReused);
      expect(adminCalls()).toEqual([`DELETE /admin/realms/rotunda/sessions/${session}?isOffline=false`]);
    });

    it('never ends a session for a forged token naming it, sent twice at once or one after the other', async () => {
      route = refusingKeycloak;
      const victim = randomUUID();
      const forged = tokenOf(victim);
      const outcomes = await Promise.allSettled([provider.refresh(forged), replica.refresh(forged)]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        const reason = outcome.status === 'rejected' ? outcome.reason : undefined;
        expect(reason).not.toBeInstanceOf(RefreshTokenReused);
        expect(reason).toMatchObject({ kind: 'unauthenticated' });
      }
      await expect(provider.refresh(forged)).rejects.not.toBeInstanceOf(RefreshTokenReused);
      // Keycloak judged each one; nothing was ended, nothing was kept.
      expect(refreshCalls()).toHaveLength(3);
      expect(adminCalls()).toEqual([]);
      expect((await database.rows()).filter((row) => row.sessionId === victim)).toEqual([]);
    });

    it("refuses a token whose sid has not the shape of Keycloak's session ids before any lookup or exchange", async () => {
      route = exchangingKeycloak;
      const junk = tokenOf(`junk-${'x'.repeat(200)}`);
      await expect(provider.refresh(junk)).rejects.toMatchObject({ kind: 'unauthenticated' });
      await expect(provider.refresh('e30.e30.sig')).rejects.toMatchObject({ kind: 'unauthenticated' });
      await expect(provider.refresh(tokenOf('1BIm3RkR8eG0dcPdRJFizt'))).rejects.toMatchObject({
        kind: 'unauthenticated',
      });
      expect(seen).toEqual([]);
      // Keycloak 26's ids: 24 base64url characters.
      await expect(provider.refresh(tokenOf('1BIm3RkR8eG0dcPd_JFiz-jw'))).resolves.toMatchObject({
        tokenType: 'Bearer',
      });
      expect((await database.rows()).filter((row) => row.sessionId.startsWith('junk-'))).toEqual([]);
    });

    it('keeps the answer only sealed, and only for the grace period', async () => {
      route = exchangingKeycloak;
      const token = tokenOf(randomUUID());
      const answer = await provider.refresh(token);
      const stored = (await database.rows()).filter((row) => row.successorSealed !== null);
      expect(stored.length).toBeGreaterThan(0);
      for (const row of stored) {
        const bytes = Buffer.from(row.successorSealed as Uint8Array);
        expect(bytes.includes(answer.refreshToken)).toBe(false);
        expect(bytes.includes(answer.accessToken)).toBe(false);
      }
      await waitOutGrace();
      // The next claim, of any token, clears what outlived its grace.
      await replica.refresh(tokenOf(randomUUID()));
      expect((await database.rows()).filter((row) => row.successorSealed !== null)).toHaveLength(1);
    });

    it('gives the claim back when Keycloak does not exchange the token: a retry on the other replica is no replay', async () => {
      const token = tokenOf(randomUUID());
      route = () => ({ status: 503, body: {} });
      await expect(provider.refresh(token)).rejects.not.toBeInstanceOf(DomainError);
      route = exchangingKeycloak;
      expect((await replica.refresh(token)).refreshToken).toMatch(/\./);
      expect(adminCalls()).toEqual([]);
    });
  });

  describe('a session signed in through an agency (ADR 0044)', () => {
    const ALIAS = 'state-water-board';
    /** The adapter as the wiring makes it for an OpenID Connect agency, with no pause between its tries. */
    let agencyProvider: KeycloakIdentity;
    beforeAll(() => {
      agencyProvider = createKeycloakIdentity({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        realm: 'rotunda',
        clientId: 'rotunda-auth',
        clientSecret: 'fake-secret',
        exchangedTokens: database.replicaStore(),
        renewsWithAgency: async (alias) => alias === ALIAS,
        agencyRetryMs: 0,
      });
    });

    /** Keycloak renewing the session, then answering the exchange for the agency's token as `exchange` says. */
    const keycloakWith =
      (exchange: (attempt: number) => Answer, sessionActive = () => true) =>
      (request: Seen): Answer => {
        const grant = request.form.get('grant_type');
        if (request.path === TOKEN_PATH && grant === 'client_credentials') return serviceToken;
        if (request.path === TOKEN_PATH && grant === 'refresh_token') {
          const { sid } = JSON.parse(
            Buffer.from(request.form.get('refresh_token')?.split('.')[1] ?? '', 'base64url').toString('utf8'),
          ) as { sid: string };
          return {
            status: 200,
            body: {
              ...keycloakTokens,
              access_token: tokenOf(sid, { agency: ALIAS }),
              refresh_token: tokenOf(sid, { n: randomUUID() }),
            },
          };
        }
        if (request.path === TOKEN_PATH) return exchange(exchanges().length);
        if (request.path === INTROSPECT_PATH) return { status: 200, body: { active: sessionActive() } };
        if (request.method === 'DELETE') return { status: 204, body: undefined };
        return { status: 500, body: {} };
      };
    const exchanges = () =>
      seen.filter(
        (call) => call.path === TOKEN_PATH && call.form.get('grant_type')?.endsWith('token-exchange'),
      );
    const vouches: Answer = { status: 200, body: { access_token: 'agency-token', expires_in: 10 } };
    /** What Keycloak answers when the agency refuses to renew its token (a person it disabled). */
    const agencyRefuses = refused(400, 'token_expired', 'linked token is expired');
    /** What Keycloak answers when it turns down the subject token, the session's own access token. */
    const subjectTurnedDown = refused(400, 'invalid_request', 'Invalid token');

    it('asks the agency at each renewal, and renews while it vouches', async () => {
      route = keycloakWith(() => vouches);
      const tokens = await agencyProvider.refresh(tokenOf(randomUUID()));
      expect(tokens.refreshToken).toMatch(/\./);
      expect(exchanges()).toHaveLength(1);
      expect(Object.fromEntries(exchanges()[0]?.form ?? [])).toMatchObject({
        subject_token: tokens.accessToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        requested_issuer: ALIAS,
      });
      expect(adminCalls()).toEqual([]);
    });

    it("ends the whole session when the agency refuses the person, or the person's link to it is gone", async () => {
      for (const refusal of [agencyRefuses, refused(400, 'not_linked', 'identity provider is not linked')]) {
        seen = [];
        route = keycloakWith(() => refusal);
        const session = randomUUID();
        const error = await agencyProvider.refresh(tokenOf(session)).catch((reason: unknown) => reason);
        expect(error).toBeInstanceOf(AgencyRefused);
        expect(error).toMatchObject({ kind: 'unauthenticated', sessionId: session });
        expect(adminCalls()).toEqual([`DELETE /admin/realms/rotunda/sessions/${session}?isOffline=false`]);
        // The refusal is the agency's word: it is not asked twice.
        expect(exchanges()).toHaveLength(1);
      }
    });

    it('keeps the session when Keycloak turns down its fresh access token in the exchange, and asks again', async () => {
      // Keycloak answered the renewal, then did not take the access token it had just issued: the agency was never
      // asked. The next try reaches the agency, which vouches.
      route = keycloakWith((attempt) => (attempt === 1 ? subjectTurnedDown : vouches));
      const tokens = await agencyProvider.refresh(tokenOf(randomUUID()));
      expect(tokens.accessToken).toMatch(/\./);
      expect(exchanges()).toHaveLength(2);
      expect(adminCalls()).toEqual([]);
      // The agency refusing on the second try still ends the session.
      seen = [];
      route = keycloakWith((attempt) => (attempt === 1 ? subjectTurnedDown : agencyRefuses));
      await expect(agencyProvider.refresh(tokenOf(randomUUID()))).rejects.toBeInstanceOf(AgencyRefused);
    });

    it('keeps the session, and renews, when the agency cannot be asked at all (Keycloak failing every try)', async () => {
      for (const failure of [subjectTurnedDown, { status: 503, body: {} }]) {
        seen = [];
        route = keycloakWith(() => failure);
        const tokens = await agencyProvider.refresh(tokenOf(randomUUID()));
        expect(tokens.refreshToken).toMatch(/\./);
        expect(exchanges()).toHaveLength(3);
        expect(adminCalls()).toEqual([]);
      }
    });

    it('answers a session that ended while it renewed as ended, without calling it a refusal or ending it again', async () => {
      // A logout crossing the renewal: Keycloak renewed, then the session ended before the exchange.
      route = keycloakWith(
        () => subjectTurnedDown,
        () => false,
      );
      const error = await agencyProvider.refresh(tokenOf(randomUUID())).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).not.toBeInstanceOf(AgencyRefused);
      expect(error).toMatchObject({ kind: 'unauthenticated' });
      expect(exchanges()).toHaveLength(1);
      expect(adminCalls()).toEqual([]);
    });

    it('throws for a client not allowed to exchange (a setup fault), ending no session', async () => {
      route = keycloakWith(() => refused(403, 'access_denied', 'Client not allowed to exchange'));
      const error = await agencyProvider.refresh(tokenOf(randomUUID())).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DomainError);
      expect(adminCalls()).toEqual([]);
    });
  });
});
