// Test helper: the profile REST calls (docs/product.md#7-the-calls-it-makes Profiles, Issues) a test makes to
// set up what its browser part is about: logging in for a token, reading profiles and the directory, a
// contributor's edit of a profile nobody owns, and a member's own profile made complete (picture, current
// job) without the create screens.
import { type APIRequestContext, expect } from '@playwright/test';
import { solidPng } from './images.ts';

/** The demo agency (with divisions) the demo seed and these helpers put jobs at. */
export const WATER = 'Department of Water Stewardship';

export interface ApiJob {
  job_id: number;
  title: string;
  current_job: boolean;
  organization_id: number;
  Division: { division_name: string } | null;
}

export interface ApiProfile {
  profile_id: number;
  user_id: string | null;
  first_name: string;
  last_name: string;
  work_email: string;
  profile_picture: string | null;
  lobby_filer_id: string | null;
  user_bio: string | null;
  claim_pending: boolean;
  JobExperiences: ApiJob[];
  UserIssues: { id: number; IssueArea: { issue_name: string } }[];
}

export interface Session {
  token: string;
  user: { user_id: string; profile_id: number | null; first_name: string; last_name: string };
}

/** Logs in through the API: the access token and the session's user. */
export async function apiLogin(
  request: APIRequestContext,
  account: { email: string; password: string },
): Promise<Session> {
  const response = await request.post('/auth/login', { data: account });
  expect(response.status(), `login of ${account.email}`).toBe(200);
  const { token, user } = await response.json();
  return { token, user };
}

const auth = (token: string) => ({ 'x-auth-token': token });

async function answer<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

/** The id of the profile the member owns, or null (GET /api/profiles/user-check). */
export async function ownProfileId(request: APIRequestContext, token: string): Promise<number | null> {
  const owned = await answer<{ profile_id: number }[]>(
    await request.get('/api/profiles/user-check', { headers: auth(token) }),
  );
  return owned[0]?.profile_id ?? null;
}

export async function getProfile(request: APIRequestContext, token: string, id: number): Promise<ApiProfile> {
  return answer<ApiProfile>(await request.get(`/api/profiles/profile/${id}`, { headers: auth(token) }));
}

/** Every profile nobody owns, lowest id first. */
export async function unclaimedProfiles(request: APIRequestContext, token: string): Promise<ApiProfile[]> {
  const all = await answer<ApiProfile[]>(
    await request.get('/api/profiles/directory', { headers: auth(token) }),
  );
  return all.filter((profile) => profile.user_id === null).sort((a, b) => a.profile_id - b.profile_id);
}

/** A profile edit (POST /api/profiles/update-profile): fields left out keep their value. */
export async function updateProfile(
  request: APIRequestContext,
  token: string,
  profileId: number,
  fields: Record<string, string>,
): Promise<ApiProfile> {
  return answer<ApiProfile>(
    await request.post('/api/profiles/update-profile', {
      headers: auth(token),
      data: { profile_id: profileId, ...fields },
    }),
  );
}

export async function organizationIdNamed(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<number> {
  const found = await answer<{ organization_id: number; organization_name: string }[]>(
    await request.get(`/api/orgs/organization-name/${encodeURIComponent(name)}`, { headers: auth(token) }),
  );
  const organization = found.find((o) => o.organization_name === name);
  expect(organization, `the organization ${name}`).toBeTruthy();
  return organization?.organization_id ?? 0;
}

/**
 * Makes the member's own profile as step 1 and step 2 of profile creation do (a picture, name, work email and
 * office phone; a current job at the demo agency) and answers it.
 */
export async function createOwnProfile(
  request: APIRequestContext,
  session: Session,
  email: string,
  title = 'Program Analyst',
): Promise<ApiProfile> {
  const uploaded = await answer<{ url: string }>(
    await request.post('/api/profiles/upload-profile-picture', {
      headers: auth(session.token),
      multipart: {
        profile_picture: { name: 'me.png', mimeType: 'image/png', buffer: solidPng(60, 80, [40, 110, 170]) },
        image_type: 'png',
      },
    }),
  );
  const created = await answer<{ createdProfileResult: ApiProfile }>(
    await request.post('/api/profiles/create-profile', {
      headers: auth(session.token),
      data: {
        first_name: session.user.first_name,
        last_name: session.user.last_name,
        work_email: email,
        other_phone: '9165550142',
        profile_picture: uploaded.url,
      },
    }),
    201,
  );
  const profileId = created.createdProfileResult.profile_id;
  await answer(
    await request.post('/api/profiles/add-job/', {
      headers: auth(session.token),
      data: {
        profile_id: profileId,
        title,
        organization_id: await organizationIdNamed(request, session.token, WATER),
        street_address: '1416 9th Street',
        city: 'Sacramento',
        state: 'CA',
        zip_code: '95814',
        start_date: '2021-03-01',
        current_job: true,
      },
    }),
    201,
  );
  return getProfile(request, session.token, profileId);
}
