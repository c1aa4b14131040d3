// Services verify who is calling: only a caller token signed with the gateway's key names a member, and only for
// the service it was signed for; a service names itself with its own key, which vouches for that service alone;
// plain caller metadata, a forged or expired token, or a token signed with another key is refused or ignored;
// and no request carrying a NUL character reaches a handler.
import { credentials, type Interceptor, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { OrgServiceClient, OrgServiceService } from '@rotunda/protos/org';
import { ProfileServiceClient, ProfileServiceService } from '@rotunda/protos/profile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLER_METADATA,
  CALLER_SERVICE_METADATA,
  CALLER_TOKEN_METADATA,
  type Caller,
  type CallerVerifier,
  callerPrivateKeyOf,
  callerPublicKeyOf,
  callerSigningInterceptor,
  createCallerSigner,
  createCallerVerifier,
  createLogger,
  createServiceSigner,
  GUARD_MESSAGES,
  generateCallerKeys,
  loadConfig,
  notFound,
  type RunningGrpcServer,
  serverConfigSchema,
  serviceCallerInterceptor,
  setCallerMetadata,
  startGrpcServer,
  unary,
} from '../src/index.ts';
import { testCallers } from '../src/testing/index.ts';

const silent = createLogger('test', 'silent');
const contributor: Caller = { userId: 'u-1', email: 'concierge@demo.ca.gov', roles: ['contributor'] };

