// Calling the post service over real gRPC in tests: any RPC by name, typed from the generated client, as a member
// or a visitor (fields left out take their proto3 defaults), and the status a refused call ends with.
import { type CallOptions, type ClientUnaryCall, Metadata, type ServiceError } from '@grpc/grpc-js';
import { type PostServiceClient, PostServiceService } from '@rotunda/protos/post';
import { type Caller, setCallerMetadata, setIdempotencyKey } from '@rotunda/service-kit';

/** The request and response types of one RPC, read from the generated client's fullest overload. */
type Unary<M> = M extends (
  request: infer Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: infer Res) => void,
) => ClientUnaryCall
  ? { request: Req; response: Res }
  : never;
type Method = {
  [K in keyof PostServiceClient]: Unary<PostServiceClient[K]> extends never ? never : K;
}[keyof PostServiceClient];

/**
 * The calls of one test file: `client()` answers the client its set-up made (read at each call, so the helper is
 * made before the set-up runs); `target` picks another replica's client; `idempotencyKey` goes in the metadata as
 * the gateway sends a request's Idempotency-Key.
 */
export function postCalls(client: () => PostServiceClient) {
  return function rpc<K extends Method>(
    method: K,
    request: Partial<Unary<PostServiceClient[K]>['request']>,
    caller?: Caller,
    target: PostServiceClient = client(),
    idempotencyKey?: string,
  ): Promise<Unary<PostServiceClient[K]>['response']> {
    const metadata = new Metadata();
    if (caller) setCallerMetadata(metadata, caller);
    if (idempotencyKey !== undefined) setIdempotencyKey(metadata, idempotencyKey);
    const fn = target[method] as unknown as (
      request: unknown,
      metadata: Metadata,
      options: Partial<CallOptions>,
      callback: (error: ServiceError | null, response: Unary<PostServiceClient[K]>['response']) => void,
    ) => ClientUnaryCall;
    const defaults = PostServiceService[method].requestDeserialize(Buffer.alloc(0));
    return new Promise((resolve, reject) =>
      fn.call(target, { ...defaults, ...request }, metadata, {}, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
  };
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
