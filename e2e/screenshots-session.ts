// The signed-in screenshots' session (screenshots.ts): the account's login through the API, an organization's
// id for its name in a shot's path, and the profile calls answered for a member shown as if without a profile.
import { type BrowserContext, request } from '@playwright/test';
import { baseURL } from './playwright.config.ts';

/** Logs in through the API (not the page, whose login is answered above) and answers the session to seed. */
export async function sessionOf(account: { email: string; password: string }) {
  const api = await request.newContext({ baseURL });
  try {
    const response = await api.post('/auth/login', { data: account });
    if (!response.ok()) throw new Error(`login of ${account.email} answered ${response.status()}`);
    const { token, refreshToken, user } = await response.json();
    return { token, refreshToken, isAuthenticated: true, loading: false, user };
  } finally {
    await api.dispose();
  }
}

/** '/organization/{Name}' with the organization's id in place of its name. */
export async function resolvePath(path: string, token: string): Promise<string> {
  const match = path.match(/\{(.+)\}/);
  if (!match?.[1]) return path;
  const name = match[1];
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { 'x-auth-token': token } });
  try {
    const response = await api.get(`/api/orgs/organization-name/${encodeURIComponent(name)}`);
    const found = ((await response.json()) as { organization_id: number; organization_name: string }[]).find(
      (o) => o.organization_name === name,
    );
    if (!found) throw new Error(`no organization named ${name}`);
    return path.replace(match[0], String(found.organization_id));
  } finally {
    await api.dispose();
  }
}

/**
 * Shows the member as one without a profile: no own profile, their profile as the one matching profile, and
 * creating a profile, uploading a picture and adding a job answered with theirs, so nothing is written.
 */
export async function answerAsNewMember(context: BrowserContext, token: string, profileId: number) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { 'x-auth-token': token } });
  try {
    const response = await api.get(`/api/profiles/profile/${profileId}`);
    if (!response.ok()) throw new Error(`profile ${profileId} answered ${response.status()}`);
    const profile = await response.json();
    await context.route('**/api/profiles/user-check', (route) => route.fulfill({ json: [] }));
    await context.route('**/api/profiles/new-user-check', (route) => route.fulfill({ json: [profile] }));
    await context.route('**/api/profiles/upload-profile-picture', (route) =>
      route.fulfill({ json: { url: profile.profile_picture } }),
    );
    await context.route('**/api/profiles/create-profile', (route) =>
      route.fulfill({ status: 201, json: { createdProfileResult: profile } }),
    );
    await context.route('**/api/profiles/add-job/', (route) =>
      route.fulfill({ status: 201, json: profile.JobExperiences[0] }),
    );
  } finally {
    await api.dispose();
  }
}
