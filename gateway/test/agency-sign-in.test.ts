// Agency sign-in (ADR 0044) against fake Auth and Profile services on real gRPC: the login dialog finds an
// email's agency, starts a brokered sign-in and finishes it with Keycloak's code and state (the login answer plus
// firstSignIn, refusals with the service's words); the one unclaimed profile with the member's work email is
// claimed as the member (none on zero or two matches, and a failed claim never fails the sign-in); Keycloak's
// back-channel logouts are passed on and answered as the OIDC spec asks; no code, state, logout token or agency
// client secret is logged.
import { AGENCY_MESSAGES } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './support/captured-log.ts';
import {
  AGENCY,
  AGENCY_SIGN_IN_URL,
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
  TOKENS,
} from './support/fake-auth.ts';
import { type FakeProfile, PROFILE, startFakeProfile } from './support/fake-profile.ts';

const CODE = 'kc-code-7f3a91e0c2b4';
const STATE = 'state-5d8c2e61b0a7';
const LOGOUT_TOKEN = 'logout-token-e4b7a1c9d3f2';

let auth: FakeAuth;
let profile: FakeProfile;
let gateway: RunningGateway;
let memberToken: string;
let adminToken: string;
const log = captureLog('debug');

beforeAll(async () => {
  const key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  memberToken = await accessToken(key);
  adminToken = await accessToken(key, { roles: ['admin'] });
  gateway = await startGateway(
    {
      AUTH_SERVICE_ADDR: auth.address,
      PROFILE_SERVICE_ADDR: profile.address,
      PUBLIC_URL: 'https://rotunda.example',
    },
    undefined,
    log.logger,
  );
});
afterEach(() => {
  auth.reset();
  profile.reset();
});
afterAll(async () => {
  await gateway.close();
  await auth.server.shutdown();
  await profile.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;
/** The calls the sign-in routes make (the gateway's own key fetches are not theirs). */
const signInCalls = () => auth.calls.filter((call) => call.method !== 'getJwks');

describe('GET /auth/agency', () => {
  it('names the agency that signs in the email’s domain, never cached', async () => {
    const res = await get(url('/auth/agency?email=%20pat%40dmv.ca.gov%20'));
    expect(res).toMatchObject({
      status: 200,
      body: { agency: { alias: AGENCY.alias, name: 'Department of Motor Vehicles' } },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(auth.callsTo('findAgency')[0]?.request).toEqual({ email: 'pat@dmv.ca.gov' });
  });

  it('answers null for a domain without an agency', async () => {
    expect((await get(url('/auth/agency?email=pat@lobbyfirm.example.com'))).body).toEqual({ agency: null });
  });

  it.each([
    ['no email', ''],
    ['an empty email', '?email='],
    ['no @', '?email=not-an-email'],
    ['two @', '?email=a@b@c'],
    ['two emails', '?email=x@dmv.ca.gov&email=y@dmv.ca.gov'],
    ['a too long email', `?email=${'a'.repeat(250)}@dmv.ca.gov`],
  ])('answers null for %s without asking the service', async (_what, query) => {
    expect(await get(url(`/auth/agency${query}`))).toMatchObject({ status: 200, body: { agency: null } });
    expect(signInCalls()).toEqual([]);
  });
});

describe('POST /auth/agency/start', () => {
  it('answers where to send the browser, with the public address and the client’s', async () => {
    const res = await post(url('/auth/agency/start'), { email: 'pat@dmv.ca.gov' });
    expect(res).toMatchObject({ status: 200, body: { url: AGENCY_SIGN_IN_URL } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(auth.callsTo('startAgencySignIn')[0]?.request).toEqual({
      email: 'pat@dmv.ca.gov',
      app_url: 'https://rotunda.example',
      client_ip: '127.0.0.1',
    });
  });

  it('answers 404 in the service’s words when no agency signs in the domain', async () => {
    auth.answer('startAgencySignIn', async () => {
      throw new DomainError('not_found', AGENCY_MESSAGES.noAgencyForEmail);
    });
    expect(await post(url('/auth/agency/start'), { email: 'pat@example.org' })).toMatchObject({
      status: 404,
      body: { errors: [{ msg: AGENCY_MESSAGES.noAgencyForEmail }] },
    });
  });

  it('answers 400 for a missing email without asking the service', async () => {
    expect(await post(url('/auth/agency/start'), {})).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'email is required' }] },
    });
    expect(signInCalls()).toEqual([]);
  });
});

describe('POST /auth/agency/complete', () => {
  const complete = (body: unknown = { code: CODE, state: STATE }) => post(url('/auth/agency/complete'), body);

  it('answers the login answer plus firstSignIn, never cached, passing code, state and addresses on', async () => {
    const res = await complete();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      token: TOKENS.access_token,
      refreshToken: TOKENS.refresh_token,
      expiresIn: 300,
      refreshExpiresIn: 1800,
      user: {
        token: TOKENS.access_token,
        user_id: MEMBER.sub,
        profile_id: 7,
        first_name: 'Maya',
        last_name: 'Member',
        email: MEMBER.email,
        contributor: false,
        admin: false,
        email_confirmed: true,
      },
      firstSignIn: false,
    });
    expect(auth.callsTo('completeAgencySignIn')[0]?.request).toEqual({
      code: CODE,
      state: STATE,
      app_url: 'https://rotunda.example',
      client_ip: '127.0.0.1',
    });
    // The member has a profile: nothing is claimed.
    expect(profile.callsTo('findUnclaimedMatches')).toEqual([]);
  });

  it.each([
    ['no code', { state: STATE }, 'code is required'],
    ['no state', { code: CODE }, 'state is required'],
    ['a too long state', { code: CODE, state: 'x'.repeat(8193) }, 'state must be at most 8192 characters'],
  ])('answers 400 for %s without asking the service', async (_what, body, message) => {
    expect(await complete(body)).toMatchObject({ status: 400, body: { errors: [{ msg: message }] } });
    expect(signInCalls()).toEqual([]);
  });

  it('passes refusals on with their status: a used state 400, an email outside the agency 403', async () => {
    auth.answer('completeAgencySignIn', async () => {
      throw new DomainError('invalid_argument', AGENCY_MESSAGES.signInExpired);
    });
    expect(await complete()).toMatchObject({
      status: 400,
      body: { errors: [{ msg: AGENCY_MESSAGES.signInExpired }] },
    });
    const outside = AGENCY_MESSAGES.emailOutsideAgency(AGENCY.name);
    auth.answer('completeAgencySignIn', async () => {
      throw new DomainError('permission_denied', outside);
    });
    expect(await complete()).toMatchObject({ status: 403, body: { errors: [{ msg: outside }] } });
    expect(profile.calls).toEqual([]);
  });

  describe('a member without a profile', () => {
    const CLAIMABLE = { ...PROFILE, profile_id: 12, user_id: undefined, work_email: MEMBER.email };
    const signedIn = () => ({
      ...LOGIN,
      tokens: { ...TOKENS, access_token: memberToken },
      first_sign_in: true,
    });

    const noProfile = () => {
      auth.answer('completeAgencySignIn', async () => signedIn());
      profile.answer('getAuthorByUser', async () => {
        throw new DomainError('not_found', 'Profile not found');
      });
    };

    it('claims the one unclaimed profile with their work email, as the member, and says so', async () => {
      noProfile();
      profile.answer('findUnclaimedMatches', async () => ({ profiles: [CLAIMABLE] }));
      profile.answer('claimProfile', async () => ({ ...CLAIMABLE, user_id: MEMBER.sub }));
      const res = await complete();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ firstSignIn: true, claimedProfileId: 12, user: { profile_id: 12 } });
      const [found] = profile.callsTo('findUnclaimedMatches');
      expect(found?.request).toEqual({ first_name: 'Maya', last_name: 'Member', email: MEMBER.email });
      expect(found?.caller).toMatchObject({ userId: MEMBER.sub, email: MEMBER.email });
      const [claimed] = profile.callsTo('claimProfile');
      expect(claimed?.request).toEqual({
        profile_id: 12,
        claimant_first_name: 'Maya',
        claimant_last_name: 'Member',
      });
      expect(claimed?.caller).toMatchObject({ userId: MEMBER.sub });
    });

    it.each([
      ['no', []],
      ['two', [CLAIMABLE, { ...CLAIMABLE, profile_id: 13 }]],
    ])('claims nothing when %s profiles match', async (_count, profiles) => {
      noProfile();
      profile.answer('findUnclaimedMatches', async () => ({ profiles }));
      const res = await complete();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ firstSignIn: true, user: { profile_id: null } });
      expect(res.body).not.toHaveProperty('claimedProfileId');
      expect(profile.callsTo('claimProfile')).toEqual([]);
    });

    it('claims nothing when the claim waits for a contributor', async () => {
      noProfile();
      profile.answer('findUnclaimedMatches', async () => ({ profiles: [CLAIMABLE] }));
      const res = await complete();
      expect(res.body).toMatchObject({ user: { profile_id: null } });
      expect(res.body).not.toHaveProperty('claimedProfileId');
    });

    it('still signs the member in when the claim fails, and logs it', async () => {
      noProfile();
      profile.answer('findUnclaimedMatches', async () => ({ profiles: [CLAIMABLE] }));
      profile.answer('claimProfile', async () => {
        throw new DomainError('already_exists', 'This profile has already been claimed');
      });
      const res = await complete();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ token: memberToken, user: { profile_id: null } });
      expect(res.body).not.toHaveProperty('claimedProfileId');
      expect(log.text()).toContain('was not claimed');
    });

    it('never claims when the profile service could not say whether the member has a profile', async () => {
      auth.answer('completeAgencySignIn', async () => signedIn());
      profile.answer('getAuthorByUser', async () => {
        throw new Error('database unreachable');
      });
      const res = await complete();
      expect(res).toMatchObject({ status: 200, body: { user: { profile_id: null } } });
      expect(profile.callsTo('findUnclaimedMatches')).toEqual([]);
    });
  });
});

