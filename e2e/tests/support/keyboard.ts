// Test helper: moving through a screen with the keyboard alone, as a member who cannot use a mouse does (Tab,
// Shift+Tab, Enter, Space, Escape and typing; no clicks and no focus() calls), asserting at every stop that the
// focused element shows a focus ring a sighted keyboard user can see: an outline or ring of at least 2 px whose
// colour differs from the background behind it by 3:1 (WCAG 2.4.7, 1.4.11).
import type { Locator, Page } from '@playwright/test';
import { expect } from './test.ts';

/** What the focused element is and how its focus shows: its accessible-ish name and the ring's contrast. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return null;
    /**
     * A visually hidden control (a file input styled through its label) draws no ring of its own: the ring a
     * person sees is its label's.
     */
    const hidden = active.getBoundingClientRect().width <= 1;
    const labels = (active as HTMLInputElement).labels;
    const element = hidden && labels?.[0] ? labels[0] : active;
    const style = getComputedStyle(element);
    /** sRGB relative luminance (WCAG 2.1). */
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => {
        const c = Number(part) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
    };
    const opaque = (color: string) =>
      !color.startsWith('rgba') || Number(color.split(',')[3]?.replace(')', '')) > 0.9;
    /**
     * The first opaque background behind the element, what its ring is drawn against: a colour, or the opaque
     * colours of a gradient (the ring must stand out from each).
     */
    let backgrounds = ['rgb(255, 255, 255)'];
    for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
      const { backgroundColor, backgroundImage } = getComputedStyle(node);
      const stops = backgroundImage.includes('gradient')
        ? (backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).filter(opaque)
        : [];
      if (stops.length > 0) {
        backgrounds = stops;
        break;
      }
      if (opaque(backgroundColor)) {
        backgrounds = [backgroundColor];
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
    const contrast = (background: string) => {
      const [light, dark] = [luminance(ringColor), luminance(background)].sort((a, b) => b - a) as [
        number,
        number,
      ];
      return (light + 0.05) / (dark + 0.05);
    };
    return {
      name:
        `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''} ` +
        (active.getAttribute('aria-label') ??
          (active.id
            ? document.querySelector(`label[for="${active.id}"]`)?.textContent?.trim()
            : undefined) ??
          active.textContent?.trim().slice(0, 60) ??
          ''),
      ringWidth,
      contrast: ringColor ? Math.min(...backgrounds.map(contrast)) : 1,
    };
  });
}

/** The focus is on `target` and visibly so. */
export async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const ring = await focused(page);
  expect(ring, 'a focused element').not.toBeNull();
  expect(ring?.ringWidth, `the focus ring of ${ring?.name}`).toBeGreaterThanOrEqual(2);
  expect(ring?.contrast, `the focus ring contrast of ${ring?.name}`).toBeGreaterThanOrEqual(3);
}

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `limit` times; each stop visible. */
export async function tabTo(page: Page, target: Locator, { back = false, limit = 60 } = {}): Promise<void> {
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

/** Opens the login dialog from the top bar with the keyboard, and logs in with what it types there. */
export async function logInByKeyboard(
  page: Page,
  account: { email: string; password: string },
  from = '/public-square',
): Promise<void> {
  await page.goto(from);
  const logIn = page.getByRole('button', { name: 'Log in', exact: true });
  await expect(logIn).toBeVisible();
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
