// The /auth/* paths against a fake AuthService on real gRPC: docs/api.md's answer shapes, validation refusals
// that never reach the service, the caller, its session and its address carried to the service, role guards,
// rate limits (429 with Retry-After), and access tokens accepted or refused (expired, tampered, wrongly signed,
// wrong issuer, refresh tokens, unknown kid after a key rotation, a session that ended — on every gateway
// replica within a second or so).
import { DomainError } from '@rotunda/service-kit';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEYS_UNAVAILABLE } from '../src/auth/jwks.ts';
import {
  accessToken,
  type FakeAuth,
  get,
  LOGIN,
  MEMBER,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
  tamper,
} from './support/fake-auth.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';

const STRONG = 'Str0ng#Passw0rd';
const INVALID = { errors: [{ msg: 'Invalid token' }] };
const EXPIRED = { errors: [{ msg: 'Your session has expired. Please log in again.' }] };
const ENDED = { errors: [{ msg: 'Your session has ended. Please log in again.' }] };

let key: SigningKey;
let fake: FakeAuth;
let gateway: RunningGateway;
let memberToken: string;
let contributorToken: string;

beforeAll(async () => {
  key = await signingKey('key-1');
  fake = await startFakeAuth([key]);
  gateway = await startGateway({ AUTH_SERVICE_ADDR: fake.address });
  memberToken = await accessToken(key);
  contributorToken = await accessToken(key, { roles: ['contributor'] });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await gateway.close();
  await fake.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;

describe('public /auth calls', () => {
  it('GET /auth/captcha answers the ALTCHA challenge as JSON, never cached', async () => {
    const res = await get(url('/auth/captcha'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      algorithm: 'SHA-256',
      challenge: 'c0ffee',
      maxnumber: 100000,
      salt: 'salt?expires=1',
      signature: 'sig',
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('POST /auth/verify forwards the solved challenge and answers { success }', async () => {
    const res = await post(url('/auth/verify'), { captchaValue: 'eyJzb2x2ZWQiOnRydWV9' });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(fake.callsTo('verifyCaptcha')[0]?.request).toEqual({ payload: 'eyJzb2x2ZWQiOnRydWV9' });
  });

  it('POST /auth/verify without a captcha answers the spec text without asking the service', async () => {
    const res = await post(url('/auth/verify'), {});
    expect(res).toMatchObject({ status: 400, body: { errors: [{ msg: 'Please verify the reCAPTCHA!' }] } });
    expect(fake.calls).toEqual([]);
  });

  it('POST /auth/check-email answers { eligible }, passing the client address', async () => {
    fake.answer('checkEmail', async () => ({ eligible: false }));
    const res = await post(url('/auth/check-email'), { email: ' someone@example.com ' });
    expect(res).toMatchObject({ status: 200, body: { eligible: false } });
    expect(fake.callsTo('checkEmail')[0]?.request).toEqual({
      email: 'someone@example.com',
      client_ip: expect.stringMatching(/127\.0\.0\.1$/),
    });
    expect((await post(url('/auth/check-email'), {})).body).toEqual({
      errors: [{ msg: 'email is required' }],
    });
  });

  it.each([
    ['/auth/check-email', 'checkEmail', { email: 'someone@dof.ca.gov' }],
    [
      '/auth/register',
      'register',
      { first_name: 'Ada', last_name: 'L', email: 'ada@dof.ca.gov', password: STRONG, captchaValue: 'x' },
    ],
  ])('POST %s answers 429 with Retry-After when the service throttles', async (path, method, body) => {
    fake.answer(method, async () => {
      throw new DomainError('resource_exhausted', 'Too many attempts. Try again in 60 minutes.');
    });
    const res = await post(url(path), body);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(res.body).toEqual({ errors: [{ msg: 'Too many attempts. Try again in 60 minutes.' }] });
  });

  it('POST /auth/register answers 201 and tells the service where the app lives', async () => {
    const res = await post(url('/auth/register'), {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@dof.ca.gov',
      password: STRONG,
      captchaValue: 'solved',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Registration successful! Please check your email to confirm your account.',
    });
    expect(fake.callsTo('register')[0]?.request).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@dof.ca.gov',
      password: STRONG,
      captcha_payload: 'solved',
      app_url: 'http://localhost:8080',
      client_ip: expect.stringMatching(/127\.0\.0\.1$/),
    });
  });

  it.each([
    [{}, 'first_name is required'],
    [{ first_name: 'Ada', last_name: '  ' }, 'last_name is required'],
    [
      { first_name: 'Ada', last_name: 'L', email: 'ada@dof.ca.gov', password: STRONG },
      'Please verify the reCAPTCHA!',
    ],
    [
      { first_name: 'Ada', last_name: 'L', email: 'ada@dof.ca.gov', password: 'short1!', captchaValue: 'x' },
      'Password does not meet criteria.',
    ],
    [
      {
        first_name: 'Ada',
        last_name: 'L',
        email: 'ada@dof.ca.gov',
        password: 'nouppercase1!x',
        captchaValue: 'x',
      },
      'Password does not meet criteria.',
    ],
    [
      { first_name: 'Ada', last_name: 'L', email: 'not-an-address', password: STRONG },
      'email must be a valid email address',
    ],
    [{ first_name: 42, last_name: 'L' }, 'first_name must be text'],
    [{ first_name: 'x'.repeat(101) }, 'first_name must be at most 100 characters'],
  ])('POST /auth/register refuses %j with "%s" without asking the service', async (body, message) => {
    const res = await post(url('/auth/register'), body);
    expect(res).toEqual(expect.objectContaining({ status: 400, body: { errors: [{ msg: message }] } }));
    expect(fake.calls).toEqual([]);
  });

  it('refuses bodies that are not JSON objects', async () => {
    expect((await post(url('/auth/register'), '[1, 2]')).body).toEqual({
      errors: [{ msg: 'The request body must be a JSON object.' }],
    });
    expect((await post(url('/auth/login'), '{"email": ')).body).toEqual({
      errors: [{ msg: 'The request body is not valid JSON.' }],
    });
    const none = await fetch(url('/auth/login'), { method: 'POST' });
    expect(await none.json()).toEqual({ errors: [{ msg: 'email is required' }] });
    expect(fake.calls).toEqual([]);
  });

  it('POST /auth/confirm-registration answers the message, or 400 { success: false, errors }', async () => {
    const ok = await post(url('/auth/confirm-registration'), { token: 'one-time' });
    expect(ok).toMatchObject({ status: 200, body: { success: true, message: 'Your email is confirmed!' } });
    expect(fake.callsTo('confirmRegistration')[0]?.request).toEqual({ token: 'one-time' });

    fake.answer('confirmRegistration', async () => {
      throw new DomainError('not_found', 'This confirmation link is invalid or has expired.');
    });
    const refused = await post(url('/auth/confirm-registration'), { token: 'used' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: false,
      errors: [{ msg: 'This confirmation link is invalid or has expired.' }],
    });
    const missing = await post(url('/auth/confirm-registration'), {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, errors: [{ msg: 'token is required' }] });
  });

  it('POST /auth/login answers tokens and the spec’s user object, and passes the client address', async () => {
    const res = await post(url('/auth/login'), { email: 'member@demo.ca.gov', password: 'Member#2024x' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: 'access.jwt.value',
      refreshToken: 'refresh.jwt.value',
      expiresIn: 300,
      refreshExpiresIn: 1800,
      user: {
        token: 'access.jwt.value',
        user_id: LOGIN.user?.user_id,
        profile_id: null,
        first_name: 'Maya',
        last_name: 'Member',
        email: 'member@demo.ca.gov',
        contributor: false,
        email_confirmed: true,
        admin: false,
      },
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { request } = fake.callsTo('login')[0] ?? {};
    expect(request).toMatchObject({ email: 'member@demo.ca.gov', password: 'Member#2024x' });
    expect(request?.client_ip).toMatch(/127\.0\.0\.1$/);
  });

  it('POST /auth/login passes the service’s 401 text through', async () => {
    fake.answer('login', async () => {
      throw new DomainError('unauthenticated', 'Please confirm your email to log in');
    });
    const res = await post(url('/auth/login'), { email: 'new@demo.ca.gov', password: 'whatever' });
    expect(res).toMatchObject({
      status: 401,
      body: { errors: [{ msg: 'Please confirm your email to log in' }] },
    });
  });

  it('POST /auth/login answers 429 with Retry-After when the service rate-limits', async () => {
    fake.answer('login', async () => {
      throw new DomainError('resource_exhausted', 'Too many attempts. Try again in 42 seconds.');
    });
    const res = await post(url('/auth/login'), { email: 'member@demo.ca.gov', password: 'wrong' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(res.body).toEqual({ errors: [{ msg: 'Too many attempts. Try again in 42 seconds.' }] });
  });

  it('POST /auth/login forwards a solved captcha as captcha_payload, and none as empty', async () => {
    await post(url('/auth/login'), {
      email: 'member@demo.ca.gov',
      password: 'Member#2024x',
      captchaValue: 'eyJzb2x2ZWQiOnRydWV9',
    });
    await post(url('/auth/login'), { email: 'member@demo.ca.gov', password: 'Member#2024x' });
    expect(fake.callsTo('login').map((call) => call.request.captcha_payload)).toEqual([
      'eyJzb2x2ZWQiOnRydWV9',
      '',
    ]);
    const malformed = await post(url('/auth/login'), {
      email: 'member@demo.ca.gov',
      password: 'Member#2024x',
      captchaValue: 42,
    });
    expect(malformed).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'captchaValue must be text' }] },
    });
    expect(fake.callsTo('login')).toHaveLength(2);
  });

  it('POST /auth/login works while a stale token is still sent', async () => {
    const stale = await accessToken(key, { expiresIn: -3600 });
    const res = await post(
      url('/auth/login'),
      { email: 'member@demo.ca.gov', password: 'Member#2024x' },
      { 'x-auth-token': stale },
    );
    expect(res.status).toBe(200);
  });

  it('POST /auth/login requires both fields', async () => {
    expect((await post(url('/auth/login'), { email: 'a@b.c' })).body).toEqual({
      errors: [{ msg: 'password is required' }],
    });
    expect(fake.calls).toEqual([]);
  });

  it('POST /auth/logout ends the session with the refresh token and answers 204', async () => {
    const res = await post(url('/auth/logout'), { refreshToken: 'refresh.jwt.value' });
    expect(res.status).toBe(204);
    expect(fake.callsTo('logout')[0]?.request).toEqual({ refresh_token: 'refresh.jwt.value' });
    expect((await post(url('/auth/logout'), {})).body).toEqual({
      errors: [{ msg: 'refreshToken is required' }],
    });
  });

  it('POST /auth/request-password-reset forwards email, captcha, the public origin and address', async () => {
    // A forged Host must never decide where a reset link points.
    const res = await post(
      url('/auth/request-password-reset'),
      { email: 'member@demo.ca.gov', reCaptcha_token: 'solved' },
      { host: 'evil.example' },
    );
    expect(res).toMatchObject({
      status: 200,
      body: { success: true, message: 'Password reset link has been sent to your email' },
    });
    expect(fake.callsTo('requestPasswordReset')[0]?.request).toMatchObject({
      email: 'member@demo.ca.gov',
      captcha_payload: 'solved',
      app_url: 'http://localhost:8080',
    });
    const noCaptcha = await post(url('/auth/request-password-reset'), { email: 'member@demo.ca.gov' });
    expect(noCaptcha).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Please verify the reCAPTCHA!' }] },
    });
    expect(fake.callsTo('requestPasswordReset')).toHaveLength(1);
  });

  it('POST /auth/request-password-reset answers 429 with Retry-After', async () => {
    fake.answer('requestPasswordReset', async () => {
      throw new DomainError('resource_exhausted', 'Too many requests. Try again in 2 minutes.');
    });
    const res = await post(url('/auth/request-password-reset'), {
      email: 'a@b.ca.gov',
      reCaptcha_token: 'x',
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('120');
  });

  it('POST /auth/reset-password/:token resets with the token from the path', async () => {
    const res = await post(url('/auth/reset-password/abc123'), { password: STRONG });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Password has been reset' } });
    expect(fake.callsTo('resetPassword')[0]?.request).toEqual({ token: 'abc123', password: STRONG });

    const weak = await post(url('/auth/reset-password/abc123'), { password: 'weak' });
    expect(weak).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Password does not meet criteria.' }] },
    });
    expect(fake.callsTo('resetPassword')).toHaveLength(1);

    fake.answer('resetPassword', async () => {
      throw new DomainError('not_found', 'This reset link is invalid or has expired.');
    });
    const used = await post(url('/auth/reset-password/abc123'), { password: STRONG });
    expect(used).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'This reset link is invalid or has expired.' }] },
    });
  });

  it('GET /auth/email-domains is public and answers [{ approved_domain }]', async () => {
    const res = await get(url('/auth/email-domains'));
    expect(res).toMatchObject({
      status: 200,
      body: [{ approved_domain: 'lobbyfirm.example.com' }, { approved_domain: 'association.example.org' }],
    });
  });
});

