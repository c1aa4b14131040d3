// The Keycloak identity adapter: accounts, roles, the email-verified flag and sessions through Keycloak's admin
// REST API (keycloak-accounts.ts), tokens through the realm's OpenID Connect endpoints (keycloak-oidc.ts).
// Refresh-token rotation is Keycloak's (the realm's revokeRefreshToken with refreshTokenMaxReuse 0); a reuse it
// reports, or one any auth replica saw itself (exchangedTokens), ends the whole user session here.
import { unauthenticated } from '@rotunda/service-kit';
import { type IdentityProvider, RefreshTokenReused } from '../domain/ports.ts';
import { createKeycloakAccounts } from './keycloak-accounts.ts';
import {
  CLIENT_ERRORS,
  claimsOf,
  createKeycloakOidc,
  digest,
  keycloakFailure,
  oauthError,
  sidOf,
  toTokenSet,
} from './keycloak-oidc.ts';

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

// What Keycloak answers for a refresh token used again under revokeRefreshToken. It checks the token's signature
// and session first, so the session the token names is really the one it came from.
const REFRESH_TOKEN_REUSED = 'Maximum allowed refresh token reuse exceeded';
// What it answers for an older refresh token of the session, one issued before the newest: a copy came back.
// Keycloak compares issue times in whole seconds, so a copy used within the second its successor was issued
// passes as current; the adapter records the tokens it exchanged to catch that one (exchangedTokens).
const STALE_REFRESH_TOKEN = 'Stale token';

// A claim on an exchanged token lasts until the token would have expired anyway (Keycloak signed it, so its
// exp is Keycloak's); ten hours, Keycloak's longest session default, for one without.
const expiryOf = (refreshToken: string) => {
  const exp = claimsOf(refreshToken)?.exp;
  return new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + 36_000_000);
};

export function createKeycloakIdentity(options: KeycloakIdentityOptions): IdentityProvider {
  const base = options.url.replace(/\/+$/, '');
  const oidc = createKeycloakOidc({
    base,
    realm: options.realm,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: (input, init) => (options.fetch ?? fetch)(input, init),
  });
  const { deleteSession, ...accounts } = createKeycloakAccounts({
    base,
    realm: options.realm,
    clientId: options.clientId,
    oidc,
  });

  return {
    ...accounts,
    passwordGrant: oidc.passwordGrant,
    logout: oidc.logout,
    jwks: oidc.jwks,

    async checkPassword(email, password) {
      const tokens = await oidc.passwordGrant(email, password);
      if (!tokens) return false;
      // The grant opened a session only to prove the password: end it at once.
      await oidc.endSession(tokens.refreshToken);
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
      let answer: Awaited<ReturnType<typeof oidc.postForm>>;
      try {
        answer = await oidc.postForm('token', { grant_type: 'refresh_token', refresh_token: refreshToken });
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
  };
}
