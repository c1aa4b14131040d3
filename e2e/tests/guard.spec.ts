// The navigation guard: visitors opening a protected route see the alert and land on /.
import { expect, test } from '@playwright/test';

for (const path of ['/directory', '/organizations', '/profile/create']) {
  test(`a visitor opening ${path} is told to log in and returned to /`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
  });
}

test('a visitor following a protected link from the public square is stopped too', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto('/public-square');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Directory' }).click();
  await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
  await expect(page).toHaveURL(/\/$/);
});
