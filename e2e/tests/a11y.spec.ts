// Accessibility: no serious or critical axe violations on the landing page, the public square and the 404.
import AxeBuilder from '@axe-core/playwright';
import { networkSettled } from './support/network.ts';
import { expect, test } from './support/test.ts';

const screens = [
  { name: 'landing', path: '/', ready: 'Register Today!' },
  { name: 'public square', path: '/public-square', ready: 'Headlines' },
  { name: '404', path: '/no-such-page', ready: 'RETURN TO SESSION' },
];

for (const width of [1280, 400]) {
  for (const { name, path, ready } of screens) {
    test(`${name} at ${width} px has no serious or critical axe violations`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await expect(page.getByText(ready, { exact: true }).first()).toBeVisible();
      await networkSettled(page);
      const results = await new AxeBuilder({ page }).analyze();
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      expect(blocking).toEqual([]);
    });
  }
}
