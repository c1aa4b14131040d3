// Adapts an async domain call to a grpc-js unary handler: carries the request id from the metadata into
// the logs, logs each call once with its outcome and duration, and turns thrown errors into gRPC statuses
// (domain errors keep their message; anything else becomes INTERNAL without leaking details).
import { randomUUID } from 'node:crypto';
import { type handleUnaryCall, type Metadata, status } from '@grpc/grpc-js';
import { type Caller, callerFromMetadata } from '../caller.ts';
import { DomainError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { REQUEST_ID_HEADER, runWithRequestContext } from '../request-context.ts';
import { grpcStatusOf } from './status.ts';

export interface CallContext {
  requestId: string;
  metadata: Metadata;
  /** The member the gateway authenticated, if any. */
  caller: Caller | undefined;
}

export type UnaryHandler<Request, Response> = (request: Request, context: CallContext) => Promise<Response>;

export function unary<Request, Response>(
  logger: Logger,
  method: string,
  handler: UnaryHandler<Request, Response>,
): handleUnaryCall<Request, Response> {
  return (call, callback) => {
    const [fromGateway] = call.metadata.get(REQUEST_ID_HEADER);
    const requestId = typeof fromGateway === 'string' && fromGateway ? fromGateway : randomUUID();
    const started = performance.now();
    runWithRequestContext({ requestId }, () => {
      handler(call.request, {
        requestId,
        metadata: call.metadata,
        caller: callerFromMetadata(call.metadata),
      }).then(
        (response) => {
          logger.debug({ method, ms: Math.round(performance.now() - started) }, 'grpc call ok');
          callback(null, response);
        },
        (error: unknown) => {
          const ms = Math.round(performance.now() - started);
          if (error instanceof DomainError) {
            logger.info({ method, ms, kind: error.kind, reason: error.message }, 'grpc call refused');
            callback({ code: grpcStatusOf[error.kind], details: error.message });
            return;
          }
          logger.error({ method, ms, err: error }, 'grpc call failed');
          callback({ code: status.INTERNAL, details: 'Internal error' });
        },
      );
    });
  };
}
