// The object-store port and its one adapter: the S3 API through the `minio` client, the same code against the
// embedded s3rver (one machine) and MinIO (production). Images are written by the services that own them and
// read by the gateway's /media/ route; the owners also list them, to sweep away uploads no record took.
import { Client } from 'minio';

export interface StoredObject {
  stream: NodeJS.ReadableStream;
  contentType: string;
  size: number;
  /** The object's entity tag without quotes (an MD5 of the bytes for a single-part upload). */
  etag: string;
  lastModified: Date;
}

/** What a listing says of one object. */
export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ObjectStore {
  /** Creates the bucket unless it exists; safe to call on every start, and from several processes at once. */
  ensureBucket(): Promise<void>;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object, or null when no object has that key. */
  get(key: string): Promise<StoredObject | null>;
  /** The object's size and last change without its bytes, or null when no object has that key. */
  stat(key: string): Promise<Omit<ListedObject, 'key'> | null>;
  /** Every object whose key starts with `prefix`, in key order, a page (at most 1,000) at a time. */
  list(prefix: string): AsyncIterable<ListedObject[]>;
  /** Removes the object; removing a key that holds nothing is not an error. */
  remove(key: string): Promise<void>;
}

/**
 * Removes an image a record no longer points at, logging `what` instead of failing when the store cannot: an
 * orphaned object costs a little storage, failing the member's edit for it would cost more.
 */
export async function removeQuietly(
  store: Pick<ObjectStore, 'remove'>,
  key: string,
  logger: { warn: (details: object, message: string) => void },
  what: string,
): Promise<void> {
  try {
    await store.remove(key);
  } catch (error) {
    logger.warn({ key, err: error instanceof Error ? error.message : String(error) }, what);
  }
}

export interface ObjectStoreConfig {
  /** The S3 API's origin, e.g. http://127.0.0.1:9000. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** How long one call may take before it fails as unavailable (default 10 s): the client has no timeout. */
  timeoutMs?: number;
}

/** What a member reads when a picture or logo cannot be stored now. */
export const UPLOADS_UNAVAILABLE = 'Pictures cannot be uploaded right now. Please try again shortly.';
/** What a member reads when the store has no room: it takes an operator, not a moment. */
export const UPLOADS_FULL =
  'Pictures cannot be uploaded right now: there is no room to store them. Please try again later.';

/**
 * The store could not be reached, did not answer, or has no room left (`full`): the caller should say "try again
 * shortly" (HTTP 503), and nothing that would point at the object has been written. Its message is for members
 * (the service kit answers it as it is); `detail` says what failed, for the logs. `dependency` names it for the
 * service kit's classification and metrics.
 */
export class ObjectStoreUnavailableError extends Error {
  override name = 'ObjectStoreUnavailableError';
  readonly dependency = 'object-store';
  /** The store answered that it has no room (a full disk or a quota), rather than not answering. */
  readonly full: boolean;
  /** Which call failed how, for the logs. */
  readonly detail: string;

