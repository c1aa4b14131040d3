// Screen-reader semantics (docs/accessibility.md, ADR 0052), read from the accessibility tree a screen reader
// gets (Playwright's ARIA snapshots), not from the markup: on each main screen, for a visitor and for
// members, one banner, navigation, one main and one contentinfo (the footer with the accessibility
// statement's link), exactly one h1, which the tab's title names, and no heading level skipped; every dialog
// modal and named; and the live regions that announce what a sighted member sees change — the feed's next
// page, a toast, a new unread notification, and a refused form, whose error is an alert tied to each field it
// is about (aria-describedby) with the field marked invalid. Each screen is a journey step
// (support/journey.ts): axe finds nothing there either.
import type { Locator, Page } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { expect, step, test } from './support/journey.ts';
import { newMember } from './support/members.ts';
import { addPost, like, plainPostType } from './support/notifications.ts';
import { signInAs } from './support/session.ts';

interface Outline {
  landmarks: string[];
  headings: { level: number; name: string }[];
}

/** The landmarks and headings in the accessibility tree, in reading order. */
async function outline(page: Page): Promise<Outline> {
  const snapshot = await page.locator('body').ariaSnapshot();
  const landmarks: string[] = [];
  const headings: Outline['headings'] = [];
  for (const line of snapshot.split('\n')) {
    // A line holding ': ' is quoted whole by the snapshot's YAML.
    const landmark = line.match(/^\s*- '?(banner|navigation|main|contentinfo|complementary|search)\b/);
    if (landmark?.[1]) landmarks.push(landmark[1]);
    const heading = line.match(/^\s*- '?heading(?: "((?:[^"\\]|\\.)*)"| ([^[]*?))? ?\[level=(\d)\]/);
    if (heading) headings.push({ name: heading[1] ?? heading[2] ?? '', level: Number(heading[3]) });
  }
  return { landmarks, headings };
}

/** What is wrong with a screen's landmarks and headings, one line each. */
function outlineProblems(
  { landmarks, headings }: Outline,
  { navigation }: { navigation: boolean },
): string[] {
  const problems: string[] = [];
  const count = (role: string) => landmarks.filter((landmark) => landmark === role).length;
  for (const role of ['banner', 'main', 'contentinfo']) {
    if (count(role) !== 1) problems.push(`${count(role)} ${role} landmarks`);
  }
  if (navigation && count('navigation') === 0) problems.push('no navigation landmark');
  const h1s = headings.filter((heading) => heading.level === 1);
  if (h1s.length !== 1) problems.push(`${h1s.length} h1: ${h1s.map((h) => h.name).join(' | ')}`);
  if (headings[0] && headings[0].level !== 1) problems.push(`the first heading is h${headings[0].level}`);
  headings.forEach((heading, index) => {
    const before = headings[index - 1];
    if (before && heading.level > before.level + 1)
      problems.push(`h${before.level} "${before.name}" is followed by h${heading.level} "${heading.name}"`);
  });
  return problems;
}

/** The footer every screen ends with. */
const FOOTER = `
- contentinfo:
  - paragraph: © 2024 Rotunda. All rights reserved.
  - navigation "About Rotunda":
    - link "Accessibility statement":
      - /url: /accessibility
`;

/** Opens `path` and waits until it has drawn: its h1 shown, nothing still loading. */
async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Each screen's landmarks, headings and footer, as a journey step. */
async function checkScreens(page: Page, paths: string[], { navigation }: { navigation: boolean }) {
  const problems: string[] = [];
  for (const path of paths) {
    await step(
      page,
      path,
      async () => {
        await openScreen(page, path);
        await expect(page.getByRole('contentinfo')).toMatchAriaSnapshot(FOOTER);
        // The tab is titled after the screen (WCAG 2.4.2).
        const h1 = await page.getByRole('heading', { level: 1 }).first().textContent();
        await expect(page).toHaveTitle(`${h1?.replace(/\s+/g, ' ').trim()} – Rotunda`);
        problems.push(...outlineProblems(await outline(page), { navigation }).map((p) => `${path}: ${p}`));
      },
      { settle: false },
    );
  }
  expect(problems).toEqual([]);
}

/** The dialog is modal (the page behind inert) and its tree starts with the named dialog and its heading. */
async function expectModalDialog(dialog: Locator, name: string): Promise<void> {
  await expect(dialog).toMatchAriaSnapshot(`
- dialog "${name}":
  - heading "${name}" [level=2]
`);
  expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a visitor’s screens: landmarks, one h1, headings in order, the footer', async ({ page }) => {
    // A visitor has no sidebar: the top bar's links are the navigation.
    await checkScreens(
      page,
      ['/', '/public-square', '/accessibility', '/reset-password/semantics', '/nowhere'],
      {
        navigation: true,
      },
    );
  });

  test('a member’s screens: landmarks, one h1, headings in order, the footer', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, DEMO.member);
    await checkScreens(
      page,
      [
        '/public-square',
        '/directory',
        '/organizations',
        '/organization/1',
        '/profile/1',
        '/notifications',
        '/settings',
        '/accessibility',
      ],
      { navigation: true },
    );
  });

  test('a contributor’s moderation screen', async ({ page }) => {
    await signInAs(page, DEMO.concierge);
    await checkScreens(page, ['/moderation'], { navigation: true });
  });

  test('an administrator’s screen', async ({ page }) => {
    await signInAs(page, DEMO.admin);
    await checkScreens(page, ['/admin'], { navigation: true });
  });

  test('the access dialogs are modal and named by their heading', async ({ page }) => {
    await openScreen(page, '/');
    await step(page, 'the login dialog', async () => {
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expectModalDialog(page.getByRole('dialog', { name: 'Log in' }), 'Log in');
    });
    await step(page, 'the reset request dialog', async () => {
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await expectModalDialog(
        page.getByRole('dialog', { name: 'Reset your password' }),
        'Reset your password',
      );
    });
    await page.keyboard.press('Escape');
    await step(page, 'the register dialog', async () => {
      await page.getByRole('button', { name: 'Register Today!' }).click();
      await expectModalDialog(page.getByRole('dialog', { name: 'Register' }), 'Register');
    });
  });

  test('a member’s dialogs are modal and named by their heading', async ({ page }) => {
    await signInAs(page, DEMO.member);
    await openScreen(page, '/public-square');
    await step(page, 'Create Post', async () => {
      await page.getByRole('button', { name: 'Create Post' }).click();
      await expectModalDialog(page.getByRole('dialog', { name: 'Create Post' }), 'Create Post');
    });
    await page.keyboard.press('Escape');
    await step(page, 'a post read in its dialog', async () => {
      const first = page.getByRole('region', { name: 'Posts' }).getByRole('article').first();
      await first.getByRole('button', { name: 'Keep Reading' }).click();
      const dialog = page.getByRole('dialog');
      // Named by the post's title, its heading.
      await expect(dialog).toHaveAccessibleName(
        (await dialog.getByRole('heading', { level: 2 }).first().textContent()) ?? '-',
      );
      expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    });
    await page.keyboard.press('Escape');
    await openScreen(page, '/settings');
    await step(page, 'Delete my account', async () => {
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await expectModalDialog(page.getByRole('dialog', { name: 'Delete my account' }), 'Delete my account');
    });
  });

  test('the feed announces its next page', async ({ page }) => {
    await openScreen(page, '/public-square');
    const posts = page.getByRole('region', { name: 'Posts' }).getByRole('article');
    await expect(posts).toHaveCount(20);
    // The status line is there, empty, before anything is said, so screen readers announce what comes.
    const said = page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: /^Loaded \d+ more/ });
    await expect(page.getByRole('main').locator('p.visually-hidden[role="status"]')).toHaveText('');
    await posts.last().scrollIntoViewIfNeeded();
    await expect.poll(() => posts.count()).toBeGreaterThan(20);
    await expect(said).toHaveText(
      `Loaded ${(await posts.count()) - 20} more: ${await posts.count()} posts shown`,
    );
  });

  test('a toast is said in the status region that was there before it', async ({ page }) => {
    await signInAs(page, DEMO.concierge);
    await openScreen(page, '/public-square');
    const region = page.getByRole('status', { name: 'Notifications' });
    await expect(region).toBeAttached();
    await expect(region).toHaveText('');
    await page.getByRole('button', { name: 'Concierge Account' }).click();
    await expect(region).toContainText('As a Concierge contributor you may edit profiles');
  });

  test('a new unread notification is announced and counted on the bell', async ({ page, request }) => {
    const author = await newMember(request, { firstName: 'Ana', lastName: 'Nounce' }, { withProfile: true });
    await signInAs(page, author.account);
    await openScreen(page, '/public-square');
    const said = page.getByRole('status').filter({ hasText: /unread notification/ });
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Notifications', exact: true }),
    ).toBeVisible();
    const postId = await addPost(
      request,
      author.session,
      // Its own title: the feed's journeys tell posts apart by title.
      `Announced when liked ${Date.now().toString(36)}`,
      await plainPostType(request),
    );
    await like(request, await ApiSession.logIn(request, DEMO.concierge), postId);
    await expect(said).toHaveText('You have 1 unread notification');
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Notifications, 1 unread' }),
    ).toBeVisible();
  });

  test('a refused form: the error is an alert, tied to each field it names, which is marked invalid', async ({
    page,
    request,
  }) => {
    await signInAs(page, await registerAccount(request, true, { firstName: 'Ina', lastName: 'Valid' }));
    await openScreen(page, '/profile/create');
    await step(page, 'Next with nothing filled in', async () => {
      await page.getByRole('button', { name: 'Next' }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('Please provide entries for the following required fields:');
      // The new member's name and email are filled in already; the labels end in an asterisk for the eye.
      for (const label of ['Profile Picture', 'Office Phone']) {
        const field = page.getByLabel(new RegExp(`^${label}`));
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(field).toHaveAccessibleDescription(
          /Please provide entries for the following required fields/,
        );
      }
    });
  });

  test('a refused address on the admin screen is an alert tied to its field, marked invalid', async ({
    page,
  }) => {
    await signInAs(page, DEMO.admin);
    await openScreen(page, '/admin');
    await step(page, 'a domain that is not one', async () => {
      const domains = page.getByRole('region', { name: /^Approved domains/ });
      const field = domains.getByLabel(/Add a domain/);
      await field.fill('https://agency');
      await domains.getByRole('button', { name: 'Add' }).click();
      await expect(domains.getByRole('alert')).toHaveText('Enter a domain such as agency.ca.gov.');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription('Enter a domain such as agency.ca.gov.');
    });
  });

  test('the edges of text fields keep 3:1 against what is behind them', async ({ page }) => {
    await openScreen(page, '/');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    const weak = await weakFieldEdges(page);
    await page.keyboard.press('Escape');
    await signInAs(page, DEMO.member);
    await openScreen(page, '/directory');
    weak.push(...(await weakFieldEdges(page)));
    expect(weak).toEqual([]);
  });
});

