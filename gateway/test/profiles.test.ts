// The /api/profiles/* paths against a fake ProfileService on real gRPC: docs/api.md's answer shapes (the
// spec's names, null for fields not given; personal contact details on the profile page only, never in a
// list), validation refusals of types and lengths that never reach the service, the forms' rules left to the
// service (its required-field and end-date messages reach the member unchanged), members-only guards (401)
// and the contributors-only claim decisions (403), the caller carried in the metadata (never a sent user_id) and
// the claimant's names from the token, the service's refusals mapped to HTTP (400, 403, 404, 409, 429 with
// Retry-After, 503), and the multipart picture upload.
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PICTURE_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../src/routes/profiles.ts';
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
import {
  CLAIMANT,
  DECIDED_AT,
  DIRECTORY_CARD,
  type FakeProfile,
  PENDING_CLAIM,
  PICTURE_URL,
  PROFILE,
  startFakeProfile,
} from './support/fake-profile.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };
const TOO_LARGE = 'Image is too large. Please resize or select a smaller image.';
const EDIT_OWN = 'You can only edit your own profile';

let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let gateway: RunningGateway;
let member: Record<string, string>;
let contributor: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, PROFILE_SERVICE_ADDR: profile.address });
  member = { 'x-auth-token': await accessToken(key) };
  contributor = { 'x-auth-token': await accessToken(key, { roles: ['contributor'] }) };
});
afterEach(() => profile.reset());
afterAll(async () => {
  await gateway.close();
  await profile.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string) => `${gateway.base}${path}`;

async function del(path: string, body: unknown, headers: Record<string, string> = member) {
  const res = await fetch(url(path), {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const refused = (message: string) => ({ errors: [{ msg: message }] });

const DIVISION_JSON = {
  division_id: 3,
  division_name: 'Elk Grove District Office',
  division_type: 'District Office',
  active_division: true,
  organization_id: 12,
  street_address: null,
  suite_number: null,
  city: 'Elk Grove',
  state: 'CA',
  zip_code: null,
  division_phone: null,
  website: null,
};

const JOB_JSON = {
  job_id: 15,
  profile_id: 7,
  title: 'Legislative Director',
  organization_id: 12,
  division_id: 3,
  street_address: '1021 O Street',
  suite_number: 'Room 6610',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2021-02-01',
  end_date: null,
  current_job: true,
  Organization: {
    organization_id: 12,
    organization_name: 'Office of Senator Elena Marquez',
    group_type: 'Legislature',
    logo: '/media/logos/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a01.png',
  },
  Division: DIVISION_JSON,
};

/**
 * A profile in a list as docs/api.md shows it, null where the service sent none; no personal contact details.
 */
const LISTED_JSON = {
  profile_id: 7,
  user_id: MEMBER.sub,
  first_name: 'Marcus',
  last_name: 'Chen',
  preferred_name: null,
  work_email: 'member@demo.ca.gov',
  other_phone: '(916) 555-0120',
  pronouns: 'He/Him',
  profile_picture: '/media/pictures/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a09.jpg',
  user_bio: 'Legislative director.',
  lobby_filer_id: null,
  linkedin_url: 'https://www.linkedin.com/in/marcuschen-demo',
  facebook_url: null,
  youtube_url: null,
  threads_url: null,
  twitter_url: null,
  instagram_url: null,
  tiktok_url: null,
  bluesky_url: null,
  claim_pending: false,
  claim_id: null,
  JobExperiences: [
    JOB_JSON,
    {
      job_id: 16,
      profile_id: 7,
      title: 'Legislative Aide',
      organization_id: 14,
      division_id: null,
      street_address: '1021 O Street',
      suite_number: null,
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      start_date: '2017-09-01',
      end_date: '2021-01-01',
      current_job: false,
      Organization: {
        organization_id: 14,
        organization_name: 'Office of Assemblymember David Okafor',
        group_type: 'Legislature',
        logo: null,
      },
      Division: null,
    },
  ],
  UserIssues: [{ id: 31, profile_id: 7, issue_id: 4, IssueArea: { issue_id: 4, issue_name: 'Housing' } }],
};

/** The profile page's answer: every field, and whether (and by whom) a claim waits on it. */
const PROFILE_JSON = {
  ...LISTED_JSON,
  personal_email: 'marcus.home@example.net',
  mobile_phone: '(279) 555-0170',
  birthday: '1984-06-02',
  claimed_by_you: false,
  claimant: null,
};

const PERSONAL_FIELDS = ['personal_email', 'mobile_phone', 'birthday'];

const NEW_PROFILE = {
  profile_picture: PICTURE_URL,
  first_name: 'Nora',
  last_name: 'Whitfield',
  work_email: 'newbie@demo.ca.gov',
  other_phone: '9165550144',
};

const NEW_JOB = {
  profile_id: 7,
  title: 'Policy Analyst',
  organization_id: 12,
  street_address: '715 P Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2022-06-01',
  current_job: true,
};

describe('members only', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/api/profiles/directory'],
    ['GET', '/api/profiles/search?search=elena'],
    ['POST', '/api/profiles/new-user-check', { first_name: 'Nora', last_name: 'W', email: 'n@x.gov' }],
    ['GET', '/api/profiles/user-check'],
    ['POST', '/api/profiles/create-profile', NEW_PROFILE],
    ['POST', '/api/profiles/upload-profile-picture', {}],
    ['GET', '/api/profiles/profile/7'],
    ['POST', '/api/profiles/update-profile', { profile_id: 7 }],
    ['POST', '/api/profiles/claim/7', {}],
    ['GET', '/api/profiles/claims'],
    ['POST', '/api/profiles/claims/41', { decision: 'confirm' }],
    ['POST', '/api/profiles/add-job/', NEW_JOB],
    ['POST', '/api/profiles/update-job/', { job_id: 15 }],
    ['DELETE', '/api/profiles/delete-job', { job_id: 15 }],
    ['POST', '/api/profiles/organization-colleagues', { organization_id: 12 }],
    ['POST', '/api/profiles/division-colleagues', { division_id: 3 }],
    ['POST', '/api/profiles/bio/7', { user_bio: 'x' }],
  ];

  it.each(calls)('%s %s answers 401 to a visitor without asking the service', async (method, path, body) => {
    const res =
      method === 'GET'
        ? await get(url(path))
        : method === 'DELETE'
          ? await del(path, body, {})
          : await post(url(path), body ?? {});
    expect(res).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(profile.calls).toEqual([]);
  });

  it('answers 503 naming the profile service when it is down', async () => {
    const orphan = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      PROFILE_SERVICE_ADDR: '127.0.0.1:1',
    });
    try {
      expect(await get(`${orphan.base}/api/profiles/directory`, member)).toMatchObject({
        status: 503,
        body: refused('The profile service is unavailable. Please try again shortly.'),
      });
    } finally {
      await orphan.close();
    }
  });
});

