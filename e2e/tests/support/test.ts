// The specs' `test` and `expect` for those that wait with networkSettled() (./network.ts): Playwright's own, with
// every browser context of the test tracked from its creation (the default page's, each browser.newContext() or
// browser.newPage() of a spec, and their popups), so networkSettled() also counts requests begun before the call.
import { test as base } from '@playwright/test';
import { trackRequests } from './network.ts';

export { expect } from '@playwright/test';

export const test = base.extend<{ trackContexts: undefined }>({
  trackContexts: [
    async ({ browser }, use) => {
      for (const context of browser.contexts()) trackRequests(context);
      // The browser announces a context before any of its pages exist.
      browser.on('context', trackRequests);
      await use(undefined);
      browser.off('context', trackRequests);
    },
    { auto: true },
  ],
  // The default context is tracked even if it was made before the auto fixture above.
  context: async ({ context }, use) => {
    trackRequests(context);
    await use(context);
  },
});