describe('member and contributor calls', () => {
  it('POST /auth/update-password/ needs a member, and carries the caller, their session and address', async () => {
    const anonymous = await post(url('/auth/update-password/'), {
      currentPassword: 'a',
      newPassword: STRONG,
    });
    expect(anonymous).toMatchObject({
      status: 401,
      body: { errors: [{ msg: 'Access Restricted. Please login.' }] },
    });
    expect(fake.calls).toEqual([]);

    const res = await post(
      url('/auth/update-password/'),
      // The spec's client also sends the token in the body; it is ignored.
      { token: 'ignored', currentPassword: 'Old#Passw0rd1', newPassword: STRONG },
      {
        'x-auth-token': await accessToken(key, { claims: { sid: 'session-laptop' } }),
        'x-request-id': 'req-update-1',
      },
    );
    expect(res).toMatchObject({ status: 200, body: { success: true, message: 'Password has been updated' } });
    const [recorded] = fake.callsTo('updatePassword');
    // The session the change is made in is the one the service keeps.
    expect(recorded?.request).toEqual({
      current_password: 'Old#Passw0rd1',
      new_password: STRONG,
      session_id: 'session-laptop',
      client_ip: expect.stringMatching(/127\.0\.0\.1$/),
    });
    expect(recorded?.caller).toEqual({
      userId: MEMBER.sub,
      email: MEMBER.email,
      roles: ['default-roles-rotunda'],
    });
    expect(recorded?.requestId).toBe('req-update-1');
  });

  it('POST /auth/update-password refuses a weak new password and maps service refusals to 400', async () => {
    const headers = { authorization: `Bearer ${memberToken}` };
    const weak = await post(
      url('/auth/update-password'),
      { currentPassword: 'x', newPassword: 'weak' },
      headers,
    );
    expect(weak).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Password does not meet criteria.' }] },
    });
    expect(fake.calls).toEqual([]);

    fake.answer('updatePassword', async () => {
      throw new DomainError('unauthenticated', 'Current password is incorrect');
    });
    const wrong = await post(
      url('/auth/update-password'),
      { currentPassword: 'x', newPassword: STRONG },
      headers,
    );
    expect(wrong).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Current password is incorrect' }] },
    });

    // Wrong current passwords are throttled like logins: that refusal keeps its 429 and says when to retry.
    fake.answer('updatePassword', async () => {
      throw new DomainError('resource_exhausted', 'Too many attempts. Try again in 30 seconds.');
    });
    const throttled = await post(
      url('/auth/update-password'),
      { currentPassword: 'x', newPassword: STRONG },
      headers,
    );
    expect(throttled).toMatchObject({
      status: 429,
      body: { errors: [{ msg: 'Too many attempts. Try again in 30 seconds.' }] },
    });
    expect(throttled.headers.get('retry-after')).toBe('30');
  });

  it.each([
    ['/auth/beta-access', 'listBetaEmails', [{ beta_email: 'beta@example.com' }]],
    ['/auth/approved-emails', 'listApprovedEmails', [{ work_email: 'staff@example.org' }]],
  ])(
    'GET %s: 401 without a token, 403 for a member, the list for a contributor',
    async (path, method, list) => {
      expect(await get(url(path))).toMatchObject({
        status: 401,
        body: { errors: [{ msg: 'Access Restricted. Please login.' }] },
      });
      expect(await get(url(path), { 'x-auth-token': memberToken })).toMatchObject({
        status: 403,
        body: { errors: [{ msg: 'Contributors only' }] },
      });
      expect(fake.calls).toEqual([]);
      const res = await get(url(path), { 'x-auth-token': contributorToken });
      expect(res).toMatchObject({ status: 200, body: list });
      expect(fake.callsTo(method)[0]?.caller).toEqual({
        userId: MEMBER.sub,
        email: MEMBER.email,
        roles: ['default-roles-rotunda', 'contributor'],
      });
    },
  );
});

