// A suspended member reads but writes nothing (ADR 0041): the gateway's caller token carries the suspension, a
// service's guard refuses the write methods the service lists with PERMISSION_DENIED and the suspended message
// before any handler runs, lets reads through, and lets writes through again once the suspension has ended.
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { OrgServiceClient, OrgServiceService } from '@rotunda/protos/org';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Caller,
  callerPrivateKeyOf,
  callerPublicKeyOf,
  createCallerSigner,
  createCallerVerifier,
  createLogger,
  type RunningGrpcServer,
  setCallerMetadata,
  startGrpcServer,
  unary,
} from '../src/index.ts';
import { testCallers } from '../src/testing/index.ts';

const silent = createLogger('test', 'silent');
const DAY = 24 * 60 * 60 * 1000;
const REASON = 'Repeated spam — “buy now” links';
const member: Caller = { userId: 'u-7', email: 'member@demo.ca.gov', roles: [] };
const suspended = (until: Date): Caller => ({ ...member, suspension: { until, reason: REASON } });

let server: RunningGrpcServer;
let client: OrgServiceClient;
/** The callers the handlers saw, in order; nothing when the guard refused first. */
let seen: (Caller | undefined)[] = [];

beforeAll(async () => {
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: silent,
    callers: testCallers.verifier,
    services: [
      {
        name: 'rotunda.org.v1.OrgService',
        definition: OrgServiceService,
        implementation: {
          searchOrganizations: unary(silent, 'SearchOrganizations', async (_request, context) => {
            seen.push(context.caller);
            return { organizations: [], total: 0 };
          }),
          addDivision: unary(silent, 'AddDivision', async (_request, context) => {
            seen.push(context.caller);
            return { created: true };
          }),
        },
        writes: ['addDivision'],
      },
    ],
  });
  client = new OrgServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
});
afterAll(async () => {
  client.close();
  await server.shutdown();
});

function metadataOf(caller: Caller): Metadata {
  const metadata = new Metadata();
  setCallerMetadata(metadata, caller);
  return metadata;
}

function addDivision(caller: Caller): Promise<ServiceError | null> {
  seen = [];
  return new Promise((resolve) =>
    client.addDivision(
      { organization_id: 1, division_name: 'Policy', division_type: '' },
      metadataOf(caller),
      (error) => resolve(error),
    ),
  );
}

function search(caller: Caller): Promise<ServiceError | null> {
  seen = [];
  return new Promise((resolve) =>
    client.searchOrganizations(
      { text: 'capitol', group: '', offset: 0, limit: 0 },
      metadataOf(caller),
      (error) => resolve(error),
    ),
  );
}

describe("a suspended member's calls", () => {
  it('are refused for a write method with the suspended message, before any handler runs', async () => {
    const error = await addDivision(suspended(new Date('2099-12-09T20:00:00Z')));
    expect(error?.code).toBe(status.PERMISSION_DENIED);
    expect(error?.details).toBe(`Your account is suspended until December 9, 2099: ${REASON}`);
    expect(seen).toEqual([]);
  });

  it('reach a read, whose handler sees the suspension the gateway signed, its reason intact', async () => {
    const until = new Date(Date.now() + 3 * DAY);
    expect(await search(suspended(until))).toBeNull();
    // Tokens carry whole seconds.
    const signedUntil = new Date(Math.floor(until.getTime() / 1000) * 1000);
    expect(seen).toEqual([{ ...member, suspension: { until: signedUntil, reason: REASON } }]);
  });

  it('reach a write again once the suspension has ended', async () => {
    expect(await addDivision(suspended(new Date(Date.now() - 1000)))).toBeNull();
    expect(seen).toHaveLength(1);
    expect(await addDivision(member)).toBeNull();
    expect(seen).toEqual([member]);
  });
});

describe('caller tokens and suspensions', () => {
  const signer = createCallerSigner(callerPrivateKeyOf(testCallers.keys.privateKey));
  const verifier = createCallerVerifier([callerPublicKeyOf(testCallers.keys.publicKey)]);

  it('carry the suspension to the service, and none when the member is not suspended', () => {
    const until = new Date('2026-12-09T20:00:00Z');
    expect(verifier.verify(signer.tokenFor(suspended(until), 'org'), 'org')).toEqual({
      member: { ...member, suspension: { until, reason: REASON } },
    });
    expect(verifier.verify(signer.tokenFor(member, 'org'), 'org')).toEqual({ member });
  });

  it('are signed anew the moment a suspension starts, changes or is lifted, not when the old one renews', () => {
    const before = signer.tokenFor(member, 'org');
    const during = signer.tokenFor(suspended(new Date('2026-12-09T20:00:00Z')), 'org');
    const longer = signer.tokenFor(suspended(new Date('2026-12-19T20:00:00Z')), 'org');
    const lifted = signer.tokenFor(member, 'org');
    expect(new Set([before, during, longer]).size).toBe(3);
    expect(lifted).toBe(before);
  });
});

describe('a service listing its write methods', () => {
  it('fails to start on a name its contract lacks, instead of leaving that write open', async () => {
    await expect(
      startGrpcServer({
        host: '127.0.0.1',
        port: 0,
        logger: silent,
        services: [
          {
            name: 'rotunda.org.v1.OrgService',
            definition: OrgServiceService,
            implementation: {},
            writes: ['addDivison'],
          },
        ],
      }),
    ).rejects.toThrow('rotunda.org.v1.OrgService has no method addDivison');
  });
});
