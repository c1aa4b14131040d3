// Verified employer through the gateway, against fake org and profile services on real gRPC: the profile answer
// and the directory's cards carry `verified_employer` as the profile service says; an organization answers its
// listed `email_domains`; a contributor's edit forwards them normalized, keeps them when left out, and refuses
// what the rule refuses (never reaching the service).
import { EMAIL_DOMAIN_MESSAGES } from '@rotunda/rules';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  get,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { DIRECTORY_CARD, type FakeProfile, PROFILE, startFakeProfile } from './support/fake-profile.ts';

let key: SigningKey;
let auth: FakeAuth;
let org: FakeOrg;
let profile: FakeProfile;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  org = await startFakeOrg();
  profile = await startFakeProfile();
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

describe('verified_employer on profiles', () => {
  it('GET /api/profiles/profile/:id carries it, true or false', async () => {
    expect((await get(url('/api/profiles/profile/7'), member)).body).toMatchObject({
      verified_employer: false,
    });
    profile.answer('getProfile', async () => ({ ...PROFILE, verified_employer: true }));
    expect((await get(url('/api/profiles/profile/7'), member)).body).toMatchObject({
      verified_employer: true,
    });
  });

  it("the directory's cards carry it", async () => {
    profile.answer('searchDirectory', async () => ({
      profiles: [DIRECTORY_CARD, { ...DIRECTORY_CARD, profile_id: 8, verified_employer: false }],
      total: 2,
      total_is_lower_bound: false,
    }));
    const res = await get(url('/api/profiles/search?search=marquez'), member);
    expect(res.status).toBe(200);
    expect(
      (res.body as { profiles: { profile_id: number; verified_employer: boolean }[] }).profiles.map(
        (card) => [card.profile_id, card.verified_employer],
      ),
    ).toEqual([
      [7, true],
      [8, false],
    ]);
  });
});

describe('email_domains on organizations', () => {
  const edit = (body: Record<string, unknown>) =>
    post(url('/api/orgs/update-organization'), { organization_id: 12, ...body }, contributor);

  it('an organization answers its listed domains', async () => {
    const res = await get(url('/api/orgs/12'), member);
    expect(res.body).toMatchObject({ email_domains: ['capitolbridge.example.org'] });
  });

  it("a contributor's edit forwards them normalized; null clears them; left out, they are kept", async () => {
    expect((await edit({ email_domains: ['CBA.example.org', 'www.capitolbridge.example.org'] })).status).toBe(
      200,
    );
    expect(org.callsTo('updateOrganization')[0]?.request).toMatchObject({
      email_domains: { domains: ['cba.example.org', 'capitolbridge.example.org'] },
    });
    await edit({ email_domains: null });
    expect(org.callsTo('updateOrganization')[1]?.request).toMatchObject({ email_domains: { domains: [] } });
    await edit({ city: 'Davis' });
    expect(org.callsTo('updateOrganization')[2]?.request.email_domains).toBeUndefined();
  });

  it.each([
    [['https://cba.example.org'], EMAIL_DOMAIN_MESSAGES.invalid('https://cba.example.org')],
    [['hotmail.com'], EMAIL_DOMAIN_MESSAGES.webmail('hotmail.com')],
    [Array.from({ length: 11 }, (_, i) => `d${i}.example.org`), EMAIL_DOMAIN_MESSAGES.tooMany],
    ['cba.example.org', 'Email Domains: send email_domains as a list of domains, like ["agency.ca.gov"].'],
  ])(
    'refuses %j with 400 and the rule message, never reaching the service',
    async (email_domains, message) => {
      expect(await edit({ email_domains })).toMatchObject({
        status: 400,
        body: { errors: [{ msg: message }] },
      });
      expect(org.calls).toEqual([]);
    },
  );

  it('refuses a member (403) before reading the body', async () => {
    expect(
      (await post(url('/api/orgs/update-organization'), { organization_id: 12, email_domains: [] }, member))
        .status,
    ).toBe(403);
    expect(org.calls).toEqual([]);
  });
});
