// The Keycloak identity adapter: accounts, roles, the email-verified flag and sessions through Keycloak's admin
// REST API (keycloak-accounts.ts), tokens through the realm's OpenID Connect endpoints (keycloak-oidc.ts).
// Refresh-token rotation is Keycloak's (the realm's revokeRefreshToken with refreshTokenMaxReuse 0), with the
// exchanges recorded for every auth replica (exchangedTokens): a copy used within seconds of its exchange, while
// the successor is unused, is answered Keycloak's same answer again without reaching Keycloak; any other reuse,
// once Keycloak has confirmed the earlier exchange, ends the whole user session here (ADR 0036).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { unauthenticated } from '@rotunda/service-kit';
import { AgencyRefused, type IdentityProvider, RefreshTokenReused, type TokenSet } from '../domain/ports.ts';
import { createKeycloakAccounts, type KeycloakAccounts } from './keycloak-accounts.ts';
import {
  type AgencyAnswer,
  CLIENT_ERRORS,
  claimsOf,
  createKeycloakOidc,
  digest,
  type KeycloakOidc,
  KeycloakUnavailableError,
  keycloakFailure,
  oauthError,
  SIGN_IN_TIMEOUT_MS,
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
  /**
   * Whether a session signed in through this agency (the access token's `agency` claim, its alias) is checked
   * with the agency at each renewal: OpenID Connect agencies are; SAML ones have no renewal to ask for.
   */
  renewsWithAgency?: (alias: string) => Promise<boolean>;
  /** The pause before asking the agency again when Keycloak did not ask it, growing with each try (tests: 0). */
  agencyRetryMs?: number;
}

/** How many times a renewal tries the exchange for the agency's token while Keycloak does not ask the agency. */
const AGENCY_ATTEMPTS = 3;
const AGENCY_RETRY_MS = 250;
/** The least time given to asking whether brute-force detection holds an account whose password was refused. */
const HOLD_CHECK_MIN_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What an earlier exchange of the same token leaves for this one. */
export type RefreshClaim =
  /** None: this call exchanges the token. */
  | { kind: 'claimed' }
  /** Exchanged moments ago and its successor still unused: Keycloak's answer then, sealed with the token. */
  | { kind: 'grace'; sealed: Uint8Array }
  /** Exchanged before, Keycloak having accepted it for this session: a reuse. */
  | { kind: 'reused'; sessionId: string };

/** Refresh tokens (their SHA-256) claimed for an exchange, each with its session, until the token expires. */
export interface ExchangedRefreshTokens {
  /**
   * Claims the token for this exchange, or answers what an earlier exchange of it left; while another exchange
   * of it is in flight, waits for its outcome. A claim on a token that is some exchange's successor marks that
   * successor used.
   */
  claim(tokenDigest: string, sessionId: string, expiresAt: Date): Promise<RefreshClaim>;
  /** Keycloak exchanged the token: its session, the successor's digest and the answer, sealed, for the grace. */
  exchanged(
    tokenDigest: string,
    exchange: { sessionId: string; successorDigest: string; sealed: Uint8Array },
  ): Promise<void>;
  /** Gives back a claim whose exchange Keycloak did not make, so that a retry is no replay. */
  release(tokenDigest: string): Promise<void>;
  /**
   * The session of a token Keycloak exchanged and that has not expired, else null; while an exchange of it is in
   * flight, answers once that exchange has ended.
   */
  sessionOf(tokenDigest: string): Promise<string | null>;
}

// What Keycloak answers for a refresh token used again under revokeRefreshToken. It checks the token's signature
// and session first, so the session the token names is really the one it came from.
const REFRESH_TOKEN_REUSED = 'Maximum allowed refresh token reuse exceeded';
// What it answers for an older refresh token of the session, one issued before the newest: a copy came back.
// Keycloak compares issue times in whole seconds, so a copy used within the second its successor was issued
// passes as current; the adapter records the tokens it exchanged to catch that one (exchangedTokens).
const STALE_REFRESH_TOKEN = 'Stale token';

