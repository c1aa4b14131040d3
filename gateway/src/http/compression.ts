// Compression of the gateway's own text answers (JSON from the API, /remotes.json, /app-config.json, HTML, a web
// build's file that has no pre-compressed sibling): brotli when the client accepts it, else gzip, for answers of
// at least 1 KB, as nginx does in production. An answer that already carries a Content-Encoding (a cached answer
// with its own pre-compressed variants, a web build's .br or .gz sibling) is sent as it is; images are compressed
// in their own format and are never compressed again.
import { constants } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';

/** Answers smaller than this gain too little: the headers weigh as much as the bytes saved. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli's quality for answers compressed on the fly: 4 compresses JSON about as well as gzip's default at a
 * fraction of the CPU of higher qualities, which matters on a 2-core machine under load.
 */
export const DYNAMIC_BROTLI_QUALITY = 4;

export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    // A range (206) is a piece of the uncompressed file: compressing it would make it a piece of nothing.
    filter: (req, res) => res.statusCode !== 206 && compression.filter(req, res),
  });
}
