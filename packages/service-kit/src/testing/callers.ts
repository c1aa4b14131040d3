// Signed callers in tests: one key pair per test process, so a test's clients name members the way the
// gateway does and its servers verify them the way services do.
import {
  callerPrivateKeyOf,
  callerPublicKeyOf,
  callerSigningInterceptor,
  createCallerSigner,
  createCallerVerifier,
  generateCallerKeys,
} from '../grpc/caller-token.ts';

const keys = generateCallerKeys();

export const testCallers = {
  keys,
  /** For startGrpcServer's `callers`. */
  verifier: createCallerVerifier([callerPublicKeyOf(keys.publicKey)]),
  /** For a client's `interceptors`: the caller setCallerMetadata names travels signed. */
  signing: callerSigningInterceptor(createCallerSigner(callerPrivateKeyOf(keys.privateKey))),
  /** The environment a gateway or service process is started with. */
  env: { CALLER_TOKEN_PRIVATE_KEY: keys.privateKey, CALLER_TOKEN_PUBLIC_KEY: keys.publicKey },
};
