// Refuses a NUL character (U+0000) anywhere in a request's text before anything is forwarded: PostgreSQL cannot
// store one in text (error 22021), so it would otherwise come back as a 500 from whichever service met it.
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

/** A percent-encoded NUL: the only way one reaches a decoded path or query (the HTTP parser refuses raw ones). */
const ENCODED_NUL = /%00/i;

export const NUL_IN_ADDRESS = 'The address must not contain a NUL character (%00): no text may hold one.';

export const nulInFieldMessage = (field: string) => `${field} must not contain a NUL character (U+0000).`;

/**
 * A place in a parsed JSON body holding a NUL, as a field path (`links[2].url`), else undefined.
 * Walked with a list rather than recursion: a deeply nested body must not overflow the stack.
 */
function nulFieldOf(body: unknown): string | undefined {
  const pending: [unknown, string][] = [[body, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\0')) return path || 'The request body';
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push([item, `${path}[${index}]`]);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\0')) return 'A field name';
        pending.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}

/** Mounted after the body parser: refuses a NUL in the path, the query string or any text of the body. */
export const refuseNul: RequestHandler = (req, _res, next) => {
  if (ENCODED_NUL.test(req.originalUrl)) return next(new HttpError(400, NUL_IN_ADDRESS));
  const field = nulFieldOf(req.body);
  if (field) return next(new HttpError(400, nulInFieldMessage(field)));
  next();
};
