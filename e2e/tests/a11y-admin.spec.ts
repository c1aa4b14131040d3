// Accessibility of the access administration screen (/admin) at 1280 and 400 px: no axe violations at all, as it
// opens (the lists, the roles form, the log) and with a refused value's error said; the agencies section (in
// Keycloak mode; absent with the built-in provider) with its form's error said; the screen fits a phone's
// width, and the phone menu links it.
import type { Page } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { networkSettled } from './support/network.ts';
import { signInAs } from './support/session.ts';
import { expect, test } from './support/test.ts';

/** Nothing wider than the window: no sideways scrolling of the page itself. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [1280, 400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Access administration screen, and a refused value', async ({ page }) => {
      await signInAs(page, DEMO.admin);
      await page.goto('/admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Access administration' })).toBeFocused();
      await expect(page.getByRole('region', { name: /^Approved domains/ })).toBeVisible();
      // A fresh product's log is empty; after other tests it lists their changes.
      const log = page.getByRole('region', { name: 'Log' });
      await expect(log.getByRole('listitem').first().or(log.getByText('No changes yet.'))).toBeVisible();
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);

      const emails = page.getByRole('region', { name: /^Approved emails/ });
      await emails.getByLabel(/Add an email/).fill('not an email');
      await emails.getByRole('button', { name: 'Add' }).click();
      await expect(emails.getByRole('alert')).toHaveText(
        'Enter an email address such as name@agency.ca.gov.',
      );
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);
    });

    test('the Agencies section where agency sign-in is available (Keycloak), absent elsewhere', async ({
      page,
    }) => {
      await signInAs(page, DEMO.admin);
      const answered = page.waitForResponse((response) =>
        new URL(response.url()).pathname.endsWith('/api/admin/agencies'),
      );
      await page.goto('/admin');
      const { available } = (await (await answered).json()) as { available: boolean };
      const section = page.getByRole('region', { name: 'Agencies' });
      if (!available) {
        await networkSettled(page);
        await expect(section).toHaveCount(0);
        return;
      }
      await expect(section.getByRole('button', { name: 'Add agency' })).toBeVisible();
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);
      await section.getByLabel('Agency name').fill('Department of Finance');
      await section.getByRole('radio', { name: 'SAML 2.0' }).check();
      await section.getByRole('button', { name: 'Add agency' }).click();
      await expect(section.getByRole('alert')).toHaveText('Enter the agency’s email domains.');
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);
    });

    test('the navigation links the screen', async ({ page }) => {
      await signInAs(page, DEMO.admin);
      await page.goto('/public-square');
      if (width <= 550) await page.getByRole('button', { name: /^Open menu/ }).click();
      const nav =
        width <= 550
          ? page.getByRole('dialog', { name: 'Menu' })
          : page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Administration' }).click();
      await expect(page).toHaveURL(/\/admin$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Access administration' })).toBeFocused();
    });
  });
}
