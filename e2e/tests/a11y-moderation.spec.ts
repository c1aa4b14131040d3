// Accessibility of moderation at 1280 and 400 px: no axe findings on the Moderation screen
// (the open queue, a decision's dialog, the suspension dialog and the log; the queue and log answered with samples)
// and in the Report dialog (with the error of a report sent without a reason) and the Your reports dialog. The
// screen fits a phone's width.
import type { Page } from '@playwright/test';
import { expectNoAxeFindings } from './support/axe.ts';
import { answerModerationSamples } from './support/moderation-samples.ts';
import { signInAsConcierge, signInAsMember } from './support/session.ts';
import { expect, test } from './support/test.ts';

/** Nothing wider than the window: no sideways scrolling of the page itself. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

const excerpt = 'Who to call about the water bond hearing';

for (const width of [1280, 400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Moderation screen: the queue, a decision, a suspension and the log', async ({ page }) => {
      await signInAsConcierge(page);
      await answerModerationSamples(page);
      await page.goto('/moderation');
      const row = page.getByRole('article', { name: excerpt });
      await expect(row).toBeVisible();
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);

      await row.getByRole('button', { name: 'Hide', exact: true }).click();
      const hide = page.getByRole('dialog', { name: 'Hide this post' });
      await hide.getByRole('button', { name: 'Hide post' }).click();
      await expect(hide.getByText('Give a reason.')).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
      await hide.getByRole('button', { name: 'Cancel' }).click();
      await expect(hide).toBeHidden();

      await row.getByRole('button', { name: 'Suspend Jordan Reyes' }).click();
      const suspend = page.getByRole('dialog', { name: 'Suspend Jordan Reyes' });
      await expect(suspend.getByLabel(/^Days/)).toBeFocused();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
      await page.keyboard.press('Escape');
      await expect(suspend).toBeHidden();

      await page.getByRole('tab', { name: 'Log' }).click();
      await expect(page.getByRole('region', { name: 'Moderation log' })).toBeVisible();
      await expectNoAxeFindings(page);
      await expectNoPageOverflow(page);
    });

    test('the Report dialog, sent without a reason', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/public-square');
      // The demo member's own posts have no Report button: the first that has one.
      const report = page.getByRole('region', { name: 'Posts' }).getByRole('button', { name: 'Report post' });
      await report.first().click();
      const dialog = page.getByRole('dialog', { name: 'Report this post' });
      await expect(dialog.getByRole('radio', { name: 'Spam' })).toBeFocused();
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByText('Choose a reason for the report.')).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(report.first()).toBeFocused();
    });

    test('the Your reports dialog', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/public-square');
      await page.getByRole('button', { name: 'Your reports' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your reports' });
      await expect(dialog).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
      await expectNoPageOverflow(page);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: 'Your reports' })).toBeFocused();
    });
  });
}
