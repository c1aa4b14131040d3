// Services verify who is calling: only a caller token signed with the gateway's key names a member; plain
// caller metadata, a forged or expired token, or a token signed with another key is refused or ignored; and no
// request carrying a NUL character reaches a handler.
import { credentials, type Interceptor, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { OrgServiceClient, OrgServiceService } from '@rotunda/protos/org';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLER_METADATA,
  CALLER_TOKEN_METADATA,
  type Caller,
  type CallerVerifier,
  callerPrivateKeyOf,
  callerPublicKeyOf,
  callerSigningInterceptor,
  createCallerSigner,
  createCallerVerifier,
  createLogger,
  GUARD_MESSAGES,
  generateCallerKeys,
  loadConfig,
  type RunningGrpcServer,
  serverConfigSchema,
  setCallerMetadata,
  startGrpcServer,
  unary,
} from '../src/index.ts';
import { testCallers } from '../src/testing/index.ts';

const silent = createLogger('test', 'silent');
const contributor: Caller = { userId: 'u-1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };

let server: RunningGrpcServer;
/** What the handler saw, per call: the caller, or 'visitor'; nothing when no handler ran. */
let seen: (Caller | 'visitor')[] = [];

/** An org server whose search records who it was called by; `callers` as a service's server gets it. */
function startSearchServer(callers?: CallerVerifier): Promise<RunningGrpcServer> {
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: silent,
    ...(callers && { callers }),
    services: [
      {
        name: 'rotunda.org.v1.OrgService',
        definition: OrgServiceService,
        implementation: {
          searchOrganizations: unary(silent, 'SearchOrganizations', async (_request, context) => {
            seen.push(context.caller ?? 'visitor');
            return { organizations: [], total: 0 };
          }),
        },
      },
    ],
  });
}

beforeAll(async () => {
  server = await startSearchServer(testCallers.verifier);
});
afterAll(() => server.shutdown());

function search(options: {
  text?: string;
  interceptors?: Interceptor[];
  metadata?: (metadata: Metadata) => void;
}): Promise<ServiceError | null> {
  seen = [];
  const client = new OrgServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: options.interceptors ?? [],
  });
  const metadata = new Metadata();
  options.metadata?.(metadata);
  return new Promise((resolve) =>
    client.searchOrganizations(
      { text: options.text ?? 'capitol', group: '', offset: 0, limit: 0 },
      metadata,
      (error) => {
        client.close();
        resolve(error);
      },
    ),
  );
}

