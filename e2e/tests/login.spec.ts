// Logging in: a wrong password, where members land (spec §2, by profile_id), the guard letting members
// through, and the contributor's Concierge toast.
import { expect, test } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { logIn, logInAndLand, storedAuth } from './support/ui.ts';

test('a wrong password is refused, the session cleared and the form emptied', async ({ page }) => {
  await page.goto('/');
  const dialog = await logIn(page, DEMO.member.email, 'Not-the-password#1');
  await expect(dialog.getByRole('alert')).toHaveText('Invalid credentials, please try again');
  await expect(dialog.getByLabel('Email')).toHaveValue('');
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
  expect((await storedAuth(page)).isAuthenticated).toBe(false);
});

test('a contributor sees the stars and the Concierge toast', async ({ page }) => {
  await page.goto('/');
  await logInAndLand(page, DEMO.concierge.email, DEMO.concierge.password);
  await page.getByRole('button', { name: 'Concierge Account' }).click();
  const toast = page.getByRole('status', { name: 'Notifications' });
  await expect(toast.getByText('Concierge Account', { exact: true })).toBeVisible();
  await expect(toast).toContainText('edit profiles that no one has claimed');
});

test('a member who is not a contributor sees no stars', async ({ page }) => {
  await page.goto('/');
  await logInAndLand(page, DEMO.member.email, DEMO.member.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Concierge Account' })).toHaveCount(0);
});

test('a member opening a protected page goes straight in', async ({ page }) => {
  await page.goto('/');
  await logInAndLand(page, DEMO.member.email, DEMO.member.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Directory' }).click();
  await expect(page).toHaveURL(/\/directory$/);
  await expect(page.getByText('Access Restricted. Please login.')).toHaveCount(0);
});
