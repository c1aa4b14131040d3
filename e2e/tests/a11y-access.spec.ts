import { expectNoAxeFindings } from './support/axe.ts';
import { expect, test } from './support/test.ts';

for (const width of [1280, 400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the register dialog, with an ineligible email', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Register Today!' }).click();
      const dialog = page.getByRole('dialog', { name: 'Register' });
      await dialog.getByLabel('Work email').fill('someone@example.com');
      await expect(dialog.getByRole('button', { name: 'Access Currently Unavailable' })).toBeDisabled();
      await dialog.getByLabel('Password', { exact: true }).fill('short');
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
    });

    test('the login dialog, after a failed login', async ({ page }) => {
      // Answered here, so that the check does not spend the address's allowance of failed logins.
      await page.route('**/auth/login', (route) =>
        route.fulfill({ status: 401, json: { errors: [{ msg: 'Invalid credentials' }] } }),
      );
      await page.goto('/');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      await dialog.getByLabel('Email').fill('nobody@demo.ca.gov');
      await dialog.getByLabel('Password', { exact: true }).fill('wrong');
      await dialog.getByLabel('Password', { exact: true }).press('Enter');
      await expect(dialog.getByRole('alert')).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
    });

    test('the password reset request dialog', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await expect(page.getByRole('dialog', { name: 'Reset your password' })).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
    });

    test('the reset-password page', async ({ page }) => {
      await page.goto('/reset-password/a11y-token');
      await page.getByLabel('New password', { exact: true }).fill('Rotunda#2024');
      await page.getByLabel('Retype new password').fill('Rotunda#20');
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await expectNoAxeFindings(page);
    });

    test('the confirm-email page', async ({ page }) => {
      // Answered here: a real confirmation token works once.
      await page.route('**/auth/confirm-registration', (route) =>
        route.fulfill({ json: { success: true, message: 'Your email is confirmed!' } }),
      );
      await page.goto('/confirm-email/a11y-token');
      await expect(page.getByRole('heading', { name: 'Your email is confirmed!' })).toBeVisible();
      await expectNoAxeFindings(page);
    });
  });
}
