// "My issue areas" on the public square, against the running product: a member whose profile covers an issue
// area turns the filter on and sees only posts by people sharing one (another member's posts, outside it, never),
// and the next page as they scroll; an author who takes up the issue area moves their posts in, through the
// profile service's announcement; a visitor and a member whose profile covers no issue area are not offered the
// filter, and a visitor asking for it is told to log in. Screenshots at 1280 and 400 px; no axe
// finding after any step of the journey (support/journey.ts). The issue area and every post are this run's own, so re-runs and other spec files do not disturb it.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, step, test } from './support/journey.ts';
import { type Member, newMember } from './support/members.ts';
import { signInAs } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
/** Posts by the author sharing the reader's issue area: more than a page, so the second page shows on scrolling. */
const SHARED_POSTS = 22;

const feed = (page: Page) => page.getByRole('region', { name: 'Posts' });
const cards = (page: Page) => feed(page).getByRole('article');
const myIssuesButton = (page: Page) => page.getByRole('button', { name: 'My issue areas', exact: true });
const titles = (page: Page) => cards(page).locator('h3').allInnerTexts();

async function addIssueArea(request: APIRequestContext, member: Member, name: string): Promise<number> {
  const response = await request.post('/api/issues/add-issue-area', {
    headers: await member.session.headers(),
    data: { issue_name: name },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).issue_id as number;
}

async function coverIssue(request: APIRequestContext, member: Member, issueId: number) {
  const response = await request.post('/api/issues/add-user-issue', {
    headers: await member.session.headers(),
    data: { profile_id: member.profile?.profile_id, issue_id: issueId },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function addPost(request: APIRequestContext, member: Member, title: string) {
  const response = await request.post('/api/posts/add-post', {
    headers: await member.session.headers(),
    data: { post_title: title, post_body: `<p>${title}, in the issue areas.</p>`, post_type: 1 },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The titles of every "My issue areas" page the server answers the member. */
async function apiMyIssues(request: APIRequestContext, member: Member): Promise<string[]> {
  const all: string[] = [];
  for (let offset = 0; ; offset += 50) {
    const response = await request.post('/api/posts/all', {
      headers: await member.session.headers(),
      data: { my_issues: true, offset, limit: 50 },
    });
    expect(response.status()).toBe(200);
    const page = (await response.json()) as { post_title: string }[];
    all.push(...page.map((post) => post.post_title));
    if (page.length < 50) return all;
  }
}

async function openFeed(page: Page) {
  await page.goto('/public-square');
  await expect(cards(page).first()).toBeVisible();
  await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
}

test.describe.configure({ mode: 'serial' });

let reader: Member;
let sharing: Member;
let other: Member;
let issueId: number;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  [reader, sharing, other] = await Promise.all([
    newMember(request, { firstName: 'Rhea', lastName: `Reader${RUN}` }, { withProfile: true }),
    newMember(request, { firstName: 'Sol', lastName: `Sharing${RUN}` }, { withProfile: true }),
    newMember(request, { firstName: 'Otto', lastName: `Other${RUN}` }, { withProfile: true }),
  ]);
  issueId = await addIssueArea(request, reader, `Issue ${RUN}`);
  await coverIssue(request, reader, issueId);
  await coverIssue(request, sharing, issueId);
  for (let n = 1; n <= SHARED_POSTS; n++) await addPost(request, sharing, `Shared ${RUN} ${n}`);
  for (let n = 1; n <= 2; n++) await addPost(request, other, `Other ${RUN} ${n}`);
});

test('a member turns on "My issue areas" and sees only posts of people sharing one, paging on scrolling', async ({
  page,
}, info) => {
  await signInAs(page, reader.account);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openFeed(page);
  const button = myIssuesButton(page);
  await expect(button).toBeVisible();
  await expect(button).toHaveAttribute('aria-pressed', 'false');

  const pages: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/posts/all') && r.postDataJSON()?.my_issues === true)
      pages.push(r.postDataJSON()?.offset as number);
  });
  await step(page, 'the filter on', async () => {
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(cards(page)).toHaveCount(20);
    await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
    // Newest first, each by the author sharing the issue area.
    expect(await titles(page)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Shared ${RUN} ${SHARED_POSTS - i}`),
    );
    await page.screenshot({ path: info.outputPath('my-issues-1280.png') });
  });

  await step(page, 'the second page', async () => {
    await cards(page).last().scrollIntoViewIfNeeded();
    await expect(cards(page)).toHaveCount(SHARED_POSTS);
    expect(pages).toEqual([0, 20]);
    await expect(page.getByRole('status').filter({ hasText: /^Loaded \d+ more/ })).toHaveText(
      `Loaded ${SHARED_POSTS - 20} more: ${SHARED_POSTS} posts shown`,
    );
  });
  const shown = await titles(page);
  expect(shown.every((title) => title.startsWith(`Shared ${RUN} `))).toBe(true);
  expect(new Set(shown).size).toBe(SHARED_POSTS);

  // Off again: the whole feed, the other member's posts first among this run's.
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await expect
    .poll(async () => (await titles(page)).some((title) => title.startsWith(`Other ${RUN}`)))
    .toBe(true);

  await step(page, 'the filter on again at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 860 });
    await button.click();
    await expect(cards(page).first()).toHaveAccessibleName(`Shared ${RUN} ${SHARED_POSTS}`);
    await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: info.outputPath('my-issues-400.png'), fullPage: false });
  });
});

test('an author who takes up the issue area moves their posts in', async ({ request }) => {
  expect((await apiMyIssues(request, reader)).filter((t) => t.startsWith(`Other ${RUN}`))).toEqual([]);
  await coverIssue(request, other, issueId);
  await expect
    .poll(async () => (await apiMyIssues(request, reader)).filter((t) => t.startsWith(`Other ${RUN}`)))
    .toEqual([`Other ${RUN} 2`, `Other ${RUN} 1`]);
});

test('a visitor and a member whose profile covers no issue area are not offered the filter', async ({
  page,
  browser,
  request,
}) => {
  await openFeed(page);
  await expect(page.getByRole('button', { name: 'Popular', exact: true })).toBeVisible();
  await expect(myIssuesButton(page)).toHaveCount(0);
  const visitorAsks = await request.post('/api/posts/all', { data: { my_issues: true } });
  expect(visitorAsks.status()).toBe(401);
  expect(await visitorAsks.json()).toEqual({ errors: [{ msg: 'Access Restricted. Please login.' }] });

  const none = await newMember(request, { firstName: 'Nia', lastName: `None${RUN}` }, { withProfile: true });
  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await signInAs(memberPage, none.account);
  const checked = memberPage.waitForResponse((r) => r.url().endsWith('/api/posts/profile-info'));
  await openFeed(memberPage);
  expect(await (await checked).json()).toMatchObject({ has_issue_areas: false });
  await expect(memberPage.getByRole('button', { name: 'Popular', exact: true })).toBeVisible();
  await expect(myIssuesButton(memberPage)).toHaveCount(0);
  expect(await apiMyIssues(request, none)).toEqual([]);
  await context.close();
});
