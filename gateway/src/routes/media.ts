// GET /media/<key>: logos and profile pictures streamed from the object store. Only keys of the shape the
// services make are served (no path walking, no arbitrary bucket reads), and since a key is never reused for
// other bytes, browsers may keep each answer for a year.
import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { isMediaKey, type ObjectStore, ObjectStoreUnavailableError } from '@rotunda/images';
import { type RequestHandler, Router } from 'express';
import { sendError } from '../http/errors.ts';

export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const MEDIA_UNAVAILABLE = 'Images are unavailable right now. Please try again shortly.';

// The type follows the key, which only the services make, rather than whatever the stored object claims.
const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png' };

/**
 * RFC 9110's conditional GET: If-None-Match (weak comparison, a list, or "*") decides when present, else
 * If-Modified-Since. Express's req.fresh is not used because it never answers 304 to a request carrying
 * Cache-Control: no-cache, which fetch() adds to every conditional request it is given.
 */
function unchanged(headers: IncomingHttpHeaders, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined)
    return (
      ifNoneMatch.trim() === '*' ||
      ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${etag}"`)
    );
  const since = Date.parse(headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds.
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/** Closes a body nobody will read, so its connection to the store is released. */
function discard(stream: NodeJS.ReadableStream): void {
  const destroyable = stream as NodeJS.ReadableStream & { destroy?: () => void };
  if (typeof destroyable.destroy === 'function') destroyable.destroy();
  else stream.resume();
}

export function mediaRouter(store: ObjectStore): Router {
  const serve: RequestHandler = async (req, res, next) => {
    // req.path is still percent-encoded, so an encoded "../" cannot pass the pattern either.
    const key = req.path.slice(1);
    if (!isMediaKey(key)) {
      sendError(res, 404, 'Not found');
      return;
    }
    let object: Awaited<ReturnType<ObjectStore['get']>>;
    try {
      object = await store.get(key);
    } catch (error) {
      if (!(error instanceof ObjectStoreUnavailableError)) return next(error);
      req.log.warn({ err: error }, 'object store unavailable');
      res.setHeader('Retry-After', '5');
      sendError(res, 503, MEDIA_UNAVAILABLE);
      return;
    }
    if (!object) {
      sendError(res, 404, 'Not found');
      return;
    }
    res.setHeader('Content-Type', CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? object.contentType);
    res.setHeader('ETag', `"${object.etag}"`);
    res.setHeader('Last-Modified', object.lastModified.toUTCString());
    res.setHeader('Cache-Control', MEDIA_CACHE_CONTROL);
    const notModified = unchanged(req.headers, object.etag, object.lastModified);
    if (notModified || req.method === 'HEAD') {
      discard(object.stream);
      if (notModified) res.status(304).end();
      else res.setHeader('Content-Length', String(object.size)).end();
      return;
    }
    // Browsers cancel image loads whenever a member moves on, often while the store is still answering: nobody is
    // left to send the bytes to, and that is not worth a log line. The store's body is released either way.
    if (res.destroyed) {
      discard(object.stream);
      return;
    }
    res.setHeader('Content-Length', String(object.size));
    try {
      await pipeline(object.stream, res);
    } catch (error) {
      // Headers are gone by now: pipeline has cut the connection, and the browser asks again later. A
      // browser that left mid-way (premature close) is not worth a log line either.
      if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE')
        req.log.warn({ err: error, key }, 'media stream broke off');
    }
  };
  const router = Router();
  router.get('/{*key}', serve);
  return router;
}