/**
 * The shapes of Keycloak's session ids: a UUID before version 26, 24 base64url characters (18 random bytes) since.
 * A token naming anything else is refused before any lookup.
 */
const SESSION_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{24})$/i;

/**
 * The answer to a refresh is kept for its grace period sealed (AES-256-GCM) with a key derived from the refresh
 * token it answered, which the table stores only as a SHA-256: the rows open only for whoever holds that token,
 * the one party the answer is for, and a copy of the database opens none of them.
 */
const sealKey = (refreshToken: string) =>
  Buffer.from(hkdfSync('sha256', refreshToken, 'rotunda refresh grace', 'successor token set', 32));

function seal(refreshToken: string, tokens: TokenSet): Uint8Array {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(refreshToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function unseal(refreshToken: string, sealed: Uint8Array): TokenSet {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', sealKey(refreshToken), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(
    Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8'),
  ) as TokenSet;
}

// A claim on an exchanged token lasts until the token would have expired anyway (Keycloak signed it, so its
// exp is Keycloak's); ten hours, Keycloak's longest session default, for one without.
const expiryOf = (refreshToken: string) => {
  const exp = claimsOf(refreshToken)?.exp;
  return new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + 36_000_000);
};

/** The identity port through Keycloak, and the deletion of a user through its admin API. */
export interface KeycloakIdentity extends IdentityProvider {
  /** Deletes the user and their sessions, answering those sessions' ids; a user already gone ends none. */
  deleteUser(id: string): Promise<string[]>;
  /** The realm's OpenID Connect calls as the auth service's client (brokered sign-ins use its code grant). */
  oidc: KeycloakOidc;
  /** An admin REST call as the service account (the agencies' identity providers). */
  withAdmin: KeycloakAccounts['withAdmin'];
}