  constructor(detail: string, options: { cause?: unknown; full?: boolean } = {}) {
    const full = options.full ?? false;
    super(full ? UPLOADS_FULL : UPLOADS_UNAVAILABLE, { cause: options.cause });
    this.full = full;
    this.detail = detail;
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** S3's largest listing page. */
const LIST_PAGE = 1000;

/** Socket-level failures: nothing is listening, the connection dropped, the name does not resolve. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** S3 answers that mean "busy or broken right now", as opposed to a refusal of this request. */
const BUSY_CODES = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout']);
/**
 * S3 answers that mean the store has no room: MinIO's full drives (507) and bucket quota, a quota's usual name,
 * and a size the server will not take (its limit, not ours: uploads are resized to 5 MB first). A full disk under
 * the embedded s3rver or SeaweedFS answers InternalError, which BUSY_CODES already count.
 */
const FULL_CODES = new Set([
  'XMinioStorageFull',
  'XMinioAdminBucketQuotaExceeded',
  'QuotaExceeded',
  'EntityTooLarge',
]);
/** statObject answers a missing key with NotFound (a HEAD has no body), getObject with NoSuchKey. */
const MISSING_CODES = new Set(['NotFound', 'NoSuchKey']);

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

function classify(error: unknown, what: string): unknown {
  const code = codeOf(error);
  const retriesExhausted = error instanceof Error && /^Request failed after \d+ retries/.test(error.message);
  if (typeof code === 'string' && FULL_CODES.has(code))
    return new ObjectStoreUnavailableError(`The object store is full (${what}: ${code}).`, {
      cause: error,
      full: true,
    });
  if ((typeof code === 'string' && (NETWORK_CODES.has(code) || BUSY_CODES.has(code))) || retriesExhausted)
    return new ObjectStoreUnavailableError(`The object store is unavailable (${what}).`, { cause: error });
  return error;
}

/**
 * Settles with the call, or fails as unavailable once `ms` pass. A result arriving after that is handed to
 * `discard` (a stream nobody will read must be closed, or its socket stays open).
 */
function within<T>(ms: number, what: string, call: Promise<T>, discard?: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new ObjectStoreUnavailableError(`The object store did not answer within ${ms} ms (${what}).`));
    }, ms);
    call.then(
      (value) => {
        if (timedOut) discard?.(value);
        else {
          clearTimeout(timer);
          resolve(value);
        }
      },
      (error: unknown) => {
        if (timedOut) return;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function createObjectStore(config: ObjectStoreConfig): ObjectStore {
  const url = new URL(config.endpoint);
  const useSSL = url.protocol === 'https:';
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // A known region saves the client a bucket-location request before the first call.
    region: config.region ?? 'us-east-1',
    // Bucket in the path, not the host name: s3rver and a single MinIO host have no per-bucket DNS.
    pathStyle: true,
  });
  const { bucket } = config;
  const ms = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const run = async <T>(what: string, call: () => Promise<T>, discard?: (late: T) => void): Promise<T> => {
    try {
      return await within(ms, what, call(), discard);
    } catch (error) {
      throw classify(error, what);
    }
  };
  const missing = (error: unknown) => MISSING_CODES.has(String(codeOf(error)));

  return {
    async ensureBucket() {
      if (await run('bucketExists', () => client.bucketExists(bucket))) return;
      try {
        await run('makeBucket', () => client.makeBucket(bucket, config.region ?? 'us-east-1'));
      } catch (error) {
        // Another process made it between the two calls (s3rver says BucketAlreadyExists even to its owner).
        const code = codeOf(error);
        if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
      }
    },

    async put(key, data, contentType) {
      await run('putObject', () =>
        client.putObject(bucket, key, data, data.length, { 'Content-Type': contentType }),
      );
    },

    async get(key) {
      // The metadata first: a missing key answers null without a body request, and the caller has the
      // length, type and ETag before the first byte. Keys are never reused, so both calls see one object.
      let stat: Awaited<ReturnType<Client['statObject']>>;
      try {
        stat = await run('statObject', () => client.statObject(bucket, key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      let stream: Awaited<ReturnType<Client['getObject']>>;
      try {
        stream = await run(
          'getObject',
          () => client.getObject(bucket, key),
          (late) => late.destroy(),
        );
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
      return {
        stream,
        contentType: stat.metaData['content-type'] ?? 'application/octet-stream',
        size: stat.size,
        etag: stat.etag,
        lastModified: stat.lastModified,
      };
    },

    async stat(key) {
      try {
        const { size, lastModified } = await run('statObject', () => client.statObject(bucket, key));
        return { size, lastModified };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },

    async *list(prefix) {
      // One request per page, each under the timeout (the client's own listing stream has none). Version 1 of
      // the listing, paged by the last key seen: every S3 server has it, where s3rver's version-2 continuation
      // tokens need a cipher Node 24 no longer offers.
      let marker = '';
      for (;;) {
        const page = await run('listObjects', () =>
          client.listObjectsQuery(bucket, prefix, marker, { Delimiter: '', MaxKeys: LIST_PAGE }),
        );
        const objects = (page.objects ?? []).flatMap((item) =>
          item.name === undefined || item.lastModified === undefined
            ? []
            : [{ key: item.name, size: item.size ?? 0, lastModified: item.lastModified }],
        );
        if (objects.length > 0) yield objects;
        const last = objects.at(-1)?.key;
        if (!page.isTruncated || !last) return;
        marker = last;
      }
    },

    async remove(key) {
      await run('removeObject', () => client.removeObject(bucket, key));
    },
  };
}
