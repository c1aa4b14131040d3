// Saves PNGs of the screens at desktop and phone widths (1280 and 400 px) into e2e/screenshots/, to review how
// they look and to compare two runs pixel by pixel: the pages a visitor sees (screenshots-public.ts; the
// register, login and confirm POSTs are answered here, so no account is created, no token spent and no failed
// login counted), then the signed-in screens as the demo member or contributor (screenshots-member.ts: the
// feed, the organizations, the directory, the member's profile and each step of profile creation, whose
// profile calls screenshots-session.ts answers so nothing is created; the Report dialog and the Moderation screen,
// its queue and log answered with samples). Run with: node e2e/screenshots.ts
// (product running; E2E_BASE_URL names it); names as arguments take only the shots whose name starts with one
// of them: node e2e/screenshots.ts organization.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Route } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { baseURL } from './playwright.config.ts';
import { signedInShots } from './screenshots-member.ts';
import { publicShots } from './screenshots-public.ts';
import { answerAsNewMember, resolvePath, sessionOf } from './screenshots-session.ts';
import { networkSettled, trackRequests } from './tests/support/network.ts';

const outDir = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * Math.random seeded the same in every page, so what the screens shuffle in the browser (the headlines, a
 * profile's colleagues) comes in the same order each run and two runs' shots can be compared pixel by pixel.
 */
function seededRandom() {
  let seed = 20_240_101;
  Math.random = () => {
    seed = (seed * 16_807) % 2_147_483_647;
    return (seed - 1) / 2_147_483_646;
  };
}

/**
 * The live unread count's stream answered with one event and ended: a count of none keeps the bell the same in
 * every run. The notification shots answer it with their samples instead (their page's own route comes first).
 */
function quietUnreadStream(route: Route) {
  return route.fulfill({ contentType: 'text/event-stream', body: 'data: {"unread_count":0}\n\n' });
}

async function captureSignedIn(browser: Browser, width: number) {
  for (const { name, account, path, prepare, fullPage = false, asNewMember } of signedInShots.filter(
    wanted,
  )) {
    const auth = await sessionOf(account);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript(seededRandom);
    await context.route('**/api/notifications/stream', quietUnreadStream);
    const profileId = auth.user.profile_id;
    if (asNewMember) await answerAsNewMember(context, auth.token, profileId);
    const seed = asNewMember ? { ...auth, user: { ...auth.user, profile_id: null } } : auth;
    await context.addInitScript((stored) => localStorage.setItem('auth', JSON.stringify(stored)), seed);
    const page = await context.newPage();
    const ownPath = path.replace('{own}', String(profileId));
    await page.goto(new URL(await resolvePath(ownPath, auth.token), baseURL).href);
    await prepare(page);
    await networkSettled(page);
    const file = `${outDir}${name}-${width}.png`;
    await page.screenshot({ path: file, fullPage });
    console.log(`saved ${file}`);
    await context.close();
  }
}

const widths = [1280, 400];
const only = process.argv.slice(2);
const wanted = ({ name }: { name: string }) =>
  only.length === 0 || only.some((prefix) => name.startsWith(prefix));

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
// Every context, the public pages' and each signed-in shot's, is tracked from its creation for networkSettled().
browser.on('context', trackRequests);
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.addInitScript(seededRandom);
    await page.route('**/auth/confirm-registration', (route) =>
      route.fulfill({ json: { success: true, message: 'Your email is confirmed!' } }),
    );
    await page.route('**/auth/login', (route) =>
      route.fulfill({ status: 401, json: { errors: [{ msg: 'Invalid credentials' }] } }),
    );
    await page.route('**/auth/register', (route) =>
      route.fulfill({ status: 201, json: { success: true, message: 'Registered' } }),
    );
    for (const { name, path, prepare, fullPage = false } of publicShots.filter(wanted)) {
      await page.goto(new URL(path, baseURL).href);
      await prepare(page);
      await networkSettled(page);
      const file = `${outDir}${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage });
      console.log(`saved ${file}`);
    }
    await page.close();
    await captureSignedIn(browser, width);
  }
} finally {
  await browser.close();
}
