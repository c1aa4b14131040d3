// The access administration paths (docs/product.md#access-administration) against a fake
// AuthService on real gRPC: administrators read and change the lists, grant and take away roles and read the log
// in its documented shape; visitors get 401, members and contributors 403, malformed bodies 400 in the screen's
// words, none of them reaching the service; the service's own refusals are passed on with their messages; and the
// login answer says whether the member administers access. Agencies (docs/agency-sign-in.md) are listed,
// added and removed in the same way, the client secret passed on to the service and never answered back.
import { ACCESS_MESSAGES, AGENCY_MESSAGES } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_LOG,
  AGENCY,
  accessToken,
  type FakeAuth,
  get,
  LOGIN,
  MEMBER,
  post,
  type RunningGateway,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const ADMINS_ONLY = { errors: [{ msg: 'Administrators only' }] };

let auth: FakeAuth;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  const key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
  admin = { 'x-auth-token': await accessToken(key, { roles: ['admin'] }) };
});
afterEach(() => auth.reset());
afterAll(async () => {
  await gateway.close();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;
/** The calls the administration routes make (the gateway's own key fetches are not theirs). */
const adminCalls = () => auth.calls.filter((call) => call.method !== 'getJwks');

async function del(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const NEW_AGENCY = {
  name: 'Department of Motor Vehicles',
  protocol: 'oidc',
  domains: ['dmv.ca.gov'],
  metadata_url: 'https://login.dmv.ca.gov/.well-known/openid-configuration',
  client_id: 'rotunda',
  client_secret: 'agency-client-secret',
};

/** Each route with a body it would accept from an administrator, and the status it then answers. */
const ROUTES = [
  { method: 'GET', path: '/api/admin/access', body: undefined },
  { method: 'GET', path: '/api/admin/agencies', body: undefined },
  { method: 'POST', path: '/api/admin/agencies', body: NEW_AGENCY, ok: 201 },
  { method: 'DELETE', path: `/api/admin/agencies/${AGENCY.alias}`, body: undefined, ok: 204 },
  { method: 'POST', path: '/api/admin/access', body: { list: 'domains', value: 'dmv.ca.gov' } },
  { method: 'DELETE', path: '/api/admin/access', body: { list: 'domains', value: 'agency.ca.gov' } },
  {
    method: 'POST',
    path: '/api/admin/roles',
    body: { email: 'member@demo.ca.gov', role: 'admin', grant: true },
  },
  { method: 'GET', path: '/api/admin/log', body: undefined },
];

async function send(
  route: { method: string; path: string; body: unknown },
  headers: Record<string, string> = {},
) {
  const res = await fetch(url(route.path), {
    method: route.method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(route.body ? { body: JSON.stringify(route.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('who may administer access', () => {
  it.each(ROUTES)('$method $path: 401 for a visitor, 403 for a member and a contributor', async (route) => {
    expect(await send(route)).toEqual({ status: 401, body: LOGIN_REQUIRED });
    expect(await send(route, member)).toEqual({ status: 403, body: ADMINS_ONLY });
    expect(await send(route, contributor)).toEqual({ status: 403, body: ADMINS_ONLY });
    expect(adminCalls()).toEqual([]);
    expect((await send(route, admin)).status).toBe(route.ok ?? 200);
  });
});

describe('GET /api/admin/access', () => {
  it('answers the three lists, never to be kept by a cache; the caller is the administrator', async () => {
    const res = await get(url('/api/admin/access'), admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      domains: ['agency.ca.gov'],
      emails: ['staff@example.org'],
      beta_emails: ['beta@example.com'],
    });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(auth.callsTo('getAccessLists')[0]?.caller).toMatchObject({
      userId: MEMBER.sub,
      roles: expect.arrayContaining(['admin']),
    });
  });
});

describe('POST and DELETE /api/admin/access', () => {
  it('adds a value and answers the lists after the change', async () => {
    const res = await post(
      url('/api/admin/access'),
      { list: 'beta_emails', value: 'tester@dmv.ca.gov' },
      admin,
    );
    expect(res).toMatchObject({
      status: 200,
      body: {
        domains: ['agency.ca.gov'],
        emails: ['staff@example.org'],
        beta_emails: ['beta@example.com', 'tester@dmv.ca.gov'],
      },
    });
    expect(auth.callsTo('changeAccessList')[0]?.request).toEqual({
      list: 'beta_emails',
      value: 'tester@dmv.ca.gov',
      add: true,
    });
  });

  it('removes a value and answers the lists after the change', async () => {
    const res = await del('/api/admin/access', { list: 'emails', value: 'staff@example.org' }, admin);
    expect(res).toEqual({
      status: 200,
      body: { domains: ['agency.ca.gov'], emails: [], beta_emails: ['beta@example.com'] },
    });
    expect(auth.callsTo('changeAccessList')[0]?.request).toMatchObject({ add: false });
  });

  it('sends domains and emails in their compared form: lower case, no www. or trailing dot', async () => {
    await post(url('/api/admin/access'), { list: 'domains', value: ' WWW.DMV.CA.GOV. ' }, admin);
    await post(url('/api/admin/access'), { list: 'emails', value: ' Pat@DMV.ca.gov ' }, admin);
    expect(auth.callsTo('changeAccessList').map((call) => call.request.value)).toEqual([
      'dmv.ca.gov',
      'pat@dmv.ca.gov',
    ]);
  });

  it.each([
    [{ value: 'dmv.ca.gov' }, 'list must be one of domains, emails, beta_emails'],
    [{ list: 'admins', value: 'dmv.ca.gov' }, 'list must be one of domains, emails, beta_emails'],
    [{ list: 'domains' }, 'value is required'],
    [{ list: 'domains', value: '   ' }, 'value is required'],
    [{ list: 'domains', value: 42 }, 'value must be text'],
    [{ list: 'domains', value: 'not a domain' }, ACCESS_MESSAGES.badDomain],
    [{ list: 'domains', value: 'pat@dmv.ca.gov' }, ACCESS_MESSAGES.badDomain],
    [{ list: 'emails', value: 'dmv.ca.gov' }, ACCESS_MESSAGES.badEmail],
    [{ list: 'beta_emails', value: 'pat@localhost' }, ACCESS_MESSAGES.badEmail],
    [{ list: 'emails', value: `${'a'.repeat(250)}@x.gov` }, 'value must be at most 254 characters'],
  ])('answers 400 for %j without asking the service', async (body, message) => {
    expect(await post(url('/api/admin/access'), body, admin)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(await del('/api/admin/access', body, admin)).toMatchObject({ status: 400 });
    expect(adminCalls()).toEqual([]);
  });

  it('passes the service’s refusal on with its message', async () => {
    auth.answer('changeAccessList', async () => {
      throw new DomainError('invalid_argument', 'gmail.com is a public email service.');
    });
    expect(
      await post(url('/api/admin/access'), { list: 'domains', value: 'gmail.com' }, admin),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'gmail.com is a public email service.' }] },
    });
  });
});

describe('POST /api/admin/roles', () => {
  it('grants or takes away a role for the account with this email', async () => {
    const granted = await post(
      url('/api/admin/roles'),
      { email: ' Member@Demo.ca.gov ', role: 'contributor', grant: true },
      admin,
    );
    expect(granted).toMatchObject({
      status: 200,
      body: { email: 'member@demo.ca.gov', role: 'contributor', grant: true },
    });
    await post(url('/api/admin/roles'), { email: 'member@demo.ca.gov', role: 'admin', grant: false }, admin);
    expect(auth.callsTo('setRole').map((call) => call.request)).toEqual([
      { email: 'member@demo.ca.gov', role: 'contributor', grant: true },
      { email: 'member@demo.ca.gov', role: 'admin', grant: false },
    ]);
  });

  it.each([
    [{ role: 'admin', grant: true }, 'email is required'],
    [{ email: 'nobody', role: 'admin', grant: true }, ACCESS_MESSAGES.badEmail],
    [{ email: 'pat@dmv.ca.gov', grant: true }, 'role must be one of contributor, admin'],
    [{ email: 'pat@dmv.ca.gov', role: 'owner', grant: true }, 'role must be one of contributor, admin'],
    [{ email: 'pat@dmv.ca.gov', role: 'admin' }, 'grant must be true or false'],
    [{ email: 'pat@dmv.ca.gov', role: 'admin', grant: 'yes' }, 'grant must be true or false'],
  ])('answers 400 for %j without asking the service', async (body, message) => {
    expect(await post(url('/api/admin/roles'), body, admin)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(adminCalls()).toEqual([]);
  });

  it('answers 404 for an unknown account and 409 for an administrator demoting themselves', async () => {
    auth.answer('setRole', async () => {
      throw new DomainError('not_found', ACCESS_MESSAGES.unknownAccount);
    });
    expect(
      await post(url('/api/admin/roles'), { email: 'nobody@dmv.ca.gov', role: 'admin', grant: true }, admin),
    ).toMatchObject({ status: 404, body: { errors: [{ msg: ACCESS_MESSAGES.unknownAccount }] } });
    auth.answer('setRole', async () => {
      throw new DomainError('failed_precondition', ACCESS_MESSAGES.ownAdmin);
    });
    expect(
      await post(url('/api/admin/roles'), { email: MEMBER.email, role: 'admin', grant: false }, admin),
    ).toMatchObject({ status: 409, body: { errors: [{ msg: ACCESS_MESSAGES.ownAdmin }] } });
  });
});

describe('GET /api/admin/log', () => {
  it('answers every change with who and when, the command line’s without an account', async () => {
    const res = await get(url('/api/admin/log'), admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: 12,
        at: '2026-11-30T17:05:00.000Z',
        actor: { user_id: ADMIN_LOG[0]?.actor_user_id, email: 'admin@demo.ca.gov' },
        action: 'grant',
        subject: 'contributor',
        value: 'member@demo.ca.gov',
      },
      {
        id: 11,
        at: '2026-11-29T09:00:00.000Z',
        actor: { user_id: null, email: 'npm run admin' },
        action: 'add',
        subject: 'domains',
        value: 'agency.ca.gov',
      },
    ]);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(auth.callsTo('listAdminLog')[0]?.request).toEqual({ before: 0, limit: 50 });
  });

  it('pages with before and limit', async () => {
    await get(url('/api/admin/log?before=11&limit=100'), admin);
    expect(auth.callsTo('listAdminLog')[0]?.request).toEqual({ before: 11, limit: 100 });
  });

  it.each([
    ['limit=0', 'limit must be a whole number from 1 to 100'],
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['before=-1', 'before must be a whole number from 1 to 2147483647'],
    ['before=abc', 'before must be a whole number from 1 to 2147483647'],
  ])('answers 400 for ?%s without asking the service', async (query, message) => {
    expect(await get(url(`/api/admin/log?${query}`), admin)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(adminCalls()).toEqual([]);
  });
});

describe('the login answer', () => {
  it('says whether the member administers access', async () => {
    const credentials = { email: 'admin@demo.ca.gov', password: 'Admin#2024x' };
    expect((await post(url('/auth/login'), credentials)).body.user).toMatchObject({
      contributor: false,
      admin: false,
    });
    auth.answer('login', async () => ({
      ...LOGIN,
      user: { ...LOGIN.user, contributor: true, admin: true },
    }));
    expect((await post(url('/auth/login'), credentials)).body.user).toMatchObject({
      contributor: true,
      admin: true,
    });
  });
});

/** The agency as the routes answer it. */
const AGENCY_JSON = {
  alias: 'department-of-motor-vehicles',
  name: 'Department of Motor Vehicles',
  protocol: 'oidc',
  domains: ['dmv.ca.gov'],
  metadata_url: 'https://login.dmv.ca.gov/.well-known/openid-configuration',
  client_id: 'rotunda',
  redirect_uri: 'http://localhost:8081/realms/rotunda/broker/department-of-motor-vehicles/endpoint',
  logout_url: 'http://localhost:8081/realms/rotunda/protocol/openid-connect/logout/backchannel-logout',
  sp_metadata_url: '',
  created_at: '2026-12-01T10:00:00.000Z',
};

describe('GET /api/admin/agencies', () => {
  it('answers whether agencies are available and each with what its IT office is given, never cached', async () => {
    const res = await get(url('/api/admin/agencies'), admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: true, agencies: [AGENCY_JSON] });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(auth.callsTo('listAgencies')[0]?.caller).toMatchObject({
      roles: expect.arrayContaining(['admin']),
    });
  });

  it('answers available false and no agencies with the built-in identity provider', async () => {
    auth.answer('listAgencies', async () => ({ available: false, agencies: [] }));
    expect((await get(url('/api/admin/agencies'), admin)).body).toEqual({ available: false, agencies: [] });
  });
});

describe('POST /api/admin/agencies', () => {
  it('registers the agency and answers it with 201, without the client secret', async () => {
    const res = await post(url('/api/admin/agencies'), NEW_AGENCY, admin);
    expect(res).toEqual({ status: 201, headers: expect.anything(), body: AGENCY_JSON });
    expect(JSON.stringify(res.body)).not.toContain('agency-client-secret');
    expect(auth.callsTo('addAgency')[0]?.request).toEqual(NEW_AGENCY);
  });

  it('sends a SAML agency without a client, and keeps a secret exactly as given', async () => {
    await post(
      url('/api/admin/agencies'),
      { name: ' Water Board ', protocol: 'saml', domains: ['water.ca.gov'], metadata_url: 'https://idp/x' },
      admin,
    );
    await post(url('/api/admin/agencies'), { ...NEW_AGENCY, client_secret: ' s3cret ' }, admin);
    expect(auth.callsTo('addAgency').map((call) => call.request)).toEqual([
      {
        name: 'Water Board',
        protocol: 'saml',
        domains: ['water.ca.gov'],
        metadata_url: 'https://idp/x',
        client_id: '',
        client_secret: '',
      },
      { ...NEW_AGENCY, client_secret: ' s3cret ' },
    ]);
  });

  it.each([
    [{ ...NEW_AGENCY, name: undefined }, AGENCY_MESSAGES.nameRequired],
    [{ ...NEW_AGENCY, name: '  ' }, AGENCY_MESSAGES.nameRequired],
    [{ ...NEW_AGENCY, protocol: 'ldap' }, AGENCY_MESSAGES.unknownProtocol],
    [{ ...NEW_AGENCY, domains: [] }, AGENCY_MESSAGES.domainsRequired],
    [{ ...NEW_AGENCY, domains: 'dmv.ca.gov' }, AGENCY_MESSAGES.domainsRequired],
    [
      { ...NEW_AGENCY, domains: Array.from({ length: 21 }, (_, i) => `d${i}.ca.gov`) },
      AGENCY_MESSAGES.tooManyDomains,
    ],
    [{ ...NEW_AGENCY, metadata_url: undefined }, AGENCY_MESSAGES.badMetadataUrl],
    [{ ...NEW_AGENCY, client_secret: 'x'.repeat(1001) }, AGENCY_MESSAGES.clientTooLong],
    [{ ...NEW_AGENCY, client_id: 42 }, 'client_id must be text'],
  ])('answers 400 for %j without asking the service', async (body, message) => {
    expect(await post(url('/api/admin/agencies'), body, admin)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(adminCalls()).toEqual([]);
  });

  it('passes the service’s refusals on: a taken domain, and no Keycloak', async () => {
    auth.answer('addAgency', async () => {
      throw new DomainError('invalid_argument', AGENCY_MESSAGES.domainTaken('dmv.ca.gov', 'DMV'));
    });
    expect(await post(url('/api/admin/agencies'), NEW_AGENCY, admin)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'dmv.ca.gov already signs in with DMV.' }] },
    });
    auth.answer('addAgency', async () => {
      throw new DomainError('failed_precondition', AGENCY_MESSAGES.needsKeycloak);
    });
    expect(await post(url('/api/admin/agencies'), NEW_AGENCY, admin)).toMatchObject({
      status: 409,
      body: { errors: [{ msg: AGENCY_MESSAGES.needsKeycloak }] },
    });
  });
});

describe('DELETE /api/admin/agencies/:alias', () => {
  it('removes the agency by its alias and answers 204', async () => {
    const res = await fetch(url(`/api/admin/agencies/${AGENCY.alias}`), { method: 'DELETE', headers: admin });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(auth.callsTo('removeAgency')[0]?.request).toEqual({ alias: AGENCY.alias });
  });

  it.each(['Upper', '-leading-dash', 'a'.repeat(64), 'has%20space', 'dot.ted'])(
    'answers 404 for %s, which cannot be an alias, without asking the service',
    async (alias) => {
      const res = await fetch(url(`/api/admin/agencies/${alias}`), { method: 'DELETE', headers: admin });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ errors: [{ msg: AGENCY_MESSAGES.unknownAgency }] });
      expect(adminCalls()).toEqual([]);
    },
  );

  it('passes the service’s 404 for an unknown alias on', async () => {
    auth.answer('removeAgency', async () => {
      throw new DomainError('not_found', AGENCY_MESSAGES.unknownAgency);
    });
    const res = await fetch(url('/api/admin/agencies/nobody'), { method: 'DELETE', headers: admin });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ errors: [{ msg: AGENCY_MESSAGES.unknownAgency }] });
  });
});
