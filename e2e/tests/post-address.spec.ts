// Every post has its own address (docs/product.md#post-addresses, ADR 0051), against the running product:
// /public-square/post/:id opens the post's read dialog, comments included, for a visitor and for a member
// straight from the link; the address bar follows the dialog as it opens and closes, and Back closes it;
// 'Copy link' puts the address on the clipboard and says so; a hidden or unknown post answers the 404 page
// with status 404; the page's head carries the preview tags and an event's JSON-LD, and a post's text cannot
// inject markup through them; the sitemap lists visible posts and loses a hidden one within seconds; without
// JavaScript the page still shows the post, and the square its first page, which the app takes over without
// asking for it again, with no spinner and the first card unmoved (ADR 0053); on a phone, Share hands the
// address to the system's share sheet. Every post made here has a unique title and is deleted at the end.
import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { DEMO } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { signInAs } from './support/session.ts';
import { test } from './support/test.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
/** A title no page may run as markup: it closes the title, an attribute and a script, and opens its own. */
const HOSTILE = `Reception "><script>window.__pwned=1</script></title><!-- ${RUN}`;
const COMMENT = `See you at the hearing ${RUN}`;

interface SentPost {
  post_id: number;
  post_title: string;
}

let author: ApiSession;
let contributor: ApiSession;
let announcement: SentPost;
let event: SentPost;
let hidden: SentPost;
const made: number[] = [];

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

async function addPost(request: APIRequestContext, data: Record<string, unknown>): Promise<SentPost> {
  const post = await json<SentPost>(
    await request.post('/api/posts/add-post', { headers: await author.headers(), data }),
    201,
  );
  made.push(post.post_id);
  return post;
}

const address = (post: SentPost) => `/public-square/post/${post.post_id}`;
const readDialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });

/** The head of the page the gateway sends for `path`, as a browser parses it (no script of it run). */
async function headOf(page: Page, path: string) {
  const html = await (await page.request.get(path, { headers: { accept: 'text/html' } })).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    const meta = Object.fromEntries(
      Array.from(doc.querySelectorAll('meta[property], meta[name]')).map((tag) => [
        tag.getAttribute('property') ?? tag.getAttribute('name'),
        tag.getAttribute('content'),
      ]),
    );
    return {
      title: doc.title,
      meta,
      canonical: doc.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      jsonLd: Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).map((s) =>
        JSON.parse(s.textContent ?? ''),
      ),
      scripts: Array.from(doc.querySelectorAll('script:not([type^="application/"])')).map(
        (s) => s.getAttribute('src') ?? s.textContent,
      ),
    };
  }, html);
}

/** What a visitor saw of the first card, frame by frame, from the page's first paint (watchTakeOver). */
interface Seen {
  /** The first visible card's title and box, each time either changed. */
  cards: { title: string; box: [number, number, number, number] }[];
  /** The open dialog's text and box, each time either changed (none on the square). */
  dialogs: { text: string; box: [number, number, number, number] }[];
  /** The label of a large spinner in sight on some frame (outside the news column), or ''. */
  spinner: string;
  /** The first frame without the markup the gateway drew, once it was there (-1 until then). */
  takenOverAt: number;
  frames: number;
}

/**
 * Watches every animation frame from the page's whole arrival: the first visible card (the gateway's, then the app's) and
 * any page spinner in sight, until the drawn markup has given way, and a few frames after.
 */
