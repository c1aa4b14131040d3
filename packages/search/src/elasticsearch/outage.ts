// The search engine away (ADR 0048): which of the Elasticsearch client's errors mean "not reachable now" rather
// than a refusal; searches then fail as SearchUnavailableError ("try again shortly"), and writes are kept per
// document, the latest of each, and sent once the engine answers again, in order, so the owner's write (already
// committed in its tables) is never failed for the index and nothing written meanwhile is missing afterwards.
import { errors } from '@elastic/elasticsearch';
import type { SearchDocument } from '../port.ts';

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
/** After the engine was found away, how long calls fail at once before one is let through to try it again. */
export const AWAY_RECHECK_MS = 1_000;

export interface EngineBreaker {
  /** `call` through engineCall, or at once a ConnectionError while the engine is known to be away. */
  call<T>(call: () => Promise<T>): Promise<T>;
}

/**
 * Remembers that the engine is away, so a search fails at once ("try again shortly") instead of waiting on a
 * stopped or starting engine up to the call's timeout, past the gateway's deadline under load. After a failure
 * that says it is away, calls fail at once for `recheckMs`; then one call at a time is let through to try it
 * (the others still fail at once), and the first that gets an answer ends the outage for every call.
 */
export function engineBreaker(recheckMs = AWAY_RECHECK_MS): EngineBreaker {
  /** When the engine was last found away (performance.now()), or undefined while it answers. */
  let awayAt: number | undefined;
  let trying = false;
  return {
    async call(call) {
      if (awayAt !== undefined) {
        if (trying || performance.now() - awayAt < recheckMs)
          throw new errors.ConnectionError('search engine away: not tried again yet');
        trying = true;
      }
      const trial = trying;
      try {
        const answer = await engineCall(call);
        awayAt = undefined;
        return answer;
      } catch (error) {
        // A refusal is an answer: the engine is there.
        awayAt = isEngineUnreachable(error) ? performance.now() : undefined;
        throw error;
      } finally {
        if (trial) trying = false;
      }
    },
  };
}

/** Between tries to send the writes kept while the engine was away. */
export const PENDING_RETRY_MS = 1_000;
/**
 * The most documents kept for an engine that does not come back: past it, writes are dropped (the tables keep
 * them) and the index needs the operator's reindex, which the log says.
 */
export const MAX_PENDING = 100_000;

export interface PendingWrites {
  /** Sends these through, or keeps them for later when the engine is away (or writes are already waiting). */
  upsert(documents: SearchDocument[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  /** How many documents are waiting. */
  size(): number;
  /** Stops the retries; what is still waiting is dropped. */
  close(): void;
}

/**
 * Writes that wait while the engine is away. While any wait, new ones queue behind them (never overtaking an
 * older copy of the same document) and are sent in the background, every `retryMs` until the engine takes them;
 * with nothing waiting, a write goes straight through, so a member finds what they just changed. One send at a
 * time; a document is let go only when the copy sent is still its latest.
 */
export function pendingWrites(options: {
  /** Sends documents; `background`: no member waits on it (the writes kept), so it may take longer. */
  send: (documents: SearchDocument[], background: boolean) => Promise<void>;
  sendRemovals: (ids: string[], background: boolean) => Promise<void>;
  logger: {
    warn: (details: object, message: string) => void;
    info: (details: object, message: string) => void;
  };
  retryMs?: number;
  maxPending?: number;
}): PendingWrites {
  const retryMs = options.retryMs ?? PENDING_RETRY_MS;
  const maxPending = options.maxPending ?? MAX_PENDING;
  /** The latest write of each document: its document, or null for a removal. */
  const waiting = new Map<string, SearchDocument | null>();
  let sending: Promise<void> | undefined;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  let since: number | undefined;
  let dropped = false;

  const keep = (entries: [string, SearchDocument | null][]) => {
    for (const [id, write] of entries) {
      if (waiting.size >= maxPending && !waiting.has(id)) {
        if (!dropped)
          options.logger.warn(
            { kept: waiting.size },
            'search engine away too long: further index writes dropped; run the reindex once it is back',
          );
        dropped = true;
        continue;
      }
      // Re-inserted at the end: the map's order is the order writes were made.
      waiting.delete(id);
      waiting.set(id, write);
    }
    since ??= Date.now();
  };

  /** Sends what waits, in order; answers whether everything went. */
  async function sendWaiting(): Promise<boolean> {
    const batch = [...waiting];
    try {
      // Runs of upserts and of removals in the order they were made, so a removal never overtakes an upsert.
      for (let start = 0; start < batch.length; ) {
        const removal = batch[start]?.[1] === null;
        let end = start;
        while (end < batch.length && (batch[end]?.[1] === null) === removal) end += 1;
        const run = batch.slice(start, end);
        if (removal)
          await options.sendRemovals(
            run.map(([id]) => id),
            true,
          );
        else
          await options.send(
            run.map(([, document]) => document as SearchDocument),
            true,
          );
        for (const [id, write] of run) if (waiting.get(id) === write) waiting.delete(id);
        start = end;
      }
    } catch (error) {
      if (!isEngineUnreachable(error)) throw error;
      return false;
    }
    if (waiting.size === 0 && since !== undefined) {
      options.logger.info(
        { awayMs: Date.now() - since },
        'search engine back: index writes kept meanwhile sent',
      );
      since = undefined;
    }
    return waiting.size === 0;
  }

  /** One send at a time; a try while one runs waits for it and tries again. */
  function flush(): Promise<boolean> {
    inFlight += 1;
    const run = (sending ?? Promise.resolve()).then(sendWaiting).finally(() => {
      inFlight -= 1;
    });
    sending = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  function retryLater() {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().then(
        (done) => {
          if (!done) retryLater();
        },
        (error: unknown) => {
          options.logger.warn({ err: error }, 'search engine refused index writes kept while it was away');
          retryLater();
        },
      );
    }, retryMs);
    timer.unref();
  }

  async function write(entries: [string, SearchDocument | null][], direct: () => Promise<void>) {
    if (waiting.size === 0 && inFlight === 0) {
      try {
        await direct();
        return;
      } catch (error) {
        if (!isEngineUnreachable(error)) throw error;
        options.logger.warn(
          { err: error, documents: entries.length },
          'search engine away: index writes kept',
        );
      }
    }
    // Behind whatever waits, sent in the background: the member's write (in its tables) is done.
    keep(entries);
    retryLater();
  }

  return {
    upsert: (documents) =>
      write(
        documents.map((document) => [document.id, document]),
        () => options.send(documents, false),
      ),
    remove: (ids) =>
      write(
        ids.map((id) => [id, null]),
        () => options.sendRemovals(ids, false),
      ),
    size: () => waiting.size,
    close() {
      clearTimeout(timer);
      timer = undefined;
      waiting.clear();
    },
  };
}
