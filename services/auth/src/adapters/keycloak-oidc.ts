// The Keycloak realm's OpenID Connect endpoints as the auth service's confidential client calls them: the token
// grants (password, authorization code, the exchange for an agency's token), introspection, the back-channel logout and the signing keys, with Keycloak's error answers read into
// what the identity port means by them (no tokens, a session already gone, or a server-side misconfiguration);
// Keycloak being away (unreachable, timed out, 502/503/504) is KeycloakUnavailableError, answered "try again
// shortly".
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { TokenSet } from '../domain/ports.ts';

export interface KeycloakOidcOptions {
  /** Keycloak's base URL without the /realms suffix. */
  base: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
}

export interface KeycloakTokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  refresh_expires_in?: unknown;
  token_type?: unknown;
  session_state?: unknown;
  scope?: unknown;
}

// Long enough for a loaded Keycloak, short enough that a hung one does not hold a call open. Calls that must
// complete once asked (a logout, a password change, a renewal) get this even when the gateway stopped waiting.
export const REQUEST_TIMEOUT_MS = 10_000;
// A sign-in only: given up on in time to answer "try again shortly" within the gateway's 10 s deadline for calls
// that hash a password (PASSWORD_DEADLINE_MS, ADR 0062) rather than "did not answer in time" after it, leaving the
// rest of that time to the calls after the grant; a member signing in loses nothing by asking again.
export const SIGN_IN_TIMEOUT_MS = 6_000;

/** What a member reads while Keycloak cannot be reached. */
export const KEYCLOAK_UNAVAILABLE = 'Sign-in is unavailable right now. Please try again shortly.';

/**
 * Keycloak could not be reached, did not answer in time, or said it is overloaded or down: sign-in, registration
 * and password changes answer UNAVAILABLE ("try again shortly"), not a server fault. `dependency` names it for
 * the service kit's classification and metrics.
 */
export class KeycloakUnavailableError extends Error {
  override name = 'KeycloakUnavailableError';
  readonly dependency = 'identity';
  /** The call that failed, for the log line. */
  readonly what: string;

  constructor(what: string, cause: unknown) {
    super(KEYCLOAK_UNAVAILABLE, { cause });
    this.what = what;
  }
}

/** Keycloak's answers that mean "not now" (its proxy or itself starting, stopping, overloaded). */
const UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Is `error` Keycloak being away rather than a refusal: fetch failing below HTTP (refused, reset, name not
 * found: undici's "fetch failed"), the call's timeout, or the admin client's error for a 502/503/504 answer?
 */
export function isKeycloakUnreachable(error: unknown): boolean {
  if (error instanceof KeycloakUnavailableError) return true;
  const { name, message, response } = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    response?: unknown;
  };
  if (name === 'TimeoutError' || name === 'AbortError') return true;
  if (error instanceof TypeError && message === 'fetch failed') return true;
  const status = (response as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && UNAVAILABLE_STATUSES.has(status);
}

/** Runs one call to Keycloak, its being away answered as KeycloakUnavailableError. */
export async function reachingKeycloak<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof KeycloakUnavailableError || !isKeycloakUnreachable(error)) throw error;
    throw new KeycloakUnavailableError(what, error);
  }
}
// Errors that mean our own client is misconfigured (wrong secret, grant not enabled): never a member's fault,
// so they must surface as server errors rather than look like a wrong password or an ended session.
export const CLIENT_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'unsupported_grant_type']);
// What Keycloak says when required actions (verify email, update profile…) block a direct grant: the realm is
// set up wrongly for Rotunda (it confirms emails itself), which a null answer would disguise as a bad password.
const NOT_FULLY_SET_UP = 'Account is not fully set up';
/**
 * The token exchange's answers that come from the agency's side (Keycloak's identity-provider exchange): the
 * agency's token could not be renewed at the agency (`token_expired`: the agency refused, e.g. a disabled person
 * or an ended agency session), or the person is no longer linked to it (`not_linked`). Anything else is not the
 * agency speaking: `invalid_request` "Invalid token" is Keycloak turning down the subject token, our own session's.
 */
const AGENCY_REFUSALS = new Set(['token_expired', 'not_linked']);

/** The agency's word at a renewal: it vouches, it refused the person, or it could not be asked (ADR 0044). */
export type AgencyAnswer = 'vouches' | 'refused' | 'unsure';

export type KeycloakOidc = ReturnType<typeof createKeycloakOidc>;

