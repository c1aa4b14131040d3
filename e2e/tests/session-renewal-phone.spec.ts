// A member in a hurry on a phone stays signed in: on a slow network (150 ms latency) and a slow CPU (4×), they
// log in through the dialog and at once open the page they came for by its address. Right after login the shell
// renews the new tokens; opening a page cuts that renewal short, and the page that opens resumes with whatever the
// store kept. The test holds the renewal at each moment it can be cut — before its request leaves the browser,
// after the server rotated the refresh token but before the browser has the answer, and after the answer — and
// the member stays signed in each time: a refresh token reused within seconds of its rotation, while its successor
// is unused, answers that successor (ADR 0036).
import { type BrowserContext, devices, type Page } from '@playwright/test';
import { type Account, registerAccount } from './support/accounts.ts';
import { networkSettled } from './support/network.ts';
import { expect, test } from './support/test.ts';
import { logInAndLand, storedAuth } from './support/ui.ts';

const PHONE = devices['Pixel 7'];
/** Where the renewal after login stands when the member opens the other page. */
const MOMENTS = ['before it leaves', 'rotated by the server, the answer not yet in', 'answered'] as const;
type Moment = (typeof MOMENTS)[number];
const TOKEN_ENDPOINT = /\/realms\/[^/]+\/protocol\/openid-connect\/token$/;

/** A phone's network and CPU, through the DevTools protocol (Chromium). */
async function throttle(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    // A fair mobile connection: 1.6 Mbit/s down, 750 kbit/s up, in bytes per second.
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

let account: Account;
test.beforeAll(async ({ request }) => {
  account = await registerAccount(request, true, { firstName: 'Petra', lastName: 'Phone' });
});

test('on a phone, opening a page at any moment of the renewal after login keeps the member signed in', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const outcomes: { moment: Moment; signedIn: boolean; note: string }[] = [];
  for (const moment of MOMENTS) {
    const context = await browser.newContext({
      viewport: PHONE.viewport,
      deviceScaleFactor: PHONE.deviceScaleFactor,
      isMobile: PHONE.isMobile,
      hasTouch: PHONE.hasTouch,
      userAgent: PHONE.userAgent,
      baseURL,
    });
    try {
      const page = await context.newPage();
      await throttle(context, page);
      // The first renewal (the one after login) is held where this try cuts it; the new page's go through.
      let held = false;
      let reachedMoment: () => void = () => {};
      const atMoment = new Promise<void>((done) => {
        reachedMoment = done;
      });
      await page.route(TOKEN_ENDPOINT, async (route) => {
        if (route.request().method() !== 'POST' || held) return route.fallback();
        held = true;
        if (moment === 'before it leaves') {
          reachedMoment();
          return;
        }
        if (moment === 'answered') {
          await route.fallback();
          return;
        }
        // The server rotates the refresh token; its answer never reaches the page, which is left behind.
        await route.fetch();
        reachedMoment();
      });
      const renewed =
        moment === 'answered'
          ? page.waitForResponse(
              (response) => TOKEN_ENDPOINT.test(response.url()) && response.request().method() === 'POST',
            )
          : atMoment;
      await page.goto('/');
      await logInAndLand(page, account.email, account.password);
      await renewed;

      // The page the member came for, by its address; its shell resumes the session and renews at once.
      const answer = page.waitForResponse(
        (response) => TOKEN_ENDPOINT.test(response.url()) && response.request().method() === 'POST',
        { timeout: 60_000 },
      );
      await page.goto('/directory', { waitUntil: 'commit' });
      const renewal = await answer;
      await networkSettled(page);
      const logOut = page.getByRole('button', { name: 'Log out' });
      await logOut
        .or(page.getByRole('button', { name: 'Log in', exact: true }))
        .first()
        .waitFor();

      const auth = await storedAuth(page);
      const signedIn =
        renewal.status() === 200 &&
        auth.isAuthenticated &&
        /\/directory$/.test(page.url()) &&
        (await logOut.isVisible());
      outcomes.push({
        moment,
        signedIn,
        note: `renewal ${moment}: ${signedIn ? 'signed in' : `signed out (renewal ${renewal.status()})`}`,
      });
      if (signedIn) {
        // The renewed token is one the API takes.
        const api = await page.request.get('/api/news', { headers: { 'x-auth-token': auth.token ?? '' } });
        expect(api.status(), `${moment}: the API with the renewed token`).toBe(200);
      }
    } finally {
      await context.close();
    }
  }
  const report = outcomes.map(({ note }) => note).join('\n');
  test.info().annotations.push({ type: 'tries', description: report });
  console.log(report);
  expect(
    outcomes.filter(({ signedIn }) => !signedIn),
    report,
  ).toEqual([]);
});
