// The navigation guard: visitors opening a protected route see the alert and land on /. The alert has no timer
// (WCAG 2.2.1): it is still there a minute on, until dismissed.
import { expect, step, test } from './support/journey.ts';

for (const path of ['/directory', '/organizations', '/profile/create']) {
  test(`a visitor opening ${path} is told to log in and returned to /`, async ({ page }) => {
    await page.clock.install();
    const alert = page.getByRole('alert');
    await step(page, 'the alert on the landing page', async () => {
      await page.goto(path);
      await expect(alert).toHaveText('Access Restricted. Please login.');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('button', { name: 'Register Today!' })).toBeVisible();
    });
    await page.clock.fastForward('01:00');
    await expect(alert).toHaveText('Access Restricted. Please login.');
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toBeHidden();
  });
}

test('a visitor following a protected link from the public square is stopped too', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto('/public-square');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await step(page, 'the alert on the landing page, at 400 px', async () => {
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Directory' }).click();
    await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
    await expect(page).toHaveURL(/\/$/);
  });
});
