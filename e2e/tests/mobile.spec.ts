// Under 550 px the menu button opens the slide-out sidebar with the navigation items.
import { expect, step, test } from './support/journey.ts';

test.use({ viewport: { width: 400, height: 800 } });

test('the menu opens the slide-out sidebar with every item, and Escape closes it', async ({ page }) => {
  await page.goto('/public-square');
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await step(page, 'the menu open', async () => {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(menu).toBeVisible();
    for (const name of ['Public Square', 'Directory', 'Organizations', 'Profile', 'Feedback']) {
      await expect(menu.getByRole('link', { name })).toBeVisible();
    }
    // It slides in from the left edge: where it comes to rest, once its transition has run.
    await expect.poll(async () => (await menu.boundingBox())?.x).toBe(0);
  });
  expect((await menu.boundingBox())?.width).toBeLessThan(400);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});
