// Accessibility: no axe finding of any impact on the landing page, the public square and the 404.
import { axeFindings } from './support/axe.ts';
import { networkSettled } from './support/network.ts';
import { expect, test } from './support/test.ts';

const screens = [
  { name: 'landing', path: '/', ready: 'Register Today!' },
  { name: 'public square', path: '/public-square', ready: 'Headlines' },
  { name: '404', path: '/no-such-page', ready: 'RETURN TO SESSION' },
];

for (const width of [1280, 400]) {
  for (const { name, path, ready } of screens) {
    test(`${name} at ${width} px has no axe findings`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
      await networkSettled(page);
      expect(await axeFindings(page)).toEqual([]);
    });
  }
}
