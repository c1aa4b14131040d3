// The accessibility statement in the browser (docs/product.md#accessibility-statement): a visitor reaches it
// from the footer, it opens on its heading, and its way to report a barrier is an email to the deployment's
// access address; at 1280, 400 and 320 px nothing scrolls sideways and axe finds nothing. Screenshots at each
// width for a person to look at.
import { expect, step, test } from './support/journey.ts';

for (const width of [1280, 400, 320]) {
  test(`a visitor finds the statement from the footer, at ${width} px`, async ({ page }, info) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await step(page, 'the statement opened from the footer', async () => {
      await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility statement' }).click();
      await expect(page).toHaveURL(/\/accessibility$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Accessibility statement' })).toBeFocused();
    });
    await expect(
      page.getByText(/Web Content Accessibility Guidelines \(WCAG\) 2\.1 at level AA/),
    ).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Known limitations' }).getByRole('listitem'),
    ).not.toHaveCount(0);
    await expect(page.getByText(/This statement was last reviewed on \d+ \w+ \d{4}/)).toBeVisible();
    // The demo deployment's access address (ACCESS_EMAIL), which answers access requests too.
    const report = page.getByRole('link', { name: /^Email .+@.+ to report a barrier$/ });
    await expect(report).toHaveAttribute(
      'href',
      /^mailto:[^?]+@[^?]+\?subject=Accessibility%20barrier%20on%20Rotunda$/,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: info.outputPath(`statement-${width}.png`), fullPage: true });
  });
}
