// Registration end to end: an ineligible email blocks the button; an eligible one registers (captcha solved
// in the browser), the confirmation mail arrives, the confirm page confirms, the new member logs in, lands on
// profile creation and logs out. Also: logging in before confirming, a bad confirmation link, and one inbox
// registered again and again (each time mailed) being limited, the dialog saying when to try again.

import { freshEmail, registerAccount, solvedCaptcha } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { linkPath, waitForMail } from './support/mail.ts';
import { logIn, solveCaptcha, storedAuth } from './support/ui.ts';

test('register → mail → confirm → login → profile creation → logout', async ({ page, request }) => {
  const { accessEmail, identity } = await (await request.get('/app-config.json')).json();
  const email = freshEmail();
  const password = 'Rotunda#E2e2024';

  const dialog = page.getByRole('dialog', { name: 'Register' });
  const unavailable = dialog.getByRole('button', { name: 'Access Currently Unavailable' });
  await step(page, 'the Register dialog, an ineligible email', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Register Today!' }).click();
    await dialog.getByLabel('First name').fill('Eva');
    await dialog.getByLabel('Last name').fill('Tester');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    for (const rule of await dialog
      .getByRole('list', { name: 'Password rules' })
      .getByRole('listitem')
      .all()) {
      await expect(rule).toContainText('(met)');
    }

    // Not eligible: the button says so and is disabled, and people are told whom to ask for access.
    await dialog.getByLabel('Work email').fill('eva.tester@example.com');
    await expect(unavailable).toBeDisabled();
    await expect(dialog.getByText(/If you cannot register, email/)).toContainText(accessEmail);
  });

  const register = dialog.getByRole('button', { name: 'Register', exact: true });
  await step(page, 'the captcha asked for', async () => {
    await dialog.getByLabel('Work email').fill(email);
    await expect(register).toBeEnabled();
    await expect(dialog.getByText(/If you cannot register/)).toBeHidden();

    // Without the captcha the form asks for it.
    await register.click();
    await expect(dialog.getByRole('alert')).toHaveText('Please verify the reCAPTCHA!');
  });

  const success = dialog.getByRole('alert');
  await step(page, 'registered', async () => {
    await solveCaptcha(dialog);
    await register.click();
    await expect(success).toContainText(
      'Registration successful! Please check your email to confirm your account.',
    );
    await expect(success).toContainText('junk');
  });

  await step(page, 'the email confirmed', async () => {
    const mail = await waitForMail(request, email, /Confirm your email/);
    await page.goto(linkPath(mail, '/confirm-email/'));
    await expect(page.getByRole('heading', { name: 'Your email is confirmed!' })).toBeVisible();
  });

  await step(page, 'logged in, on profile creation', async () => {
    await page.getByRole('button', { name: 'Log in to Rotunda' }).click();
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    await logIn(page, email, password);
    await expect(page).toHaveURL(/\/profile\/create$/);
  });
  const auth = await storedAuth(page);
  expect(auth).toMatchObject({ isAuthenticated: true, user: { profile_id: null } });
  expect(auth.refreshToken).toBeTruthy();
  expect(auth.user?.token).toBe(auth.token);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
  expect((await storedAuth(page)).isAuthenticated).toBe(false);
  // The identity provider's session ended too: its refresh token no longer renews anything. The logout leaves
  // as the page goes to the landing page, so it may land a moment after the test's next request.
  await expect
    .poll(async () => {
      const renewal = await request.post(`/realms/${identity.realm}/protocol/openid-connect/token`, {
        form: {
          grant_type: 'refresh_token',
          refresh_token: auth.refreshToken ?? '',
          client_id: identity.clientId,
        },
      });
      return renewal.status();
    })
    .toBe(400);
});

test('logging in before confirming the email is refused with the spec’s text', async ({ page, request }) => {
  const account = await registerAccount(request, false);
  await page.goto('/');
  const dialog = await logIn(page, account.email, account.password);
  await step(page, 'refused before confirming', async () => {
    await expect(dialog.getByRole('alert')).toHaveText('Please confirm your email before logging in.');
    await expect(dialog.getByLabel('Email')).toHaveValue('');
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
  });
  expect((await storedAuth(page)).isAuthenticated).toBe(false);
});

test('a confirmation link that does not work leads to the 404 page at /error', async ({ page }) => {
  await step(page, 'the 404 page', async () => {
    await page.goto('/confirm-email/not-a-real-token');
    await expect(page).toHaveURL(/\/error$/);
    await expect(
      page.getByRole('heading', { name: 'ERROR 404: This page is not in session.' }),
    ).toBeVisible();
  });
});

test('registering one email again and again is limited; the dialog then says when to try again', async ({
  page,
  request,
}) => {
  const email = freshEmail();
  const attempt = async () =>
    request.post('/auth/register', {
      data: {
        first_name: 'Eva',
        last_name: 'Tester',
        email,
        password: 'Rotunda#E2e2024',
        captchaValue: await solvedCaptcha(request),
      },
    });
  // Each registration of the address mails it (a confirmation, or a note that it is taken).
  for (let i = 0; i < 5; i++) expect((await attempt()).status()).toBe(201);
  const refused = await attempt();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);

  const dialog = page.getByRole('dialog', { name: 'Register' });
  await step(page, 'the limit said in the dialog', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Register Today!' }).click();
    await dialog.getByLabel('First name').fill('Eva');
    await dialog.getByLabel('Last name').fill('Tester');
    await dialog.getByLabel('Password', { exact: true }).fill('Rotunda#E2e2024');
    await dialog.getByLabel('Work email').fill(email);
    await solveCaptcha(dialog);
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(/^Too many attempts\. Try again in \d+ minutes\.$/);
  });
});
