// Where the gateway finds the identity provider's public keys: Keycloak's JWKS URL, or the built-in
// provider's keys fetched from the auth service over gRPC. Both are cached and re-fetched when a token names
// an unknown key (the provider rotated its keys), at most once per cooldown so forged kids cannot hammer it;
// while the provider is away, the keys already known keep verifying the tokens it issued.
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { HttpError } from '../http/errors.ts';

export interface JwksCacheOptions {
  /** The least time between two fetches caused by unknown kids. */
  cooldownMs?: number;
  /** Keys are re-fetched after this long even when every kid is known, so a withdrawn key stops working. */
  maxAgeMs?: number;
  now?: () => number;
}

export const JWKS_COOLDOWN_MS = 5_000;
/** What a member is told when no key to check their token with can be had: the provider is away. */
export const KEYS_UNAVAILABLE = 'Sign-in cannot be checked right now. Please try again shortly.';
/** Seconds, for the Retry-After of that answer: the next fetch may be tried once the cooldown has passed. */
export const KEYS_RETRY_AFTER_SECONDS = 5;
export const JWKS_MAX_AGE_MS = 10 * 60_000;

/** How long one fetch of a published key set may take: a hung provider must not hold a request open. */
export const JWKS_FETCH_TIMEOUT_MS = 3_000;

/**
 * Keycloak (or any OpenID provider) publishing its keys at a URL, cached like the built-in provider's. Not
 * jose's remote key set: once its keys are older than their maximum age it fails every token while the
 * provider is away, where members' tokens already issued should keep working (their keys have not changed).
 */
export function remoteJwks(
  url: string,
  options: JwksCacheOptions = {},
  fetchKeys: typeof fetch = fetch,
): JWTVerifyGetKey {
  return cachedJwks(async () => {
    const response = await fetchKeys(url, {
      headers: { accept: 'application/json, application/jwk-set+json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS),
    });
    if (response.status !== 200) throw new Error(`The key set at ${url} answered HTTP ${response.status}`);
    return (await response.json()) as JSONWebKeySet;
  }, options);
}

/**
 * Keys loaded by `load` (the auth service's GetJwks), kept in memory. One load at a time: a crowd of
 * requests arriving before the first answer shares it. A failed first load is not cached, so the next
 * request tries again; a failed periodic refresh keeps the keys already known. A token that needs keys which
 * cannot be loaded is answered 503, never taken for a bad token (401) nor a fault of ours (500).
 */
export function cachedJwks(
  load: () => Promise<JSONWebKeySet>,
  options: JwksCacheOptions = {},
): JWTVerifyGetKey {
  const cooldownMs = options.cooldownMs ?? JWKS_COOLDOWN_MS;
  const maxAgeMs = options.maxAgeMs ?? JWKS_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  let local: { keys: JWTVerifyGetKey; loadedAt: number } | undefined;
  let lastAttempt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;

  const reload = () => {
    pending ??= (async () => {
      lastAttempt = now();
      try {
        const jwks = await load();
        local = { keys: createLocalJWKSet(jwks), loadedAt: now() };
      } catch (error) {
        const unavailable = new HttpError(503, KEYS_UNAVAILABLE, KEYS_RETRY_AFTER_SECONDS);
        // The log line of the 503 says why.
        unavailable.cause = error;
        throw unavailable;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };

  return async (protectedHeader, token) => {
    if (!local) await reload();
    else if (now() - local.loadedAt >= maxAgeMs && now() - lastAttempt >= cooldownMs)
      // Keep verifying with the keys we have when the provider is briefly unreachable.
      await reload().catch(() => undefined);
    const current = local as NonNullable<typeof local>;
    try {
      return await current.keys(protectedHeader, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || now() - lastAttempt < cooldownMs) throw error;
      await reload();
      return (local ?? current).keys(protectedHeader, token);
    }
  };
}
