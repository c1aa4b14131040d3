// Getting in with the keyboard alone (support/keyboard.ts): a new member registers through the Register dialog
// (the captcha ticked with Space), confirms the mailed link, asks for a password reset from the login dialog,
// sets the new password on the mailed reset page and logs in with it. Focus is asserted as each dialog opens
// and closes, and axe finds nothing where the journey ends.
import { freshEmail } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, tabTo } from './support/keyboard.ts';
import { linkPath, waitForMail } from './support/mail.ts';

test('register, confirm the email, reset the password and log in: by keyboard alone', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const email = freshEmail();
  const password = 'Rotunda#Keys2024';
  const newPassword = 'Fresh#Keys2025';

  const registerToday = page.getByRole('button', { name: 'Register Today!' });
  const register = page.getByRole('dialog', { name: 'Register' });
  const robot = register.locator('altcha-widget').getByRole('checkbox');
  const submit = register.getByRole('button', { name: 'Register', exact: true });
  await step(page, 'the Register dialog: registered', async () => {
    await page.goto('/');
    await tabTo(page, registerToday);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, register.getByLabel('First name'));
    await page.keyboard.type('Kay');
    await tabTo(page, register.getByLabel('Last name'), { limit: 1 });
    await page.keyboard.type('Boardman');
    await tabTo(page, register.getByLabel('Work email'));
    await page.keyboard.type(email);
    await tabTo(page, register.getByLabel('Password', { exact: true }));
    await page.keyboard.type(password);
    await tabTo(page, robot);
    await page.keyboard.press('Space');
    await expect(register.locator('altcha-widget').getByRole('checkbox', { name: 'Verified' })).toBeChecked({
      timeout: 30_000,
    });
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    await expect(register.getByRole('alert')).toContainText('Registration successful!');
    // The form gave way to the outcome: the focus stays in the dialog rather than falling to the page.
    await expectFocusOn(page, register.getByRole('button', { name: 'Go to login' }));
  });
  const logInHere = page.getByRole('button', { name: 'Log in to Rotunda' });
  const logIn = page.getByRole('dialog', { name: 'Log in' });
  const forgot = logIn.getByRole('button', { name: 'Forgot password?' });
  const resetRequest = page.getByRole('dialog', { name: 'Reset your password' });
  await step(page, 'the confirmed email, the reset link asked for', async () => {
    await page.keyboard.press('Escape');
    await expect(register).toBeHidden();
    await expectFocusOn(page, registerToday);

    const confirmation = await waitForMail(request, email, /Confirm your email/);
    await page.goto(linkPath(confirmation, '/confirm-email/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Your email is confirmed!' })).toBeVisible();
    await tabTo(page, logInHere);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, logIn.getByLabel('Email'));
    await tabTo(page, forgot, { limit: 2 });
    await page.keyboard.press('Enter');
    await expectFocusOn(page, resetRequest.getByLabel('Email'));
    await page.keyboard.type(email);
    await tabTo(page, resetRequest.locator('altcha-widget').getByRole('checkbox'));
    await page.keyboard.press('Space');
    await expect(
      resetRequest.locator('altcha-widget').getByRole('checkbox', { name: 'Verified' }),
    ).toBeChecked({ timeout: 30_000 });
    await tabTo(page, resetRequest.getByRole('button', { name: 'Send reset link' }));
    await page.keyboard.press('Enter');
    await expect(resetRequest.getByRole('alert')).toHaveText(
      'Password reset link has been sent to your email',
    );
  });
  await step(page, 'the new password set', async () => {
    await page.keyboard.press('Escape');
    await expect(resetRequest).toBeHidden();
    // The login dialog that led here has closed: the focus returns to what opened that.
    await expectFocusOn(page, logInHere);

    const reset = await waitForMail(request, email, /Reset your .* password/);
    await page.goto(linkPath(reset, '/reset-password/'));
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    await tabTo(page, page.getByLabel('New password', { exact: true }));
    await page.keyboard.type(newPassword);
    await tabTo(page, page.getByLabel('Retype new password'));
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('alert')).toHaveText('Password has been reset');
  });

  const logInButton = page.getByRole('button', { name: 'Login', exact: true });
  await step(page, 'logged in with it', async () => {
    await tabTo(page, logInButton);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, logIn.getByLabel('Email'));
    await page.keyboard.type(email);
    await tabTo(page, logIn.getByLabel('Password', { exact: true }), { limit: 2 });
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile\/create$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeVisible();
  });
});