async function watchTakeOver(page: Page): Promise<() => Promise<Seen>> {
  await page.addInitScript(() => {
    const seen = { cards: [], dialogs: [], spinner: '', takenOverAt: -1, frames: 0 } as Seen;
    (window as unknown as { __seen: Seen }).__seen = seen;
    let drawnSeen = false;
    const visible = (element: Element) => element.checkVisibility({ visibilityProperty: true });
    const frame = () => {
      // Until the parser has read the whole page, a card may be drawn in part (a slow machine paints what has
      // arrived): that is the page still coming in, before any of the app runs (its scripts are deferred).
      if (document.readyState === 'loading') {
        requestAnimationFrame(frame);
        return;
      }
      seen.frames += 1;
      // The news column is not the gateway's to draw: it says it is loading headlines, once the app is in.
      const spinner = Array.from(document.querySelectorAll('.spinner--large')).find(
        (element) => visible(element) && !element.closest('.square__aside'),
      );
      if (spinner) seen.spinner ||= spinner.getAttribute('aria-label') ?? 'a spinner';
      const boxOf = (element: Element): [number, number, number, number] => {
        const rect = element.getBoundingClientRect();
        return [rect.x, rect.y, rect.width, rect.height];
      };
      const card = Array.from(document.querySelectorAll('article.post-card')).find(visible);
      if (card) {
        const title = card.querySelector('h3')?.textContent ?? '';
        const box = boxOf(card);
        const last = seen.cards.at(-1);
        if (!last || last.title !== title || last.box.join() !== box.join()) seen.cards.push({ title, box });
      }
      const dialog = Array.from(document.querySelectorAll('dialog[open]')).find(visible);
      if (dialog instanceof HTMLElement) {
        // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out is what a reader sees change
        const text = dialog.innerText;
        const box = boxOf(dialog);
        const last = seen.dialogs.at(-1);
        if (!last || last.text !== text || last.box.join() !== box.join()) seen.dialogs.push({ text, box });
      }
      if (document.querySelector('[data-first-screen]')) drawnSeen = true;
      else if (drawnSeen && seen.takenOverAt < 0) seen.takenOverAt = seen.frames;
      if (seen.takenOverAt < 0 || seen.frames < seen.takenOverAt + 10) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return async () => {
    await page.waitForFunction(() => {
      const seen = (window as unknown as { __seen: Seen }).__seen;
      return seen.takenOverAt > 0 && seen.frames >= seen.takenOverAt + 10;
    });
    return page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);
  };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  author = await ApiSession.logIn(request, DEMO.member);
  contributor = await ApiSession.logIn(request, DEMO.concierge);
  const types = await json<{ posttype_id: number; post_type: string }[]>(
    await request.get('/api/posts/post-types'),
  );
  const eventTypes = await json<{ eventtype_id: number }[]>(await request.get('/api/posts/event-types'));
  const plainType = types.find((type) => type.post_type !== 'EVENT')?.posttype_id ?? 1;
  const eventType = types.find((type) => type.post_type === 'EVENT')?.posttype_id ?? 9;
  announcement = await addPost(request, {
    post_title: `Budget subcommittee agenda ${RUN}`,
    post_body: '<p>The agenda is <strong>posted</strong> for Thursday.</p>',
    post_type: plainType,
  });
  event = await addPost(request, {
    post_title: HOSTILE,
    post_body: '<p>Light refreshments &amp; a short program.</p>',
    post_type: eventType,
    event_location: 'Capitol Annex, Room 1200 </script><script>window.__pwned=2</script>',
    event_date: `${new Date().getFullYear() + 1}-01-22`,
    event_start: '17:30',
    event_end: '19:00',
    event_type: eventTypes[0]?.eventtype_id,
  });
  hidden = await addPost(request, {
    post_title: `Staffer cell number ${RUN}`,
    post_body: '<p>Call my desk.</p>',
    post_type: plainType,
  });
  await json(
    await request.post('/api/posts/add-comment', {
      headers: await author.headers(),
      data: { post_id: announcement.post_id, comment_body: COMMENT },
    }),
    201,
  );
});

test.afterAll(async ({ request }) => {
  for (const postId of made)
    await request.delete('/api/posts/delete-post', {
      headers: await author.headers(),
      data: { post_id: postId },
    });
});

test('a visitor opens a post by its address, with its comments; closing it leaves the square', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/posts\/\d+$/.test(request.url())) asked.push(request.url());
  });
  const seen = await watchTakeOver(page);
  const response = await page.goto(address(announcement));
  expect(response?.status()).toBe(200);
  // The dialog was there from the first paint, and neither moved nor changed a word when the app took it over.
  const { spinner, dialogs } = await seen();
  expect(spinner).toBe('');
  expect(dialogs).toHaveLength(1);
  expect(dialogs[0]?.text).toContain(COMMENT);
  const dialog = readDialog(page, announcement.post_title);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('The agenda is posted for Thursday.')).toBeVisible();
  await expect(dialog.getByText(COMMENT)).toBeVisible();
  await expectNoAxeFindings(page);
  // The post came with the page (ADR 0053): the app asked for it no second time.
  expect(asked).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/public-square$/);
  await expect(page.getByRole('heading', { name: 'Public Square', level: 1 })).toBeVisible();
});

