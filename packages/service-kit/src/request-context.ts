// The request id travels from the gateway (x-request-id) over gRPC metadata; this keeps it for the
// duration of one call so every log line of that call carries it. The same per-call store carries what a call's
// transactions leave for after their commit: the key of a keyed create (idempotency.ts) and the search outbox rows
// its writes recorded (search-outbox.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A search outbox row a call's transaction wrote: deleted once the call's own index write is done. */
export interface RecordedIndexWrite {
  table: string;
  index: string;
  documentId: string;
  seq: string;
}

export interface RequestContext {
  requestId: string;
  /** Set while a keyed create runs: marks its key with the row made, inside the create's transaction. */
  keyedCreate?: (sql: RawSqlExecutor, made: string) => Promise<void>;
  /** Outbox rows this call's transactions wrote and its index writes have not yet cleared. */
  indexWrites?: RecordedIndexWrite[];
}

/** The one statement a transaction runs for the per-call hooks (a Prisma transaction client is one). */
export interface RawSqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The running call's store, if the code runs inside one (a gRPC call; not a listener or a start-up task). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
