// JSON errors for every failure: `{ errors: [{ msg }] }`, the first message being the one a screen shows.
// gRPC statuses from the services become their HTTP meaning; an unreachable service (or one whose database is
// away) is a clear 503 that says to come back in a few seconds; a rate-limited one a 429 that says when to come
// back (Retry-After).
import { status as grpcStatus } from '@grpc/grpc-js';
import { IDEMPOTENCY_MESSAGES, UNAVAILABLE_DEPENDENCY_TRAILER } from '@rotunda/service-kit';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ServiceCallError } from '../grpc/clients.ts';

export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  /** Seconds, for the Retry-After header of a 429 or 503. */
  readonly retryAfter: number | undefined;

  constructor(status: number, message: string, retryAfter?: number) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

const HTTP_OF_GRPC: Partial<Record<grpcStatus, number>> = {
  [grpcStatus.INVALID_ARGUMENT]: 400,
  [grpcStatus.OUT_OF_RANGE]: 400,
  [grpcStatus.UNAUTHENTICATED]: 401,
  [grpcStatus.PERMISSION_DENIED]: 403,
  [grpcStatus.NOT_FOUND]: 404,
  [grpcStatus.ALREADY_EXISTS]: 409,
  [grpcStatus.FAILED_PRECONDITION]: 409,
  [grpcStatus.ABORTED]: 409,
  [grpcStatus.RESOURCE_EXHAUSTED]: 429,
  [grpcStatus.UNIMPLEMENTED]: 501,
  [grpcStatus.UNAVAILABLE]: 503,
  [grpcStatus.DEADLINE_EXCEEDED]: 504,
};

export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ errors: [{ msg: message }] });
}

/** When Retry-After cannot be read from the service's answer: a minute, the usual lockout step. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/**
 * The seconds a client should wait after a 503: a replica restarts, and a service whose database went away is
 * back, within seconds of its return (ADR 0047).
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Is `error` a service that cannot answer at all (down, or its database away), as opposed to a refusal or a bug? */
export const isServiceUnavailable = (error: unknown): boolean =>
  error instanceof ServiceCallError && error.grpc.code === grpcStatus.UNAVAILABLE;

/**
 * The seconds a rate-limited client should wait. The services say it in words the member reads
 * ('Too many attempts. Try again in 42 seconds.'), so the number is taken from that text.
 */
export function retryAfterSeconds(details: string): number {
  const match = /(\d+)\s*(second|minute)s?\b/i.exec(details);
  if (!match?.[1]) return DEFAULT_RETRY_AFTER_SECONDS;
  const amount = Number(match[1]);
  return Math.max(1, match[2]?.toLowerCase() === 'minute' ? amount * 60 : amount);
}

/**
 * A member's words for a service that cannot answer: the service's own when an engine it needs is away (they say
 * what: sign-in, pictures, search, ADR 0048), else that the service is unavailable (it is down, or its database
 * is away: which part does not help the member).
 */
function unavailableMessage(error: ServiceCallError): string {
  const [dependency] = error.grpc.metadata?.get(UNAVAILABLE_DEPENDENCY_TRAILER) ?? [];
  if (typeof dependency === 'string' && dependency !== 'database' && error.grpc.details)
    return error.grpc.details;
  return `The ${error.service} service is unavailable. Please try again shortly.`;
}

export interface HttpErrorAnswer {
  status: number;
  message: string;
  /** Seconds, for the Retry-After header of a 429 or 503. */
  retryAfter?: number;
}

export function httpErrorOf(error: unknown): HttpErrorAnswer {
  if (error instanceof HttpError)
    return {
      status: error.status,
      message: error.message,
      ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    };
  if (error instanceof ServiceCallError) {
    const status = HTTP_OF_GRPC[error.grpc.code] ?? 500;
    if (status === 429)
      return { status, message: error.grpc.details, retryAfter: retryAfterSeconds(error.grpc.details) };
    if (status === 503)
      return {
        status,
        message: unavailableMessage(error),
        retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
      };
    if (status === 504) return { status, message: `The ${error.service} service did not answer in time.` };
    if (status >= 500) return { status, message: 'An error occurred. Please try again later.' };
    // An Idempotency-Key sent again with another request: 422, as the IETF draft of the header has it.
    if (
      error.grpc.code === grpcStatus.FAILED_PRECONDITION &&
      error.grpc.details === IDEMPOTENCY_MESSAGES.reused
    )
      return { status: 422, message: error.grpc.details };
    return { status, message: error.grpc.details };
  }
  // Express 5 throws a URIError (status 400) for a path parameter that is not valid percent-encoded UTF-8.
  if (error instanceof URIError) return { status: 400, message: MALFORMED_ADDRESS };
  const refusal = bodyReadingRefusal(error);
  if (refusal) return refusal;
  return { status: 500, message: 'An error occurred. Please try again later.' };
}

export const MALFORMED_ADDRESS =
  'The address is not valid: each "%" must start a percent-encoded UTF-8 character (such as %20).';

/** The body parsers' refusals (http-errors: a 4xx `status`, `expose`, and a `type` naming the reason). */
interface BodyParserError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  limit?: unknown;
  code?: unknown;
}

const BODY_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'The request body is not valid JSON.',
  'encoding.unsupported':
    'The request body’s Content-Encoding is not supported: send it uncompressed, or as gzip, deflate or br.',
  'charset.unsupported': 'The request body’s charset is not supported: send it as UTF-8.',
  'request.aborted': 'The request body ended before its Content-Length was reached.',
  'request.size.invalid': 'The request body’s length does not match its Content-Length.',
  'parameters.too.many': 'The request body has too many form fields.',
};

const atMost = (limit: unknown) =>
  typeof limit !== 'number'
    ? ''
    : limit >= 1024 * 1024
      ? ` (at most ${Math.floor(limit / (1024 * 1024))} MB)`
      : ` (at most ${Math.floor(limit / 1024)} KB)`;

function bodyReadingRefusal(error: unknown): HttpErrorAnswer | undefined {
  const { status, expose, type, limit, code } = (error ?? {}) as BodyParserError;
  if (typeof status !== 'number' || status < 400 || status >= 500 || expose !== true) return undefined;
  if (type === 'entity.too.large') {
    return { status: 413, message: `The request body is too large${atMost(limit)}.` };
  }
  if (typeof type === 'string')
    return { status, message: BODY_MESSAGES[type] ?? 'The request body could not be read.' };
  // Without a type: the stream the body was read through failed, the client's socket or the decompressor.
  if (code === 'ECONNRESET' || code === 'ECONNABORTED')
    return { status, message: BODY_MESSAGES['request.aborted'] as string };
  return {
    status,
    message: 'The request body could not be decompressed: it is not valid data for its Content-Encoding.',
  };
}

export const errorHandler: ErrorRequestHandler = (error, req, res, next) => {
  // An answer already under way cannot become an error answer: Express then ends the connection.
  if (res.headersSent) return next(error);
  const { status, message, retryAfter } = httpErrorOf(error);
  if (status >= 500) req.log.error({ err: error }, 'request failed');
  if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
  sendError(res, status, message);
};

export const apiNotFound: RequestHandler = (req, res) => {
  sendError(res, 404, `No such endpoint: ${req.method} ${req.originalUrl}`);
};
