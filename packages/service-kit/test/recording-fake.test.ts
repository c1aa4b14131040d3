// The shared test support for calls over gRPC: the recording fake the gateway's tests stand services up with,
// and the typed calls the services' tests make, against each other on a real server.
import { credentials, Metadata, status } from '@grpc/grpc-js';
import { Organization, OrgServiceClient, OrgServiceService } from '@rotunda/protos/org';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, DomainError, idempotencyKeyOf, REQUEST_ID_HEADER } from '../src/index.ts';
import {
  type RecordingFake,
  refusal,
  rpcCalls,
  startRecordingFake,
  testCallers,
} from '../src/testing/index.ts';

const MEMBER: Caller = { userId: 'member-1', email: 'member@demo.ca.gov', roles: [] };
const GROUPS = [{ group_id: 5, group_name: 'Lobbyists' }];

let fake: RecordingFake;
let client: OrgServiceClient;
const rpc = rpcCalls(OrgServiceService, () => client);
/** The idempotency key each getOrganization call carried. */
const keys: (string | undefined)[] = [];

beforeAll(async () => {
  fake = await startRecordingFake({
    definition: OrgServiceService,
    defaults: {
      listGroups: async () => ({ groups: GROUPS }),
      getOrganization: async (request, context) => {
        keys.push(idempotencyKeyOf(context.metadata));
        const { organization_id } = request as { organization_id: number };
        return {
          organization: Organization.fromPartial({ organization_id, organization_name: 'Delta' }),
          divisions: [],
        };
      },
    },
    unrecorded: ['listGroups'],
  });
  client = new OrgServiceClient(fake.address, credentials.createInsecure(), {
    interceptors: [testCallers.signing],
  });
});

afterEach(() => {
  fake.reset();
  keys.length = 0;
});

afterAll(async () => {
  client.close();
  await fake.server.shutdown();
});

describe('a recording fake service', () => {
  it('answers its default and records the call with its request, caller and request id', async () => {
    const answer = await rpc('getOrganization', { organization_id: 12 }, MEMBER);
    expect(answer.organization).toMatchObject({ organization_id: 12, organization_name: 'Delta' });
    expect(fake.calls).toEqual([
      {
        method: 'getOrganization',
        request: { organization_id: 12 },
        caller: expect.objectContaining(MEMBER),
      },
    ]);
    expect(fake.calls[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records the request id the caller sent', async () => {
    const metadata = new Metadata();
    metadata.set(REQUEST_ID_HEADER, 'req-fake-1');
    await new Promise((resolve, reject) =>
      client.getOrganization({ organization_id: 3 }, metadata, (error, answer) =>
        error ? reject(error) : resolve(answer),
      ),
    );
    expect(fake.callsTo('getOrganization').map((call) => call.requestId)).toEqual(['req-fake-1']);
  });

  it("answers a test's own answer, a refusal included, until reset", async () => {
    fake.answer('getOrganization', async () => {
      throw new DomainError('not_found', 'No such organization');
    });
    expect(await refusal(rpc('getOrganization', { organization_id: 404 }))).toEqual({
      code: status.NOT_FOUND,
      details: 'No such organization',
    });
    expect(fake.callsTo('getOrganization')).toHaveLength(1);
    fake.reset();
    expect(fake.calls).toEqual([]);
    expect((await rpc('getOrganization', { organization_id: 404 })).organization?.organization_name).toBe(
      'Delta',
    );
  });

  it('answers an unrecorded method without recording it, and fails a method it has no answer for', async () => {
    expect((await rpc('listGroups', {})).groups).toEqual(GROUPS);
    expect(await refusal(rpc('listDivisions', {}, MEMBER))).toEqual({
      code: status.INTERNAL,
      details: 'Internal error',
    });
    expect(fake.calls.map((call) => call.method)).toEqual(['listDivisions']);
  });
});

describe('typed calls to a service', () => {
  it('send the idempotency key in the metadata, and go to another client with `on`', async () => {
    await rpc('getOrganization', { organization_id: 1 }, MEMBER, 'key-of-member-01');
    const other = new OrgServiceClient(fake.address, credentials.createInsecure());
    await rpc.on(other)('getOrganization', { organization_id: 2 });
    other.close();
    expect(keys).toEqual(['key-of-member-01', undefined]);
    // The second client signs no caller: the call is a visitor's.
    expect(fake.calls.map((call) => [call.request.organization_id, call.caller?.userId])).toEqual([
      [1, MEMBER.userId],
      [2, undefined],
    ]);
  });
});
