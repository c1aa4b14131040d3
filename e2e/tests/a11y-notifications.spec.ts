// Accessibility of notifications and members' data at 1280 and 400 px (ADR 0042, ADR 0052): no axe findings
// on the bell (the top bar's on wide screens, the phone menu's item at 400 px), the Notifications page
// with items (answered with samples, tests/support/notifications.ts) and empty (a new member), Settings with the
// Delete my account dialog open, the /unsubscribe page, and the "@" completion list open under a comment line.
// Nothing is wider than the window.
import { expect, type Page, test } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { answerNotificationSamples, SAMPLE_NOTIFICATIONS } from './support/notifications.ts';
import { apiLogin } from './support/profiles.ts';
import { signInAs, signInAsMember } from './support/session.ts';

/** Nothing wider than the window: no sideways scrolling of the page itself. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

const unreadName = `Notifications, ${SAMPLE_NOTIFICATIONS.unread_count} unread`;

for (const width of [1280, 400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the bell with unread notifications', async ({ page }) => {
      await signInAsMember(page);
      await answerNotificationSamples(page);
      await page.goto('/public-square');
      if (width > 550) {
        const bell = page.getByRole('banner').getByRole('link', { name: unreadName });
        await expect(bell).toBeVisible();
        await expectNoAxeFindings(page, { include: 'header', settle: false });
      } else {
        // Phones: the menu button says something is unread; the menu's item carries the count.
        const menu = page.getByRole('button', {
          name: `Open menu, ${SAMPLE_NOTIFICATIONS.unread_count} unread notifications`,
        });
        await expect(menu).toBeVisible();
        await expectNoAxeFindings(page, { include: 'header', settle: false });
        await menu.click();
        const item = page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: unreadName });
        await expect(item).toBeVisible();
        await expectNoAxeFindings(page, { include: 'dialog[open]', settle: false });
        await item.click();
        await expect(page).toHaveURL(/\/notifications$/);
      }
      await expectNoPageOverflow(page);
    });

    test('the Notifications page with items', async ({ page }) => {
      await signInAsMember(page);
      await answerNotificationSamples(page);
      await page.goto('/notifications');
      const list = page.getByRole('list', { name: 'Notifications' });
      await expect(list.getByRole('listitem')).toHaveCount(SAMPLE_NOTIFICATIONS.items.length);
      await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeFocused();
      await expectNoAxeFindings(page, { settle: false });
      await expectNoPageOverflow(page);
    });

    test('the Notifications page, empty', async ({ page }) => {
      const account = await registerAccount(page.request, true, { firstName: 'Nell', lastName: 'Newcomer' });
      await signInAs(page, account);
      await page.goto('/notifications');
      await expect(page.getByText('You’re all caught up')).toBeVisible();
      await expectNoAxeFindings(page, { settle: false });
      await expectNoPageOverflow(page);
    });

    test('Settings, and the Delete my account dialog', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/settings');
      await expect(page.getByRole('radio', { name: 'Weekly' })).toBeVisible();
      await expectNoAxeFindings(page, { settle: false });
      await expectNoPageOverflow(page);

      const open = page.getByRole('button', { name: 'Delete my account' });
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Delete my account' });
      await expect(dialog.getByLabel('Your password')).toBeFocused();
      // Sent without a password: the error is announced, nothing is deleted.
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(dialog.getByRole('alert')).toHaveText('Enter your password to delete your account.');
      await expectNoAxeFindings(page, { include: 'dialog[open]', settle: false });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(open).toBeFocused();
    });

    test('the /unsubscribe page', async ({ page }) => {
      await page.goto('/unsubscribe?token=a-token-from-an-email');
      await expect(
        page.getByRole('heading', { level: 1, name: 'Unsubscribe from Rotunda emails' }),
      ).toBeVisible();
      await expectNoAxeFindings(page, { settle: false });
      await expectNoPageOverflow(page);
      // A link without its token says so.
      await page.goto('/unsubscribe');
      await expect(page.getByRole('heading', { level: 1, name: 'This link no longer works' })).toBeVisible();
      await expectNoAxeFindings(page, { settle: false });
    });

    test('the "@" completion list open under a comment line', async ({ page, request }) => {
      const { token } = await apiLogin(request, DEMO.member);
      const found = await request.get('/api/profiles/search', {
        headers: { 'x-auth-token': token },
        params: { search: 'a', offset: 0, limit: 1 },
      });
      const someone = ((await found.json()) as { profiles: { first_name: string }[] }).profiles[0];
      expect(someone, 'a person in the directory').toBeTruthy();
      await signInAsMember(page);
      await page.goto('/public-square');
      const line = page
        .getByRole('region', { name: 'Posts' })
        .getByRole('combobox', { name: 'Add comment' })
        .first();
      await line.click();
      await line.pressSequentially(`@${someone?.first_name.slice(0, 3)}`);
      const list = page.getByRole('listbox', { name: 'People to mention' });
      await expect(list.getByRole('option').first()).toBeVisible();
      await expect(line).toHaveAttribute('aria-expanded', 'true');
      await expect(line).toHaveAttribute('aria-activedescendant', /.+/);
      await expectNoAxeFindings(page, { settle: false });
      await expectNoPageOverflow(page);
      await line.press('Escape');
      await expect(list).toBeHidden();
    });
  });
}
