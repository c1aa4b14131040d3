// One micro-frontend unreachable: its route shows the error panel with a retry while the rest of the shell,
// including the public square's headlines, keeps working; once it is back, Try again loads it.
import { expect, test } from '@playwright/test';
import { signInAsMember } from './support/session.ts';

test('the shell survives a remote being down and recovers on Try again', async ({ page }) => {
  await signInAsMember(page);
  await page.route('**/mf/directory/**', (route) => route.abort('connectionrefused'));

  await page.goto('/directory');
  await expect(page.getByRole('heading', { name: 'Directory could not be loaded' })).toBeVisible();
  const retry = page.getByRole('button', { name: 'Try again' });
  await expect(retry).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Rotunda' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Public Square' }).click();
  await expect(page.getByRole('region', { name: 'Headlines' }).getByRole('listitem').first()).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Directory' }).click();
  await expect(retry).toBeVisible();
  await page.unroute('**/mf/directory/**');
  await retry.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
});
