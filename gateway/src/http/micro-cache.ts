// A short-lived in-memory cache for reads everyone gets the same answer to, with single flight: a crowd asking at
// once costs one call to the service, and nobody waits on a stale answer for longer than the TTL. Keyed by
// request where the answer depends on the parameters; answers kept encoded once, with their ETag.
import { createHash } from 'node:crypto';
export interface MicroCache<T> {
  get: (load: () => Promise<T>) => Promise<T>;
}

export function microCache<T>(ttlMs: number, now: () => number = Date.now): MicroCache<T> {
  let value: { data: T; expires: number } | undefined;
  let inFlight: Promise<T> | undefined;
  return {
    get(load) {
      if (value && value.expires > now()) return Promise.resolve(value.data);
      inFlight ??= load().then(
        (data) => {
          value = { data, expires: now() + ttlMs };
          inFlight = undefined;
          return data;
        },
        (error: unknown) => {
          inFlight = undefined;
          throw error;
        },
      );
      return inFlight;
    },
  };
}

export interface CachedAnswer {
  /** The JSON, encoded once. */
  body: Buffer;
  etag: string;
}

export function cachedAnswerOf(data: unknown): CachedAnswer {
  const body = Buffer.from(JSON.stringify(data));
  // Computed once per cached answer, so Express neither encodes nor hashes it again on every hit (and a GET whose
  // If-None-Match has it answers 304).
  const digest = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return { body, etag: `W/"${body.length.toString(16)}-${digest}"` };
}

/**
 * One micro-cache per distinct request (ADR 0007, 0013), at most `maxKeys`: past that, the entries whose answers have
 * expired go first, then the oldest.
 */
export function keyedMicroCache<T>(ttlMs: number, maxKeys: number, now: () => number = Date.now) {
  const entries = new Map<string, { cache: MicroCache<T>; created: number }>();
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      let entry = entries.get(key);
      if (!entry) {
        if (entries.size >= maxKeys) {
          const time = now();
          for (const [k, e] of entries) if (e.created + ttlMs <= time) entries.delete(k);
          for (const k of entries.keys()) {
            if (entries.size < maxKeys) break;
            entries.delete(k);
          }
        }
        entry = { cache: microCache<T>(ttlMs, now), created: now() };
        entries.set(key, entry);
      }
      return entry.cache.get(load);
    },
    size: () => entries.size,
  };
}
