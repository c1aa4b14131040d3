// Journeys done with the keyboard alone, as a member who cannot use a mouse does them: Tab, Shift+Tab, Enter,
// Space, Escape and typing; no clicks and no focus() calls. After each dialog opens and closes the test asserts
// where the focus landed, and at every stop that the focused element shows a focus ring a sighted keyboard user
// can see (an outline or ring of at least 2 px whose colour differs from the background behind it by 3:1).
import type { Locator, Page } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { expect, test } from './support/test.ts';

/** What the focused element is and how its focus shows: its accessible-ish name and the ring's contrast. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    /** sRGB relative luminance (WCAG 2.1). */
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => {
        const c = Number(part) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    /** The first opaque background behind the element: what its ring is drawn against. */
    let background = 'rgb(255, 255, 255)';
    for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
      const color = getComputedStyle(node).backgroundColor;
      const alpha = color.startsWith('rgba') ? Number(color.split(',')[3]?.replace(')', '')) : 1;
      if (alpha > 0.9) {
        background = color;
        break;
      }
    }
    const outlineWidth = style.outlineStyle === 'none' ? 0 : Number.parseFloat(style.outlineWidth);
    const ringColor =
      outlineWidth > 0 ? style.outlineColor : (/rgba?\([^)]*\)/.exec(style.boxShadow)?.[0] ?? '');
    const ringWidth =
      outlineWidth > 0
        ? outlineWidth
        : Math.max(0, ...[...style.boxShadow.matchAll(/(\d+(?:\.\d+)?)px/g)].map((m) => Number(m[1])));
    const [light, dark] = [luminance(ringColor), luminance(background)].sort((a, b) => b - a) as [
      number,
      number,
    ];
    return {
      name:
        element.getAttribute('aria-label') ??
        (element.id
          ? document.querySelector(`label[for="${element.id}"]`)?.textContent?.trim()
          : undefined) ??
        element.textContent?.trim().slice(0, 60) ??
        element.tagName,
      ringWidth,
      contrast: ringColor ? (light + 0.05) / (dark + 0.05) : 1,
    };
  });
}

/** The focus is on `target` and visibly so. */
async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const ring = await focused(page);
  expect(ring, 'a focused element').not.toBeNull();
  expect(ring?.ringWidth, `the focus ring of ${ring?.name}`).toBeGreaterThanOrEqual(2);
  expect(ring?.contrast, `the focus ring contrast of ${ring?.name}`).toBeGreaterThanOrEqual(3);
}

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `limit` times; each stop visible. */
async function tabTo(page: Page, target: Locator, { back = false, limit = 60 } = {}): Promise<void> {
  for (let presses = 0; presses <= limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      await expectFocusOn(page, target);
      return;
    }
    if (presses === limit) break;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const stop = await focused(page);
    if (stop) expect(stop.ringWidth, `the focus ring of ${stop.name}`).toBeGreaterThanOrEqual(2);
  }
  throw new Error(`${limit} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach ${target}`);
}

