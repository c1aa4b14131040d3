// The browser API client every app uses for the gateway's REST calls: JSON requests with the member's fresh
// access token (x-auth-token, from the shared session) and an AbortSignal, and one error type carrying the
// status and the server's own message ({ errors: [{ msg }] }). It holds no state of its own: the token comes
// from @rotunda/session, the Module Federation singleton, so each app may bundle its own copy of this module.
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, sendReadAgainOnce } from '@rotunda/rules';
import { freshToken } from '@rotunda/session';
import { fileNameOf } from './download';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A call that did not answer 2xx: its status and, when the body had one, the server's message. */
export class ApiError extends Error {
  readonly status: number;
  /** The first `errors[].msg` of the answer (errors are `{ errors: [{ msg }] }`), if any. */
  readonly serverMessage: string | null;

  constructor(method: string, path: string, status: number, serverMessage: string | null) {
    super(`${method} ${path} answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** The server's refusal of the member's input (a 4xx with a message), which the member should read; else null. */
export function refusalOf(error: unknown): string | null {
  return error instanceof ApiError && error.status < 500 ? error.serverMessage : null;
}

/** The first non-blank `errors[].msg` of an answer's JSON body, or null (no body, not JSON, no message). */
async function serverMessageOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { errors?: { msg?: unknown }[] };
    const msg = body.errors?.[0]?.msg;
    return typeof msg === 'string' && msg.trim() !== '' ? msg : null;
  } catch {
    return null;
  }
}

/** A request as it is about to be sent: what an early answer (RequestOptions.early) is looked up by. */
export interface OutgoingRequest {
  method: Method;
  path: string;
  /** The JSON body exactly as sent; undefined without one. */
  body: string | undefined;
}

export interface SendOptions {
  /** Sent as JSON (with content-type application/json); a FormData goes as it is (multipart). */
  body?: unknown;
  signal?: AbortSignal;
  /** The accept header; null sends none. Default: application/json. */
  accept?: string | null;
  /** Sent as x-auth-token when given. */
  token?: string | null;
  /** Sent as Idempotency-Key when given (ADR 0046). */
  idempotencyKey?: string;
}

/** The request's JSON text, or the FormData itself, or undefined without a body. */
const encode = (body: unknown): BodyInit | undefined =>
  body === undefined || body instanceof FormData ? body : JSON.stringify(body);

/** Sends one request as given, without the session's token unless passed, and answers whatever came back. */
export function send(method: Method, path: string, options?: SendOptions): Promise<Response> {
  const { body, signal, accept = 'application/json', token, idempotencyKey } = options ?? {};
  const headers = new Headers();
  if (accept !== null) headers.set('accept', accept);
  if (token) headers.set('x-auth-token', token);
  if (idempotencyKey) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
  if (body !== undefined && !(body instanceof FormData)) headers.set('content-type', 'application/json');
  const encoded = encode(body);
  return fetch(path, {
    method,
    headers,
    ...(encoded !== undefined && { body: encoded }),
    ...(signal && { signal }),
  });
}

export interface RequestOptions extends Omit<SendOptions, 'token'> {
  /**
   * An answer to exactly this request already on its way (a visitor's first feed page, which the shell starts
   * early), or null; asked only when nobody is signed in, since a member's request carries their token.
   */
  early?: (request: OutgoingRequest) => Promise<Response | null>;
  /**
   * A create the server does at most once per key (ADR 0046): sent with an Idempotency-Key, and sent again with the
   * same key when no answer came or the service was briefly away, so a lost answer never makes two. The same
   * create sent again by the member after a failure (Post pressed again) carries the same key too.
   */
  idempotent?: boolean;
}

/** The keys of creates not known to have landed, by what was sent: the same create sent again reuses its key. */
const unsettledKeys = new Map<string, string>();

/** Pauses before sending a create again: about a second and a half in all, what a replica's failover takes. */
const RESEND_PAUSES_MS = [300, 1200];

/** Answers that leave a create's fate open: the gateway or the service was away or late. */
const UNSETTLED_STATUSES = new Set([502, 503, 504]);

const wait = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The server still runs the first attempt with this key: its answer will come to the next one. */
async function stillInProgress(response: Response): Promise<boolean> {
  return (
    response.status === 409 && (await serverMessageOf(response.clone())) === IDEMPOTENCY_MESSAGES.inProgress
  );
}

/** Sends a create with its key until its fate is known, or the pauses run out (then the last answer or failure). */
async function sendCreate(
  method: Method,
  path: string,
  options: SendOptions,
  body: string,
): Promise<Response> {
  const what = `${method} ${path} ${body}`;
  const key = unsettledKeys.get(what) ?? crypto.randomUUID();
  unsettledKeys.set(what, key);
  for (let attempt = 0; ; attempt++) {
    const pause = RESEND_PAUSES_MS[attempt];
    let response: Response | undefined;
    try {
      response = await send(method, path, { ...options, idempotencyKey: key });
    } catch (failure) {
      if (options.signal?.aborted || pause === undefined) throw failure;
    }
    if (response && !UNSETTLED_STATUSES.has(response.status) && !(await stillInProgress(response))) {
      unsettledKeys.delete(what);
      return response;
    }
    if (pause === undefined && response) return response;
    await wait(pause ?? 0, options.signal);
  }
}

/**
 * Sends a request with the member's fresh access token (none for a visitor) and answers the response;
 * anything but 2xx throws an ApiError with the status and the server's message. A read whose connection failed
 * before any answer (a gateway worker died with it) is sent once more (sendReadAgainOnce, ADR 0046).
 */
export async function request(method: Method, path: string, options?: RequestOptions): Promise<Response> {
  const { early, idempotent, ...sent } = options ?? {};
  const token = await freshToken();
  const encoded = encode(sent.body);
  const body = typeof encoded === 'string' ? encoded : undefined;
  const answered = token || !early ? null : await early({ method, path, body });
  const response =
    answered ??
    (idempotent && body !== undefined
      ? await sendCreate(method, path, { ...sent, token }, body)
      : await sendReadAgainOnce(method, path, () => send(method, path, { ...sent, token }), sent.signal));
  if (!response.ok) throw new ApiError(method, path, response.status, await serverMessageOf(response));
  return response;
}

/** A request (see `request`) answering JSON; a 204 (a delete) answers undefined. */
export async function call<T>(method: Method, path: string, options?: RequestOptions): Promise<T> {
  const response = await request(method, path, options);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** The answer as a list; anything else throws, naming `what` asked for it. */
export function asList<T>(answer: unknown, what: string): T[] {
  if (!Array.isArray(answer)) throw new Error(`${what} did not answer a list`);
  return answer as T[];
}

/** A member-only file (GET): its bytes and the name the server gave it (Content-Disposition), if any. */
export async function fetchFile(
  path: string,
  options?: Pick<RequestOptions, 'accept' | 'signal'>,
): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await request('GET', path, { accept: null, ...options });
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition')) };
}