/** Each visible text field's edge against what is behind it, with its contrast ratio when under 3:1. */
async function weakFieldEdges(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (colour: string) => (colour.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const linear = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    /** The first opaque background behind the element. */
    const behind = (element: Element): number[] => {
      for (let at: Element | null = element.parentElement; at; at = at.parentElement) {
        const colour = rgb(getComputedStyle(at).backgroundColor);
        if ((colour[3] ?? 1) > 0) return colour;
      }
      return [255, 255, 255];
    };
    const weak: string[] = [];
    for (const field of Array.from(
      document.querySelectorAll<HTMLElement>('input.field__input, select.field__input'),
    )) {
      if (!field.checkVisibility()) continue;
      const edge = luminance(rgb(getComputedStyle(field).borderTopColor));
      const back = luminance(behind(field));
      const ratio = (Math.max(edge, back) + 0.05) / (Math.min(edge, back) + 0.05);
      if (ratio < 3) weak.push(`${field.getAttribute('name') ?? field.id}: ${ratio.toFixed(2)}:1`);
    }
    return weak;
  });
}

test.describe('at 400 px', () => {
  test.use({ viewport: { width: 400, height: 900 } });

  test('a member’s screens keep their landmarks, and the menu is a modal dialog holding the navigation', async ({
    page,
  }) => {
    await signInAs(page, DEMO.member);
    // On a phone the navigation is behind the menu button, so the screens themselves need none.
    await checkScreens(page, ['/public-square', '/directory', '/accessibility'], { navigation: false });
    await step(page, 'the menu', async () => {
      await page.getByRole('button', { name: /^Open menu/ }).click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      expect(await menu.evaluate((element) => element.matches(':modal'))).toBe(true);
      await expect(menu.getByRole('navigation', { name: 'Main' })).toBeVisible();
    });
  });
});