describe('access tokens', () => {
  const probe = (headers: Record<string, string>) => get(url('/auth/beta-access'), headers);

  it('are accepted in x-auth-token and in Authorization: Bearer', async () => {
    expect((await probe({ 'x-auth-token': contributorToken })).status).toBe(200);
    expect((await probe({ authorization: `Bearer ${contributorToken}` })).status).toBe(200);
    expect((await probe({ authorization: `bearer  ${contributorToken}` })).status).toBe(200);
    // Other schemes are not ours: the request is a visitor's.
    expect((await probe({ authorization: `Basic ${contributorToken}` })).status).toBe(401);
  });

  it('an expired one answers 401 saying the session expired', async () => {
    const expired = await accessToken(key, { roles: ['contributor'], expiresIn: -120 });
    expect(await probe({ 'x-auth-token': expired })).toMatchObject({ status: 401, body: EXPIRED });
  });

  it('one that expired within the clock tolerance is still accepted', async () => {
    const justExpired = await accessToken(key, { roles: ['contributor'], expiresIn: -5 });
    expect((await probe({ 'x-auth-token': justExpired })).status).toBe(200);
  });

  it('a tampered one (payload changed, signature kept) answers 401', async () => {
    const promoted = tamper(memberToken, (claims) => {
      claims.realm_access = { roles: ['contributor'] };
    });
    expect(await probe({ 'x-auth-token': promoted })).toMatchObject({ status: 401, body: INVALID });
    const extended = tamper(contributorToken, (claims) => {
      claims.exp = Math.floor(Date.now() / 1000) + 86_400;
    });
    expect(await probe({ 'x-auth-token': extended })).toMatchObject({ status: 401, body: INVALID });
  });

  it('one signed by another key, even under a known kid, answers 401', async () => {
    const impostor = await signingKey('key-1');
    const forged = await accessToken(impostor, { roles: ['contributor'] });
    expect(await probe({ 'x-auth-token': forged })).toMatchObject({ status: 401, body: INVALID });
  });

  it.each([
    ['a refresh token', { typ: 'Refresh' }],
    ['an ID token', { typ: 'ID' }],
    ['a token without typ', { typ: undefined }],
    ['another issuer', { iss: 'http://localhost:8080/realms/other' }],
    ['a token without subject', { sub: undefined }],
    ['a token not yet valid', { nbf: Math.floor(Date.now() / 1000) + 3600 }],
    ['a token another client of the realm obtained (admin-cli)', { azp: 'admin-cli' }],
    ["the auth service's own service-account token", { azp: 'rotunda-auth', email_verified: false }],
    ['a token of an account whose email was never confirmed', { email_verified: false }],
    ['a token without email_verified', { email_verified: undefined }],
  ])('%s answers 401', async (_name, claims) => {
    const token = await accessToken(key, { roles: ['contributor'], claims });
    expect(await probe({ 'x-auth-token': token })).toMatchObject({ status: 401, body: INVALID });
  });

  it('unsigned, HS256-signed and malformed tokens answer 401', async () => {
    const claims = { iss: 'http://localhost:8080/realms/rotunda', sub: MEMBER.sub, typ: 'Bearer' };
    const unsigned = new UnsecuredJWT({ ...claims, realm_access: { roles: ['contributor'] } })
      .setExpirationTime('5m')
      .encode();
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(key.jwk)));
    for (const token of [unsigned, hmac, 'not-a-jwt', 'a.b.c']) {
      expect(await probe({ 'x-auth-token': token })).toMatchObject({ status: 401, body: INVALID });
    }
  });

  it('a bad token is refused on /api too, while visitors still get public reads through', async () => {
    const expired = await accessToken(key, { expiresIn: -3600 });
    expect(await get(url('/api/news'), { 'x-auth-token': expired })).toMatchObject({
      status: 401,
      body: EXPIRED,
    });
    // No token: the request goes on to the (here unreachable) news service.
    expect((await get(url('/api/news'))).status).toBe(503);
  });

  it('a new key is fetched once when a token names an unknown kid (key rotation), then verifies', async () => {
    const rotating = await startFakeAuth([key]);
    const local = await startGateway({ AUTH_SERVICE_ADDR: rotating.address }, { cooldownMs: 0 });
    try {
      const probeLocal = (token: string) => get(`${local.base}/auth/beta-access`, { 'x-auth-token': token });
      expect((await probeLocal(contributorToken)).status).toBe(200);
      expect(rotating.callsTo('getJwks')).toHaveLength(1);
      expect((await probeLocal(contributorToken)).status).toBe(200);
      expect(rotating.callsTo('getJwks')).toHaveLength(1);

      const next = await signingKey('key-2');
      rotating.jwks.keys = [key.jwk, next.jwk];
      const rotated = await accessToken(next, { roles: ['contributor'] });
      expect((await probeLocal(rotated)).status).toBe(200);
      expect(rotating.callsTo('getJwks')).toHaveLength(2);
      expect((await probeLocal(rotated)).status).toBe(200);
      expect(rotating.callsTo('getJwks')).toHaveLength(2);
    } finally {
      await local.close();
      await rotating.server.shutdown();
    }
  });

  it('a flood of forged kids does not hammer the auth service (cooldown between fetches)', async () => {
    const flooded = await startFakeAuth([key]);
    const local = await startGateway({ AUTH_SERVICE_ADDR: flooded.address });
    try {
      expect((await get(`${local.base}/auth/beta-access`, { 'x-auth-token': contributorToken })).status).toBe(
        200,
      );
      const attacker = await signingKey('forged');
      const forged = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          accessToken(attacker, { roles: ['contributor'], kid: `forged-${i}` }),
        ),
      );
      const answers = await Promise.all(
        forged.map((token) => get(`${local.base}/auth/beta-access`, { 'x-auth-token': token })),
      );
      expect(answers.every((res) => res.status === 401)).toBe(true);
      expect(flooded.callsTo('getJwks')).toHaveLength(1);
    } finally {
      await local.close();
      await flooded.server.shutdown();
    }
  });

  it('answers 503 "try again shortly" when the keys cannot be fetched', async () => {
    const orphan = await startGateway({ AUTH_SERVICE_ADDR: '127.0.0.1:1' });
    try {
      expect(await get(`${orphan.base}/api/news`, { 'x-auth-token': memberToken })).toMatchObject({
        status: 503,
        body: { errors: [{ msg: KEYS_UNAVAILABLE }] },
      });
    } finally {
      await orphan.close();
    }
  });
});