async function logInByKeyboard(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/public-square');
  await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
  const logIn = page.getByRole('button', { name: 'Log in', exact: true });
  await tabTo(page, logIn);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await expectFocusOn(page, dialog.getByLabel('Email'));
  await page.keyboard.type(account.email);
  // Past "Forgot password?", which sits beside the password's label.
  await tabTo(page, dialog.getByLabel('Password', { exact: true }), { limit: 2 });
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('log in, create a post, read it, comment and like it: by keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  await logInByKeyboard(page, DEMO.member);

  const create = page.getByRole('button', { name: 'Create Post' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create Post' });
  await expectFocusOn(page, dialog.getByLabel('Post Title'));
  const title = `Keyboard hearing ${Date.now()}`;
  await page.keyboard.type(title);
  // Into the rich-text editor: its toolbar's buttons, then its text.
  const bold = dialog.getByRole('button', { name: 'bold' });
  await tabTo(page, bold);
  await page.keyboard.press('Enter');
  const body = dialog.getByRole('textbox', { name: 'Post Body' });
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

  const card = page.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  const read = card.getByRole('button', { name: 'Keep Reading' });
  await tabTo(page, read);
  await page.keyboard.press('Enter');
  const reading = page.getByRole('dialog', { name: title });
  await expect(reading).toBeVisible();
  await expect(reading.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(reading).toBeHidden();
  await expectFocusOn(page, read);

  // The heart sits before Keep Reading: one step back.
  const like = card.getByRole('button', { name: /^Like, \d+ likes?$/ });
  await tabTo(page, like, { back: true, limit: 1 });
  await page.keyboard.press('Space');
  await expect(card.getByRole('button', { name: 'Like, 1 like' })).toBeVisible();
  const comment = card.getByRole('combobox', { name: 'Add comment' });
  await tabTo(page, comment);
  await page.keyboard.type('See you there');
  await page.keyboard.press('Enter');
  await expect(card.getByText('See you there')).toBeVisible();
  await expect(card.getByText('1 comment', { exact: true })).toBeVisible();
});

test('search and filter the directory and open a profile: by keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  await logInByKeyboard(page, DEMO.member);
  await page.goto('/directory');
  await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search people' });
  await tabTo(page, search);
  await page.keyboard.type('Marquez');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]search=Marquez/);
  const group = page.getByRole('combobox', { name: 'Group' });
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
  const results = page.getByRole('region', { name: 'People found' });
  // Her own card, not those of her staff whose organization bears her name.
  const person = results
    .getByRole('link')
    .filter({ has: page.locator('.dir-card__name').getByText('Elena Marquez', { exact: true }) });
  await tabTo(page, person);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile\//);
  await expect(page.getByRole('heading', { level: 1, name: /Elena Marquez/ })).toBeVisible();
  // The browser's Back (Alt+Left outside a test browser).
  await page.goBack();
  await expect(page).toHaveURL(/\/directory\?/);
  await expect(person).toBeVisible();
});

test('open an organization from the list and move between its tabs: by keyboard alone', async ({ page }) => {
  test.setTimeout(120_000);
  await logInByKeyboard(page, DEMO.member);
  await page.goto('/organizations');
  const search = page.getByRole('searchbox').first();
  await tabTo(page, search);
  await page.keyboard.type('Water Stewardship');
  await page.keyboard.press('Enter');
  const card = page.getByRole('link').filter({ hasText: 'Water Stewardship' }).first();
  await tabTo(page, card);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/organization\/\d+$/);
  const tabs = page.getByRole('tablist');
  const selected = tabs.getByRole('tab', { selected: true });
  await tabTo(page, selected);
  // The tabs follow the ARIA pattern: one Tab stop, the arrows move between tabs and show each panel.
  await page.keyboard.press('ArrowRight');
  const divisions = tabs.getByRole('tab', { name: 'Divisions' });
  await expect(divisions).toHaveAttribute('aria-selected', 'true');
  await expectFocusOn(page, divisions);
  await expect(page.getByRole('tabpanel')).toBeVisible();
  const types = page.getByRole('group', { name: 'Division type' }).getByRole('button');
  await tabTo(page, types.nth(1));
  await page.keyboard.press('Enter');
  await expect(types.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await tabTo(page, divisions, { back: true });
  await page.keyboard.press('ArrowLeft');
  await expect(divisions).toHaveAttribute('aria-selected', 'false');
});

test('the administration screen: add an approved domain and remove it, by keyboard alone', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await logInByKeyboard(page, DEMO.admin);
  const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' });
  await tabTo(page, admin);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Access administration' })).toBeFocused();
  const domains = page.getByRole('region', { name: /^Approved domains/ });
  const domain = `kb-${Date.now()}.example.org`;
  await tabTo(page, domains.getByLabel(/Add a domain/));
  await page.keyboard.type(domain);
  await page.keyboard.press('Enter');
  await expect(domains.getByRole('status')).toHaveText(`Added ${domain} to Approved domains.`);
  const remove = domains.getByRole('button', { name: `Remove ${domain}` });
  await tabTo(page, remove);
  await page.keyboard.press('Enter');
  // The removal can be undone at once: the focus goes to Undo rather than being lost with the row.
  await expectFocusOn(page, domains.getByRole('button', { name: 'Undo' }));
  await expect(remove).toHaveCount(0);
});
