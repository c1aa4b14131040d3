// The 404 page at unknown paths and at /error, with its way back to the public square.
import { expect, step, test } from './support/journey.ts';

for (const path of ['/no-such-page', '/error']) {
  test(`${path} shows the 404 page and RETURN TO SESSION leads to the public square`, async ({ page }) => {
    await step(page, 'the 404 page', async () => {
      await page.goto(path);
      await expect(
        page.getByRole('heading', { name: 'ERROR 404: This page is not in session.' }),
      ).toBeVisible();
    });
    await step(page, 'back to the public square', async () => {
      await page.getByRole('link', { name: 'RETURN TO SESSION' }).click();
      await expect(page).toHaveURL(/\/public-square$/);
      await expect(page.getByRole('heading', { name: 'Headlines' })).toBeVisible();
    });
  });
}
