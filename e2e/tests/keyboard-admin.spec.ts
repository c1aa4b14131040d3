// The administration screen with the keyboard alone (support/keyboard.ts): the demo administrator reaches it
// from the sidebar, adds an approved domain, removes it and puts it back with Undo, removes it for good, and
// grants a new account a role and takes it away again. Focus is asserted wherever the screen changes the
// controls under it, and axe finds nothing at the end.
import { DEMO, registerAccount } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, logInByKeyboard, tabTo } from './support/keyboard.ts';

test('the administration screen: a domain added, removed, put back and removed, a role granted and taken away', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const account = await registerAccount(request, true, { firstName: 'Rae', lastName: 'Keys' });
  await logInByKeyboard(page, DEMO.admin);
  const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' });
  await step(page, 'the administration screen', async () => {
    await tabTo(page, admin);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Access administration' })).toBeFocused();
  });

  const domains = page.getByRole('region', { name: /^Approved domains/ });
  const domain = `kb-${Date.now()}.example.org`;
  const field = domains.getByLabel(/Add a domain/);
  const remove = domains.getByRole('button', { name: `Remove ${domain}` });
  const undo = domains.getByRole('button', { name: 'Undo' });
  await step(page, 'a domain added and removed, with Undo', async () => {
    await tabTo(page, field);
    await page.keyboard.type(domain);
    await tabTo(page, domains.getByRole('button', { name: 'Add', exact: true }), { limit: 1 });
    await page.keyboard.press('Enter');
    await expect(domains.getByRole('status')).toHaveText(`Added ${domain} to Approved domains.`);
    await tabTo(page, remove, { back: true });
    await page.keyboard.press('Enter');
    // The removal can be undone at once: the focus goes to Undo rather than being lost with the row.
    await expectFocusOn(page, undo);
    await expect(remove).toHaveCount(0);
  });
  await step(page, 'the domain put back, then removed for good', async () => {
    await page.keyboard.press('Enter');
    await expect(domains.getByRole('status')).toHaveText(`${domain} is back in Approved domains.`);
    await expectFocusOn(page, field);
    await tabTo(page, remove, { back: true });
    await page.keyboard.press('Enter');
    await expectFocusOn(page, undo);
    await expect(remove).toHaveCount(0);
  });

  const roles = page.getByRole('region', { name: 'Roles' });
  const role = roles.getByLabel('Role');
  const grant = roles.getByRole('button', { name: 'Grant' });
  const takeAway = roles.getByRole('button', { name: 'Take away' });
  await step(page, 'a role granted and taken away', async () => {
    await tabTo(page, roles.getByLabel('Account email'));
    await page.keyboard.type(account.email);
    await tabTo(page, role, { limit: 1 });
    await expect(role.locator('option:checked')).toHaveText('Concierge contributor');
    await tabTo(page, grant, { limit: 1 });
    await page.keyboard.press('Enter');
    await expect(roles.getByRole('status')).toContainText(`${account.email} is now Concierge contributor.`);
    // The pressed button keeps the focus through the change.
    await expectFocusOn(page, grant);
    await tabTo(page, takeAway, { limit: 1 });
    await page.keyboard.press('Enter');
    await expect(roles.getByRole('status')).toContainText(
      `${account.email} is no longer Concierge contributor.`,
    );
    await expectFocusOn(page, takeAway);
  });
});
