// In-memory caches for reads everyone gets the same answer to, with single flight: a crowd asking at once costs one
// call to the service. The micro-cache keeps an answer for a TTL; the page cache keeps each page until it is told
// the pages changed (the feed's, see feed-version.ts). Keyed by request where the answer depends on the
// parameters; answers kept encoded once, with their ETag and, on demand, gzip and brotli variants. A micro-cache
// told which failures are outages (the service UNAVAILABLE, its database away) answers its last value through
// them instead of failing (ADR 0047).
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

export interface MicroCache<T> {
  get: (load: () => Promise<T>) => Promise<T>;
}

export function microCache<T>(
  ttlMs: number,
  now: () => number = Date.now,
  outage: (error: unknown) => boolean = () => false,
): MicroCache<T> {
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
          if (value && outage(error)) return value.data;
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
  /** Weak, of the JSON: the same for every encoding of it (RFC 9110 allows a weak one to be shared). */
  etag: string;
  /** The compressed variants, each made the first time a client accepts it. */
  gzip?: Buffer;
  br?: Buffer;
}

/** Smaller answers go as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM_BYTES = 1024;
/** Brotli's quality for dynamic answers: most of the gain of 11 at a small part of its time. */
const BROTLI_QUALITY = 5;

/** The q value an Accept-Encoding header gives `coding` (its own entry, else `*`'s; 0 when neither is listed). */
function acceptedQuality(header: string, coding: string): number {
  let star = 0;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (name === coding) return quality;
    if (name === '*') star = quality;
  }
  return star;
}

/**
 * The answer's body for a client that sent `acceptEncoding`: brotli when accepted, else gzip, else the JSON itself
 * (also for answers too small to gain). Each variant is compressed once per cached answer.
 */
export function encodedAnswer(
  answer: CachedAnswer,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  if (!acceptEncoding || answer.body.length < COMPRESS_FROM_BYTES) return { body: answer.body };
  if (acceptedQuality(acceptEncoding, 'br') > 0) {
    answer.br ??= brotliCompressSync(answer.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: answer.body.length,
      },
    });
    return { body: answer.br, encoding: 'br' };
  }
  if (acceptedQuality(acceptEncoding, 'gzip') > 0) {
    answer.gzip ??= gzipSync(answer.body);
    return { body: answer.gzip, encoding: 'gzip' };
  }
  return { body: answer.body };
}

/**
 * A kept answer's body for a client that sent `acceptEncoding`, and its headers (caching, ETag, encoding, type) as one
 * flat [name, value, …] list: the same for an answer sent through Express and one written ahead of it.
 */
export function answerParts(
  answer: CachedAnswer,
  acceptEncoding: string | undefined,
  cacheControl: string,
): { body: Buffer; headers: string[] } {
  const { body, encoding } = encodedAnswer(answer, acceptEncoding);
  const headers = ['Cache-Control', cacheControl, 'ETag', answer.etag, 'Vary', 'Accept-Encoding'];
  if (encoding) headers.push('Content-Encoding', encoding);
  headers.push('Content-Type', 'application/json; charset=utf-8');
  return { body, headers };
}

/**
 * A kept answer, compressed as the client accepts (the compression middleware leaves an encoded answer alone); a GET
 * whose If-None-Match has the ETag answers 304 (Express).
 */
export function sendAnswer(req: Request, res: Response, answer: CachedAnswer, cacheControl: string) {
  const { body, headers } = answerParts(answer, req.headers['accept-encoding'], cacheControl);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1] as string);
  res.send(body);
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

/**
 * Pages kept per distinct request (at most `maxKeys`, the oldest going first) until `invalidate`: the feed's, which
 * change only when the feed version moves. Single flight per page. A load that started before an invalidation is
 * never kept, and nobody asking after it joins that load: each invalidation starts a new generation of entries,
 * and a load settles into its own. `maxAgeMs` (from the load's start) bounds what a read accepts, for the times the
 * version cannot be watched.
 */
export function pageCache<T>(maxKeys: number, now: () => number = Date.now) {
  interface Entry {
    loadStarted: number;
    loading?: Promise<T>;
    value?: { data: T };
  }
  let generation = new Map<string, Entry>();
  return {
    get(key: string, load: () => Promise<T>, maxAgeMs = Number.POSITIVE_INFINITY): Promise<T> {
      const entries = generation;
      const found = entries.get(key);
      if (found?.loading) return found.loading;
      if (found?.value && now() - found.loadStarted < maxAgeMs) return Promise.resolve(found.value.data);
      entries.delete(key);
      for (const oldest of entries.keys()) {
        if (entries.size < maxKeys) break;
        entries.delete(oldest);
      }
      const entry: Entry = { loadStarted: now() };
      entry.loading = load().then(
        (data) => {
          entry.value = { data };
          entry.loading = undefined;
          return data;
        },
        (error: unknown) => {
          if (entries.get(key) === entry) entries.delete(key);
          throw error;
        },
      );
      entries.set(key, entry);
      return entry.loading;
    },
    /** The page kept for `key` (not one still loading), as `get` with no age bound would give it. */
    kept(key: string): T | undefined {
      return generation.get(key)?.value?.data;
    },
    /** Every page kept or loading is dropped: from now on, reads load afresh. */
    invalidate() {
      generation = new Map();
    },
    size: () => generation.size,
  };
}
