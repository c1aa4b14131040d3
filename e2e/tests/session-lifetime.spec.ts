// The session's lifetime in the browser: it survives a reload, a stored session whose refresh token has
// expired ends at once, and when the identity provider ends the session the member is sent to '/'. The last
// needs short access tokens: playwright.config.ts starts the product with AUTH_ACCESS_TOKEN_SECONDS=20.
import { expect, test } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { logIn, logInAndLand, storedAuth } from './support/ui.ts';

test('a reload keeps the member signed in, with a renewed token', async ({ page }) => {
  await page.goto('/');
  await logInAndLand(page, DEMO.member.email, DEMO.member.password);
  const before = await storedAuth(page);
  await page.goto('/directory');
  await expect(page).toHaveURL(/\/directory$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
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
  await page.goto('/directory');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
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
  const { expiresIn } = await (await answered).json();
  test.skip(
    expiresIn > 30,
    `the running product's access tokens last ${expiresIn} s; start it with AUTH_ACCESS_TOKEN_SECONDS=20 (playwright.config.ts does when it starts the product)`,
  );
  await expect(page).toHaveURL(/\/profile\/create$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // Logged out from another device: the identity provider ends the session this tab's refresh token belongs to.
  const { refreshToken } = await storedAuth(page);
  expect((await request.post('/auth/logout', { data: { refreshToken } })).ok()).toBe(true);
  // The member comes back to the tab: their next action renews the access token (an idle tab does not renew
  // it), the identity provider refuses, and the tab signs out.
  await page.keyboard.press('Shift');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
  expect(await storedAuth(page)).toMatchObject({ isAuthenticated: false, token: null, refreshToken: null });
});