describe('reading profiles', () => {
  it('GET /api/profiles/directory answers every profile in the contract’s shape without personal contact details, the member carried', async () => {
    const res = await get(url('/api/profiles/directory'), member);
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual([LISTED_JSON]);
    for (const field of PERSONAL_FIELDS) expect((res.body as object[])[0]).not.toHaveProperty(field);
    expect(JSON.stringify(res.body)).not.toContain('marcus.home@example.net');
    expect(profile.callsTo('listDirectory')[0]?.caller).toMatchObject({
      userId: MEMBER.sub,
      email: MEMBER.email,
    });
  });

  it('GET /api/profiles/directory streams a whole state’s directory as one JSON array, in the service’s order', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...PROFILE, profile_id: i + 1 }));
    profile.answer('listDirectory', async () => ({ profiles: many }));
    const res = await get(url('/api/profiles/directory'), member);
    expect(res.status).toBe(200);
    const body = res.body as { profile_id: number }[];
    expect(body.map((p) => p.profile_id)).toEqual(many.map((p) => p.profile_id));
    expect(body[2999]).toEqual({ ...LISTED_JSON, profile_id: 3000 });
  });

  it('GET /api/profiles/directory answers 429 with Retry-After when the member downloaded it too often', async () => {
    const message = 'Too many downloads of the whole directory. Try again in 420 seconds.';
    profile.answer('listDirectory', async () => {
      throw new DomainError('resource_exhausted', message);
    });
    const res = await fetch(url('/api/profiles/directory'), { headers: member });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('420');
    expect(await res.json()).toEqual(refused(message));
  });

  it('GET /api/profiles/directory answers the service’s refusal when it comes before any profile', async () => {
    profile.answer('listDirectory', async () => {
      throw new DomainError('unauthenticated', 'Access Restricted. Please login.');
    });
    expect(await get(url('/api/profiles/directory'), member)).toMatchObject({
      status: 401,
      body: refused('Access Restricted. Please login.'),
    });
  });

  it('GET /api/profiles/search answers one page of cards with the total; defaults to the first 30', async () => {
    expect(await get(url('/api/profiles/search'), member)).toMatchObject({
      status: 200,
      body: {
        profiles: [
          {
            profile_id: 7,
            first_name: 'Elena',
            last_name: 'Marquez',
            profile_picture: null,
            title: 'Legislative Director',
            organization_name: 'Office of Senator Elena Marquez',
            division_name: 'Elk Grove District Office',
            group_type: 'Legislature',
            city: 'Elk Grove',
            state: 'CA',
          },
        ],
        total: 41,
        total_is_lower_bound: false,
        offset: 0,
        limit: 30,
      },
    });
    expect(profile.callsTo('searchDirectory')[0]?.request).toEqual({
      search: '',
      group: '',
      offset: 0,
      limit: 30,
    });
    const query = '?search=elk%20grove&group=Elected%20Officials&issue=4&offset=30&limit=30';
    expect((await get(url(`/api/profiles/search${query}`), member)).status).toBe(200);
    expect(profile.callsTo('searchDirectory')[1]).toMatchObject({
      request: { search: 'elk grove', group: 'Elected Officials', issue_id: 4, offset: 30, limit: 30 },
      caller: { userId: MEMBER.sub },
    });
  });

  it('GET /api/profiles/search shares a page among members for DIRECTORY_CACHE_SECONDS, per query', async () => {
    const cached = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      PROFILE_SERVICE_ADDR: profile.address,
      DIRECTORY_CACHE_SECONDS: '1',
    });
    try {
      const first = await get(`${cached.base}/api/profiles/search?search=elk%20%20grove`, member);
      const again = await get(`${cached.base}/api/profiles/search?search=elk+grove`, member);
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
      expect(profile.callsTo('searchDirectory')).toHaveLength(1);
      await get(`${cached.base}/api/profiles/search?search=elk+grove&group=Legislature`, member);
      expect(profile.callsTo('searchDirectory')).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await get(`${cached.base}/api/profiles/search?search=elk+grove`, member);
      expect(profile.callsTo('searchDirectory')).toHaveLength(3);
      // Members only, cache or not.
      expect((await get(`${cached.base}/api/profiles/search?search=elk+grove`)).status).toBe(401);
    } finally {
      await cached.close();
    }
  });

  it('GET /api/profiles/search refuses bad paging and filter values with 400 before asking the service', async () => {
    for (const [query, message] of [
      ['limit=0', 'limit must be a whole number from 1 to 100'],
      ['limit=101', 'limit must be a whole number from 1 to 100'],
      ['offset=-1', 'offset must be a whole number from 0 to 99900'],
      ['issue=abc', 'issue must be a whole number from 1 to 2147483647'],
      ['search=a&search=b', 'search must be given once, as text'],
      [`group=${'x'.repeat(65)}`, 'group is too long'],
    ] as const)
      expect(await get(url(`/api/profiles/search?${query}`), member), query).toMatchObject({
        status: 400,
        body: refused(message),
      });
    expect(profile.callsTo('searchDirectory')).toEqual([]);
  });

  it('GET /api/profiles/profile/:id answers the profile; 400 for a bad id, 404 as the service says', async () => {
    expect(await get(url('/api/profiles/profile/7'), member)).toMatchObject({
      status: 200,
      body: PROFILE_JSON,
    });
    expect(profile.callsTo('getProfile')[0]?.request).toEqual({ profile_id: 7 });
    expect(await get(url('/api/profiles/profile/abc'), member)).toMatchObject({
      status: 400,
      body: refused('The profile id must be a whole number.'),
    });
    expect(await get(url('/api/profiles/profile/99999999999'), member)).toMatchObject({
      status: 404,
      body: refused('Profile not found'),
    });
    profile.answer('getProfile', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    expect(await get(url('/api/profiles/profile/8'), member)).toMatchObject({
      status: 404,
      body: refused('Profile not found'),
    });
  });

  it('GET /api/profiles/user-check answers [{ user_id, profile_id, claim_pending }] of the caller', async () => {
    expect(await get(url('/api/profiles/user-check'), member)).toMatchObject({
      status: 200,
      body: [{ user_id: MEMBER.sub, profile_id: 7, claim_pending: false }],
    });
    profile.answer('userCheck', async () => ({
      profiles: [{ user_id: MEMBER.sub, profile_id: 9, claim_pending: true }],
    }));
    expect((await get(url('/api/profiles/user-check'), member)).body).toEqual([
      { user_id: MEMBER.sub, profile_id: 9, claim_pending: true },
    ]);
    profile.answer('userCheck', async () => ({ profiles: [] }));
    expect((await get(url('/api/profiles/user-check'), member)).body).toEqual([]);
  });

  it('POST /api/profiles/new-user-check forwards the three values and answers the matches', async () => {
    const res = await post(
      url('/api/profiles/new-user-check'),
      { first_name: 'Nora', last_name: 'Whitfield', email: 'newbie@demo.ca.gov' },
      member,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ ...LISTED_JSON, user_id: null }]);
    expect(profile.callsTo('findUnclaimedMatches')[0]?.request).toEqual({
      first_name: 'Nora',
      last_name: 'Whitfield',
      email: 'newbie@demo.ca.gov',
    });
    expect(await post(url('/api/profiles/new-user-check'), { first_name: ['x'] }, member)).toMatchObject({
      status: 400,
      body: refused('first_name must be text'),
    });
  });
});

