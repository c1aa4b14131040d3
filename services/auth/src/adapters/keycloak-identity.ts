// The Keycloak identity adapter: accounts, roles, the email-verified flag and sessions through Keycloak's admin
// REST API (as the realm's confidential service client), tokens through the realm's OpenID Connect endpoints.
// Refresh-token rotation is Keycloak's (the realm's revokeRefreshToken with refreshTokenMaxReuse 0); a reuse it
// reports, or one any auth replica saw itself (exchangedTokens), ends the whole user session here.
import { createHash } from 'node:crypto';
import KcAdminClient, { NetworkError } from '@keycloak/keycloak-admin-client';
import { DomainError, notFound, unauthenticated } from '@rotunda/service-kit';
import { decodeJwt } from 'jose';
import {
  type IdentityProvider,
  type IdentityUser,
  RefreshTokenReused,
  type TokenSet,
} from '../domain/ports.ts';

export interface KeycloakIdentityOptions {
  /** Keycloak's base URL, e.g. http://keycloak:8080 (no /realms suffix). */
  url: string;
  realm: string;
  /** The confidential client with a service account (realm-management: manage-users, view-users, query-users). */
  clientId: string;
  clientSecret: string;
  /**
   * Used for the OpenID Connect calls (token, logout, certs, and the service account's own token). The admin
   * client makes its admin REST calls with the global fetch; it has no way to be handed another one.
   */
  fetch?: typeof fetch;
  /** The refresh tokens exchanged so far, shared by every auth replica (prisma-exchanged-refresh-tokens.ts). */
  exchangedTokens: ExchangedRefreshTokens;
}

/** Refresh tokens (their SHA-256) claimed for an exchange, each with its session, until the token expires. */
export interface ExchangedRefreshTokens {
  /** Claims the token for this exchange; answers null, or the session of the exchange that claimed it first. */
  claim(tokenDigest: string, sessionId: string, expiresAt: Date): Promise<string | null>;
  /** Gives back a claim whose exchange Keycloak did not make, so that a retry is no replay. */
  release(tokenDigest: string): Promise<void>;
}

type UserRepresentation = NonNullable<Awaited<ReturnType<KcAdminClient['users']['findOne']>>>;

interface KeycloakTokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  refresh_expires_in?: unknown;
  token_type?: unknown;
  session_state?: unknown;
  scope?: unknown;
}

// Long enough for a loaded Keycloak, short enough that a hung one does not hold a login open.
const REQUEST_TIMEOUT_MS = 10_000;
// Renew the service account's token this long before Keycloak would refuse it.
const RENEW_MARGIN_MS = 30_000;
// Errors that mean our own client is misconfigured (wrong secret, grant not enabled): never a member's fault,
// so they must surface as server errors rather than look like a wrong password or an ended session.
const CLIENT_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'unsupported_grant_type']);
// What Keycloak says when required actions (verify email, update profile…) block a direct grant: the realm is
// set up wrongly for Rotunda (it confirms emails itself), which a null answer would disguise as a bad password.
const NOT_FULLY_SET_UP = 'Account is not fully set up';
// What Keycloak answers for a refresh token used again under revokeRefreshToken. It checks the token's signature
// and session first, so the session the token names is really the one it came from.
const REFRESH_TOKEN_REUSED = 'Maximum allowed refresh token reuse exceeded';
// What it answers for an older refresh token of the session, one issued before the newest: a copy came back.
// Keycloak compares issue times in whole seconds, so a copy used within the second its successor was issued
// passes as current; the adapter records the tokens it exchanged to catch that one (exchangedTokens).
const STALE_REFRESH_TOKEN = 'Stale token';

