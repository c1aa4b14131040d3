// Journeys done with the keyboard alone (support/keyboard.ts): posting, reading, liking and commenting; the
// directory's search and filters; an organization's tabs (keyboard-*.spec.ts have the rest). After each dialog opens
// and closes the test asserts where the focus landed, and at every stop that the focus ring is visible.
import { DEMO } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, logInByKeyboard, tabTo } from './support/keyboard.ts';

test('log in, create a post, read it, comment and like it: by keyboard alone', async ({ page }) => {
  test.setTimeout(240_000);
  await logInByKeyboard(page, DEMO.member);

  const create = page.getByRole('button', { name: 'Create Post' });
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await step(page, 'the Create Post dialog', async () => {
    await tabTo(page, create);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, dialog.getByLabel('Post Title'));
  });
  const title = `Keyboard hearing ${Date.now()}`;
  const bold = dialog.getByRole('button', { name: 'bold' });
  const body = dialog.getByRole('textbox', { name: 'Post Body' });
  await step(page, 'a post written in the editor and saved', async () => {
    await page.keyboard.type(title);
    // Into the rich-text editor: its toolbar's buttons, then its text.
    await tabTo(page, bold);
    await page.keyboard.press('Enter');
    await tabTo(page, body);
    await page.keyboard.type('Room 4203 at 9 a.m.');
    await expect(body.locator('strong')).toHaveText('Room 4203 at 9 a.m.');
    await tabTo(page, dialog.getByLabel('Type of Post'));
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByLabel('Type of Post')).not.toHaveValue('');
    await tabTo(page, dialog.getByRole('button', { name: 'Save changes' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    // Back where the member started.
    await expectFocusOn(page, create);
  });

  const card = page.getByRole('article', { name: title });
  const read = card.getByRole('button', { name: 'Keep Reading' });
  const reading = page.getByRole('dialog', { name: title });
  await step(page, 'the read dialog', async () => {
    await expect(card).toBeVisible();
    await tabTo(page, read);
    await page.keyboard.press('Enter');
    await expect(reading).toBeVisible();
    await expect(reading.locator(':focus')).toHaveCount(1);
  });
  const like = card.getByRole('button', { name: /^Like, \d+ likes?$/ });
  const comment = card.getByRole('combobox', { name: 'Add comment' });
  await step(page, 'liked and commented on', async () => {
    await page.keyboard.press('Escape');
    await expect(reading).toBeHidden();
    await expectFocusOn(page, read);

    // The heart sits before the sharing buttons and Keep Reading: a few steps back.
    await tabTo(page, like, { back: true, limit: 4 });
    await page.keyboard.press('Space');
    await expect(card.getByRole('button', { name: 'Like, 1 like' })).toBeVisible();
    await tabTo(page, comment);
    await page.keyboard.type('See you there');
    await page.keyboard.press('Enter');
    await expect(card.getByText('See you there')).toBeVisible();
    await expect(card.getByText('1 comment', { exact: true })).toBeVisible();
  });
});

test('search and filter the directory and open a profile: by keyboard alone', async ({ page }) => {
  test.setTimeout(240_000);
  await logInByKeyboard(page, DEMO.member);
  const search = page.getByRole('searchbox', { name: 'Search people' });
  const group = page.getByRole('combobox', { name: 'Group' });
  await step(page, 'the directory searched and filtered', async () => {
    await page.goto('/directory');
    await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
    await tabTo(page, search);
    await page.keyboard.type('Marquez');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]search=Marquez/);
    await tabTo(page, group);
    // A closed select changes with the arrow keys; Elected Officials is where Elena Marquez is listed.
    for (let presses = 0; presses < 20; presses++) {
      if (
        (await group.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text)) ===
        'Elected Officials'
      )
        break;
      await page.keyboard.press('ArrowDown');
    }
    await expect(page).toHaveURL(/[?&]group=Elected/);
  });
  const results = page.getByRole('region', { name: 'People found' });
  const person = results
    .getByRole('link')
    .filter({ has: page.locator('.dir-card__name').getByText('Elena Marquez', { exact: true }) });
  await step(page, 'a profile opened from it', async () => {
    // Her own card, not those of her staff whose organization bears her name.
    await tabTo(page, person);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile\//);
    await expect(page.getByRole('heading', { level: 1, name: /Elena Marquez/ })).toBeVisible();
  });
  // The browser's Back (Alt+Left outside a test browser).
  await page.goBack();
  await expect(page).toHaveURL(/\/directory\?/);
  await expect(person).toBeVisible();
});

test('open an organization from the list and move between its tabs: by keyboard alone', async ({ page }) => {
  test.setTimeout(240_000);
  await logInByKeyboard(page, DEMO.member);
  const search = page.getByRole('searchbox').first();
  const card = page.getByRole('link').filter({ hasText: 'Water Stewardship' }).first();
  await step(page, 'an organization opened from the list', async () => {
    await page.goto('/organizations');
    await tabTo(page, search);
    await page.keyboard.type('Water Stewardship');
    await page.keyboard.press('Enter');
    await tabTo(page, card);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/organization\/\d+$/);
  });
  const tabs = page.getByRole('tablist');
  const selected = tabs.getByRole('tab', { selected: true });
  const divisions = tabs.getByRole('tab', { name: 'Divisions' });
  const types = page.getByRole('group', { name: 'Division type' }).getByRole('button');
  await step(page, 'its Divisions tab', async () => {
    await tabTo(page, selected);
    // The tabs follow the ARIA pattern: one Tab stop, the arrows move between tabs and show each panel.
    await page.keyboard.press('ArrowRight');
    await expect(divisions).toHaveAttribute('aria-selected', 'true');
    await expectFocusOn(page, divisions);
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await tabTo(page, types.nth(1));
    await page.keyboard.press('Enter');
    await expect(types.nth(1)).toHaveAttribute('aria-pressed', 'true');
  });
  await tabTo(page, divisions, { back: true });
  await page.keyboard.press('ArrowLeft');
  await expect(divisions).toHaveAttribute('aria-selected', 'false');
});
