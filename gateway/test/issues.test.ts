// The /api/issues/* paths against a fake ProfileService on real gRPC: docs/api.md's answer shapes, 201 for a
// new issue area and 200 for an existing one, validation refusals that never reach the service, members-only
// guards (401), and the service's refusals mapped to HTTP (400, 403, 404, 409).
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  get,
  MEMBER,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeProfile, ISSUE_AREA, startFakeProfile } from './support/fake-profile.ts';

let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let gateway: RunningGateway;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, PROFILE_SERVICE_ADDR: profile.address });
  member = { 'x-auth-token': await accessToken(key) };
});
afterEach(() => profile.reset());
afterAll(async () => {
  await gateway.close();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;
const refused = (message: string) => ({ errors: [{ msg: message }] });

async function del(path: string, body: unknown, headers: Record<string, string> = member) {
  const res = await fetch(url(path), {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('members only', () => {
  it('answers 401 to a visitor on every path without asking the service', async () => {
    const LOGIN_REQUIRED = refused('Access Restricted. Please login.');
    expect(await get(url('/api/issues/'))).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(await post(url('/api/issues/add-issue-area'), { issue_name: 'Water' })).toMatchObject({
      status: 401,
      body: LOGIN_REQUIRED,
    });
    expect(await post(url('/api/issues/add-user-issue'), { profile_id: 7, issue_id: 4 })).toMatchObject({
      status: 401,
      body: LOGIN_REQUIRED,
    });
    expect(await del('/api/issues/delete-user-issue', { id: 31 }, {})).toEqual({
      status: 401,
      body: LOGIN_REQUIRED,
    });
    expect(profile.calls).toEqual([]);
  });
});

describe('issue areas', () => {
  it('GET /api/issues/ answers [{ issue_id, issue_name }] as the service orders them', async () => {
    expect(await get(url('/api/issues/'), member)).toMatchObject({
      status: 200,
      body: [
        { issue_id: 4, issue_name: 'Housing' },
        { issue_id: 9, issue_name: 'Water' },
      ],
    });
    expect(profile.callsTo('listIssueAreas')[0]?.caller?.userId).toBe(MEMBER.sub);
  });

  it('POST /api/issues/add-issue-area answers 201 when made, 200 with the existing one', async () => {
    expect(await post(url('/api/issues/add-issue-area'), { issue_name: 'Housing' }, member)).toMatchObject({
      status: 201,
      body: { issue_id: 4, issue_name: 'Housing' },
    });
    expect(profile.callsTo('addIssueArea')[0]?.request).toEqual({ issue_name: 'Housing' });
    profile.answer('addIssueArea', async () => ({ issue_area: ISSUE_AREA, created: false }));
    expect(await post(url('/api/issues/add-issue-area'), { issue_name: 'HOUSING' }, member)).toMatchObject({
      status: 200,
      body: { issue_id: 4, issue_name: 'Housing' },
    });
  });

  it('passes a blank name to the service and its message back; refuses a name that is not text', async () => {
    const message = 'Please provide entries for the following required fields: Issue Name';
    profile.answer('addIssueArea', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(await post(url('/api/issues/add-issue-area'), {}, member)).toMatchObject({
      status: 400,
      body: refused(message),
    });
    expect(profile.callsTo('addIssueArea')[0]?.request).toEqual({ issue_name: '' });
    profile.reset();
    expect(await post(url('/api/issues/add-issue-area'), { issue_name: 5 }, member)).toMatchObject({
      status: 400,
      body: refused('issue_name must be text'),
    });
    expect(profile.calls).toEqual([]);
  });
});

describe('a profile’s issues', () => {
  it('POST /api/issues/add-user-issue answers 201 with the user issue', async () => {
    expect(
      await post(url('/api/issues/add-user-issue'), { profile_id: 7, issue_id: '4' }, member),
    ).toMatchObject({
      status: 201,
      body: { id: 31, profile_id: 7, issue_id: 4, IssueArea: { issue_id: 4, issue_name: 'Housing' } },
    });
    expect(profile.callsTo('addUserIssue')[0]?.request).toEqual({ profile_id: 7, issue_id: 4 });
  });

  it('refuses missing or bad ids before the service; passes 409, 403 and 404 on', async () => {
    expect(await post(url('/api/issues/add-user-issue'), { profile_id: 7 }, member)).toMatchObject({
      status: 400,
      body: refused('issue_id is required'),
    });
    expect(
      await post(url('/api/issues/add-user-issue'), { profile_id: 'x', issue_id: 4 }, member),
    ).toMatchObject({
      status: 400,
      body: refused('profile_id must be a whole number'),
    });
    expect(profile.calls).toEqual([]);
    const cases: [DomainError, number][] = [
      [new DomainError('already_exists', 'You already cover this issue.'), 409],
      [new DomainError('permission_denied', 'You can only edit your own profile'), 403],
      [new DomainError('not_found', 'Issue not found'), 404],
    ];
    for (const [error, status] of cases) {
      profile.answer('addUserIssue', async () => {
        throw error;
      });
      expect(
        await post(url('/api/issues/add-user-issue'), { profile_id: 7, issue_id: 4 }, member),
      ).toMatchObject({
        status,
        body: refused(error.message),
      });
    }
  });

  it('DELETE /api/issues/delete-user-issue answers 204; 403 and 404 passed on; id required', async () => {
    expect(await del('/api/issues/delete-user-issue', { id: 31 })).toEqual({ status: 204, body: undefined });
    expect(profile.callsTo('deleteUserIssue')[0]?.request).toEqual({ id: 31 });
    profile.answer('deleteUserIssue', async () => {
      throw new DomainError('permission_denied', 'You can only edit your own profile');
    });
    expect(await del('/api/issues/delete-user-issue', { id: 31 })).toEqual({
      status: 403,
      body: refused('You can only edit your own profile'),
    });
    profile.answer('deleteUserIssue', async () => {
      throw new DomainError('not_found', 'Issue not found');
    });
    expect(await del('/api/issues/delete-user-issue', { id: 32 })).toEqual({
      status: 404,
      body: refused('Issue not found'),
    });
    expect(await del('/api/issues/delete-user-issue', {})).toEqual({
      status: 400,
      body: refused('id is required'),
    });
  });
});
