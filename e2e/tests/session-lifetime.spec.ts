// The session's lifetime in the browser: it survives a reload, a stored session whose refresh token has
// expired ends at once, and when the identity provider ends the session the member is sent to '/'. The last
// needs short access tokens: playwright.config.ts starts the product with AUTH_ACCESS_TOKEN_SECONDS=20, and
// `npm run test:engines` runs it in Keycloak mode on a realm issuing 20-second access tokens.
// Ended sessions stay ended: the gateway refuses an ended session's access token within seconds (not at its
// expiry), a password change signs out the member's other devices but not the one it was made on, and a
// refresh token used again after its successor was ends its session (used again at once, while its successor is
// unused, it is answered that successor: a reload that cut a renewal short).
import type { APIRequestContext } from '@playwright/test';
import { type Account, DEMO, registerAccount } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { networkSettled } from './support/network.ts';
import { logIn, logInAndLand, storedAuth } from './support/ui.ts';

const ENDED = 'Your session has ended. Please log in again.';
/** Why a journey needing short access tokens cannot run against this product. */
const LONG_TOKENS = (seconds: number) =>
  `the running product's access tokens last ${seconds} s; start it with AUTH_ACCESS_TOKEN_SECONDS=20 (playwright.config.ts does when it starts the product, and so does \`npm run test:engines\`, with a realm issuing 20-second tokens)`;

/** A session opened through the API, as another device would. */
async function session(request: APIRequestContext, account: Account) {
  const response = await request.post('/auth/login', {
    data: { email: account.email, password: account.password },
  });
  expect(response.ok()).toBe(true);
  const { token, refreshToken } = await response.json();
  return { token: token as string, refreshToken: refreshToken as string };
}

/** What the gateway answers for this access token: any /api call verifies it, public reads too. */
const apiStatus = async (request: APIRequestContext, token: string) =>
  (await request.get('/api/news', { headers: { 'x-auth-token': token } })).status();

/** The refresh-token grant, as the shell's keycloak-js sends it. */
async function refresh(request: APIRequestContext, refreshToken: string) {
  const { identity } = await (await request.get('/app-config.json')).json();
  return request.post(`/realms/${identity.realm}/protocol/openid-connect/token`, {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: identity.clientId },
  });
}

test('a reload keeps the member signed in, with a renewed token', async ({ page }) => {
  await page.goto('/');
  await logInAndLand(page, DEMO.member.email, DEMO.member.password);
  // The shell renews the new tokens at once; a reload that cut that renewal off would lose its answer, so the
  // page settles first.
  await networkSettled(page);
  const before = await storedAuth(page);
  await step(page, 'the directory, still signed in', async () => {
    await page.goto('/directory');
    await expect(page).toHaveURL(/\/directory$/);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  });
  // Resuming hands the stored tokens to keycloak-js, which renews them at once.
  await expect.poll(async () => (await storedAuth(page)).token).not.toBe(before.token);
  const after = await storedAuth(page);
  expect(after.isAuthenticated).toBe(true);
  expect(after.user?.token).toBe(after.token);
});

test('a stored session whose refresh token expired ends at once on load', async ({ page }) => {
  // Stored before the app first loads: a live app would renew its tokens and overwrite a forged one.
  const response = await page.request.post('/auth/login', { data: DEMO.member });
  expect(response.ok()).toBe(true);
  const { token, user } = await response.json();
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const past = Math.floor(Date.now() / 1000) - 60;
  const refreshToken = `${encode({ alg: 'none' })}.${encode({ exp: past, typ: 'Refresh' })}.x`;
  await page.addInitScript(
    (auth) => {
      if (sessionStorage.getItem('e2e-seeded')) return;
      sessionStorage.setItem('e2e-seeded', '1');
      localStorage.setItem('auth', JSON.stringify(auth));
    },
    { token, refreshToken, isAuthenticated: true, loading: false, user },
  );
  await step(page, 'signed out at once, on the landing page', async () => {
    await page.goto('/directory');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
  });
  expect((await storedAuth(page)).isAuthenticated).toBe(false);
});