test('a member opens a post by its address and may comment there', async ({ page }) => {
  await signInAs(page, DEMO.member);
  const seen = await watchTakeOver(page);
  await page.goto(address(announcement));
  // The drawn post stays until the member's own view is drawn: no spinner in between.
  expect((await seen()).spinner).toBe('');
  const dialog = readDialog(page, announcement.post_title);
  await expect(dialog.getByText(COMMENT)).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Add comment' })).toBeEnabled();
});

test('the address bar follows the read dialog, and Back closes it', async ({ page }) => {
  await page.goto('/public-square');
  const card = page.getByRole('article', { name: announcement.post_title, exact: true });
  await card.getByRole('button', { name: 'Keep Reading' }).click();
  const dialog = readDialog(page, announcement.post_title);
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${address(announcement)}$`));
  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/public-square$/);
  await page.goForward();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/public-square$/);
  // Closing went back: the entry before the square is where Back leads now, not the post again.
  await expect(card).toBeVisible();
});

test('Copy link puts the post’s address on the clipboard and says so', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.goto(address(announcement));
  const dialog = readDialog(page, announcement.post_title);
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${baseURL}${address(announcement)}`,
  );
  // The card offers it too, for the post it belongs to.
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  const card = page.getByRole('article', { name: announcement.post_title, exact: true });
  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(card.getByRole('status')).toHaveText('Link copied');
});

test('on a phone, Share hands the post’s title and address to the system’s share sheet', async ({
  browser,
}) => {
  const phone = await browser.newContext({
    viewport: { width: 400, height: 800 },
    isMobile: true,
    hasTouch: true,
  });
  // The system's sheet cannot be driven from a test: navigator.share records what it was given instead.
  await phone.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.assign(window, { __shared: shared });
    navigator.share = async (data?: ShareData) => {
      shared.push(data ?? {});
    };
  });
  const page = await phone.newPage();
  await page.goto(address(announcement));
  const dialog = readDialog(page, announcement.post_title);
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared))
    .toEqual([{ title: announcement.post_title, url: `${baseURL}${address(announcement)}` }]);
  await phone.close();
});

test('the head carries the preview tags, the canonical link and an event’s JSON-LD, none of it markup', async ({
  page,
}) => {
  await page.goto('/public-square');
  const plain = await headOf(page, address(announcement));
  const url = `${baseURL}${address(announcement)}`;
  expect(plain.title).toBe(`${announcement.post_title} · Rotunda`);
  expect(plain.canonical).toBe(url);
  expect(plain.meta).toMatchObject({
    'og:type': 'article',
    'og:title': announcement.post_title,
    'og:description': 'The agenda is posted for Thursday.',
    'og:url': url,
    'twitter:card': 'summary_large_image',
    'twitter:title': announcement.post_title,
  });
  expect(plain.meta['og:image']).toMatch(/^https?:\/\/.+\.png$/);
  expect((await page.request.get(plain.meta['og:image'] as string)).status()).toBe(200);
  expect(plain.jsonLd).toEqual([]);

  const party = await headOf(page, address(event));
  expect(party.meta['og:title']).toBe(HOSTILE);
  expect(party.jsonLd).toEqual([
    expect.objectContaining({
      '@type': 'Event',
      name: HOSTILE,
      startDate: expect.stringMatching(/^\d{4}-01-22T17:30:00-08:00$/),
      endDate: expect.stringMatching(/^\d{4}-01-22T19:00:00-08:00$/),
      location: expect.objectContaining({ name: expect.stringContaining('Capitol Annex, Room 1200') }),
    }),
  ]);
  // The page's own scripts are all it runs: the post's text added none, and running it changes nothing.
  expect(party.scripts).toEqual(plain.scripts);
  await page.goto(address(event));
  await expect(readDialog(page, HOSTILE)).toBeVisible();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('a hidden or unknown post answers the 404 page with status 404; the sitemap loses a hidden post', async ({
  page,
  request,
}) => {
  const sitemap = async () => (await request.get('/sitemap.xml')).text();
  expect(await sitemap()).toContain(`${address(hidden)}<`);
  expect((await page.goto(address(hidden)))?.status()).toBe(200);

  await json(
    await request.post('/api/reports/decide', {
      headers: await contributor.headers(),
      data: {
        target_type: 'post',
        target_id: hidden.post_id,
        action: 'hide',
        reason: `Personal number ${RUN}`,
      },
    }),
  );
  await expect.poll(sitemap, { timeout: 10_000 }).not.toContain(`${address(hidden)}<`);
  expect(await sitemap()).toContain(`${address(announcement)}<`);

  for (const path of [address(hidden), '/public-square/post/999999999']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'This post is not in session.' })).toBeVisible();
  }
  await expectNoAxeFindings(page);
  await page.getByRole('link', { name: 'Back to the public square' }).click();
  await expect(page).toHaveURL(/\/public-square$/);
});

