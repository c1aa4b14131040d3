// The landing page for visitors: tagline, the ways in, the copyright line, and the login dialog.
import { expect, step, test } from './support/journey.ts';

test('shows the tagline, Register and Login buttons, a sign-up link and the copyright', async ({ page }) => {
  await step(page, 'the landing page', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('policy community');
  });
  await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Sign up/ })).toBeVisible();
  await expect(page.getByText('© 2024')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Rotunda', exact: true })).toHaveAttribute(
    'href',
    '/public-square',
  );
});

test('the Login button opens the login dialog with email and password', async ({ page }) => {
  await page.goto('/');
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await step(page, 'the login dialog', async () => {
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Email')).toBeFocused();
    await expect(dialog.getByLabel('Password')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
