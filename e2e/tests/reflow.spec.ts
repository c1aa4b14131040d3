// Reflow and the reader's own settings (WCAG 2.1: 1.4.10, 1.4.12, 2.3.3 and forced colours): every main screen at
// 320 CSS px (400 % zoom of a 1280 px window) shows without horizontal scrolling, also with the text spacing of
// 1.4.12 applied; with reduced motion asked for, nothing animates; in forced colours the focus stays visible.
import type { Page } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { signInAs } from './support/session.ts';
import { expect, test } from './support/test.ts';

/** The screens a member reaches, each with what shows it has drawn. */
const SCREENS: { path: string; heading: RegExp | string }[] = [
  { path: '/public-square', heading: 'Public Square' },
  { path: '/directory', heading: 'Directory' },
  { path: '/organizations', heading: 'Organizations' },
  { path: '/profile/1', heading: /./ },
  { path: '/notifications', heading: 'Notifications' },
  { path: '/settings', heading: 'Settings' },
];

/** WCAG 1.4.12's spacing, as the bookmarklets that test it apply it: to every element, overriding the page. */
const TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }`;

/** Elements wider than the viewport, or text cut off by a box that hides its overflow. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${width}`);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const style = getComputedStyle(element);
      if (
        style.display === 'none' ||
        style.visibility === 'hidden' ||
        element.closest('[aria-hidden="true"]')
      )
        continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const where = () =>
        `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
      // Visually hidden text (the screen reader's) is clipped on purpose.
      if (element.closest('.visually-hidden') || (box.width <= 1 && box.height <= 1)) continue;
      if (box.right > width + 1 && style.position !== 'fixed')
        problems.push(`${where()} reaches ${Math.round(box.right)} px`);
      const clips = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const ellipsis = style.textOverflow === 'ellipsis';
      if (
        clips &&
        !ellipsis &&
        element.scrollWidth > element.clientWidth + 1 &&
        element.childElementCount === 0
      )
        problems.push(`${where()} is cut off`);
    }
    return problems;
  });
}

test.describe('at 320 CSS px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('every main screen shows without sideways scrolling, with and without 1.4.12 text spacing', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signInAs(page, DEMO.member);
    const problems: string[] = [];
    for (const screen of SCREENS) {
      await page.goto(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
      // Drawn: whatever the screen loads has arrived (lists and panels say aria-busy while they load).
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      problems.push(...(await overflow(page)).map((problem) => `${screen.path}: ${problem}`));
      const spacing = await page.addStyleTag({ content: TEXT_SPACING });
      problems.push(
        ...(await overflow(page)).map((problem) => `${screen.path} with text spacing: ${problem}`),
      );
      await spacing.evaluate((element) => (element as Element).remove());
    }
    expect(problems).toEqual([]);
  });

  test('the login dialog fits, with text spacing too', async ({ page }) => {
    await page.goto('/public-square');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
    expect(await overflow(page)).toEqual([]);
    await page.addStyleTag({ content: TEXT_SPACING });
    expect(await overflow(page)).toEqual([]);
  });
});

test.describe('the reader’s preferences', () => {
  test('with reduced motion asked for, the phone menu opens without sliding', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 800 });
    await signInAs(page, DEMO.member);
    await page.goto('/public-square');
    await page.getByRole('button', { name: /menu/i }).first().click();
    await expect(page.getByRole('dialog').or(page.locator('.mobile-nav[open]')).first()).toBeVisible();
    // Whatever moves: transitions anywhere, animations but the spinner's (which turns slowly instead).
    const moving = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('body *')).flatMap((element) => {
        const style = getComputedStyle(element);
        const seconds = (value: string) =>
          Math.max(...value.split(',').map((part) => Number.parseFloat(part)));
        const animated = style.animationName !== 'none' && !element.classList.contains('spinner');
        return seconds(style.transitionDuration) > 0 || (animated && seconds(style.animationDuration) > 0)
          ? [`${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`]
          : [];
      }),
    );
    expect(moving).toEqual([]);
  });

  test('in forced colours the focus ring stays visible', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto('/public-square');
    await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
    const seen: string[] = [];
    for (let presses = 0; presses < 8; presses++) {
      await page.keyboard.press('Tab');
      // Forced colours drop box-shadow rings: only an outline shows.
      const ring = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return {
          name: element.textContent?.trim().slice(0, 30) ?? element.tagName,
          outline: style.outlineStyle,
          width: Number.parseFloat(style.outlineWidth),
        };
      });
      if (ring && (ring.outline === 'none' || ring.width < 1)) seen.push(`${ring.name}: no outline`);
    }
    expect(seen).toEqual([]);
  });
});
