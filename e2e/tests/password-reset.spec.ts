// Password reset end to end: the request dialog (captcha solved in the browser), the mailed link, the reset
// page; afterwards the old password fails, the new one works and sessions opened before are refused within
// seconds. Reset mails to one inbox are limited, and the dialog says when to try again. axe checks the screen
// after each step of the journey (support/journey.ts).
import { registerAccount, solvedCaptcha } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { linkPath, waitForMail } from './support/mail.ts';
import { logIn, solveCaptcha } from './support/ui.ts';

test('reset request → mail → reset page → old password fails, new one works', async ({ page, request }) => {
  const account = await registerAccount(request, true);
  const newPassword = 'Fresh#Start2025';
  // A session on another device, opened before the reset.
  const before = await request.post('/auth/login', {
    data: { email: account.email, password: account.password },
  });
  const { token: oldToken } = await before.json();
  const apiStatus = async () =>
    (await request.get('/api/news', { headers: { 'x-auth-token': oldToken } })).status();
  expect(await apiStatus()).toBe(200);

  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Log in' })
    .getByRole('button', { name: 'Forgot password?' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reset your password' });
  await step(page, 'the reset link asked for', async () => {
    await dialog.getByLabel('Email').fill(account.email);
    await solveCaptcha(dialog);
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Password reset link has been sent to your email');
  });

  const mail = await waitForMail(request, account.email, /Reset your .* password/);
  await step(page, 'the mailed link, the passwords not matching', async () => {
    await page.goto(linkPath(mail, '/reset-password/'));
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Retype new password').fill(`${newPassword}!`);
    await expect(page.getByText('Passwords do not match')).toBeVisible();
  });
  await step(page, 'the password reset', async () => {
    await page.getByLabel('Retype new password').fill(newPassword);
    await expect(page.getByText('Passwords do not match')).toBeHidden();
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('alert')).toHaveText('Password has been reset');
  });
  // The session opened before the reset is over within seconds, not when its access token expires.
  await expect.poll(apiStatus, { timeout: 5_000 }).toBe(401);

  const dialogAfter = await logIn(page, account.email, account.password);
  await expect(dialogAfter.getByRole('alert')).toHaveText('Invalid credentials, please try again');
  await logIn(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/profile\/create$/);
});

test('a used or unknown reset link says so on the reset page', async ({ page }) => {
  await page.goto('/reset-password/not-a-real-token');
  await page.getByLabel('New password', { exact: true }).fill('Fresh#Start2025');
  await page.getByLabel('Retype new password').fill('Fresh#Start2025');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Error resetting password. Please try again later.');
  await expect(page).toHaveURL(/\/reset-password\/not-a-real-token$/);
});

test('reset mails to one inbox are limited; the dialog then says when to try again', async ({
  page,
  request,
}) => {
  const account = await registerAccount(request, true);
  for (let i = 0; i < 5; i++) {
    const response = await request.post('/auth/request-password-reset', {
      data: { email: account.email, reCaptcha_token: await solvedCaptcha(request) },
    });
    expect(response.status()).toBe(200);
  }
  const refused = await request.post('/auth/request-password-reset', {
    data: { email: account.email, reCaptcha_token: await solvedCaptcha(request) },
  });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Log in' })
    .getByRole('button', { name: 'Forgot password?' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reset your password' });
  await dialog.getByLabel('Email').fill(account.email);
  await solveCaptcha(dialog);
  await dialog.getByRole('button', { name: 'Send reset link' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/^Too many attempts\. Try again in \d+ minutes\.$/);
});
