// The `Idempotency-Key` request header (ADR 0046): checked here once for every API request, so a malformed key is
// a clear 400 before anything is forwarded, and passed on with each of the request's gRPC calls; the service that
// creates honours it (ADR 0046 lists the creates that do).
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, parseIdempotencyKey } from '@rotunda/service-kit';
import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

declare global {
  namespace Express {
    interface Request {
      /** The client's key for this request, so a repeat of it after a lost answer creates nothing twice. */
      idempotencyKey?: string;
    }
  }
}

export const readIdempotencyKey: RequestHandler = (req, _res, next) => {
  const value = req.get(IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return next();
  const key = parseIdempotencyKey(value);
  if (key === undefined) return next(new HttpError(400, IDEMPOTENCY_MESSAGES.malformed));
  req.idempotencyKey = key;
  next();
};
