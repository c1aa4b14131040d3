// Access-token verification: an RS256 JWT from our issuer, signed by one of its published keys, unexpired,
// and an access token (Keycloak's typ 'Bearer', not a refresh or ID token). Answers the caller it names.
import type { Caller } from '@rotunda/service-kit';
import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';

/**
 * The texts a refused token answers with (401). An expired token is the everyday case (a member came back
 * to an old tab), so it says what to do; anything else (tampered, signed by another key, another issuer,
 * a refresh token, garbage) gets one plain text that tells an attacker nothing about which check failed.
 */
export const TOKEN_MESSAGES = {
  expired: 'Your session has expired. Please log in again.',
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
  email?: unknown;
  realm_access?: { roles?: unknown };
}

export interface TokenVerifierOptions {
  issuer: string;
  keys: JWTVerifyGetKey;
  /** Leeway for exp/nbf/iat between the provider's clock and ours. */
  clockToleranceSeconds?: number;
}

export type TokenVerifier = (token: string) => Promise<Caller>;

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
  clockToleranceSeconds = 30,
}: TokenVerifierOptions): TokenVerifier {
  return async (token) => {
    let claims: AccessTokenClaims;
    try {
      ({ payload: claims } = await jwtVerify<AccessTokenClaims>(token, keys, {
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
    const roles = claims.realm_access?.roles;
    return {
      userId: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : '',
      roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
    };
  };
}
