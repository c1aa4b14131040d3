// The journey specs' `test` and `step` (ADR 0052): axe runs at the end of every step of a journey, at
// whatever width the spec runs, and no finding of any impact may remain; and every dialog the page opens, in
// any step, is checked as a screen reader meets it: modal (showModal(), so the page behind is inert) and
// named. The dialogs are recorded as they open, in the browser, so a dialog that opens and closes within one
// step is caught too.
import { expect, type Page } from '@playwright/test';
import { expectNoAxeFindings } from './axe.ts';
import { test as tracked } from './test.ts';

export { expect };

/** A dialog as it opened: its accessible name (aria-label, or the text of what aria-labelledby names). */
export interface OpenedDialog {
  name: string;
  modal: boolean;
}

export const test = tracked.extend<{ dialogsOpened: OpenedDialog[] }>({
  dialogsOpened: [
    async ({ context }, use) => {
      const opened: OpenedDialog[] = [];
      await context.exposeBinding('__rotundaDialogOpened', (_source, dialog: OpenedDialog) => {
        opened.push(dialog);
      });
      await context.addInitScript(() => {
        const report = (dialog: HTMLDialogElement, modal: boolean) => {
          const labelledBy = (dialog.getAttribute('aria-labelledby') ?? '')
            .split(/\s+/)
            .map((id) => (id ? document.getElementById(id)?.textContent : '') ?? '')
            .join(' ');
          const name = (dialog.getAttribute('aria-label') ?? labelledBy).trim();
          const announce = (window as unknown as Record<string, (d: unknown) => void>).__rotundaDialogOpened;
          announce?.({ name, modal });
        };
        const { show, showModal } = HTMLDialogElement.prototype;
        HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
          showModal.call(this);
          report(this, true);
        };
        HTMLDialogElement.prototype.show = function (this: HTMLDialogElement) {
          show.call(this);
          report(this, false);
        };
      });
      await use(opened);
      const unfit = opened.filter((dialog) => !dialog.modal || dialog.name === '');
      expect(unfit, 'every dialog opened is modal and has a name').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * One step of a journey: runs `body` as a reported test step, then checks the page with axe (all of it, or
 * `include`; `settle: false` for a page holding a stream open, see expectNoAxeFindings).
 */
export async function step<T>(
  page: Page,
  name: string,
  body: () => Promise<T>,
  axe: { include?: string; settle?: boolean } = {},
): Promise<T> {
  return test.step(name, async () => {
    const result = await body();
    // A step of its own, so reports show what axe costs.
    await test.step('axe', () => expectNoAxeFindings(page, axe));
    return result;
  });
}
