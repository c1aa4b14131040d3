// The public square in the browser, against the running product: a visitor reads the feed and a post but
// cannot like, comment or post; a member creates an announcement and an event in the Create Post dialog (Quill
// editor), sees them first under Recent, likes and unlikes, comments, edits and deletes the comment and the
// post; sort, type filter, search and Reset; the second page as the member scrolls; a busy post's earlier comments
// shown in the read dialog on request (the feed carries only the latest); a hostile body runs nothing, and one
// borrowing the app's classes or inline styles draws nothing over the page; an event's 'Add to calendar' is a
// valid .ics; the layout at phone, tablet and desktop widths; no
// axe findings. Every post made here has a unique title, so re-runs and parallel spec
// files do not disturb it.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { expect, step, test } from './support/journey.ts';
import { signInAsConcierge, signInAsMember } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

// ------------------------------------------------------------------------------------------------ helpers

interface ApiPost {
  post_id: number;
  post_title: string;
  post_body: string;
  created_at: string;
  likes_count: number;
  comments_count: number;
  PostComments: { comment_body: string }[];
}

async function tokenOf(request: APIRequestContext, account: { email: string; password: string }) {
  const response = await request.post('/auth/login', { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
}

async function apiAddPost(request: APIRequestContext, token: string, data: Record<string, unknown>) {
  const response = await request.post('/api/posts/add-post', { headers: { 'x-auth-token': token }, data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as ApiPost;
}

async function apiDeletePost(request: APIRequestContext, token: string, postId: number) {
  const response = await request.delete('/api/posts/delete-post', {
    headers: { 'x-auth-token': token },
    data: { post_id: postId },
  });
  expect([204, 404]).toContain(response.status());
}

/** A page of the feed as the server answers it to a member (never the visitors' micro-cache). */
async function apiFeed(request: APIRequestContext, token: string, body: Record<string, unknown> = {}) {
  const response = await request.post('/api/posts/all', {
    headers: { 'x-auth-token': token },
    data: { offset: 0, limit: 20, ...body },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as ApiPost[];
}

const feed = (page: Page) => page.getByRole('region', { name: 'Posts' });
const cards = (page: Page) => feed(page).getByRole('article');
const card = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search posts' });
const typeFilter = (page: Page) => page.getByRole('combobox', { name: 'Filter by type' });
const sortButton = (page: Page, name: 'Recent' | 'Popular' | 'Random') =>
  page.getByRole('group', { name: 'Order of posts' }).getByRole('button', { name, exact: true });

/** The titles of the cards on screen, in order. */
async function titles(page: Page): Promise<string[]> {
  return cards(page).locator('h3').allInnerTexts();
}

/** The like count each card shows, in order. */
async function likeCounts(page: Page): Promise<number[]> {
  const labels = await cards(page)
    .getByRole('button', { name: /^Like, \d+ likes?$/ })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
  return labels.map((label) => Number(/\d+/.exec(label)?.[0]));
}

/** Searches the feed and waits until the answer for that search is on screen. */
async function search(page: Page, text: string) {
  if ((await searchBox(page).inputValue()) === text) return;
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/posts/all') && (r.request().postDataJSON()?.search ?? '') === text.trim(),
  );
  await searchBox(page).fill(text);
  await answered;
  await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
}

async function openFeed(page: Page) {
  await page.goto('/public-square');
  await expect(cards(page).first()).toBeVisible();
  await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
}

/** Types into the Quill editor of a dialog: plain text, then a bold word made with the toolbar. */
async function writeBody(dialog: Locator, text: string, boldWord: string) {
  const editor = dialog.getByRole('textbox', { name: 'Post Body' });
  await editor.click();
  await editor.pressSequentially(`${text} `);
  await dialog.getByRole('button', { name: 'bold' }).click();
  await editor.pressSequentially(boldWord);
}

/** 'YYYY-MM-DD' of a January day next year: Pacific Standard Time, so 12:00 there is 20:00 UTC. */
function januaryNextYear(day: number): string {
  return `${new Date().getUTCFullYear() + 1}-01-${String(day).padStart(2, '0')}`;
}

// ------------------------------------------------------------------------------------------------ visitor

test.describe('a visitor', () => {
  test('reads the feed and a whole post, but cannot like or comment', async ({ page }) => {
    await step(page, 'a visitor reads the feed and a whole post', async () => {
      await openFeed(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Public Square' })).toBeVisible();
      const first = cards(page).first();
      await expect(first.getByRole('link').first()).toHaveAttribute('href', /^\/profile\/\d+$/);

      // The comment input is disabled and says why.
      const comment = first.getByRole('textbox', { name: 'Add comment' });
      await expect(comment).toBeDisabled();
      await expect(comment).toHaveAttribute('placeholder', 'Log in to comment');

      // The heart ignores the click: no request, the count and the outline stay.
      const heart = first.getByRole('button', { name: /^Like, \d+ likes?$/ });
      const before = await heart.getAttribute('aria-label');
      await expect(heart).toHaveAttribute('aria-disabled', 'true');
      let likeCalls = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/posts/add-like')) likeCalls++;
      });
      // aria-disabled keeps it focusable and clickable (Playwright would wait for it to be enabled).
      await heart.click({ force: true });
      await expect(heart).toHaveAttribute('aria-pressed', 'false');
      await expect(heart).toHaveAttribute('aria-label', before ?? '');
      expect(likeCalls).toBe(0);

      // Keep Reading opens the whole post, with its comments, and no author's tools.
      const title = (await first.locator('h3').textContent())?.trim() ?? '';
      await first.getByRole('button', { name: 'Keep Reading' }).click();
      const dialog = page.getByRole('dialog', { name: title });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('heading', { name: /^Comments \(\d+\)$/ })).toBeVisible();
      await expect(dialog.getByRole('textbox', { name: 'Add comment' })).toBeDisabled();
      await expect(dialog.getByRole('button', { name: 'Edit post' })).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Delete post' })).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Edit comment' })).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(dialog).toBeHidden();
    });
  });

  test("'Create Post' opens the login dialog", async ({ page }) => {
    // The feed asks the shell with the window event 'rotunda:login-requested'.
    await openFeed(page);
    await page.getByRole('button', { name: 'Create Post' }).click();
    await expect(page.getByRole('dialog', { name: 'Create Post' })).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible();
  });
});