describe('POST /auth/backchannel-logout', () => {
  const logout = (body: string, contentType = 'application/x-www-form-urlencoded') =>
    fetch(url('/auth/backchannel-logout'), {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });

  it('passes the logout token on and answers 200 with nothing, never cached', async () => {
    const res = await logout(`logout_token=${LOGOUT_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('');
    expect(auth.callsTo('backchannelLogout')[0]?.request).toEqual({ logout_token: LOGOUT_TOKEN });
  });

  it.each([
    ['an empty body', '', 'application/x-www-form-urlencoded'],
    ['an empty token', 'logout_token=', 'application/x-www-form-urlencoded'],
    ['no token', `other=${LOGOUT_TOKEN}`, 'application/x-www-form-urlencoded'],
    ['a too long token', `logout_token=${'a'.repeat(8193)}`, 'application/x-www-form-urlencoded'],
    ['a JSON body', JSON.stringify({ logout_token: LOGOUT_TOKEN }), 'application/json'],
  ])('answers 400 invalid_request for %s without asking the service', async (_what, body, contentType) => {
    const res = await logout(body, contentType);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(signInCalls()).toEqual([]);
  });

  it('answers 400 invalid_request for a token the service does not verify', async () => {
    auth.answer('backchannelLogout', async () => {
      throw new DomainError('invalid_argument', 'The logout token is not valid.');
    });
    const res = await logout(`logout_token=${LOGOUT_TOKEN}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request' });
  });

  it('answers an unavailable auth service as such, so Keycloak may try again', async () => {
    auth.answer('backchannelLogout', async () => {
      throw new Error('database unreachable');
    });
    expect((await logout(`logout_token=${LOGOUT_TOKEN}`)).status).toBe(500);
  });
});

describe('the gateway’s log', () => {
  it('never holds an agency’s client secret, even when registering it fails', async () => {
    const secret = 'agency-secret-9c1e77d2';
    const body = {
      name: 'Department of Motor Vehicles',
      protocol: 'oidc',
      domains: ['dmv.ca.gov'],
      metadata_url: 'https://login.dmv.ca.gov/.well-known/openid-configuration',
      client_id: 'rotunda',
      client_secret: secret,
    };
    expect((await post(url('/api/admin/agencies'), body, { 'x-auth-token': adminToken })).status).toBe(201);
    expect(auth.callsTo('addAgency')[0]?.request.client_secret).toBe(secret);
    auth.answer('addAgency', async () => {
      throw new Error('Keycloak refused the provider');
    });
    expect((await post(url('/api/admin/agencies'), body, { 'x-auth-token': adminToken })).status).toBe(500);
    const text = log.text();
    expect(text).toContain('/api/admin/agencies');
    expect(text).not.toContain(secret);
  });

  it('never holds a code, a state or a logout token', async () => {
    await post(url('/auth/agency/complete'), { code: CODE, state: STATE });
    auth.answer('completeAgencySignIn', async () => {
      throw new DomainError('invalid_argument', AGENCY_MESSAGES.signInExpired);
    });
    await post(url('/auth/agency/complete'), { code: CODE, state: STATE });
    await fetch(url('/auth/backchannel-logout'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `logout_token=${LOGOUT_TOKEN}`,
    });
    const text = log.text();
    expect(text).toContain('/auth/backchannel-logout');
    for (const secret of [CODE, STATE, LOGOUT_TOKEN]) expect(text).not.toContain(secret);
  });
});
