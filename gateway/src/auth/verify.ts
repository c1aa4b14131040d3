// Access-token verification: an RS256 JWT from our issuer, signed by one of its published keys, unexpired,
// an access token (Keycloak's typ 'Bearer', not a refresh or ID token), issued to one of Rotunda's member-facing
// clients (`azp`) for an account whose email is confirmed, and of a session (`sid`, which every token must
// name: one without could never be told ended) that has not ended. Answers the caller it names and its session.
import type { Caller } from '@rotunda/service-kit';
import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';

/**
 * The texts a refused token answers with (401). An expired token is the everyday case (a member came back
 * to an old tab), and a token of an ended session (logged out, password changed elsewhere) the next, so both
 * say what to do; anything else (tampered, signed by another key, another issuer, a refresh token, garbage)
 * gets one plain text that tells an attacker nothing about which check failed.
 */
export const TOKEN_MESSAGES = {
  expired: 'Your session has expired. Please log in again.',
  ended: 'Your session has ended. Please log in again.',
  invalid: 'Invalid token',
} as const;

export type TokenRejection = keyof typeof TOKEN_MESSAGES;

/** The token itself is not acceptable: the gateway answers 401. */
export class TokenRejected extends Error {
  override name = 'TokenRejected';
  readonly reason: TokenRejection;

  constructor(reason: TokenRejection, detail: string) {
    super(detail);
    this.reason = reason;
  }
}

/** Keycloak's access-token claims the gateway reads. */
interface AccessTokenClaims extends JWTPayload {
  typ?: unknown;
  azp?: unknown;
  email_verified?: unknown;
  sid?: unknown;
  email?: unknown;
  realm_access?: { roles?: unknown };
}

export interface TokenVerifierOptions {
  issuer: string;
  keys: JWTVerifyGetKey;
  /**
   * The clients whose tokens open the API (`azp`): the web client, and in Keycloak mode the auth service's
   * client that signs members in. A token the realm issued to anything else (admin-cli, another application)
   * names no member here.
   */
  clients: readonly string[];
  /** Leeway for exp/nbf/iat between the provider's clock and ours. */
  clockToleranceSeconds?: number;
  /** Verified tokens remembered until they expire; 0 verifies every request. */
  rememberTokens?: number;
  /** Has this session ended (logout, password change)? Its tokens are refused however long they have left. */
  isEnded?: (sessionId: string) => boolean;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/**
 * How many verified tokens the gateway remembers. A member's tab sends the same token on every call until it is
 * renewed, and checking its RS256 signature each time was a large part of what the gateway spent on a list page
 * (ADR 0033 has the figures).
 */
export const REMEMBERED_TOKENS = 5000;

/** What a valid access token says. */
export interface VerifiedToken {
  caller: Caller;
  /** The session it belongs to (Keycloak's `sid` claim). */
  sessionId: string;
  /** When it expires (its `exp`), in milliseconds since the epoch: a live stream it opened ends then. */
  expiresAt: number;
}

export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/** Errors that mean "this token is not acceptable", as opposed to "the keys could not be fetched". */
const TOKEN_FAULTS = new Set<string>([
  errors.JWTClaimValidationFailed.code,
  errors.JWSInvalid.code,
  errors.JWTInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
]);

export function createTokenVerifier({
  issuer,
  keys,
  clients,
  clockToleranceSeconds = 30,
  rememberTokens = REMEMBERED_TOKENS,
  isEnded = () => false,
  now = Date.now,
}: TokenVerifierOptions): TokenVerifier {
  /**
   * Tokens that passed every check, with the caller they name, until their expiry (plus the tolerance the check
   * itself grants). A token is immutable and its signature cannot stop being valid, so remembering it changes
   * no answer; the one difference is that a signing key the provider withdraws keeps its tokens accepted until
   * they expire, minutes at most, instead of until the key cache refreshes. Whether its session ended is asked
   * anew on every request.
   */
  const remembered = new Map<string, VerifiedToken & { until: number }>();

  const verify = async (token: string): Promise<VerifiedToken & { until: number }> => {
    let claims: AccessTokenClaims;
    try {
      ({ payload: claims } = await jwtVerify<AccessTokenClaims>(token, keys, {
        currentDate: new Date(now()),
        // Only the provider's asymmetric algorithm: never 'none', never HS256 keyed with a public key.
        algorithms: ['RS256'],
        issuer,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: clockToleranceSeconds,
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new TokenRejected('expired', error.message);
      if (error instanceof errors.JOSEError && TOKEN_FAULTS.has(error.code))
        throw new TokenRejected('invalid', error.message);
      // The keys could not be fetched (provider down, timeout, bad JWKS): not the member's fault.
      throw error;
    }
    // Keycloak marks its tokens by purpose: a refresh or ID token must not open the API.
    if (claims.typ !== 'Bearer')
      throw new TokenRejected('invalid', `not an access token (typ ${String(claims.typ)})`);
    if (typeof claims.sub !== 'string' || claims.sub === '') throw new TokenRejected('invalid', 'no subject');
    if (typeof claims.azp !== 'string' || !clients.includes(claims.azp))
      throw new TokenRejected('invalid', `issued to another client (azp ${String(claims.azp)})`);
    // Confirmation is enforced however the token was obtained (a password grant straight at Keycloak too); a
    // service account's token has no confirmed email either.
    if (claims.email_verified !== true) throw new TokenRejected('invalid', 'email not confirmed');
    // Both providers put the session in every access token (Keycloak through its 'basic' client scope).
    if (typeof claims.sid !== 'string' || claims.sid === '')
      throw new TokenRejected('invalid', 'no session (sid)');
    const roles = claims.realm_access?.roles;
    return {
      sessionId: claims.sid,
      // Frozen: one remembered caller serves many requests.
      caller: Object.freeze({
        userId: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : '',
        roles: Object.freeze(
          Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
        ) as string[],
      }),
      // exp is required above, so it is a number here.
      expiresAt: (claims.exp as number) * 1000,
      until: ((claims.exp as number) + clockToleranceSeconds) * 1000,
    };
  };

  return async (token) => {
    let known = remembered.get(token);
    if (known && now() >= known.until) {
      remembered.delete(token);
      known = undefined;
    }
    const verified = known ?? (await verify(token));
    // Checked on every request, remembered or not: a session may end at any moment.
    if (isEnded(verified.sessionId)) {
      remembered.delete(token);
      throw new TokenRejected('ended', `session ${verified.sessionId} has ended`);
    }
    if (rememberTokens > 0 && verified !== known) {
      // The oldest entry makes room: Map keeps insertion order.
      if (remembered.size >= rememberTokens) remembered.delete(remembered.keys().next().value as string);
      remembered.set(token, verified);
    }
    return { caller: verified.caller, sessionId: verified.sessionId, expiresAt: verified.expiresAt };
  };
}
