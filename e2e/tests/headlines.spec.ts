// Headlines end to end: from the news service through the gateway into the feed micro-frontend.
import { expect, step, test } from './support/journey.ts';

test('the public square shows headline cards that open in a new tab, with the Updated time', async ({
  page,
}) => {
  await step(page, 'the public square', async () => {
    await page.goto('/public-square');
    await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
  });
  const panel = page.getByRole('region', { name: 'Headlines' });
  await expect(panel.getByText(/^Updated .+ PT$/)).toBeVisible();
  const cards = panel.getByRole('listitem').getByRole('link');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(0);
  for (const card of await cards.all()) {
    await expect(card).toHaveAttribute('target', '_blank');
    await expect(card).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(card).toHaveAttribute('href', /^https?:\/\//);
  }
});