test('when the identity provider ends the session elsewhere, the member is sent to /', async ({
  page,
  request,
}) => {
  // A new account without a profile waits on profile creation, a page that asks the server for nothing more.
  const account = await registerAccount(request, true);
  await page.goto('/');
  const answered = page.waitForResponse((r) => r.url().endsWith('/auth/login') && r.status() === 200);
  await logIn(page, account.email, account.password);
  const { expiresIn, refreshToken: first } = await (await answered).json();
  test.skip(expiresIn > 30, LONG_TOKENS(expiresIn));
  await expect(page).toHaveURL(/\/profile\/create$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // The tab's session keeper renews once as it takes the session over; the refresh token it holds after that
  // is the one that names the session (the login's is spent, and ending a session with it ends nothing).
  await expect.poll(async () => (await storedAuth(page)).refreshToken).not.toBe(first);
  // Logged out from another device: the identity provider ends the session this tab's refresh token belongs to.
  const { refreshToken } = await storedAuth(page);
  expect((await request.post('/auth/logout', { data: { refreshToken } })).ok()).toBe(true);
  // The member comes back to the tab: their next action renews the access token (an idle tab does not renew
  // it), the identity provider refuses, and the tab signs out.
  // Not settled: the ended session's last renewal may hang unanswered; what the step waits for is on screen.
  await step(
    page,
    'sent to the landing page',
    async () => {
      await page.keyboard.press('Shift');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
    },
    { settle: false },
  );
  expect(await storedAuth(page)).toMatchObject({ isAuthenticated: false, token: null, refreshToken: null });
});

test('after a logout, the gateway refuses the old access token within seconds, not at its expiry', async ({
  request,
}) => {
  const account = await registerAccount(request, true);
  const { token, refreshToken } = await session(request, account);
  expect(await apiStatus(request, token)).toBe(200);
  expect((await request.post('/auth/logout', { data: { refreshToken } })).status()).toBe(204);
  const loggedOut = Date.now();
  await expect.poll(() => apiStatus(request, token), { timeout: 5_000 }).toBe(401);
  expect(Date.now() - loggedOut).toBeLessThan(5_000);
  const refused = await request.get('/api/news', { headers: { 'x-auth-token': token } });
  expect((await refused.json()).errors[0].msg).toBe(ENDED);
});

test("a password change signs the member's other devices out, not the one it was made on", async ({
  page,
  request,
}) => {
  const account = await registerAccount(request, true);
  // This tab is one device…
  await page.goto('/');
  const answered = page.waitForResponse((r) => r.url().endsWith('/auth/login') && r.status() === 200);
  await logIn(page, account.email, account.password);
  const { expiresIn } = await (await answered).json();
  await expect(page).toHaveURL(/\/profile\/create$/);
  const tab = await storedAuth(page);
  // …and the password is changed on another.
  const other = await session(request, account);
  const newPassword = 'Changed#E2e2025';
  const changed = await request.post('/auth/update-password/', {
    headers: { 'x-auth-token': other.token },
    data: { currentPassword: account.password, newPassword },
  });
  expect(changed.status()).toBe(200);

  // The tab's access token is refused within seconds, and so is its refresh token.
  await expect.poll(() => apiStatus(request, tab.token as string), { timeout: 5_000 }).toBe(401);
  expect((await refresh(request, tab.refreshToken as string)).status()).toBe(400);
  // The device that changed it goes on.
  expect(await apiStatus(request, other.token)).toBe(200);
  expect((await refresh(request, other.refreshToken)).status()).toBe(200);

  // With short access tokens, the member's next action in the tab renews, is refused, and signs the tab out.
  test.skip(expiresIn > 30, LONG_TOKENS(expiresIn));
  await page.keyboard.press('Shift');
  await expect(page).toHaveURL(/\/$/);
  expect(await storedAuth(page)).toMatchObject({ isAuthenticated: false, token: null, refreshToken: null });
  await logIn(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/profile\/create$/);
});

test('a refresh token used again at once gets its successor; used after the successor, it ends the session', async ({
  request,
}) => {
  const account = await registerAccount(request, true);
  const first = await session(request, account);
  const renewed = await refresh(request, first.refreshToken);
  expect(renewed.status()).toBe(200);
  const next = await renewed.json();
  // A reload that cut the renewal short sends the same token again moments later: it is answered, not punished.
  expect((await refresh(request, first.refreshToken)).status()).toBe(200);
  // The member goes on with the successor.
  const later = await refresh(request, next.refresh_token);
  expect(later.status()).toBe(200);
  const current = await later.json();
  // Someone replays the spent token (a copy taken from the member's device) after its successor was used.
  const replay = await refresh(request, first.refreshToken);
  expect(replay.status()).toBe(400);
  expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
  // The member's own renewed tokens die with the session.
  expect((await refresh(request, current.refresh_token)).status()).toBe(400);
  await expect.poll(() => apiStatus(request, current.access_token), { timeout: 5_000 }).toBe(401);
  // Another session of the same account is untouched.
  const fresh = await session(request, account);
  expect(await apiStatus(request, fresh.token)).toBe(200);
});
