// A member in a hurry on a phone stays signed in: on a slow network (150 ms latency) and a slow CPU (4×), they
// log in through the dialog and at once open the page they came for by its address. Right after login the shell
// renews the new tokens; opening a page cuts that renewal short at some moment — before the request leaves,
// while the server rotates the refresh token, after the answer — and the page that opens resumes with whatever
// the store kept. Ten tries, each opening the page at another moment of the renewal, all stay signed in: a
// refresh token reused within seconds of its rotation, while its successor is unused, answers that successor
// (issue 28, "Sessions that survive").
import { type BrowserContext, devices, type Page } from '@playwright/test';
import { type Account, registerAccount } from './support/accounts.ts';
import { networkSettled } from './support/network.ts';
import { expect, test } from './support/test.ts';
import { logInAndLand, storedAuth } from './support/ui.ts';

const PHONE = devices['Pixel 7'];
/** When, after the renewal's request leaves the browser, the member opens the other page. */
const MOMENTS_MS = [0, 50, 100, 150, 200, 250, 300, 350, 400, 450];
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
  test.setTimeout(600_000);
  const outcomes: { moment: number; cut: boolean; signedIn: boolean; note: string }[] = [];
  for (const moment of MOMENTS_MS) {
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
      await page.goto('/');
      const renewal = page.waitForRequest(
        (request) => TOKEN_ENDPOINT.test(request.url()) && request.method() === 'POST',
        { timeout: 60_000 },
      );
      await logInAndLand(page, account.email, account.password);
      const renewing = await renewal;
      let answered = false;
      void renewing.response().then(() => {
        answered = true;
      });
      await page.waitForTimeout(moment);
      const cut = !answered;

      // The page the member came for, by its address; its shell resumes the session and renews at once (the
      // cut renewal's request is gone once the new document commits, so the next answer is the new page's).
      await page.goto('/directory', { waitUntil: 'commit' });
      const answer = await page.waitForResponse(
        (response) => TOKEN_ENDPOINT.test(response.url()) && response.request().method() === 'POST',
        { timeout: 60_000 },
      );
      await networkSettled(page);
      const logOut = page.getByRole('button', { name: 'Log out' });
      await logOut
        .or(page.getByRole('button', { name: 'Log in', exact: true }))
        .first()
        .waitFor();

      const auth = await storedAuth(page);
      const signedIn =
        answer.status() === 200 &&
        auth.isAuthenticated &&
        /\/directory$/.test(page.url()) &&
        (await logOut.isVisible());
      outcomes.push({
        moment,
        cut,
        signedIn,
        note: `${moment} ms, renewal ${cut ? 'cut short' : 'answered first'}: ${signedIn ? 'signed in' : `signed out (renewal ${answer.status()})`}`,
      });
      if (signedIn) {
        // The renewed token is one the API takes.
        const api = await page.request.get('/api/news', { headers: { 'x-auth-token': auth.token ?? '' } });
        expect(api.status(), `${moment} ms: the API with the renewed token`).toBe(200);
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
  // The tries did open the page while the renewal was still under way, not only after it.
  expect(outcomes.filter(({ cut }) => cut).length, report).toBeGreaterThan(0);
});