export function createKeycloakIdentity(options: KeycloakIdentityOptions): KeycloakIdentity {
  const base = options.url.replace(/\/+$/, '');
  const oidc = createKeycloakOidc({
    base,
    realm: options.realm,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: (input, init) => (options.fetch ?? fetch)(input, init),
  });
  const { deleteSession, heldByBruteForce, ...accounts } = createKeycloakAccounts({
    base,
    realm: options.realm,
    clientId: options.clientId,
    oidc,
  });

  const agencyRetryMs = options.agencyRetryMs ?? AGENCY_RETRY_MS;
  /**
   * Asks the agency about the session just renewed. When Keycloak did not ask it (it turned down the session's
   * own access token, failed, or was unreachable), the agency has not refused anyone: while the session is still
   * going, the exchange is tried again after a pause, and after the last try the renewal goes through, the next
   * one asking again. A session that ended meanwhile answers 'ended'.
   */
  async function askAgency(tokens: TokenSet, alias: string): Promise<AgencyAnswer | 'ended'> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await oidc.askAgency(tokens.accessToken, alias);
      if (answer !== 'unsure') return answer;
      if (!(await oidc.active(tokens.refreshToken))) return 'ended';
      if (attempt >= AGENCY_ATTEMPTS) return answer;
      await sleep(agencyRetryMs * attempt);
    }
  }

  /**
   * The password grant. Keycloak answers an account its brute-force detection holds as it answers a wrong
   * password, without checking the password; it held the demo member for seconds after a restart with no wrong
   * password before (the faults bench). Such a refusal is no verdict on the password: sign-in is unavailable for
   * the account now (503, the try given back), never 401 for a right password.
   */
  async function passwordGrant(email: string, password: string): Promise<TokenSet | null> {
    const started = performance.now();
    const tokens = await oidc.passwordGrant(email, password);
    if (tokens) return tokens;
    // Within what is left of the sign-in's time (the gateway's deadline): a Keycloak too slow to say, just
    // started, is as good as away.
    const left = Math.max(HOLD_CHECK_MIN_MS, SIGN_IN_TIMEOUT_MS - (performance.now() - started));
    let giveUp: NodeJS.Timeout | undefined;
    const held = await Promise.race([
      heldByBruteForce(email),
      new Promise<undefined>((resolve) => {
        giveUp = setTimeout(() => resolve(undefined), left);
      }),
    ]).finally(() => clearTimeout(giveUp));
    if (held === false) return null;
    throw new KeycloakUnavailableError(
      'password grant: the account is held by brute-force detection',
      new Error(
        held
          ? 'Keycloak answered invalid_grant for an account its brute-force detection holds'
          : 'Keycloak refused the password grant and did not say in time whether it holds the account',
      ),
    );
  }

  return {
    ...accounts,
    oidc,
    passwordGrant,

    async logout(refreshToken) {
      const ended = await oidc.logout(refreshToken);
      if (ended) return ended;
      // A renewal rotated the token moments before (a logout crossing a renewal): Keycloak refuses it as stale,
      // but the record of its exchange, made once Keycloak had checked it, names the session it belongs to.
      const sessionId = await options.exchangedTokens.sessionOf(digest(refreshToken));
      if (!sessionId) return null;
      await deleteSession(sessionId);
      return sessionId;
    },
    jwks: oidc.jwks,

    async checkPassword(email, password) {
      const tokens = await passwordGrant(email, password);
      if (!tokens) return false;
      // The grant opened a session only to prove the password: end it at once.
      await oidc.endSession(tokens.refreshToken);
      return true;
    },

    async refresh(refreshToken) {
      const sid = sidOf(refreshToken);
      if (!sid || !SESSION_ID.test(sid)) throw unauthenticated('Session not active');
      const tokenDigest = digest(refreshToken);
      // Claimed before Keycloak is asked, so that of two replicas given the same token at once only one asks,
      // and the other is answered what Keycloak answered it.
      const earlier = await options.exchangedTokens.claim(tokenDigest, sid, expiryOf(refreshToken));
      if (earlier.kind === 'grace') {
        const tokens = unseal(refreshToken, earlier.sealed);
        // The session may have ended since the exchange (a logout, a password change): the kept answer is given
        // only while Keycloak still takes its refresh token.
        if (!(await oidc.active(tokens.refreshToken))) throw unauthenticated('Session not active');
        return tokens;
      }
      if (earlier.kind === 'reused') {
        // The session Keycloak accepted the very same token for then.
        await deleteSession(earlier.sessionId);
        throw new RefreshTokenReused(earlier.sessionId);
      }
      // Not exchanged (refused, or Keycloak unreachable): the claim goes back, so a retry is no replay, and a
      // forged token naming someone's session leaves no trace that could end it.
      const release = () => options.exchangedTokens.release(tokenDigest);
      let answer: Awaited<ReturnType<typeof oidc.postForm>>;
      try {
        answer = await oidc.postForm('token', { grant_type: 'refresh_token', refresh_token: refreshToken });
      } catch (error) {
        await release();
        throw error;
      }
      const { status, json } = answer;
      if (status === 200) {
        const tokens = toTokenSet(json);
        // Keycloak checked the token's signature, so its sid is the session's.
        await options.exchangedTokens.exchanged(tokenDigest, {
          sessionId: sid,
          successorDigest: digest(tokens.refreshToken),
          sealed: seal(refreshToken, tokens),
        });
        // Keycloak never asks an agency again by itself: a person the agency disabled would renew for ever.
        const agency = claimsOf(tokens.accessToken)?.agency;
        if (typeof agency === 'string' && agency !== '' && (await options.renewsWithAgency?.(agency))) {
          const answer = await askAgency(tokens, agency);
          // Only the agency's refusal ends the session.
          if (answer === 'refused') {
            await deleteSession(sid);
            throw new AgencyRefused(sid);
          }
          // The session ended while it renewed (a logout crossing the renewal): nothing is left to end.
          if (answer === 'ended') throw unauthenticated('Session not active');
        }
        return tokens;
      }
      await release();
      const { error, description } = oauthError(json);
      if (description === REFRESH_TOKEN_REUSED || description === STALE_REFRESH_TOKEN) {
        // Keycloak checked the signature before it found the reuse. It drops only this client's part of the
        // session; the whole of it ends here.
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