let server: RunningGrpcServer;
/** What the handler saw, per call: the caller, a service's name, or 'visitor'; nothing when no handler ran. */
let seen: (Caller | string)[] = [];

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
            seen.push(context.caller ?? context.service ?? 'visitor');
            return { organizations: [], total: 0 };
          }),
        },
      },
      {
        name: 'rotunda.profile.v1.ProfileService',
        definition: ProfileServiceService,
        implementation: {
          getProfile: unary(silent, 'GetProfile', async (_request, context) => {
            seen.push(context.caller ?? context.service ?? 'visitor');
            throw notFound('No such profile');
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
    const signed = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey)).tokenFor(
      member,
      'org',
    );
    const [header, payload, signature] = signed.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const promoted = Buffer.from(JSON.stringify({ ...claims, roles: ['contributor'] })).toString('base64url');
    const error = await search({
      metadata: (metadata) => metadata.set(CALLER_TOKEN_METADATA, `${header}.${promoted}.${signature}`),
    });
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(seen).toEqual([]);
  });

  it("refuses a member's token signed for another service: a token for org replayed to profile", async () => {
    const token = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey)).tokenFor(
      contributor,
      'org',
    );
    seen = [];
    const client = new ProfileServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set(CALLER_TOKEN_METADATA, token);
    const error = await new Promise<ServiceError | null>((resolve) =>
      client.getProfile({ profile_id: 1 }, metadata, (failure) => resolve(failure)),
    );
    client.close();
    expect(error?.code).toBe(status.UNAUTHENTICATED);
    expect(error?.details).toBe(GUARD_MESSAGES.unverified);
    expect(seen).toEqual([]);
    // The very token is believed by the service it was signed for.
    expect(await search({ metadata: (entries) => entries.set(CALLER_TOKEN_METADATA, token) })).toBeNull();
    expect(seen).toEqual([contributor]);
  });

  it('signs each call for the service whose method it is: one channel interceptor serves every service', async () => {
    seen = [];
    const client = new ProfileServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
      interceptors: [testCallers.signing],
    });
    const metadata = new Metadata();
    setCallerMetadata(metadata, contributor);
    const error = await new Promise<ServiceError | null>((resolve) =>
      client.getProfile({ profile_id: 1 }, metadata, (failure) => resolve(failure)),
    );
    client.close();
    expect(error?.code).toBe(status.NOT_FOUND);
    expect(seen).toEqual([contributor]);
  });

  it('names a calling service apart from any member: the handler sees the service, never a caller', async () => {
    const error = await search({ interceptors: [testCallers.asService('profile')] });
    expect(error).toBeNull();
    expect(seen).toEqual(['profile']);
  });

  it("refuses a service's token when its key is not trusted for that service's name", async () => {
    const postOnly = generateCallerKeys();
    const other = await startSearchServer(
      createCallerVerifier([callerPublicKeyOf(testCallers.keys.publicKey)], {
        services: { post: [callerPublicKeyOf(postOnly.publicKey)] },
      }),
    );
    const call = (signer: Parameters<typeof serviceCallerInterceptor>[0]) => {
      seen = [];
      const client = new OrgServiceClient(`127.0.0.1:${other.port}`, credentials.createInsecure(), {
        interceptors: [serviceCallerInterceptor(signer)],
      });
      return new Promise<ServiceError | null>((resolve) =>
        client.searchOrganizations({ text: 'x', group: '', offset: 0, limit: 0 }, (error) => {
          client.close();
          resolve(error);
        }),
      );
    };
    const key = callerPrivateKeyOf(postOnly.privateKey);
    expect(await call(createServiceSigner('post', key))).toBeNull();
    expect(seen).toEqual(['post']);
    // The post service's key cannot speak as profile, nor name a member as the gateway does.
    expect((await call(createServiceSigner('profile', key)))?.code).toBe(status.UNAUTHENTICATED);
    const asMember = await search({
      metadata: (metadata) =>
        metadata.set(CALLER_TOKEN_METADATA, createCallerSigner(key).tokenFor(contributor, 'org')),
    });
    expect(asMember?.code).toBe(status.UNAUTHENTICATED);
    await other.shutdown();
    expect(seen).toEqual([]);
  });

  it('drops a plain service name from the wire: nobody is a service by saying so', async () => {
    const error = await search({ metadata: (metadata) => metadata.set(CALLER_SERVICE_METADATA, 'profile') });
    expect(error).toBeNull();
    expect(seen).toEqual(['visitor']);
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
    const verifier = createCallerVerifier([callerPublicKeyOf(testCallers.keys.publicKey)], {
      now: () => clock,
    });
    const token = signer.tokenFor(contributor, 'org');
    expect(verifier.verify(token, 'org')).toEqual({ member: contributor });
    clock += 66_000;
    expect(verifier.verify(token, 'org')).toBeUndefined();
  });

  it('are renewed by the signer before they run out, and reused until then', () => {
    let clock = Date.UTC(2026, 10, 26, 12);
    const signer = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey), () => clock);
    const first = signer.tokenFor(contributor, 'org');
    clock += 10_000;
    expect(signer.tokenFor(contributor, 'org')).toBe(first);
    expect(signer.tokenFor(contributor, 'profile')).not.toBe(first);
    clock += 25_000;
    expect(signer.tokenFor(contributor, 'org')).not.toBe(first);
  });

  it('are accepted from any configured key, so a new key can be rolled out', () => {
    const next = generateCallerKeys();
    const verifier = createCallerVerifier([
      callerPublicKeyOf(testCallers.keys.publicKey),
      callerPublicKeyOf(next.publicKey),
    ]);
    const token = createCallerSigner(callerPrivateKeyOf(next.privateKey)).tokenFor(contributor, 'news');
    expect(verifier.verify(token, 'news')).toEqual({ member: contributor });
    expect(verifier.verify(token, 'auth')).toBeUndefined();
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

  it('reads the services allowed to call as themselves, by name, and refuses a malformed list', () => {
    const config = loadConfig(schema, {
      CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.publicKey,
      SERVICE_TOKEN_PUBLIC_KEYS: `profile:${testCallers.serviceKeys.publicKey},post:${testCallers.serviceKeys.publicKey}`,
      SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
    });
    expect(Object.keys(config.SERVICE_TOKEN_PUBLIC_KEYS)).toEqual(['profile', 'post']);
    expect(config.SERVICE_TOKEN_PRIVATE_KEY?.asymmetricKeyType).toBe('ed25519');
    expect(() =>
      loadConfig(schema, {
        CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.publicKey,
        SERVICE_TOKEN_PUBLIC_KEYS: testCallers.serviceKeys.publicKey,
      }),
    ).toThrow(/SERVICE_TOKEN_PUBLIC_KEYS: must list service:key pairs/);
  });
});
