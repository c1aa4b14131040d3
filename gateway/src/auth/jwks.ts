// Where the gateway finds the identity provider's public keys: Keycloak's JWKS URL, or the built-in
// provider's keys fetched from the auth service over gRPC. Both are cached and re-fetched when a token names
// an unknown key (the provider rotated its keys), at most once per cooldown so forged kids cannot hammer it.
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose';

export interface JwksCacheOptions {
  /** The least time between two fetches caused by unknown kids. */
  cooldownMs?: number;
  /** Keys are re-fetched after this long even when every kid is known, so a withdrawn key stops working. */
  maxAgeMs?: number;
  now?: () => number;
}

export const JWKS_COOLDOWN_MS = 5_000;
export const JWKS_MAX_AGE_MS = 10 * 60_000;

/** Keycloak (or any OpenID provider) publishing its keys at a URL; jose caches them and honours the cooldown. */
export function remoteJwks(url: string, options: JwksCacheOptions = {}): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), {
    cooldownDuration: options.cooldownMs ?? JWKS_COOLDOWN_MS,
    cacheMaxAge: options.maxAgeMs ?? JWKS_MAX_AGE_MS,
    timeoutDuration: 3_000,
  });
}

/**
 * Keys loaded by `load` (the auth service's GetJwks), kept in memory. One load at a time: a crowd of
 * requests arriving before the first answer shares it. A failed first load is not cached, so the next
 * request tries again; a failed periodic refresh keeps the keys already known.
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