describe('sessions that ended', () => {
  const betaAccess = (token: string, base = gateway.base) =>
    get(`${base}/auth/beta-access`, { 'x-auth-token': token });

  it('after a logout, its access token is refused within a few seconds, on /auth and /api alike', async () => {
    const ended = await accessToken(key, { roles: ['contributor'], claims: { sid: 'session-logged-out' } });
    const other = await accessToken(key, { roles: ['contributor'], claims: { sid: 'session-elsewhere' } });
    // Verified once, and so remembered: the ended session must be noticed all the same.
    expect((await betaAccess(ended)).status).toBe(200);
    expect((await post(url('/auth/logout'), { refreshToken: 'refresh.jwt.value' })).status).toBe(204);
    fake.endedSessions.push('session-logged-out');
    const loggedOut = Date.now();
    await expect.poll(async () => (await betaAccess(ended)).status, { timeout: 3_000 }).toBe(401);
    expect(Date.now() - loggedOut).toBeLessThan(3_000);
    expect(await betaAccess(ended)).toMatchObject({ status: 401, body: ENDED });
    expect(await get(url('/api/news'), { 'x-auth-token': ended })).toMatchObject({
      status: 401,
      body: ENDED,
    });
    const change = await post(
      url('/auth/update-password'),
      { currentPassword: 'Old#Passw0rd1', newPassword: STRONG },
      { 'x-auth-token': ended },
    );
    expect(change).toMatchObject({ status: 401, body: ENDED });
    expect(fake.callsTo('updatePassword')).toEqual([]);
    // The member's other session, and everyone else's, go on.
    expect((await betaAccess(other)).status).toBe(200);
  });

  it('every gateway replica learns of it by itself', async () => {
    const second = await startGateway({ AUTH_SERVICE_ADDR: fake.address });
    try {
      const token = await accessToken(key, {
        roles: ['contributor'],
        claims: { sid: 'session-password-changed' },
      });
      expect((await betaAccess(token)).status).toBe(200);
      expect((await betaAccess(token, second.base)).status).toBe(200);
      fake.endedSessions.push('session-password-changed');
      await expect.poll(async () => (await betaAccess(token)).status, { timeout: 3_000 }).toBe(401);
      await expect
        .poll(async () => (await betaAccess(token, second.base)).status, { timeout: 3_000 })
        .toBe(401);
    } finally {
      await second.close();
    }
  });
});

