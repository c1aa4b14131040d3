// Object keys and their public URLs: made by the server (never from a client's file name), unique per upload,
// and the one shape the gateway agrees to serve under /media/.
import { randomUUID } from 'node:crypto';

export type MediaKind = 'logos' | 'pictures';
export type MediaExtension = 'jpg' | 'png';

const KINDS: readonly string[] = ['logos', 'pictures'] satisfies MediaKind[];
const EXTENSIONS: readonly string[] = ['jpg', 'png'] satisfies MediaExtension[];

/** Every key objectKey makes, and nothing else: no dots or slashes a path could be walked with. */
export const MEDIA_KEY_PATTERN = /^(logos|pictures)\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(jpg|png)$/;

export const MEDIA_PREFIX = '/media/';

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY_PATTERN.test(key);
}

/**
 * A new key `<kind>/<yyyy>/<mm>/<uuid>.<ext>` (UTC year and month). A replaced logo gets a new key, never the
 * old one, which is what lets the gateway tell browsers to cache an object forever.
 */
export function objectKey(kind: MediaKind, extension: MediaExtension): string {
  // The types already say so; this guards callers that reach here with unchecked strings.
  if (!KINDS.includes(kind)) throw new TypeError(`Unknown media kind: ${String(kind)}`);
  if (!EXTENSIONS.includes(extension)) throw new TypeError(`Unknown media extension: ${String(extension)}`);
  const now = new Date();
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${kind}/${now.getUTCFullYear()}/${month}/${randomUUID()}.${extension}`;
}

/** The same-origin URL the gateway serves a key at: `/media/<key>`. */
export function mediaUrl(key: string): string {
  if (!isMediaKey(key)) throw new TypeError(`Not a media key: ${key}`);
  return `${MEDIA_PREFIX}${key}`;
}

/** The key behind a URL mediaUrl made (to remove a replaced image), or null for any other URL. */
export function mediaKeyOf(url: string): string | null {
  if (!url.startsWith(MEDIA_PREFIX)) return null;
  const key = url.slice(MEDIA_PREFIX.length);
  return isMediaKey(key) ? key : null;
}
