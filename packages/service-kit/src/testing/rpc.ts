// Calling a service over real gRPC in tests: any unary RPC by name, typed from the generated client, as a member
// or a visitor (fields left out take their proto3 defaults), and the status a refused call ends with.
import {
  type CallOptions,
  type Client,
  type ClientUnaryCall,
  Metadata,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { type Caller, setCallerMetadata } from '../caller.ts';
import { setIdempotencyKey } from '../idempotency.ts';

/** The request and response types of one RPC, read from the generated client's fullest overload. */
type Unary<M> = M extends (
  request: infer Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: infer Res) => void,
) => ClientUnaryCall
  ? { request: Req; response: Res }
  : never;

/** The names of a generated client's unary methods. */
export type UnaryMethodOf<C> = { [K in keyof C]: Unary<C[K]> extends never ? never : K }[keyof C];

export interface Rpc<C> {
  /**
   * Calls `method` as `caller` (none: a visitor, or an internal call); `idempotencyKey` goes in the metadata as
   * the gateway sends a request's Idempotency-Key.
   */
  <K extends UnaryMethodOf<C>>(
    method: K,
    request: Partial<Unary<C[K]>['request']>,
    caller?: Caller,
    idempotencyKey?: string,
  ): Promise<Unary<C[K]>['response']>;
  /** The same calls on another client (another replica of the service). */
  on: (target: C) => Rpc<C>;
}

/**
 * The calls of one test file to the service `definition` describes: `client()` answers the client its set-up
 * made (read at each call, so the helper can be made before the set-up runs).
 */
export function rpcCalls<C extends Client>(definition: ServiceDefinition, client: () => C): Rpc<C> {
  const rpc = <K extends UnaryMethodOf<C>>(
    method: K,
    request: Partial<Unary<C[K]>['request']>,
    caller?: Caller,
    idempotencyKey?: string,
  ): Promise<Unary<C[K]>['response']> => {
    const metadata = new Metadata();
    if (caller) setCallerMetadata(metadata, caller);
    if (idempotencyKey !== undefined) setIdempotencyKey(metadata, idempotencyKey);
    const target = client();
    const fn = target[method] as unknown as (
      request: unknown,
      metadata: Metadata,
      options: Partial<CallOptions>,
      callback: (error: ServiceError | null, response: Unary<C[K]>['response']) => void,
    ) => ClientUnaryCall;
    const defaults = definition[method as string]?.requestDeserialize(Buffer.alloc(0));
    return new Promise((resolve, reject) =>
      fn.call(target, { ...defaults, ...request }, metadata, {}, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
  };
  return Object.assign(rpc, { on: (target: C) => rpcCalls(definition, () => target) });
}

/** The gRPC status and details a call was refused with; fails when it was answered. */
export async function refusal(answer: Promise<unknown>) {
  const error = (await answer.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  )) as ServiceError;
  return { code: error.code, details: error.details };
}
