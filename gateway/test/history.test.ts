// The /api/history/* paths against fake org and profile services on real gRPC: the answer's shape (at as an ISO
// time, the actor named from their own profile or with empty names when they own none, each change's from and
// to, null for an empty value), newest first as the service answers, the paging parameters passed on, the caller
// carried to the service, and the guards: 401 for a visitor and 403 for a member before any service is asked,
// 400 for a bad id or cursor, 404 for an unknown id (the service's NOT_FOUND).
import { OrgServiceService } from '@rotunda/protos/org';
import { ProfileServiceService } from '@rotunda/protos/profile';
import { DomainError } from '@rotunda/service-kit';
import { type FakeAnswer, type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  get,
  MEMBER,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const CONTRIBUTORS_ONLY = { errors: [{ msg: 'Contributors only' }] };

/** Two entries as a service answers them, newest first: an edit by a named contributor, a creation by nobody named. */
const ENTRIES = [
  {
    id: 7,
    at: new Date('2026-11-26T20:15:00.000Z'),
    actor_user_id: 'concierge-1',
    action: 'organization_edited',
    changes: [
      { field: 'city', from: 'Sacramento', to: 'Davis' },
      { field: 'main_phone', to: '(916) 555-0100' },
    ],
  },
  {
    id: 3,
    at: new Date('2026-11-20T09:00:00.000Z'),
    actor_user_id: 'gone-member',
    action: 'organization_created',
    changes: [{ field: 'organization_name', to: 'Delta Stewards' }],
  },
];

const ANSWER = [
  {
    id: 7,
    at: '2026-11-26T20:15:00.000Z',
    actor: { user_id: 'concierge-1', first_name: 'Connie', last_name: 'Concierge' },
    action: 'organization_edited',
    changes: [
      { field: 'city', from: 'Sacramento', to: 'Davis' },
      { field: 'main_phone', from: null, to: '(916) 555-0100' },
    ],
  },
  {
    id: 3,
    at: '2026-11-20T09:00:00.000Z',
    actor: { user_id: 'gone-member', first_name: '', last_name: '' },
    action: 'organization_created',
    changes: [{ field: 'organization_name', from: null, to: 'Delta Stewards' }],
  },
];

let key: SigningKey;
let auth: FakeAuth;
let org: RecordingFake;
let profile: RecordingFake;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;
/** The calls both services were asked. */
const calls = () => [...org.calls, ...profile.calls];

/** Answers the history of id 12 and NOT_FOUND for any other id. */
const historyOf =
  (idField: string, notFound: string): FakeAnswer =>
  async (request) => {
    if (request[idField] !== 12) throw new DomainError('not_found', notFound);
    return { entries: ENTRIES };
  };

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  org = await startRecordingFake({
    definition: OrgServiceService,
    defaults: { listOrganizationHistory: historyOf('organization_id', 'Organization not found') },
  });
  profile = await startRecordingFake({
    definition: ProfileServiceService,
    defaults: {
      listProfileHistory: historyOf('profile_id', 'Profile not found'),
      getAuthorsByUsers: async (request) => ({
        authors: (request.user_ids as string[])
          .filter((id) => id === 'concierge-1')
          .map((user_id) => ({ profile_id: 40, user_id, first_name: 'Connie', last_name: 'Concierge' })),
      }),
    },
  });
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    ORG_SERVICE_ADDR: org.address,
    PROFILE_SERVICE_ADDR: profile.address,
  });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
});
afterEach(() => {
  org.reset();
  profile.reset();
});
afterAll(async () => {
  await gateway.close();
  await org.server.shutdown();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;

describe.each([
  ['organization', 'listOrganizationHistory', 'organization_id', 'Organization not found'],
  ['profile', 'listProfileHistory', 'profile_id', 'Profile not found'],
])('GET /api/history/%s/:id', (kind, method, idField, notFound) => {
  it('answers the entries newest first, each actor named from their profile (empty names when none)', async () => {
    const { status, body } = await get(url(`/api/history/${kind}/12`), contributor);
    expect(status).toBe(200);
    expect(body).toEqual(ANSWER);
    const asked = calls().find((c) => c.method === method);
    expect(asked?.request).toEqual({ [idField]: 12, before_id: 0, limit: 100 });
    expect(asked?.caller?.userId).toBe(MEMBER.sub);
    expect(asked?.caller?.roles).toContain('contributor');
    expect(calls().find((c) => c.method === 'getAuthorsByUsers')?.request).toEqual({
      user_ids: ['concierge-1', 'gone-member'],
    });
  });

  it('passes the cursor and the page size on; refuses a bad one with 400', async () => {
    expect((await get(url(`/api/history/${kind}/12?before=7&limit=20`), contributor)).status).toBe(200);
    expect(calls().find((c) => c.method === method)?.request).toEqual({
      [idField]: 12,
      before_id: 7,
      limit: 20,
    });
    for (const query of ['before=abc', 'limit=0', 'limit=101'])
      expect((await get(url(`/api/history/${kind}/12?${query}`), contributor)).status).toBe(400);
    expect((await get(url(`/api/history/${kind}/twelve`), contributor)).status).toBe(400);
  });

  it('answers 404 for an unknown id', async () => {
    expect(await get(url(`/api/history/${kind}/99`), contributor)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: notFound }] },
    });
  });

  it('refuses a member (403) and a visitor (401) without asking any service', async () => {
    expect(await get(url(`/api/history/${kind}/12`), member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    expect(await get(url(`/api/history/${kind}/12`))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(calls()).toEqual([]);
  });
});