export function createKeycloakIdentity(options: KeycloakIdentityOptions): IdentityProvider {
  const base = options.url.replace(/\/+$/, '');
  const oidc = `${base}/realms/${encodeURIComponent(options.realm)}/protocol/openid-connect`;
  const fetchFn: typeof fetch = (input, init) => (options.fetch ?? fetch)(input, init);
  // Keycloak gives every user its realm's composite default role (and, through it, offline_access and
  // uma_authorization). They are Keycloak's plumbing, not Rotunda roles, so the port never shows them.
  const keycloakRoles = new Set([
    `default-roles-${options.realm.toLowerCase()}`,
    'offline_access',
    'uma_authorization',
  ]);

  async function postForm(endpoint: 'token' | 'token/introspect' | 'logout', fields: Record<string, string>) {
    // client_secret_post: Keycloak's default client authenticator accepts it, and it needs no encoding rules
    // beyond the form's own.
    const body = new URLSearchParams({
      ...fields,
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    const response = await fetchFn(`${oidc}/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  }

  function oauthError(json: unknown): { error: string; description: string } {
    const body = (json ?? {}) as { error?: unknown; error_description?: unknown };
    return {
      error: typeof body.error === 'string' ? body.error : '',
      description: typeof body.error_description === 'string' ? body.error_description : '',
    };
  }

  function keycloakFailure(what: string, status: number, json: unknown): Error {
    const { error, description } = oauthError(json);
    const detail = [error, description].filter(Boolean).join(': ');
    return new Error(`Keycloak ${what} failed with HTTP ${status}${detail ? ` (${detail})` : ''}`);
  }

  function toTokenSet(json: unknown): TokenSet {
    const body = (json ?? {}) as KeycloakTokenResponse;
    if (
      typeof body.access_token !== 'string' ||
      typeof body.refresh_token !== 'string' ||
      typeof body.expires_in !== 'number'
    ) {
      throw new Error('Keycloak token response lacks access_token, refresh_token or expires_in');
    }
    return {
      accessToken: body.access_token,
      expiresIn: body.expires_in,
      refreshToken: body.refresh_token,
      // 0 is Keycloak's word for "no expiry" (offline tokens); the port keeps it.
      refreshExpiresIn: typeof body.refresh_expires_in === 'number' ? body.refresh_expires_in : 0,
      // Keycloak answers "Bearer" (older versions "bearer"); the port has one spelling.
      tokenType: 'Bearer',
      sessionState:
        typeof body.session_state === 'string' ? body.session_state : (sidOf(body.access_token) ?? ''),
      scope: typeof body.scope === 'string' ? body.scope : '',
    };
  }

  // A claim on an exchanged token lasts until the token would have expired anyway (Keycloak signed it, so its
  // exp is Keycloak's); ten hours, Keycloak's longest session default, for one without.
  const expiryOf = (refreshToken: string) => {
    const exp = claimsOf(refreshToken)?.exp;
    return new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + 36_000_000);
  };

  // The service account's access token, renewed by a new client-credentials grant before it expires: Keycloak
  // issues no refresh token for that grant, so the admin client's own refresh would fail after 5 minutes.
  let serviceToken: { value: string; renewAt: number } | undefined;
  let serviceTokenPending: Promise<string> | undefined;

  async function requestServiceToken(): Promise<string> {
    const { status, json } = await postForm('token', { grant_type: 'client_credentials' });
    if (status !== 200) throw keycloakFailure('client-credentials grant for the admin API', status, json);
    const body = (json ?? {}) as KeycloakTokenResponse;
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new Error('Keycloak client-credentials response lacks access_token or expires_in');
    }
    const lifetimeMs = body.expires_in * 1000;
    const renewIn = Math.max(0, Math.min(lifetimeMs * 0.8, lifetimeMs - RENEW_MARGIN_MS));
    serviceToken = { value: body.access_token, renewAt: Date.now() + renewIn };
    return body.access_token;
  }

  function serviceAccessToken(): Promise<string> {
    if (serviceToken && Date.now() < serviceToken.renewAt) return Promise.resolve(serviceToken.value);
    // One grant at a time: concurrent admin calls share the renewal instead of each asking Keycloak.
    serviceTokenPending ??= requestServiceToken().finally(() => {
      serviceTokenPending = undefined;
    });
    return serviceTokenPending;
  }

  const admin = new KcAdminClient({ baseUrl: base, realmName: options.realm, timeout: REQUEST_TIMEOUT_MS });
  admin.registerTokenProvider({ getAccessToken: serviceAccessToken });

  const statusOf = (error: unknown) => (error instanceof NetworkError ? error.response.status : undefined);

  /** An admin call, retried once with a fresh token if Keycloak no longer accepts ours (restart, key rotation). */
  async function adminCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call().catch(async (error: unknown) => {
        if (statusOf(error) !== 401) throw error;
        serviceToken = undefined;
        return call();
      });
    } catch (error) {
      if (statusOf(error) === 403) {
        // Say what to fix: Keycloak's own answer to this is a bare "HTTP 403".
        throw new Error(
          `Keycloak refused an admin call (HTTP 403): the service account of client '${options.clientId}' needs the realm-management roles manage-users, view-users and query-users`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  /** An admin call on one account: Keycloak's 404 becomes the domain's not_found. */
  async function onAccount<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await adminCall(call);
    } catch (error) {
      if (statusOf(error) === 404) throw notFound('No account with this id');
      throw error;
    }
  }

  async function passwordGrant(email: string, password: string): Promise<TokenSet | null> {
    const { status, json } = await postForm('token', {
      grant_type: 'password',
      username: email.trim().toLowerCase(),
      password,
      scope: 'openid',
    });
    if (status === 200) return toTokenSet(json);
    const { error, description } = oauthError(json);
    if (CLIENT_ERRORS.has(error) || description === NOT_FULLY_SET_UP) {
      throw keycloakFailure('password grant', status, json);
    }
    // 401 invalid_grant "Invalid user credentials" (also what a brute-force lock answers), 400 invalid_grant
    // for a disabled account: no tokens, and no hint which.
    if (status === 401 || error === 'invalid_grant') return null;
    throw keycloakFailure('password grant', status, json);
  }

  /** Keycloak's back-channel logout: the end-session endpoint with a refresh token and client credentials. */
  async function endSession(refreshToken: string): Promise<string | null> {
    const { status, json } = await postForm('logout', { refresh_token: refreshToken });
    // Keycloak accepted the token, so the session it names is the one that ended.
    if (status >= 200 && status < 300) return sidOf(refreshToken);
    const { error } = oauthError(json);
    // An unknown, expired or already-ended session: there is nothing left to end.
    if ((status === 400 || status === 401) && !CLIENT_ERRORS.has(error)) return null;
    throw keycloakFailure('logout', status, json);
  }

  async function logout(refreshToken: string): Promise<string | null> {
    // Keycloak answers 204 to a logout with the refresh token of a session that has already ended, so whether
    // the session is still going is asked first (introspection answers active: false for an ended one).
    const { status, json } = await postForm('token/introspect', {
      token: refreshToken,
      token_type_hint: 'refresh_token',
    });
    if (status !== 200) throw keycloakFailure('introspect', status, json);
    if ((json as { active?: unknown } | undefined)?.active !== true) return null;
    return endSession(refreshToken);
  }

  /** Ends one user session (every client's part of it); one already gone is no error. */
  async function deleteSession(id: string): Promise<void> {
    try {
      await adminCall(() =>
        admin.realms.deleteSession({ realm: options.realm, session: id, isOffline: false }),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  async function rolesOf(id: string): Promise<string[]> {
    const mapped = await onAccount(() => admin.users.listRealmRoleMappings({ id }));
    return mapped
      .map((role) => role.name)
      .filter((name): name is string => typeof name === 'string' && !keycloakRoles.has(name))
      .sort();
  }

  async function toIdentityUser(user: UserRepresentation): Promise<IdentityUser | null> {
    if (!user.id) return null;
    return {
      id: user.id,
      email: user.email ?? '',
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      emailVerified: user.emailVerified ?? false,
      roles: await rolesOf(user.id),
    };
  }

  return {
    async createUser(user) {
      const email = user.email.trim().toLowerCase();
      const emailVerified = user.emailVerified ?? false;
      try {
        const { id } = await adminCall(() =>
          admin.users.create({
            // The email is the username too, so the password grant works whether Keycloak looks up either.
            username: email,
            email,
            firstName: user.firstName,
            lastName: user.lastName,
            enabled: true,
            emailVerified,
            credentials: [{ type: 'password', value: user.password, temporary: false }],
          }),
        );
        // A new account holds only Keycloak's default role, which the port does not show.
        return { id, email, firstName: user.firstName, lastName: user.lastName, emailVerified, roles: [] };
      } catch (error) {
        if (statusOf(error) === 409) {
          throw new DomainError('already_exists', 'An account with this email already exists');
        }
        throw error;
      }
    },

    async findUserByEmail(email) {
      const wanted = email.trim().toLowerCase();
      const found = await adminCall(() => admin.users.find({ email: wanted, exact: true, max: 2 }));
      // exact: true already asks for equality; the check keeps a looser server from answering a neighbour.
      const user = found.find((candidate) => candidate.email?.toLowerCase() === wanted);
      return user ? toIdentityUser(user) : null;
    },

    async findUserById(id) {
      // findOne answers null on Keycloak's 404.
      const user = await adminCall(() => admin.users.findOne({ id }));
      if (!user) return null;
      try {
        return await toIdentityUser(user);
      } catch (error) {
        // Deleted between the two calls.
        if (error instanceof DomainError && error.kind === 'not_found') return null;
        throw error;
      }
    },

    async setEmailVerified(userId, verified) {
      const user = await adminCall(() => admin.users.findOne({ id: userId }));
      if (!user) throw notFound('No account with this id');
      // Keycloak's PUT replaces the user (attributes left out are cleared), so the whole representation goes
      // back with only the flag changed.
      await onAccount(() => admin.users.update({ id: userId }, { ...user, emailVerified: verified }));
    },

    async setPassword(userId, password) {
      await onAccount(() =>
        admin.users.resetPassword({
          id: userId,
          credential: { type: 'password', value: password, temporary: false },
        }),
      );
    },

    passwordGrant,

    async checkPassword(email, password) {
      const tokens = await passwordGrant(email, password);
      if (!tokens) return false;
      // The grant opened a session only to prove the password: end it at once.
      await endSession(tokens.refreshToken);
      return true;
    },

    async refresh(refreshToken) {
      const sid = sidOf(refreshToken);
      const tokenDigest = digest(refreshToken);
      // Claimed before Keycloak is asked, so that of two replicas given the same token at once only one asks.
      // The very token exchanged before: its session is the one Keycloak accepted it for then.
      const earlier = sid
        ? await options.exchangedTokens.claim(tokenDigest, sid, expiryOf(refreshToken))
        : null;
      if (earlier) {
        await deleteSession(earlier);
        throw new RefreshTokenReused(earlier);
      }
      // Not exchanged (refused, or Keycloak unreachable): the claim goes back, so a retry is no replay.
      const release = () => (sid ? options.exchangedTokens.release(tokenDigest) : Promise.resolve());
      let answer: Awaited<ReturnType<typeof postForm>>;
      try {
        answer = await postForm('token', { grant_type: 'refresh_token', refresh_token: refreshToken });
      } catch (error) {
        await release();
        throw error;
      }
      const { status, json } = answer;
      if (status === 200) return toTokenSet(json);
      await release();
      const { error, description } = oauthError(json);
      if ((description === REFRESH_TOKEN_REUSED || description === STALE_REFRESH_TOKEN) && sid) {
        // Keycloak drops only this client's part of the session; the whole of it ends here.
        await deleteSession(sid);
        throw new RefreshTokenReused(sid);
      }
      // 400 invalid_grant: expired, revoked ("Session not active"), forged ("Invalid refresh token") or another
      // client's token. Anything else is Keycloak's or our configuration's problem, not the member's.
      if ((status === 400 || status === 401) && !CLIENT_ERRORS.has(error))
        throw unauthenticated('Session not active');
      throw keycloakFailure('refresh', status, json);
    },

    logout,

    async endSessions(userId, keep) {
      let sessions: Awaited<ReturnType<KcAdminClient['users']['listSessions']>>;
      try {
        sessions = await adminCall(() => admin.users.listSessions({ id: userId }));
        if (!keep) {
          // Ends every session and sets the user's not-before, so refresh tokens issued earlier stop working.
          await adminCall(() => admin.users.logout({ id: userId }));
        }
      } catch (error) {
        // No such account: it has no sessions to end.
        if (statusOf(error) === 404) return [];
        throw error;
      }
      const ended = sessions
        .map((session) => session.id)
        .filter((id): id is string => typeof id === 'string' && id !== keep);
      // Not the account-wide logout: its not-before would end the session to keep as well.
      if (keep) for (const id of ended) await deleteSession(id);
      return ended;
    },

    async grantRole(userId, role) {
      // Mapping a role needs its id, and reading a realm role by name needs view-realm, which the service
      // account does not hold; the roles it may map to this user carry their ids.
      const available = await onAccount(() => admin.users.listAvailableRealmRoleMappings({ id: userId }));
      const target = available.find((candidate) => candidate.name === role);
      if (target?.id && target.name) {
        const mapping = { id: target.id, name: target.name };
        await onAccount(() => admin.users.addRealmRoleMappings({ id: userId, roles: [mapping] }));
        return;
      }
      // "Available" leaves out the roles the user already holds.
      if ((await rolesOf(userId)).includes(role)) return;
      throw new Error(
        `Keycloak realm '${options.realm}' has no realm role '${role}' that the service client may map`,
      );
    },

    async revokeRole(userId, role) {
      const mapped = await onAccount(() => admin.users.listRealmRoleMappings({ id: userId }));
      const target = mapped.find((candidate) => candidate.name === role);
      if (!target?.id || !target.name) return;
      const mapping = { id: target.id, name: target.name };
      await onAccount(() => admin.users.delRealmRoleMappings({ id: userId, roles: [mapping] }));
    },

    async jwks() {
      const response = await fetchFn(`${oidc}/certs`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`Keycloak certs endpoint failed with HTTP ${response.status}`);
      const body = (await response.json()) as { keys?: unknown };
      const keys = Array.isArray(body.keys) ? body.keys : [];
      return {
        keys: keys.filter(
          (key): key is Record<string, unknown> =>
            typeof key === 'object' &&
            key !== null &&
            // Keycloak also publishes its RSA-OAEP encryption key; only signing keys verify tokens.
            (key as { use?: unknown }).use !== 'enc' &&
            // Public keys only, whatever a misconfigured provider might publish.
            !('d' in key) &&
            !('k' in key),
        ),
      };
    },
  };
}

/** Refresh tokens are remembered by their SHA-256, never as they are. */
const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token's claims, unverified: only for tokens Keycloak is about to check, or has checked. */
function claimsOf(token: string): Record<string, unknown> | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/**
 * The session a Keycloak token names (`sid`, or `session_state` in older versions), read without checking its
 * signature: only for tokens Keycloak itself has just accepted or issued.
 */
function sidOf(token: string): string | null {
  const claims = claimsOf(token);
  const sid = claims?.sid ?? claims?.session_state;
  return typeof sid === 'string' && sid !== '' ? sid : null;
}