// ------------------------------------------------------------------------------------------ member's posts

test.describe('a member', () => {
  test.describe.configure({ mode: 'serial' });
  test.beforeEach(async ({ page }) => signInAsMember(page));
  // Whatever a failed step left behind of this run's posts goes too.
  test.afterAll(async ({ request }) => {
    const token = await tokenOf(request, DEMO.member);
    for (const post of await apiFeed(request, token, { search: RUN })) {
      await apiDeletePost(request, token, post.post_id);
    }
  });

  const announcement = `Quarterly budget briefing ${RUN}`;
  const event = `Water policy roundtable ${RUN}`;
  const eventDate = januaryNextYear(15);

  test('creates an announcement with the Quill editor, and it shows first under Recent', async ({ page }) => {
    await step(page, 'the announcement, first under Recent', async () => {
      await openFeed(page);
      await page.getByRole('button', { name: 'Create Post' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Post' });
      await expect(dialog).toBeVisible();
      const save = dialog.getByRole('button', { name: 'Save changes' });

      // Incomplete: Save looks disabled, and a click lists what is missing.
      await expect(save).toHaveAttribute('aria-disabled', 'true');
      // aria-disabled, not disabled: a person can still click it (Playwright would wait for it to be enabled).
      await save.click({ force: true });
      await expect(dialog.getByRole('alert')).toHaveText(
        'Please provide entries for the following required fields: Post Title, Post Body, Type of Post',
      );

      await dialog.getByLabel('Post Title').fill(announcement);
      await writeBody(dialog, 'Agency budget officers meet on Thursday to review the', 'quarterly');
      await dialog.getByLabel('Type of Post').selectOption({ label: 'ANNOUNCEMENT' });
      await expect(dialog.getByLabel('Event Location')).toHaveCount(0);
      await expect(save).not.toHaveAttribute('aria-disabled', 'true');
      await save.click();
      await expect(dialog).toBeHidden();

      // Recent, nothing filtered: the new post comes first, with the bold word kept.
      await expect(sortButton(page, 'Recent')).toHaveAttribute('aria-pressed', 'true');
      await expect(cards(page).first()).toHaveAccessibleName(announcement);
      const mine = card(page, announcement);
      await expect(mine.getByText('ANNOUNCEMENT', { exact: true })).toBeVisible();
      await expect(mine.locator('.post-body strong')).toHaveText('quarterly');
      await expect(mine.getByRole('link').first()).toHaveAttribute('href', /^\/profile\/\d+$/);
      await expect(mine.getByRole('button', { name: 'Like, 0 likes' })).toBeVisible();
    });
  });

  test('creates an event with its date, default times and type; Add to calendar gives a valid .ics', async ({
    page,
  }) => {
    await step(page, 'the event, with Add to calendar', async () => {
      await openFeed(page);
      await page.getByRole('button', { name: 'Create Post' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Post' });
      await dialog.getByLabel('Post Title').fill(event);
      await writeBody(dialog, 'Agencies and districts compare notes on groundwater', 'recharge');
      await dialog.getByLabel('Type of Post').selectOption({ label: 'EVENT' });

      // The event's fields appear, the times at their defaults, and they are required.
      await expect(dialog.getByLabel('Start Time')).toHaveValue('12:00');
      await expect(dialog.getByLabel('End Time')).toHaveValue('13:00');
      const save = dialog.getByRole('button', { name: 'Save changes' });
      await save.click({ force: true });
      await expect(dialog.getByRole('alert')).toHaveText(
        'Please provide entries for the following required fields: Event Location, Event Date',
      );
      await dialog.getByLabel('Event Location').fill('Capitol Annex, Room 1100, Sacramento');
      await dialog.getByLabel('Event Date').fill(eventDate);
      await dialog.getByLabel('Event Type').selectOption({ label: 'WORKSHOP' });
      await save.click();
      await expect(dialog).toBeHidden();

      await expect(cards(page).first()).toHaveAccessibleName(event);
      const mine = card(page, event);
      await expect(mine.getByText('EVENT', { exact: true })).toBeVisible();
      await expect(mine.getByText('WORKSHOP', { exact: true })).toBeVisible();
      const [year, , day] = eventDate.split('-');
      await expect(mine).toContainText(`1/${Number(day)}/${year?.slice(2)}`);
      await expect(mine).toContainText('12:00 PM – 1:00 PM');

      // The calendar file: one VEVENT at 12:00–13:00 Pacific (PST in January: 20:00–21:00 UTC).
      const downloading = page.waitForEvent('download');
      await mine.getByRole('link', { name: 'Add to calendar' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`water-policy-roundtable-${RUN}.ics`);
      const ics = await readFile((await download.path()) ?? '', 'utf8');
      const compact = eventDate.replaceAll('-', '');
      expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).toMatch(/\r\nEND:VCALENDAR\r?\n?$/);
      expect(ics).toContain('\r\nVERSION:2.0\r\n');
      expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
      expect(ics).toContain(`\r\nDTSTART:${compact}T200000Z\r\n`);
      expect(ics).toContain(`\r\nDTEND:${compact}T210000Z\r\n`);
      // Long lines are folded (CRLF and a space); unfolded, the summary and location are whole.
      const unfolded = ics.replace(/\r\n[ \t]/g, '');
      expect(unfolded).toContain(`\r\nSUMMARY:${event}\r\n`);
      expect(unfolded).toContain('\r\nLOCATION:Capitol Annex\\, Room 1100\\, Sacramento\r\n');
      expect(unfolded).toMatch(/\r\nUID:post-\d+@rotunda\r\n/);

      // The read dialog shows Location, Date and Time.
      await mine.getByRole('button', { name: 'Keep Reading' }).click();
      const read = page.getByRole('dialog', { name: event });
      await expect(read.getByRole('definition').filter({ hasText: 'Room 1100' })).toBeVisible();
      await expect(read.locator('dt')).toHaveText(['Location', 'Date', 'Time']);
      await expect(read.locator('dd').nth(2)).toHaveText('12:00 PM – 1:00 PM');
      await expect(read.getByRole('link', { name: 'Add to calendar' })).toBeVisible();
    });
  });

  test('likes and unlikes a post; the heart and count are the server’s after a reload', async ({ page }) => {
    await openFeed(page);
    await search(page, announcement);
    const mine = card(page, announcement);
    const heart = mine.getByRole('button', { name: /^Like, / });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await expect(heart).toHaveAccessibleName('Like, 0 likes');

    const liked = page.waitForResponse((r) => r.url().endsWith('/api/posts/add-like'));
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName('Like, 1 like');
    expect((await liked).ok()).toBe(true);

    await page.reload();
    await search(page, announcement);
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName('Like, 1 like');

    const unliked = page.waitForResponse((r) => r.url().endsWith('/api/posts/add-like'));
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await expect(heart).toHaveAccessibleName('Like, 0 likes');
    expect((await unliked).ok()).toBe(true);
    await page.reload();
    await search(page, announcement);
    await expect(heart).toHaveAccessibleName('Like, 0 likes');
  });

  test('a like the server refuses is put back, without a message', async ({ page }) => {
    await openFeed(page);
    await search(page, announcement);
    await page.route('**/api/posts/add-like', (route) => route.fulfill({ status: 503, json: {} }));
    const heart = card(page, announcement).getByRole('button', { name: /^Like, / });
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await expect(heart).toHaveAccessibleName('Like, 0 likes');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('comments from the card, then edits and deletes the comment in the read dialog', async ({ page }) => {
    await step(page, 'the comment edited and deleted in the read dialog', async () => {
      await openFeed(page);
      await search(page, announcement);
      const mine = card(page, announcement);
      // A member's line is a combobox: it completes "@" mentions.
      const input = mine.getByRole('combobox', { name: 'Add comment' });
      const send = mine.getByRole('button', { name: 'Send comment' });

      // Blank is never sent.
      await input.fill('   ');
      await expect(send).toBeDisabled();

      const text = `Count me in ${RUN}`;
      await input.fill(text);
      await input.press('Enter');
      await expect(input).toHaveValue('');
      await expect(mine.getByRole('list', { name: 'Latest comments' })).toContainText(text);
      await expect(mine.getByText('1 comment', { exact: true })).toBeAttached();

      await mine.getByRole('button', { name: 'Keep Reading' }).click();
      const dialog = page.getByRole('dialog', { name: announcement });
      await expect(dialog.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
      const comment = dialog.getByRole('listitem').filter({ hasText: text });
      await expect(comment.getByRole('link')).toHaveAttribute('href', /^\/profile\/\d+$/);
      await expect(comment).not.toContainText('edited');

      // The pencil becomes save; leaving edit mode saves, and the comment then reads as edited.
      await comment.getByRole('button', { name: 'Edit comment' }).click();
      const edited = `Count me and a colleague in ${RUN}`;
      await dialog.getByRole('textbox', { name: 'Edit your comment' }).fill(edited);
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/posts/update-comment'));
      await dialog.getByRole('button', { name: 'Save comment' }).click();
      expect((await saved).ok()).toBe(true);
      const after = dialog.getByRole('listitem').filter({ hasText: edited });
      await expect(after).toContainText('edited');
      await expect(mine.getByRole('list', { name: 'Latest comments' })).toContainText(edited);

      await after.getByRole('button', { name: 'Delete comment' }).click();
      await expect(dialog.getByText('No comments yet.')).toBeVisible();
      await expect(dialog.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(mine.getByRole('list', { name: 'Latest comments' })).toHaveCount(0);

      // And the server agrees after a reload.
      await page.reload();
      await search(page, announcement);
      await expect(mine.getByText('0 comments', { exact: true })).toBeAttached();
    });
  });

  test('another member sees neither edit nor delete on it', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAsConcierge(page);
    await openFeed(page);
    await search(page, announcement);
    await card(page, announcement).getByRole('button', { name: 'Keep Reading' }).click();
    const dialog = page.getByRole('dialog', { name: announcement });
    await expect(dialog.getByRole('heading', { name: /^Comments/ })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Edit post' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Delete post' })).toHaveCount(0);
    await context.close();
  });

  test('edits the event in the read dialog (title, body, date and times), then deletes both posts', async ({
    page,
  }) => {
    await step(page, 'the event edited in the read dialog, both posts deleted', async () => {
      await openFeed(page);
      await search(page, event);
      await card(page, event).getByRole('button', { name: 'Keep Reading' }).click();
      let dialog = page.getByRole('dialog', { name: event });
      await dialog.getByRole('button', { name: 'Edit post' }).click();

      const renamed = `${event} (moved)`;
      await dialog.getByLabel('Post Title').fill(renamed);
      const editor = dialog.getByRole('textbox', { name: 'Post Body' });
      await expect(editor).toContainText('groundwater');
      await editor.click();
      await editor.press('ControlOrMeta+a');
      await editor.pressSequentially('Moved to the afternoon.');
      await dialog.getByLabel('Event Date').fill(januaryNextYear(22));
      await dialog.getByLabel('Start Time').fill('14:00');
      await dialog.getByLabel('End Time').fill('15:30');
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/posts/update-post'));
      await dialog.getByRole('button', { name: 'Save post' }).click();
      const sent = (await saved).request().postDataJSON();
      expect(sent).toMatchObject({
        event_date: januaryNextYear(22),
        event_start: '14:00',
        event_end: '15:30',
      });

      // The dialog's name follows the title; view mode shows the new details, and so does the card.
      dialog = page.getByRole('dialog', { name: renamed });
      await expect(dialog.getByRole('button', { name: 'Edit post' })).toBeVisible();
      await expect(dialog.locator('dd').nth(2)).toHaveText('2:00 PM – 3:30 PM');
      await expect(dialog.locator('.read-post__text')).toHaveText('Moved to the afternoon.');
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      const moved = card(page, renamed);
      await expect(moved).toContainText('2:00 PM – 3:30 PM');

      // Delete: a confirmation first ('Keep it' keeps it), then the card leaves the feed.
      for (const title of [renamed, announcement]) {
        await search(page, title.split(' (')[0] ?? title);
        await card(page, title).getByRole('button', { name: 'Keep Reading' }).click();
        dialog = page.getByRole('dialog', { name: title });
        await dialog.getByRole('button', { name: 'Delete post' }).click();
        await dialog.getByRole('button', { name: 'Keep it' }).click();
        await expect(dialog.getByRole('button', { name: 'Keep it' })).toHaveCount(0);
        await dialog.getByRole('button', { name: 'Delete post' }).first().click();
        const deleted = page.waitForResponse((r) => r.url().endsWith('/api/posts/delete-post'));
        await dialog.getByRole('button', { name: 'Delete post' }).last().click();
        expect((await deleted).status()).toBe(204);
        await expect(dialog).toBeHidden();
        await expect(card(page, title)).toHaveCount(0);
      }
      await page.reload();
      await search(page, RUN);
      await expect(page.getByText('No posts match your search.')).toBeVisible();
    });
  });
});

// ---------------------------------------------------------------------------- sort, filter, search, pages

test.describe('the feed controls', () => {
  test.beforeEach(async ({ page }) => signInAsMember(page));

  test('Popular orders by likes, Random reorders, and Recent is newest first', async ({ page, request }) => {
    await openFeed(page);
    await expect(sortButton(page, 'Recent')).toHaveAttribute('aria-pressed', 'true');
    const recent = await titles(page);
    expect(recent).toHaveLength(20);
    // Recent is the server's newest first.
    const token = await tokenOf(request, DEMO.member);
    const newest = await apiFeed(request, token, { sort: 'recent' });
    const times = newest.map((p) => Date.parse(p.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    await sortButton(page, 'Popular').click();
    await expect(sortButton(page, 'Popular')).toHaveAttribute('aria-pressed', 'true');
    await expect(sortButton(page, 'Recent')).toHaveAttribute('aria-pressed', 'false');
    await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
    await expect.poll(() => titles(page)).not.toEqual(recent);
    const likes = await likeCounts(page);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));

    await sortButton(page, 'Random').click();
    await expect(sortButton(page, 'Random')).toHaveAttribute('aria-pressed', 'true');
    await expect(sortButton(page, 'Popular')).toHaveAttribute('aria-pressed', 'false');
    await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
    const random = await titles(page);
    expect(random).toHaveLength(20);
    expect(random).not.toEqual(recent);

    await sortButton(page, 'Recent').click();
    await expect.poll(() => titles(page)).toEqual(recent);
  });

  test('the type filter and search narrow the feed, and Reset restores Recent with nothing filtered', async ({
    page,
  }) => {
    await step(page, 'the feed filtered and searched, then reset', async () => {
      await openFeed(page);
      const recent = await titles(page);

      await typeFilter(page).selectOption({ label: 'EVENT' });
      await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
      await expect.poll(() => titles(page)).not.toEqual(recent);
      const events = cards(page);
      expect(await events.count()).toBeGreaterThan(0);
      for (const each of await events.all()) {
        await expect(each.locator('.post-types .post-chip').first()).toHaveText('EVENT');
        await expect(each.getByRole('link', { name: 'Add to calendar' })).toBeVisible();
      }

      // Every word must match, in any case, in the title, author or body.
      await typeFilter(page).selectOption({ label: 'All types of posts' });
      await search(page, 'BROADBAND rural');
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page).first()).toHaveAccessibleName(
        'Informational hearing: broadband deployment in rural counties',
      );
      await search(page, 'broadband zzzqqq');
      await expect(page.getByText('No posts match your search.')).toBeVisible();

      // A search and a type together, and an order: Reset clears them all.
      await search(page, 'water');
      await typeFilter(page).selectOption({ label: 'EVENT' });
      await sortButton(page, 'Popular').click();
      await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
      for (const each of await cards(page).all()) {
        await expect(each.locator('.post-types .post-chip').first()).toHaveText('EVENT');
      }

      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect(searchBox(page)).toHaveValue('');
      await expect(typeFilter(page)).toHaveValue('');
      await expect(sortButton(page, 'Recent')).toHaveAttribute('aria-pressed', 'true');
      await expect(sortButton(page, 'Popular')).toHaveAttribute('aria-pressed', 'false');
      await expect.poll(() => titles(page)).toEqual(recent);
    });
  });

  test('the second page of 20 loads as the member scrolls to the end', async ({ page, request }) => {
    // The demo seed holds more than one page of posts.
    const token = await tokenOf(request, DEMO.member);
    expect((await apiFeed(request, token, { offset: 20, limit: 20 })).length).toBeGreaterThan(0);

    const pages: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/posts/all')) pages.push(r.postDataJSON()?.offset as number);
    });
    await step(page, 'the second page loaded', async () => {
      await openFeed(page);
      await expect(cards(page)).toHaveCount(20);
      expect(pages).toEqual([0]);

      const second = page.waitForResponse(
        (r) => r.url().endsWith('/api/posts/all') && r.request().postDataJSON()?.offset === 20,
      );
      await cards(page).last().scrollIntoViewIfNeeded();
      const more = (await (await second).json()) as ApiPost[];
      expect(more.length).toBeGreaterThan(0);
      await expect.poll(() => cards(page).count()).toBeGreaterThan(20);
      // No post twice.
      const shown = await titles(page);
      expect(new Set(shown).size).toBe(shown.length);
      await expect(card(page, more[more.length - 1]?.post_title ?? '')).toBeAttached();
    });
  });
});

// ----------------------------------------------------------------------------------------------- comments

test('the read dialog shows a busy post’s earlier comments on request; the feed carries the latest', async ({
  page,
  request,
}) => {
  const member = await tokenOf(request, DEMO.member);
  const concierge = await tokenOf(request, DEMO.concierge);
  const title = `Busy thread ${RUN}`;
  const post = await apiAddPost(request, member, {
    post_title: title,
    post_body: '<p>Many voices on the drought plan.</p>',
    post_type: 1,
  });
  const voice = (n: number) => `Voice ${n} on the plan ${RUN}`;
  try {
    // Two members take turns, each well within their allowance.
    for (let n = 1; n <= 6; n++) {
      const response = await request.post('/api/posts/add-comment', {
        headers: { 'x-auth-token': n % 2 ? concierge : member },
        data: { post_id: post.post_id, comment_body: voice(n) },
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    const [listed] = await apiFeed(request, member, { search: title });
    expect(listed?.comments_count).toBe(6);
    expect(listed?.PostComments.map((c) => c.comment_body)).toEqual([voice(4), voice(5), voice(6)]);

    await signInAsMember(page);
    await openFeed(page);
    await search(page, title);
    const busy = card(page, title);
    await expect(busy.getByText('6 comments', { exact: true })).toBeAttached();
    await expect(busy.getByRole('list', { name: 'Latest comments' }).getByRole('listitem')).toHaveText([
      new RegExp(voice(5)),
      new RegExp(voice(6)),
    ]);

    const dialog = page.getByRole('dialog', { name: title });
    const bodies = dialog.locator('.comment__body');
    await step(page, 'the read dialog, its earlier comments shown', async () => {
      await busy.getByRole('button', { name: 'Keep Reading' }).click();
      await expect(dialog.getByRole('heading', { name: 'Comments (6)' })).toBeVisible();
      await expect(bodies).toHaveText([voice(4), voice(5), voice(6)]);

      const earlier = page.waitForResponse((r) => r.url().includes(`/api/posts/${post.post_id}/comments`));
      await dialog.getByRole('button', { name: 'Show earlier comments' }).click();
      expect((await earlier).ok()).toBe(true);
      await expect(bodies).toHaveText([voice(1), voice(2), voice(3), voice(4), voice(5), voice(6)]);
      await expect(dialog.getByRole('button', { name: 'Show earlier comments' })).toHaveCount(0);
    });
  } finally {
    await apiDeletePost(request, member, post.post_id);
  }
});

// ------------------------------------------------------------------------------------------------- safety

test('a hostile post body runs nothing in the feed or the read dialog', async ({ page, request }) => {
  const token = await tokenOf(request, DEMO.member);
  const title = `Harmless looking notice ${RUN} <img src=x onerror="window.__xss='title'">`;
  const post = await apiAddPost(request, token, {
    post_title: title,
    post_body:
      '<p>Read this.</p>' +
      `<img src=x onerror="window.__xss='img';alert('img')">` +
      `<script>window.__xss='script';alert('script')</script>` +
      `<a href="javascript:window.__xss='link'">a link</a>` +
      `<svg><animate onbegin="window.__xss='svg'" attributeName="x" dur="1s"/></svg>` +
      `<p style="background:url(javascript:alert(1))" onclick="window.__xss='click'">Click me</p>`,
    post_type: 1,
  });
  try {
    // What the server stored is already clean.
    expect(post.post_body).not.toMatch(/onerror|<script|javascript:|onbegin|onclick/i);

    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await signInAsMember(page);
    await openFeed(page);
    await search(page, `notice ${RUN}`);
    const hostile = card(page, title);
    // The title is text, not markup.
    await expect(hostile.getByRole('heading', { name: title })).toBeVisible();
    await hostile.getByText('Click me').click();
    await hostile.getByRole('button', { name: 'Keep Reading' }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByText('Read this.')).toBeVisible();
    await dialog.getByText('Click me').click();
    const link = dialog.getByRole('link', { name: 'a link' });
    if ((await link.count()) > 0) await expect(link).not.toHaveAttribute('href', /javascript:/i);
    await page.waitForTimeout(1500);

    expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The first feed page the gateway writes into the HTML is a JSON data block, which runs nothing.
    expect(
      await page
        .locator('[onerror], [onbegin], [onclick], script:not([src]):not([type="application/json"])')
        .count(),
    ).toBe(0);
  } finally {
    await apiDeletePost(request, token, post.post_id);
  }
});

test('a body borrowing the app’s classes or inline styles draws nothing over the page', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, DEMO.member);
  const title = `Session notice ${RUN}`;
  const post = await apiAddPost(request, token, {
    post_title: title,
    post_body:
      '<p class="toast-region toast">Your session has ended. Sign in again at rotunda-login.example</p>' +
      '<p style="position:fixed;inset:0;z-index:9999;background:#fff">Site closed</p>' +
      '<p class="ql-align-center">Centered</p>',
    post_type: 1,
  });
  try {
    expect(post.post_body).toBe(
      '<p>Your session has ended. Sign in again at rotunda-login.example</p><p>Site closed</p>' +
        '<p class="ql-align-center">Centered</p>',
    );
    await signInAsMember(page);
    await openFeed(page);
    await search(page, title);
    await card(page, title).getByRole('button', { name: 'Keep Reading' }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog.getByText('Site closed')).toBeVisible();
    // Every paragraph of the body sits in the flow of the page, none fixed over it.
    for (const body of await page.locator('.post-body').filter({ hasText: 'Site closed' }).all()) {
      const positions = await body
        .locator('p')
        .evaluateAll((paragraphs) => paragraphs.map((p) => getComputedStyle(p).position));
      expect(positions).toEqual(['static', 'static', 'static']);
    }
  } finally {
    await apiDeletePost(request, token, post.post_id);
  }
});

// -------------------------------------------------------------------------------------------------- layout

test.describe('the layout', () => {
  test.beforeEach(async ({ page }) => signInAsMember(page));

  test('two columns on a desktop; one at a time with the Posts / Headlines toggle on a phone', async ({
    page,
  }) => {
    const toggle = page.getByRole('group', { name: 'Show' });
    const headlines = page.getByRole('region', { name: 'Headlines' });
    await step(page, 'the Posts / Headlines toggle on a phone', async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await openFeed(page);
      await expect(headlines).toBeVisible();
      await expect(toggle).toBeHidden();
      const [posts, news] = [await feed(page).boundingBox(), await headlines.boundingBox()];
      expect(news?.x).toBeGreaterThan((posts?.x ?? 0) + (posts?.width ?? 0) - 1);

      for (const width of [400, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(toggle).toBeVisible();
        await expect(toggle.getByRole('button', { name: 'Posts' })).toHaveAttribute('aria-pressed', 'true');
        await expect(feed(page)).toBeVisible();
        await expect(headlines).toBeHidden();
        await toggle.getByRole('button', { name: 'Headlines' }).click();
        await expect(headlines).toBeVisible();
        await expect(feed(page)).toBeHidden();
        await toggle.getByRole('button', { name: 'Posts' }).click();
        await expect(feed(page)).toBeVisible();
        // Nothing sticks out sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    });
  });

  test('no axe findings on the square and the read and create dialogs', async ({ page }) => {
    await openFeed(page);
    await expectNoAxeFindings(page);

    await search(page, 'broadband rural');
    await cards(page).first().getByRole('button', { name: 'Keep Reading' }).click();
    const read = page.getByRole('dialog', { name: /broadband/ });
    await expect(read.getByRole('link', { name: 'Add to calendar' })).toBeVisible();
    await expectNoAxeFindings(page, { include: 'dialog[open]' });
    await read.getByRole('button', { name: 'Close', exact: true }).last().click();

    await page.getByRole('button', { name: 'Create Post' }).click();
    const create = page.getByRole('dialog', { name: 'Create Post' });
    await expect(create.getByRole('textbox', { name: 'Post Body' })).toBeVisible();
    await create.getByLabel('Type of Post').selectOption({ label: 'EVENT' });
    await expect(create.getByLabel('Event Type').getByRole('option', { name: 'OTHER' })).toBeAttached();
    await create.getByRole('button', { name: 'Save changes' }).click({ force: true });
    await expect(create.getByRole('alert')).toBeVisible();
    await expectNoAxeFindings(page, { include: 'dialog[open]' });
  });
});
