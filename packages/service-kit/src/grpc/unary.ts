// Adapts async domain calls to grpc-js handlers: carries the request id from the metadata into the logs, logs
// each call once with its outcome and duration, and turns thrown errors into gRPC statuses (domain errors keep
// their message; a dependency every replica shares being unreachable (the database, Keycloak, the object store,
// the search engine) becomes UNAVAILABLE, naming it in a trailer, which callers may retry shortly (ADR 0047,
// 0048); anything else becomes INTERNAL without leaking details). `unary` answers one message;
// `serverStream` writes each message an async iterable yields, honouring backpressure, so an answer of any size
// never sits in memory whole.
import { randomUUID } from 'node:crypto';
import { type EventEmitter, once } from 'node:events';
import {
  type handleServerStreamingCall,
  type handleUnaryCall,
  Metadata,
  type ServerErrorResponse,
  status,
} from '@grpc/grpc-js';
import { type Caller, callerFromMetadata, callerServiceFromMetadata } from '../caller.ts';
import {
  dependencyFailed,
  UNAVAILABLE_DEPENDENCY_TRAILER,
  unavailableDependencyOf,
} from '../dependencies.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { REQUEST_ID_HEADER, runWithRequestContext } from '../request-context.ts';
import { grpcStatusOf } from './status.ts';

export interface CallContext {
  requestId: string;
  metadata: Metadata;
  /** The member the gateway authenticated, if any. */
  caller: Caller | undefined;
  /** The Rotunda service calling, when another service made the call (verified like a member). */
  service: string | undefined;
}

export type UnaryHandler<Request, Response> = (request: Request, context: CallContext) => Promise<Response>;

export type StreamHandler<Request, Response> = (
  request: Request,
  context: CallContext,
) => AsyncIterable<Response>;

/**
 * Waits until the stream can take more, or its caller went away; the listener that did not fire is removed, so a
 * long stream does not pile up listeners on the call.
 */
async function drainedOrCancelled(call: EventEmitter): Promise<void> {
  const waiting = new AbortController();
  try {
    await Promise.race([
      once(call, 'drain', { signal: waiting.signal }),
      once(call, 'cancelled', { signal: waiting.signal }),
    ]);
  } finally {
    waiting.abort();
  }
}

/** Runs `work` with the call's request id and context; logs its outcome and answers its error as a status. */
function handle(
  logger: Logger,
  method: string,
  metadata: Metadata,
  work: (context: CallContext) => Promise<void>,
  fail: (error: Partial<ServerErrorResponse>) => void,
) {
  const [fromGateway] = metadata.get(REQUEST_ID_HEADER);
  const requestId = typeof fromGateway === 'string' && fromGateway ? fromGateway : randomUUID();
  const started = performance.now();
  runWithRequestContext({ requestId }, () => {
    work({
      requestId,
      metadata,
      caller: callerFromMetadata(metadata),
      service: callerServiceFromMetadata(metadata),
    }).then(
      () => logger.debug({ method, ms: Math.round(performance.now() - started) }, 'grpc call ok'),
      (error: unknown) => {
        const ms = Math.round(performance.now() - started);
        if (error instanceof DomainError) {
          logger.info({ method, ms, kind: error.kind, reason: error.message }, 'grpc call refused');
          fail({ code: grpcStatusOf[error.kind], details: error.message });
          return;
        }
        const unavailable = unavailableDependencyOf(error);
        if (unavailable) {
          const { dependency, message } = unavailable;
          // Not a bug, and one line per call would flood the log while it lasts: the server's health check
          // logs the database's outage once, and the metrics count each refusal.
          logger.debug(
            { method, ms, dependency, reason: String(error) },
            'grpc call refused: dependency unavailable',
          );
          dependencyFailed(dependency);
          const trailer = new Metadata();
          trailer.set(UNAVAILABLE_DEPENDENCY_TRAILER, dependency);
          fail({ code: status.UNAVAILABLE, details: message, metadata: trailer });
          return;
        }
        logger.error({ method, ms, err: error }, 'grpc call failed');
        fail({ code: status.INTERNAL, details: 'Internal error' });
      },
    );
  });
}

export function unary<Request, Response>(
  logger: Logger,
  method: string,
  handler: UnaryHandler<Request, Response>,
): handleUnaryCall<Request, Response> {
  return (call, callback) =>
    handle(
      logger,
      method,
      call.metadata,
      async (context) => callback(null, await handler(call.request, context)),
      (error) => callback(error),
    );
}

export function serverStream<Request, Response>(
  logger: Logger,
  method: string,
  handler: StreamHandler<Request, Response>,
): handleServerStreamingCall<Request, Response> {
  return (call) =>
    handle(
      logger,
      method,
      call.metadata,
      async (context) => {
        for await (const message of handler(call.request, context)) {
          // The caller went away: stop reading what nobody will receive.
          if (call.cancelled) return;
          if (!call.write(message)) await drainedOrCancelled(call);
        }
        call.end();
      },
      (error) => call.emit('error', error),
    );
}
