// The search engine away (ADR 0048): which of the Elasticsearch client's errors mean "not reachable now" rather
// than a refusal; searches then fail as SearchUnavailableError ("try again shortly"), and writes fail the same way,
// for the outbox (../outbox.ts) to keep and send once the engine answers again.
import { errors } from '@elastic/elasticsearch';

/** What a member reads while the search engine cannot be reached. */
export const SEARCH_UNAVAILABLE = 'Search is unavailable right now. Please try again shortly.';

/** A search the engine could not answer now; `dependency` names it for the service kit's classification and metrics. */
export class SearchUnavailableError extends Error {
  override name = 'SearchUnavailableError';
  readonly dependency = 'search';

  constructor(cause: unknown) {
    super(SEARCH_UNAVAILABLE, { cause });
  }
}

/** Answers that mean the engine (or the proxy before it) is starting, stopping, overloaded or gone. */
const UNAVAILABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Is `error` the engine being away: no connection, no answer in time, or a 429/502/503/504? */
export function isEngineUnreachable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  )
    return true;
  return error instanceof errors.ResponseError && UNAVAILABLE_STATUSES.has(error.statusCode ?? 0);
}

/** How long a search or a write may take before the engine counts as away: inside the gateway's 3 s deadline. */
export const ENGINE_CALL_TIMEOUT_MS = 2_500;

/**
 * A call to the engine, tried once more at once when it failed fast as unreachable (a kept-alive connection the
 * engine or its proxy had closed: "socket hang up", 502), not after a timeout, which would run past the deadline.
 * The client's own retries are off: they wait a growing backoff (a second and more) first.
 */
export async function engineCall<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } catch (error) {
    const fast = performance.now() - started < ENGINE_CALL_TIMEOUT_MS / 5;
    if (!fast || !isEngineUnreachable(error) || error instanceof errors.TimeoutError) throw error;
    return call();
  }
}
/** After the engine was found away, between the probes that try it again. */
export const AWAY_RECHECK_MS = 1_000;

export interface EngineBreaker {
  /** `call` through engineCall, or at once a ConnectionError while the engine is known to be away. */
  call<T>(call: () => Promise<T>): Promise<T>;
  /** Stops the probes. */
  close(): void;
}

/**
 * Remembers that the engine is away, so a search fails at once ("try again shortly") instead of waiting on a
 * stopped or starting engine up to the call's timeout, past the gateway's deadline under load. After a failure
 * that says it is away, every call fails at once; `probe` tries the engine every `recheckMs` in the background,
 * never a member's call (a starting engine may take the whole timeout to answer), and its first answer ends the
 * outage for every call.
 */
export function engineBreaker(probe: () => Promise<unknown>, recheckMs = AWAY_RECHECK_MS): EngineBreaker {
  let away = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const probeLater = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      engineCall(probe).then(
        () => {
          timer = undefined;
          away = false;
        },
        (error: unknown) => {
          timer = undefined;
          // A refusal is an answer: the engine is there.
          if (isEngineUnreachable(error)) probeLater();
          else away = false;
        },
      );
    }, recheckMs);
    timer.unref();
  };

  return {
    async call(call) {
      if (away) throw new errors.ConnectionError('search engine away: not tried again yet');
      try {
        return await engineCall(call);
      } catch (error) {
        if (isEngineUnreachable(error)) {
          away = true;
          probeLater();
        }
        throw error;
      }
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