describe('creating and editing profiles', () => {
  it('POST /api/profiles/create-profile answers 201 { createdProfileResult }; the owner comes from the token', async () => {
    const res = await post(
      url('/api/profiles/create-profile'),
      { ...NEW_PROFILE, user_id: 'someone-else', image_type: 'jpg', pronouns: 'She/Her', birthday: null },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: { createdProfileResult: PROFILE_JSON } });
    const [call] = profile.callsTo('createProfile');
    expect(call?.caller?.userId).toBe(MEMBER.sub);
    expect(call?.request).toEqual({
      fields: {
        profile_picture: PICTURE_URL,
        first_name: 'Nora',
        last_name: 'Whitfield',
        work_email: 'newbie@demo.ca.gov',
        other_phone: '9165550144',
        pronouns: 'She/Her',
        birthday: '',
      },
    });
  });

  it('forwards a form missing required fields, and the service’s message for them reaches the member', async () => {
    const message =
      'Please provide entries for the following required fields: Profile Picture, Last Name, Work Email, Office Phone';
    profile.answer('createProfile', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(
      await post(url('/api/profiles/create-profile'), { first_name: 'Nora', work_email: ' ' }, member),
    ).toMatchObject({ status: 400, body: refused(message) });
    expect(profile.callsTo('createProfile')[0]?.request).toEqual({
      fields: { first_name: 'Nora', work_email: '' },
    });
  });

  it('passes the service’s 409 and 400 on', async () => {
    profile.answer('createProfile', async () => {
      throw new DomainError('already_exists', 'You already have a profile');
    });
    expect(await post(url('/api/profiles/create-profile'), NEW_PROFILE, member)).toMatchObject({
      status: 409,
      body: refused('You already have a profile'),
    });
    profile.answer('createProfile', async () => {
      throw new DomainError(
        'invalid_argument',
        'LinkedIn must be a web address starting with http:// or https://.',
      );
    });
    expect(
      await post(
        url('/api/profiles/create-profile'),
        { ...NEW_PROFILE, linkedin_url: 'javascript:x' },
        member,
      ),
    ).toMatchObject({
      status: 400,
      body: refused('LinkedIn must be a web address starting with http:// or https://.'),
    });
  });

  it('POST /api/profiles/update-profile forwards only the fields sent, the filer id included', async () => {
    const res = await post(
      url('/api/profiles/update-profile'),
      { profile_id: '7', first_name: 'Marc', twitter_url: null, lobby_filer_id: '1300099' },
      member,
    );
    expect(res).toMatchObject({ status: 200, body: PROFILE_JSON });
    expect(profile.callsTo('updateProfile')[0]?.request).toEqual({
      profile_id: 7,
      fields: { first_name: 'Marc', twitter_url: '', lobby_filer_id: '1300099' },
    });
  });

  it('refuses update without a profile id before the service; required fields blanked are the service’s to name', async () => {
    expect(await post(url('/api/profiles/update-profile'), { first_name: 'X' }, member)).toMatchObject({
      status: 400,
      body: refused('profile_id is required'),
    });
    expect(profile.calls).toEqual([]);
    const message = 'Please provide entries for the following required fields: First Name, Office Phone';
    profile.answer('updateProfile', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(
      await post(
        url('/api/profiles/update-profile'),
        { profile_id: 7, other_phone: '', first_name: '' },
        member,
      ),
    ).toMatchObject({ status: 400, body: refused(message) });
    expect(profile.callsTo('updateProfile')[0]?.request).toEqual({
      profile_id: 7,
      fields: { first_name: '', other_phone: '' },
    });
  });

  it('maps the service’s permission refusals to 403', async () => {
    for (const message of [EDIT_OWN, 'Only a Concierge can set the lobbyist filer id']) {
      profile.answer('updateProfile', async () => {
        throw new DomainError('permission_denied', message);
      });
      expect(await post(url('/api/profiles/update-profile'), { profile_id: 8 }, member)).toMatchObject({
        status: 403,
        body: refused(message),
      });
    }
  });

  it('POST /api/profiles/claim/:profile_id answers the claimed profile with the token’s names sent along; 409, 403 and 404 passed on', async () => {
    const res = await post(url('/api/profiles/claim/7'), { profile_id: 7, user_id: 'someone-else' }, member);
    expect(res).toMatchObject({
      status: 200,
      body: { ...PROFILE_JSON, user_id: null, claim_pending: true, claim_id: 41, claimed_by_you: true },
    });
    expect(profile.callsTo('claimProfile')[0]).toMatchObject({
      request: {
        profile_id: 7,
        claimant_first_name: MEMBER.given_name,
        claimant_last_name: MEMBER.family_name,
      },
      caller: { userId: MEMBER.sub, email: MEMBER.email },
    });
    // A token without names claims with empty ones; the body never names the claimant.
    const nameless = { 'x-auth-token': await accessToken(key, { claims: { given_name: undefined } }) };
    await post(url('/api/profiles/claim/7'), { first_name: 'Senator' }, nameless);
    expect(profile.callsTo('claimProfile')[1]?.request).toMatchObject({
      claimant_first_name: '',
      claimant_last_name: MEMBER.family_name,
    });
    for (const message of ['Users can only claim one profile', 'This profile has already been claimed']) {
      profile.answer('claimProfile', async () => {
        throw new DomainError('already_exists', message);
      });
      expect(await post(url('/api/profiles/claim/7'), {}, member)).toMatchObject({
        status: 409,
        body: refused(message),
      });
    }
    const pending =
      'Your claim on this profile is waiting for a contributor to confirm it. You can change it once it is confirmed.';
    profile.answer('updateProfile', async () => {
      throw new DomainError('permission_denied', pending);
    });
    expect(await post(url('/api/profiles/update-profile'), { profile_id: 7 }, member)).toMatchObject({
      status: 403,
      body: refused(pending),
    });
    profile.answer('claimProfile', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    expect((await post(url('/api/profiles/claim/9'), {}, member)).status).toBe(404);
    expect((await post(url('/api/profiles/claim/nine'), {}, member)).status).toBe(400);
  });

  it('POST /api/profiles/bio/:profile_id sets the bio; the service’s blank-bio message passes through', async () => {
    expect(
      await post(url('/api/profiles/bio/7'), { profile_id: 7, user_bio: 'Hello' }, member),
    ).toMatchObject({
      status: 200,
      body: PROFILE_JSON,
    });
    expect(profile.callsTo('setBio')[0]?.request).toEqual({ profile_id: 7, user_bio: 'Hello' });
    const message =
      'Please provide a brief discription about who you are and your expertise to finalize your profile.';
    profile.answer('setBio', async () => {
      throw new DomainError('invalid_argument', message);
    });
    expect(await post(url('/api/profiles/bio/7'), { user_bio: ' ' }, member)).toMatchObject({
      status: 400,
      body: refused(message),
    });
    expect(await post(url('/api/profiles/bio/7'), { user_bio: 42 }, member)).toMatchObject({
      status: 400,
      body: refused('user_bio must be text'),
    });
  });
});

describe('deciding claims', () => {
  const CONTRIBUTORS_ONLY = refused('Contributors only');
  const DECIDED = 'This claim has already been decided';

  it('refuses a member with 403 without asking the service', async () => {
    expect(await get(url('/api/profiles/claims'), member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    expect(await post(url('/api/profiles/claims/41'), { decision: 'confirm' }, member)).toMatchObject({
      status: 403,
      body: CONTRIBUTORS_ONLY,
    });
    expect(profile.calls).toEqual([]);
  });

  it('GET /api/profiles/claims answers the pending claims in the contract’s shape, the contributor carried', async () => {
    expect(await get(url('/api/profiles/claims'), contributor)).toMatchObject({
      status: 200,
      body: [
        {
          claim_id: 41,
          profile_id: 7,
          first_name: 'Marcus',
          last_name: 'Chen',
          work_email: 'member@demo.ca.gov',
          user_id: MEMBER.sub,
          created_at: PENDING_CLAIM.created_at?.toISOString(),
          claimant: {
            user_id: CLAIMANT.user_id,
            first_name: 'Marcus',
            last_name: 'Chen',
            email: 'm.chen@agency.ca.gov',
            claimed_at: CLAIMANT.claimed_at?.toISOString(),
          },
        },
      ],
    });
    expect(profile.callsTo('listPendingClaims')[0]?.caller?.roles).toContain('contributor');
    profile.answer('listPendingClaims', async () => ({ claims: [] }));
    expect((await get(url('/api/profiles/claims'), contributor)).body).toEqual([]);
  });

  it('POST /api/profiles/claims/:claim_id confirms or rejects, answering the decided claim', async () => {
    for (const [decision, status] of [
      ['confirm', 'confirmed'],
      ['reject', 'rejected'],
    ] as const) {
      profile.reset();
      expect(await post(url('/api/profiles/claims/41'), { decision }, contributor)).toMatchObject({
        status: 200,
        body: { claim_id: 41, profile_id: 7, status, decided_at: DECIDED_AT.toISOString() },
      });
      expect(profile.callsTo('decideClaim')).toMatchObject([
        { request: { claim_id: 41, decision }, caller: { userId: MEMBER.sub } },
      ]);
    }
  });

  it('refuses a bad decision or claim id before asking the service', async () => {
    for (const body of [{}, { decision: 'approve' }, { decision: 'Confirm' }, { decision: 1 }])
      expect(
        await post(url('/api/profiles/claims/41'), body, contributor),
        JSON.stringify(body),
      ).toMatchObject({
        status: 400,
        body: refused('decision must be confirm or reject'),
      });
    for (const id of ['abc', '-4', '4.5'])
      expect(
        await post(url(`/api/profiles/claims/${id}`), { decision: 'confirm' }, contributor),
      ).toMatchObject({
        status: 400,
        body: refused('claim_id must be a whole number'),
      });
    expect(
      await post(url('/api/profiles/claims/99999999999'), { decision: 'confirm' }, contributor),
    ).toMatchObject({
      status: 404,
      body: refused('Claim not found'),
    });
    expect(profile.calls).toEqual([]);
  });

  it('passes the service’s 404, 409 and 403 on', async () => {
    for (const [kind, message, status] of [
      ['not_found', 'Claim not found', 404],
      ['failed_precondition', DECIDED, 409],
      ['permission_denied', 'Contributors only', 403],
    ] as const) {
      profile.answer('decideClaim', async () => {
        throw new DomainError(kind, message);
      });
      expect(await post(url('/api/profiles/claims/41'), { decision: 'reject' }, contributor)).toMatchObject({
        status,
        body: refused(message),
      });
    }
  });

  it('GET /api/profiles/profile/:id answers the pending claim’s id and who claims', async () => {
    profile.answer('getProfile', async () => ({
      ...PROFILE,
      user_id: undefined,
      claim_pending: true,
      claim_id: 41,
      claimant: CLAIMANT,
    }));
    expect(await get(url('/api/profiles/profile/7'), contributor)).toMatchObject({
      status: 200,
      body: {
        ...PROFILE_JSON,
        user_id: null,
        claim_pending: true,
        claim_id: 41,
        claimant: {
          user_id: CLAIMANT.user_id,
          first_name: 'Marcus',
          last_name: 'Chen',
          email: 'm.chen@agency.ca.gov',
          claimed_at: CLAIMANT.claimed_at?.toISOString(),
        },
      },
    });
  });
});

describe('jobs', () => {
  it('POST /api/profiles/add-job/ answers 201 with the job, ids and flags read from text too', async () => {
    const res = await post(
      url('/api/profiles/add-job/'),
      { ...NEW_JOB, organization_id: '12', division_id: null, current_job: 'true', end_date: '' },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: JOB_JSON });
    expect(profile.callsTo('addJob')[0]?.request).toEqual({
      profile_id: 7,
      fields: {
        title: 'Policy Analyst',
        organization_id: 12,
        street_address: '715 P Street',
        city: 'Sacramento',
        state: 'CA',
        zip_code: '95814',
        start_date: '2022-06-01',
        current_job: true,
      },
    });
  });

  it('refuses an id that is not one before the service', async () => {
    expect(
      await post(url('/api/profiles/add-job'), { ...NEW_JOB, organization_id: 'twelve' }, member),
    ).toMatchObject({
      status: 400,
      body: refused('organization_id must be a whole number'),
    });
    expect(profile.calls).toEqual([]);
  });

  it('forwards a job missing fields or an end date blank, and the service’s words reach the member', async () => {
    const missing =
      'Please provide entries for the following required fields: Company, Address, State, Zip Code, Start Date';
    profile.answer('addJob', async () => {
      throw new DomainError('invalid_argument', missing);
    });
    expect(
      await post(url('/api/profiles/add-job'), { profile_id: 7, title: 'Aide', city: 'Davis' }, member),
    ).toMatchObject({ status: 400, body: refused(missing) });
    expect(profile.callsTo('addJob')[0]?.request).toEqual({
      profile_id: 7,
      fields: {
        title: 'Aide',
        organization_id: 0,
        street_address: '',
        city: 'Davis',
        state: '',
        zip_code: '',
        start_date: '',
        current_job: false,
      },
    });
    const noEnd = 'Please give an end date or mark the position as current';
    profile.answer('addJob', async () => {
      throw new DomainError('invalid_argument', noEnd);
    });
    expect(
      await post(url('/api/profiles/add-job'), { ...NEW_JOB, current_job: false }, member),
    ).toMatchObject({ status: 400, body: refused(noEnd) });
    expect(profile.callsTo('addJob')[1]?.request).toMatchObject({ fields: { current_job: false } });
  });

  it('POST /api/profiles/update-job/ answers the job; job_id required; 403 and 404 passed on', async () => {
    const { profile_id: _p, ...fields } = NEW_JOB;
    expect(
      await post(url('/api/profiles/update-job/'), { job_id: 15, ...fields, end_date: '2024-01-01' }, member),
    ).toMatchObject({ status: 200, body: JOB_JSON });
    expect(profile.callsTo('updateJob')[0]?.request).toMatchObject({
      job_id: 15,
      fields: { end_date: '2024-01-01', current_job: true },
    });
    expect(await post(url('/api/profiles/update-job'), fields, member)).toMatchObject({
      status: 400,
      body: refused('job_id is required'),
    });
    profile.answer('updateJob', async () => {
      throw new DomainError('permission_denied', EDIT_OWN);
    });
    expect(await post(url('/api/profiles/update-job'), { job_id: 15, ...fields }, member)).toMatchObject({
      status: 403,
      body: refused(EDIT_OWN),
    });
    profile.answer('updateJob', async () => {
      throw new DomainError('not_found', 'Job not found');
    });
    expect((await post(url('/api/profiles/update-job'), { job_id: 99, ...fields }, member)).status).toBe(404);
  });

  it('DELETE /api/profiles/delete-job answers 204; the position rules answer 409', async () => {
    expect(await del('/api/profiles/delete-job', { job_id: 16 })).toEqual({ status: 204, body: undefined });
    expect(profile.callsTo('deleteJob')[0]?.request).toEqual({ job_id: 16 });
    for (const message of [
      'A current position cannot be deleted',
      'The only position on a profile cannot be deleted',
    ]) {
      profile.answer('deleteJob', async () => {
        throw new DomainError('failed_precondition', message);
      });
      expect(await del('/api/profiles/delete-job', { job_id: 15 })).toEqual({
        status: 409,
        body: refused(message),
      });
    }
    expect(await del('/api/profiles/delete-job', {})).toEqual({
      status: 400,
      body: refused('job_id is required'),
    });
  });
});

describe('colleagues', () => {
  const COLLEAGUE_JSON = {
    profile_id: 9,
    title: 'Chief of Staff',
    city: 'Sacramento',
    state: 'CA',
    Division: null,
    ProfileInfo: {
      profile_id: 9,
      first_name: 'Imani',
      last_name: 'Okafor',
      profile_picture: null,
      other_phone: '(916) 555-0131',
      work_email: 'imani.okafor@senate.example.org',
    },
  };

  it('POST /api/profiles/organization-colleagues answers [colleague]; the id is required', async () => {
    const res = await post(url('/api/profiles/organization-colleagues'), { organization_id: 12 }, member);
    expect(res).toMatchObject({ status: 200, body: [COLLEAGUE_JSON] });
    expect(profile.callsTo('listOrganizationColleagues')[0]).toMatchObject({
      request: { organization_id: 12 },
      caller: { userId: MEMBER.sub },
    });
    expect(await post(url('/api/profiles/organization-colleagues'), {}, member)).toMatchObject({
      status: 400,
      body: refused('organization_id is required'),
    });
  });

  it('POST /api/profiles/division-colleagues answers [colleague]', async () => {
    expect(await post(url('/api/profiles/division-colleagues'), { division_id: '3' }, member)).toMatchObject({
      status: 200,
      body: [COLLEAGUE_JSON],
    });
    expect(profile.callsTo('listDivisionColleagues')[0]?.request).toEqual({ division_id: 3 });
    expect((await post(url('/api/profiles/division-colleagues'), { division_id: -3 }, member)).status).toBe(
      400,
    );
  });
});

describe('picture upload', () => {
  const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);

  function pictureForm(parts: { files?: Blob[]; profile_id?: string; image_type?: string } = {}) {
    const form = new FormData();
    if (parts.profile_id !== undefined) form.set('profile_id', parts.profile_id);
    if (parts.image_type !== undefined) form.set('image_type', parts.image_type);
    for (const blob of parts.files ?? []) form.append('profile_picture', blob, 'me.jpg');
    return form;
  }

  async function upload(body: FormData | string, headers: Record<string, string> = member) {
    const res = await fetch(url('/api/profiles/upload-profile-picture'), { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  it('stores a picture before the profile exists: 200 { url }, no profile id sent on', async () => {
    for (const profile_id of [undefined, '', 'undefined', 'null']) {
      profile.reset();
      const res = await upload(pictureForm({ files: [new Blob([JPEG])], image_type: 'jpg', profile_id }));
      expect(res).toEqual({ status: 200, body: { url: PICTURE_URL } });
      const [call] = profile.callsTo('uploadPicture');
      expect(call?.request.profile_id).toBeUndefined();
      expect(Buffer.compare(call?.request.image as Buffer, JPEG)).toBe(0);
    }
  });

  it('sets a profile’s picture with profile_id; 403 passed on', async () => {
    const res = await upload(pictureForm({ files: [new Blob([JPEG])], profile_id: '7' }));
    expect(res.status).toBe(200);
    expect(profile.callsTo('uploadPicture')[0]?.request.profile_id).toBe(7);
    profile.answer('uploadPicture', async () => {
      throw new DomainError('permission_denied', EDIT_OWN);
    });
    expect(await upload(pictureForm({ files: [new Blob([JPEG])], profile_id: '8' }))).toEqual({
      status: 403,
      body: refused(EDIT_OWN),
    });
  });

  it('refuses a bad profile id, no file, two files, a body that is not multipart, an oversize one', async () => {
    expect(await upload(pictureForm({ files: [new Blob([JPEG])], profile_id: 'seven' }))).toEqual({
      status: 400,
      body: refused('profile_id must be a whole number'),
    });
    expect(await upload(pictureForm({ profile_id: '7' }))).toEqual({
      status: 400,
      body: refused(UPLOAD_MESSAGES.noFile),
    });
    expect(await upload(pictureForm({ files: [new Blob([JPEG]), new Blob([JPEG])] }))).toEqual({
      status: 413,
      body: refused(UPLOAD_MESSAGES.oneFile),
    });
    expect(await upload('{}', { ...member, 'content-type': 'application/json' })).toEqual({
      status: 400,
      body: refused(UPLOAD_MESSAGES.notMultipart),
    });
    const big = new Blob([Buffer.alloc(MAX_PICTURE_UPLOAD_BYTES + 1024, 1)]);
    expect(await upload(pictureForm({ files: [big] }))).toEqual({ status: 413, body: refused(TOO_LARGE) });
    expect(profile.calls).toEqual([]);
  });

  it('passes the image pipeline’s refusals on with the spec’s texts', async () => {
    profile.answer('uploadPicture', async () => {
      throw new DomainError('invalid_argument', 'Incorrect image format. Please select only .jpg or .jpeg.');
    });
    expect(await upload(pictureForm({ files: [new Blob(['GIF89a'])] }))).toEqual({
      status: 400,
      body: refused('Incorrect image format. Please select only .jpg or .jpeg.'),
    });
  });
});

describe('the preferred name', () => {
  it('is forwarded when sent, checked for length and unseen characters before the service', async () => {
    await post(url('/api/profiles/update-profile'), { profile_id: 7, preferred_name: ' Liz ' }, member);
    expect(profile.callsTo('updateProfile')[0]?.request).toEqual({
      profile_id: 7,
      fields: { preferred_name: 'Liz' },
    });
    await post(
      url('/api/profiles/create-profile'),
      { first_name: 'Elizabeth', preferred_name: 'Liz' },
      member,
    );
    expect(profile.callsTo('createProfile')[0]?.request).toEqual({
      fields: { first_name: 'Elizabeth', preferred_name: 'Liz' },
    });
    expect(
      await post(
        url('/api/profiles/update-profile'),
        { profile_id: 7, preferred_name: 'L'.repeat(101) },
        member,
      ),
    ).toMatchObject({ status: 400, body: refused('preferred_name must be at most 100 characters') });
    expect(
      await post(url('/api/profiles/update-profile'), { profile_id: 7, preferred_name: 'Li\u202Ez' }, member),
    ).toMatchObject({
      status: 400,
      body: refused('Preferred Name must not contain invisible, control or replacement characters.'),
    });
    expect(profile.callsTo('updateProfile')).toHaveLength(1);
  });

  it('is answered on the profile and the directory card, null when the person gave none', async () => {
    profile.answer('getProfile', async () => ({ ...PROFILE, preferred_name: 'Marc' }));
    expect((await get(url('/api/profiles/profile/7'), member)).body).toMatchObject({
      first_name: 'Marcus',
      preferred_name: 'Marc',
    });
    profile.reset();
    expect((await get(url('/api/profiles/profile/7'), member)).body.preferred_name).toBeNull();
    profile.answer('searchDirectory', async () => ({
      profiles: [{ ...DIRECTORY_CARD, preferred_name: 'Lena' }],
      total: 1,
      total_is_lower_bound: false,
    }));
    const cards = (await get(url('/api/profiles/search?search=lena'), member)).body.profiles;
    expect(
      cards.map((card: { first_name: string; preferred_name: string | null }) => card.preferred_name),
    ).toEqual(['Lena']);
  });
});