test('without JavaScript the post address still shows the post and its comments', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(address(announcement));
  // Its read dialog, open over the square, as the app shows it; closing it is a link to the square.
  const dialog = readDialog(page, announcement.post_title);
  await expect(dialog.getByRole('heading', { name: announcement.post_title })).toBeVisible();
  await expect(dialog.getByText('The agenda is posted for Thursday.')).toBeVisible();
  await expect(dialog.getByText(COMMENT)).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Close' }).last()).toHaveAttribute('href', '/public-square');
  // The square too: its first page of cards, each a way to its post.
  await page.goto('/public-square');
  const card = page.getByRole('article', { name: announcement.post_title, exact: true });
  await expect(card).toBeVisible();
  await card.getByRole('link', { name: 'Keep Reading' }).click();
  await expect(readDialog(page, announcement.post_title)).toBeVisible();
  await context.close();
});

test('the square’s first screen comes with the page; the app takes it over without asking for it, in place', async ({
  page,
}, testInfo) => {
  const html = await (await page.request.get('/public-square', { headers: { accept: 'text/html' } })).text();
  const drawn = await page.evaluate(
    (source) =>
      Array.from(
        new DOMParser().parseFromString(source, 'text/html').querySelectorAll('.post-card__title'),
      ).map((title) => title.textContent),
    html,
  );
  expect(drawn).toContain(announcement.post_title);
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/posts/all') {
      requests.push('first page');
    }
  });
  const seen = await watchTakeOver(page);
  // On a wide window (two columns) and a phone's (the Posts / Headlines toggle above one).
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/public-square');
    const { cards, spinner } = await seen();
    // No spinner, and the first card never moved nor changed from the first paint to the app's own.
    expect(spinner).toBe('');
    expect(cards).toHaveLength(1);
    expect(cards[0]?.title).toBe(drawn[0]);
    const titles = page.locator('article.post-card h3');
    await expect(page.getByRole('button', { name: 'Keep Reading' }).first()).toBeVisible();
    expect(await titles.allTextContents()).toEqual(drawn);
    await page.screenshot({ path: testInfo.outputPath(`square-${width}.png`) });
  }
  // The page carried the first page: nobody asked for it.
  expect(requests).toEqual([]);
});

test('a keyboard user on the drawn square keeps their place when the app takes over', async ({ page }) => {
  // The remote's code is held back, so there is time to reach a drawn card's 'Keep Reading' from the keyboard.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/mf/feed/static/js/**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/public-square', { waitUntil: 'domcontentloaded' });
  const drawn = page.locator('[data-first-screen] .post-card__read').first();
  await drawn.focus();
  const title = await page.locator('[data-first-screen] .post-card__title').first().textContent();
  release();
  await expect(page.locator('[data-first-screen]')).toHaveCount(0);
  // The app's own 'Keep Reading' of the same card has the focus: Enter opens that post.
  const focused = page.locator(':focus');
  await expect(focused).toHaveText('Keep Reading');
  await page.keyboard.press('Enter');
  await expect(readDialog(page, title ?? '')).toBeVisible();
});

test('robots.txt lets crawlers into the public square only', async ({ request }) => {
  const lines = (await (await request.get('/robots.txt')).text()).split('\n');
  expect(lines).toContain('Allow: /public-square');
  expect(lines).toContain('Disallow: /directory');
  expect(lines).toContain('Disallow: /profile/');
  expect(lines).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('the post page at 1280 and 400 px', async ({ page }, testInfo) => {
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(address(announcement));
    const dialog = readDialog(page, announcement.post_title);
    await expect(dialog.getByText(COMMENT)).toBeVisible();
    // Nothing wider than the window: the dialog and its share line reflow.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: testInfo.outputPath(`post-${width}.png`) });
  }
});
