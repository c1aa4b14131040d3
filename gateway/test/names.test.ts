// Names with unseen characters (ADR 0037) are refused at the gateway with 400 and the field named, before any
// service is asked: organization and division names (add, rename), people's first and last names (create,
// update) and issue areas; the same names without them reach the services. A name that reads like another
// organization's is the org service's to refuse (409, the existing one named), passed on as it words it.
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, startFakeOrg } from './support/fake-org.ts';
import { type FakeProfile, startFakeProfile } from './support/fake-profile.ts';

const UNSEEN = 'must not contain invisible, control or replacement characters.';
const TWINS = [
  ['a word joiner', 'Office of Senator Elena\u2060 Marquez'],
  ['a zero-width space', 'Office of\u200B Senator Elena Marquez'],
  ['a right-to-left override', 'Budget \u202EyciloP'],
  ['an ANSI escape', '\u001b[31mBudget Office'],
  ['a replacement character', 'Budget Office \uFFFD'],
] as const;

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
const refused = (message: string) => ({ status: 400, body: { errors: [{ msg: message }] } });

describe('organization and division names', () => {
  it.each(TWINS)('refuses an organization added with %s, naming the field', async (_, name) => {
    expect(
      await post(url('/api/orgs/add-organization'), { organization_name: name, group_type: 'Other' }, member),
    ).toMatchObject(refused(`Organization Name ${UNSEEN}`));
    expect(org.calls).toEqual([]);
  });

  it('refuses a rename and a division name with unseen characters, naming each field', async () => {
    expect(
      await post(
        url('/api/orgs/update-organization'),
        { organization_id: 7, organization_name: 'Office\u2060 of Tax Appeals', street_address: '1 K St' },
        contributor,
      ),
    ).toMatchObject(refused(`Organization Name ${UNSEEN}`));
    expect(
      await post(url('/api/orgs/add-division'), { organization_id: 7, division_name: 'Desk\u200B' }, member),
    ).toMatchObject(refused(`Division Name ${UNSEEN}`));
    expect(org.calls).toEqual([]);
  });

  it('passes on names of any script and the org service’s 409 for a name that reads like another', async () => {
    expect(
      (
        await post(
          url('/api/orgs/add-organization'),
          { organization_name: 'Añil 加州', group_type: 'Other' },
          member,
        )
      ).status,
    ).toBe(201);
    const exists = 'An organization named "Office of Senator Elena Marquez" already exists.';
    org.answer('addOrganization', async () => {
      throw new DomainError('already_exists', exists);
    });
    expect(
      await post(
        url('/api/orgs/add-organization'),
        { organization_name: 'Office of Senator Élena Márquez', group_type: 'Legislature' },
        member,
      ),
    ).toMatchObject({ status: 409, body: { errors: [{ msg: exists }] } });
  });
});

describe("people's names and issue areas", () => {
  it.each(TWINS)('refuses a first or last name with %s, naming the field', async (_, name) => {
    expect(
      await post(url('/api/profiles/update-profile'), { profile_id: 3, first_name: name }, contributor),
    ).toMatchObject(refused(`First Name ${UNSEEN}`));
    expect(await post(url('/api/profiles/create-profile'), { last_name: name }, member)).toMatchObject(
      refused(`Last Name ${UNSEEN}`),
    );
    expect(profile.calls).toEqual([]);
  });

  it.each(TWINS)('refuses an issue area with %s, naming the field', async (_, name) => {
    expect(await post(url('/api/issues/add-issue-area'), { issue_name: name }, member)).toMatchObject(
      refused(`Issue Name ${UNSEEN}`),
    );
    expect(profile.calls).toEqual([]);
  });

  it('passes on names with accents and other scripts', async () => {
    expect(
      (await post(url('/api/issues/add-issue-area'), { issue_name: 'Acceso à Justiça' }, member)).status,
    ).toBe(201);
    expect(profile.calls.map((call) => call.method)).toEqual(['addIssueArea']);
  });
});