describe('a service verifies its caller', () => {
  it('believes the caller the gateway signed', async () => {
    const error = await search({
      interceptors: [testCallers.signing],
      metadata: (metadata) => setCallerMetadata(metadata, contributor),
    });
    expect(error).toBeNull();
    expect(seen).toEqual([contributor]);
  });

  it('treats plain caller metadata from the wire as a visitor: nobody acts as a contributor by saying so', async () => {
    const error = await search({
      metadata: (metadata) => {
        metadata.set(CALLER_METADATA.id, contributor.userId);
        metadata.set(CALLER_METADATA.email, contributor.email);
        metadata.set(CALLER_METADATA.roles, 'contributor');
      },
    });
    expect(error).toBeNull();
    expect(seen).toEqual(['visitor']);
  });

  it('refuses a token signed with another key, before any handler runs', async () => {
    const other = generateCallerKeys();
    const error = await search({
      interceptors: [callerSigningInterceptor(createCallerSigner(callerPrivateKeyOf(other.privateKey)))],
      metadata: (metadata) => setCallerMetadata(metadata, contributor),
    });
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toBe(GUARD_MESSAGES.unverified);
    expect(seen).toEqual([]);
  });

  it('refuses a token whose claims were changed after signing (a member promoting themselves)', async () => {
    const member: Caller = { userId: 'u-2', email: 'member@demo.ca.gov', roles: [] };
    const signed = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey)).tokenFor(member);
    const [header, payload, signature] = signed.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const promoted = Buffer.from(JSON.stringify({ ...claims, roles: ['contributor'] })).toString('base64url');
    const error = await search({
      metadata: (metadata) => metadata.set(CALLER_TOKEN_METADATA, `${header}.${promoted}.${signature}`),
    });
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(seen).toEqual([]);
  });

  it('refuses garbage in place of a token', async () => {
    for (const token of ['', 'x', 'a.b.c', 'a.b.c.d']) {
      const error = await search({ metadata: (metadata) => metadata.set(CALLER_TOKEN_METADATA, token) });
      expect(error?.code).toBe(status.UNAUTHENTICATED);
    }
    expect(seen).toEqual([]);
  });

  it('refuses a request holding a NUL character with INVALID_ARGUMENT, before any handler runs', async () => {
    const error = await search({ text: 'cap\u0000itol' });
    expect(error?.code).toBe(status.INVALID_ARGUMENT);
    expect(error?.details).toBe(GUARD_MESSAGES.nul);
    expect(seen).toEqual([]);
  });

  it('without a verifier, no call has a caller', async () => {
    const bare = await startSearchServer();
    seen = [];
    const client = new OrgServiceClient(`127.0.0.1:${bare.port}`, credentials.createInsecure(), {
      interceptors: [testCallers.signing],
    });
    const metadata = new Metadata();
    setCallerMetadata(metadata, contributor);
    const error = await new Promise<ServiceError | null>((resolve) =>
      client.searchOrganizations({ text: 'x', group: '', offset: 0, limit: 0 }, metadata, resolve),
    );
    client.close();
    await bare.shutdown();
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(seen).toEqual([]);
  });
});

describe('caller tokens', () => {
  it('expire: a captured token is worthless a minute later', () => {
    let clock = Date.UTC(2026, 10, 26, 12);
    const signer = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey), () => clock);
    const verifier = createCallerVerifier([callerPublicKeyOf(testCallers.keys.publicKey)], () => clock);
    const token = signer.tokenFor(contributor);
    expect(verifier.verify(token)).toEqual(contributor);
    clock += 66_000;
    expect(verifier.verify(token)).toBeUndefined();
  });

  it('are renewed by the signer before they run out, and reused until then', () => {
    let clock = Date.UTC(2026, 10, 26, 12);
    const signer = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey), () => clock);
    const first = signer.tokenFor(contributor);
    clock += 10_000;
    expect(signer.tokenFor(contributor)).toBe(first);
    clock += 25_000;
    expect(signer.tokenFor(contributor)).not.toBe(first);
  });

  it('are accepted from any configured key, so a new key can be rolled out', () => {
    const next = generateCallerKeys();
    const verifier = createCallerVerifier([
      callerPublicKeyOf(testCallers.keys.publicKey),
      callerPublicKeyOf(next.publicKey),
    ]);
    const token = createCallerSigner(callerPrivateKeyOf(next.privateKey)).tokenFor(contributor);
    expect(verifier.verify(token)).toEqual(contributor);
  });
});

describe('caller key configuration', () => {
  const schema = serverConfigSchema;

  it('is required of every service’s server, and a bad key stops it with a reason', () => {
    expect(() => loadConfig(schema, {})).toThrow(/CALLER_TOKEN_PUBLIC_KEY: is required/);
    expect(() => loadConfig(schema, { CALLER_TOKEN_PUBLIC_KEY: 'bm90IGEga2V5' })).toThrow(
      /CALLER_TOKEN_PUBLIC_KEY.*must be an Ed25519 public key/,
    );
    expect(() => loadConfig(schema, { CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.privateKey })).toThrow(
      /must be an Ed25519 public key/,
    );
  });

  it('takes several comma-separated keys', () => {
    const next = generateCallerKeys();
    const config = loadConfig(schema, {
      CALLER_TOKEN_PUBLIC_KEY: `${testCallers.keys.publicKey}, ${next.publicKey}`,
    });
    expect(config.CALLER_TOKEN_PUBLIC_KEY).toHaveLength(2);
  });
});
