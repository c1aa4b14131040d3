// Signed callers in tests: one key pair per test process for the gateway and one for the services, so a test's
// clients name members the way the gateway does (or a service the way services do) and its servers verify them
// the way services do. Each token's audience is the service whose method is called.
import {
  callerPrivateKeyOf,
  callerPublicKeyOf,
  callerSigningInterceptor,
  createCallerSigner,
  createCallerVerifier,
  createServiceSigner,
  generateCallerKeys,
  serviceCallerInterceptor,
} from '../grpc/caller-token.ts';
import { SERVICE_SCHEMAS } from '../postgres/roles.ts';

const SERVICES = Object.keys(SERVICE_SCHEMAS);

const keys = generateCallerKeys();
/** Every service's own key in tests: trusted for each service's name. */
const serviceKeys = generateCallerKeys();
const servicePublicKey = callerPublicKeyOf(serviceKeys.publicKey);

export const testCallers = {
  keys,
  serviceKeys,
  /** For startGrpcServer's `callers`: believes the gateway's key, and the services' key for each service. */
  verifier: createCallerVerifier([callerPublicKeyOf(keys.publicKey)], {
    services: Object.fromEntries(SERVICES.map((name) => [name, [servicePublicKey]])),
  }),
  /** For a client's `interceptors`: the caller setCallerMetadata names travels signed. */
  signing: callerSigningInterceptor(createCallerSigner(callerPrivateKeyOf(keys.privateKey))),
  /** For a client's `interceptors`: every call names the service `name` as its caller. */
  asService: (name: string) =>
    serviceCallerInterceptor(createServiceSigner(name, callerPrivateKeyOf(serviceKeys.privateKey))),
  /** The environment a gateway or service process is started with. */
  env: {
    CALLER_TOKEN_PRIVATE_KEY: keys.privateKey,
    CALLER_TOKEN_PUBLIC_KEY: keys.publicKey,
    SERVICE_TOKEN_PRIVATE_KEY: serviceKeys.privateKey,
    SERVICE_TOKEN_PUBLIC_KEYS: SERVICES.map((name) => `${name}:${serviceKeys.publicKey}`).join(','),
  },
};