describe('login and the profile service', () => {
  let profile: FakeProfile;
  let withProfiles: RunningGateway;
  beforeAll(async () => {
    profile = await startFakeProfile();
    withProfiles = await startGateway({
      AUTH_SERVICE_ADDR: fake.address,
      PROFILE_SERVICE_ADDR: profile.address,
    });
  });
  afterEach(() => profile.reset());
  afterAll(async () => {
    await withProfiles.close();
    await profile.server.shutdown();
  });

  const login = () =>
    post(`${withProfiles.base}/auth/login`, { email: 'member@demo.ca.gov', password: 'Member#2024x' });

  it('answers the member’s profile id, asked of the profile service by their user id', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.body.user.profile_id).toBe(7);
    expect(profile.callsTo('getAuthorByUser')[0]?.request).toEqual({ user_id: LOGIN.user?.user_id });
  });

  it('answers null for a member without a profile', async () => {
    profile.answer('getAuthorByUser', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.body.user.profile_id).toBeNull();
  });

  it('still logs the member in, with null, when the profile service fails or is down', async () => {
    profile.answer('getAuthorByUser', async () => {
      throw new Error('database unreachable');
    });
    const failing = await login();
    expect(failing.status).toBe(200);
    expect(failing.body.user.profile_id).toBeNull();
    // The main gateway of this file points the profile service nowhere.
    const down = await post(url('/auth/login'), { email: 'member@demo.ca.gov', password: 'Member#2024x' });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ token: 'access.jwt.value', user: { profile_id: null } });
  });

  it('never asks the profile service when the login is refused', async () => {
    fake.answer('login', async () => {
      throw new DomainError('unauthenticated', 'Invalid credentials');
    });
    expect((await login()).status).toBe(401);
    expect(profile.calls).toEqual([]);
  });
});