export function createKeycloakOidc(options: KeycloakOidcOptions) {
  const oidc = `${options.base}/realms/${encodeURIComponent(options.realm)}/protocol/openid-connect`;

  async function postForm(
    endpoint: 'token' | 'token/introspect' | 'logout',
    fields: Record<string, string>,
    timeoutMs = REQUEST_TIMEOUT_MS,
  ) {
    // client_secret_post: Keycloak's default client authenticator accepts it, and it needs no encoding rules
    // beyond the form's own.
    const body = new URLSearchParams({
      ...fields,
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    const { status, text } = await reachingKeycloak(endpoint, async () => {
      const response = await options.fetch(`${oidc}/${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, text: await response.text() };
    });
    if (UNAVAILABLE_STATUSES.has(status))
      throw new KeycloakUnavailableError(endpoint, new Error(`Keycloak answered HTTP ${status}`));
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status, json };
  }

  async function passwordGrant(email: string, password: string): Promise<TokenSet | null> {
    const { status, json } = await postForm(
      'token',
      { grant_type: 'password', username: email.trim().toLowerCase(), password, scope: 'openid' },
      SIGN_IN_TIMEOUT_MS,
    );
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

  /**
   * Authorization-code grant (a brokered sign-in coming back): the tokens and the ID token, or null when Keycloak
   * refuses the code (expired, used, forged, or another verifier or redirect URI than the sign-in began with).
   */
  async function codeGrant(
    code: string,
    codeVerifier: string,
    redirectUri: string,
  ): Promise<{ tokens: TokenSet; idToken: string } | null> {
    const { status, json } = await postForm('token', {
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
    });
    if (status === 200) {
      const idToken = (json as { id_token?: unknown } | undefined)?.id_token;
      if (typeof idToken !== 'string') throw new Error('Keycloak code grant answered no id_token');
      return { tokens: toTokenSet(json), idToken };
    }
    const { error } = oauthError(json);
    if (status === 400 && error === 'invalid_grant') return null;
    throw keycloakFailure('authorization-code grant', status, json);
  }

  /**
   * Does the agency still vouch for the session's person? Keycloak's legacy token exchange for the agency's token
   * (requested_issuer: its alias) answers the agency's stored token, or refreshes it at the agency once it has
   * expired; the agency refusing (a disabled person, an ended agency session) fails the exchange (ADR 0044).
   * Answers 'refused' only for that refusal (or a link to the agency that is gone); 'unsure' when the agency was
   * not asked at all: Keycloak turned down the session's own access token (a logout crossing the renewal, or its
   * session state not yet in step), failed, or could not be reached.
   */
  async function askAgency(accessToken: string, alias: string): Promise<AgencyAnswer> {
    let answer: Awaited<ReturnType<typeof postForm>>;
    try {
      answer = await postForm('token', {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: accessToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        requested_issuer: alias,
      });
    } catch {
      return 'unsure';
    }
    const { status, json } = answer;
    if (status === 200) return 'vouches';
    const { error } = oauthError(json);
    // Our client not allowed to exchange is a setup fault, never the member's: it must not sign them out.
    if (CLIENT_ERRORS.has(error) || status === 403)
      throw keycloakFailure('token exchange for the agency', status, json);
    if (status === 400 && AGENCY_REFUSALS.has(error)) return 'refused';
    return 'unsure';
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

  /** Does the refresh token still work? Introspection answers active: false for an ended session's. */
  async function active(refreshToken: string): Promise<boolean> {
    const { status, json } = await postForm('token/introspect', {
      token: refreshToken,
      token_type_hint: 'refresh_token',
    });
    if (status !== 200) throw keycloakFailure('introspect', status, json);
    return (json as { active?: unknown } | undefined)?.active === true;
  }

  async function logout(refreshToken: string): Promise<string | null> {
    // Keycloak answers 204 to a logout with the refresh token of a session that has already ended, so whether
    // the session is still going is asked first.
    return (await active(refreshToken)) ? endSession(refreshToken) : null;
  }

  async function jwks() {
    const body = await reachingKeycloak('certs', async () => {
      const response = await options.fetch(`${oidc}/certs`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (UNAVAILABLE_STATUSES.has(response.status))
        throw new KeycloakUnavailableError('certs', new Error(`Keycloak answered HTTP ${response.status}`));
      if (!response.ok) throw new Error(`Keycloak certs endpoint failed with HTTP ${response.status}`);
      return (await response.json()) as { keys?: unknown };
    });
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
  }

  return { postForm, passwordGrant, codeGrant, askAgency, endSession, active, logout, jwks };
}

export function oauthError(json: unknown): { error: string; description: string } {
  const body = (json ?? {}) as { error?: unknown; error_description?: unknown };
  return {
    error: typeof body.error === 'string' ? body.error : '',
    description: typeof body.error_description === 'string' ? body.error_description : '',
  };
}

export function keycloakFailure(what: string, status: number, json: unknown): Error {
  const { error, description } = oauthError(json);
  const detail = [error, description].filter(Boolean).join(': ');
  return new Error(`Keycloak ${what} failed with HTTP ${status}${detail ? ` (${detail})` : ''}`);
}

export function toTokenSet(json: unknown): TokenSet {
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

/** Refresh tokens are remembered by their SHA-256, never as they are. */
export const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token's claims, unverified: only for tokens Keycloak is about to check, or has checked. */
export function claimsOf(token: string): Record<string, unknown> | null {
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
export function sidOf(token: string): string | null {
  const claims = claimsOf(token);
  const sid = claims?.sid ?? claims?.session_state;
  return typeof sid === 'string' && sid !== '' ? sid : null;
}
