// A remote released for a newer page: the directory's micro-frontend as a build against React 20 would be (its
// shared React required as ^20.0.0, strictly), served to a page whose shell runs React 19. The Module
// Federation runtime refuses it, and the shell shows the remote's panel asking for a reload, with the rest of
// the page working; at desktop and phone widths, with no axe findings. Screenshots of
// the panel land in this test's output folder.
import type { Page } from '@playwright/test';
import { axeFindings } from './support/axe.ts';
import { networkSettled } from './support/network.ts';
import { signInAsMember } from './support/session.ts';
import { expect, test } from './support/test.ts';

// The shared-React requirement as the build writes it into the remote's JavaScript.
const REACT_REQUIREMENT = /(shareKey:"react",import:"react",requiredVersion:")\^19\.[^"]*"/g;

/** Serves the directory remote's JavaScript as built against React 20; answers how many files it changed. */
async function serveDirectoryBuiltForReact20(page: Page): Promise<() => number> {
  let rewritten = 0;
  await page.route('**/mf/directory/static/js/**', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const changed = body.replace(REACT_REQUIREMENT, '$1^20.0.0"');
    if (changed !== body) rewritten += 1;
    await route.fulfill({ response, body: changed });
  });
  return () => rewritten;
}

const updated = (page: Page) => page.getByRole('heading', { name: 'Directory was updated' });

test('a remote that needs a newer React shows its reload panel, and the rest of the page works', async ({
  page,
}) => {
  await signInAsMember(page);
  const rewritten = await serveDirectoryBuiltForReact20(page);
  await page.goto('/directory');

  await expect(updated(page)).toBeVisible();
  expect(rewritten(), 'the remote declared React ^20').toBeGreaterThan(0);
  await expect(
    page.getByText('This part of Rotunda was updated and needs a newer page. Reload to continue'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Rotunda' })).toBeVisible();

  const main = page.getByRole('navigation', { name: 'Main' });
  await main.getByRole('link', { name: 'Public Square' }).click();
  await expect(page.getByRole('region', { name: 'Headlines' }).getByRole('listitem').first()).toBeVisible();

  // Once the page is one the remote fits (here: the remote as really built), Reload brings it up.
  await main.getByRole('link', { name: 'Directory' }).click();
  await expect(updated(page)).toBeVisible();
  await page.unroute('**/mf/directory/static/js/**');
  // A reload that cut off the shell's token renewal would lose its answer, so the page settles first.
  await networkSettled(page);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the reload panel at ${name} width has no axe findings`, async ({ page }, info) => {
    await page.setViewportSize({ width, height });
    await signInAsMember(page);
    await serveDirectoryBuiltForReact20(page);
    await page.goto('/directory');
    await expect(updated(page)).toBeVisible();
    await networkSettled(page);
    await page.screenshot({ path: info.outputPath(`remote-updated-${name}.png`), fullPage: true });
    expect(await axeFindings(page)).toEqual([]);
  });
}
