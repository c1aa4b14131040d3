// Moderation of the public square in the browser, against the running product (docs/product.md#moderation,
// ADR 0041): a member reports a post through the Report dialog; a contributor finds it on the Moderation
// screen (the sidebar counts open items) and hides it with a reason; a visitor's public square (the gateway's
// kept pages) drops it within seconds; its author still sees it, marked with the reason; the contributor
// restores it and visitors see it again. Three different members' reports hide a post at once (a repeat
// report counts once) and dismissing shows it again. The log lists the decisions. A suspended member still
// reads, but every write answers 403 with 'Your account is suspended until <date>: <reason>' and the shell
// shows that notice; lifting it restores writing. Members get 403 and visitors 401 on every moderation call;
// a member who is not a contributor reads 'Contributors only' at /moderation. Every post made here has a
// unique title and is deleted at the end.
import { randomBytes } from 'node:crypto';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { type Member, newMember } from './support/members.ts';
import { signInAs } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

/** What every write of a suspended member answers, and the shell's notice says. */
const SUSPENDED = /^Your account is suspended until [A-Z][a-z]+ \d{1,2}, \d{4}: /;

interface FeedPost {
  post_id: number;
  post_title: string;
  moderation?: { state: string; reason: string | null; automatic?: boolean };
}

interface QueueEntry {
  target_type: string;
  target_id: number;
  reports_count: number;
  reasons: string[];
  state: string;
  excerpt: string;
  author: { user_id: string; first_name: string; last_name: string };
}

interface LogEntry {
  action: string;
  target_type: string | null;
  target_id: number | null;
  user_id: string;
  reason: string;
  actor: { user_id: string };
}

// ------------------------------------------------------------------------------------------------ helpers

let author: Member;
let reporters: [Member, Member];
let contributor: ApiSession;
let postType = 1;
const posts: number[] = [];

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(status);
  return (await response.json()) as T;
}

async function addPost(request: APIRequestContext, title: string): Promise<number> {
  const post = await json<FeedPost>(
    await request.post('/api/posts/add-post', {
      headers: await author.session.headers(),
      data: { post_title: title, post_body: '<p>Call my desk at 916-555-0123.</p>', post_type: postType },
    }),
    201,
  );
  posts.push(post.post_id);
  return post.post_id;
}

async function report(request: APIRequestContext, as: ApiSession, postId: number, reason = 'spam') {
  return request.post('/api/reports', {
    headers: await as.headers(),
    data: { target_type: 'post', target_id: postId, reason },
  });
}

/** The post as a visitor's search finds it (through the gateway's shared pages), or undefined. */
async function visitorSearch(request: APIRequestContext, title: string): Promise<FeedPost | undefined> {
  const found = await json<FeedPost[]>(
    await request.post('/api/posts/all', { data: { offset: 0, limit: 20, search: title } }),
  );
  return found.find((post) => post.post_title === title);
}

/** The post as its author reads it in the feed. */
async function authorsView(request: APIRequestContext, title: string): Promise<FeedPost | undefined> {
  const found = await json<FeedPost[]>(
    await request.post('/api/posts/all', {
      headers: await author.session.headers(),
      data: { offset: 0, limit: 20, search: title },
    }),
  );
  return found.find((post) => post.post_title === title);
}

async function queue(request: APIRequestContext, status: 'open' | 'closed'): Promise<QueueEntry[]> {
  return json<QueueEntry[]>(
    await request.get('/api/reports', { headers: await contributor.headers(), params: { status } }),
  );
}

async function queued(request: APIRequestContext, postId: number): Promise<QueueEntry | undefined> {
  return (await queue(request, 'open')).find((e) => e.target_type === 'post' && e.target_id === postId);
}

async function signedIn(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, account);
  return { context, page };
}

const feed = (page: Page) => page.getByRole('region', { name: 'Posts' });
const card = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });

/** Opens (or reloads) the public square and waits until its first page is on screen. */
async function openFeed(page: Page) {
  await page.goto('/public-square');
  await expect(feed(page).getByRole('article').first()).toBeVisible();
  await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
}

/** Whether a fresh load of the visitor's public square shows the post: the kept pages, not this tab's memory. */
async function visitorSees(page: Page, title: string): Promise<boolean> {
  await openFeed(page);
  return (await card(page, title).count()) > 0;
}

/** The Moderation screen's entry for a reported target, named by its excerpt (a post's title). */
const entry = (page: Page, excerpt: string) => page.getByRole('article', { name: excerpt, exact: true });

/** Takes one decision in the Moderation screen through its dialog, and waits for the entry to say so. */
async function decideInScreen(
  page: Page,
  excerpt: string,
  action: 'Hide' | 'Restore' | 'Dismiss',
  why: string,
) {
  const row = entry(page, excerpt);
  await row.getByRole('button', { name: action, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${action} this post` });
  await dialog.getByLabel('Reason').fill(why);
  await dialog.getByRole('button', { name: `${action} post` }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('status')).toContainText('report');
}

// ------------------------------------------------------------------------------------------------ set-up

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  author = await newMember(request, { firstName: 'Ada', lastName: `Author${RUN}` }, { withProfile: true });
  reporters = [
    await newMember(request, { firstName: 'Rita', lastName: `Reporter${RUN}` }, { withProfile: false }),
    await newMember(request, { firstName: 'Ravi', lastName: `Reporter${RUN}` }, { withProfile: false }),
  ];
  contributor = await ApiSession.logIn(request, DEMO.concierge);
  const types = await json<{ posttype_id: number; post_type: string }[]>(
    await request.get('/api/posts/post-types'),
  );
  postType = types.find((type) => type.post_type !== 'EVENT')?.posttype_id ?? 1;
});

test.afterAll(async ({ request }) => {
  // A failed step may have left the author suspended: lift it (404 when none runs), then delete this run's posts.
  await request.delete(`/api/moderation/suspensions/${encodeURIComponent(author.session.user.user_id)}`, {
    headers: await contributor.headers(),
  });
  for (const postId of posts) {
    await expect
      .poll(
        async () =>
          (
            await request.delete('/api/posts/delete-post', {
              headers: await author.session.headers(),
              data: { post_id: postId },
            })
          ).status(),
        { timeout: 10_000 },
      )
      .toBeLessThan(500);
  }
});

// ------------------------------------------------------------------------------------------------ the tests

const hiddenTitle = `Staffer phone number ${RUN}`;
const hideReason = `Shares a staffer's personal phone number (${RUN})`;
const restoreReason = `The number is the office's public line (${RUN})`;

test('report → queue → hide: gone for visitors within seconds, marked for its author → restore', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await addPost(request, hiddenTitle);

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const contexts: BrowserContext[] = [visitorContext];
  let moderation: Page | undefined;
  try {
    await test.step('a visitor sees the new post on the public square', async () => {
      await expect.poll(() => visitorSees(visitor, hiddenTitle), { timeout: 20_000 }).toBe(true);
    });

    await test.step('a member reports it through the Report dialog', async () => {
      const { context, page } = await signedIn(browser, DEMO.member);
      contexts.push(context);
      await openFeed(page);
      const post = card(page, hiddenTitle);
      await post.getByRole('button', { name: 'Report post' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report this post' });
      await expect(dialog).toBeVisible();
      // Sending without a reason says what is missing.
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByText('Choose a reason for the report.')).toBeVisible();
      await dialog.getByRole('radio', { name: 'Personal information' }).check();
      await dialog.getByLabel('Note (optional)').fill('A mobile number in the body');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Thanks — a contributor will review it.');
      await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
      await expect(dialog).toBeHidden();
      await expect(post.getByRole('button', { name: 'Reported post' })).toBeVisible();
    });

    await test.step('a contributor sees it on the Moderation screen and hides it with a reason', async () => {
      const { context, page } = await signedIn(browser, DEMO.concierge);
      contexts.push(context);
      moderation = page;
      await openFeed(page);
      // The sidebar counts the open items, this one among them.
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: /^Moderation, \d+ open items?$/ })).toBeVisible();
      await nav.getByRole('link', { name: /^Moderation/ }).click();
      await expect(page).toHaveURL(/\/moderation$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Moderation' })).toBeVisible();
      const row = entry(page, hiddenTitle);
      await expect(row).toBeVisible();
      await expect(row).toContainText('Personal information');
      await expect(row).toContainText('A mobile number in the body');
      await expect(row).toContainText(`${author.account.firstName} ${author.account.lastName}`);
      await decideInScreen(page, hiddenTitle, 'Hide', hideReason);
      await expect(row).toContainText('Hidden');
    });

    await test.step("the visitor's public square no longer shows it within seconds, nor does search", async () => {
      await expect.poll(() => visitorSees(visitor, hiddenTitle), { timeout: 15_000 }).toBe(false);
      expect(await visitorSearch(request, hiddenTitle)).toBeUndefined();
    });

    await test.step('its author still sees it, marked with the reason', async () => {
      const { context, page } = await signedIn(browser, author.account);
      contexts.push(context);
      await openFeed(page);
      await expect(card(page, hiddenTitle)).toContainText(`Hidden by a contributor: ${hideReason}`);
      expect((await authorsView(request, hiddenTitle))?.moderation).toMatchObject({
        state: 'hidden',
        reason: hideReason,
      });
    });

    await test.step('the contributor restores it, and visitors see it again', async () => {
      if (!moderation) throw new Error('the Moderation screen was not opened');
      await decideInScreen(moderation, hiddenTitle, 'Restore', restoreReason);
      await expect.poll(() => visitorSees(visitor, hiddenTitle), { timeout: 15_000 }).toBe(true);
      expect(await visitorSearch(request, hiddenTitle)).toBeDefined();
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});

const autoTitle = `Buy cheap followers ${RUN}`;

test('three different members reporting one post hide it at once; a repeat report counts once', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const postId = await addPost(request, autoTitle);
  await expect.poll(async () => (await visitorSearch(request, autoTitle)) !== undefined).toBe(true);

  await test.step('the first report through the Report dialog', async () => {
    const { context, page } = await signedIn(browser, DEMO.member);
    try {
      await openFeed(page);
      await card(page, autoTitle).getByRole('button', { name: 'Report post' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report this post' });
      await dialog.getByRole('radio', { name: 'Spam' }).check();
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Thanks — a contributor will review it.');
    } finally {
      await context.close();
    }
  });

  await test.step('a second member reports it twice: two reports, still visible', async () => {
    const [second] = reporters;
    const first = await json<{ report_id: number }>(await report(request, second.session, postId), 201);
    const again = await json<{ report_id: number }>(await report(request, second.session, postId), 201);
    expect(again.report_id).toBe(first.report_id);
    expect(await queued(request, postId)).toMatchObject({ reports_count: 2, state: 'visible' });
    expect(await visitorSearch(request, autoTitle)).toBeDefined();
  });

  await test.step('a third member reports it: hidden at once, for visitors too', async () => {
    const [, third] = reporters;
    await json(await report(request, third.session, postId, 'harassment'), 201);
    expect(await queued(request, postId)).toMatchObject({ reports_count: 3, state: 'hidden' });
    await expect.poll(() => visitorSearch(request, autoTitle), { timeout: 10_000 }).toBeUndefined();
    expect((await authorsView(request, autoTitle))?.moderation).toMatchObject({
      state: 'hidden',
      automatic: true,
    });
  });

  await test.step('dismissing the reports shows it again', async () => {
    await json(
      await request.post('/api/reports/decide', {
        headers: await contributor.headers(),
        data: { target_type: 'post', target_id: postId, action: 'dismiss', reason: `Not spam (${RUN})` },
      }),
    );
    expect(await queued(request, postId)).toBeUndefined();
    await expect.poll(() => visitorSearch(request, autoTitle), { timeout: 10_000 }).toBeDefined();
  });
});

test('the log lists the decisions, newest first, with who and why', async ({ browser, request }) => {
  const log = await json<LogEntry[]>(
    await request.get('/api/moderation/log', { headers: await contributor.headers() }),
  );
  const ours = log.filter((e) => e.user_id === author.session.user.user_id).map((e) => e.action);
  // Newest first: the dismissal, the automatic hiding, the restoration, the hiding.
  expect(ours.slice(0, 4)).toEqual(['dismiss', 'auto_hide', 'restore', 'hide']);
  const hidden = log.find((e) => e.action === 'hide' && e.reason === hideReason);
  expect(hidden).toMatchObject({ target_type: 'post', actor: { user_id: contributor.user.user_id } });

  const { context, page } = await signedIn(browser, DEMO.concierge);
  try {
    await page.goto('/moderation');
    await page.getByRole('tab', { name: 'Log' }).click();
    const table = page.getByRole('region', { name: 'Moderation log' });
    await expect(table.getByRole('row').filter({ hasText: hideReason })).toContainText('Hidden');
    await expect(table.getByRole('row').filter({ hasText: restoreReason })).toContainText('Restored');
  } finally {
    await context.close();
  }
});

test('a suspended member reads but cannot write, and sees the notice; lifting restores writing', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const why = `Repeated spam (${RUN})`;
  const authorName = `${author.account.firstName} ${author.account.lastName}`;
  const contexts: BrowserContext[] = [];
  let moderation: Page | undefined;
  try {
    await test.step('a contributor suspends the author from the Moderation screen', async () => {
      const { context, page } = await signedIn(browser, DEMO.concierge);
      contexts.push(context);
      moderation = page;
      await page.goto('/moderation');
      await page.getByRole('tab', { name: 'Closed' }).click();
      const row = entry(page, hiddenTitle);
      await row.getByRole('button', { name: `Suspend ${authorName}` }).click();
      const dialog = page.getByRole('dialog', { name: `Suspend ${authorName}` });
      await dialog.getByLabel(/^Days/).fill('3');
      await dialog.getByLabel('Reason').fill(why);
      await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(row.getByRole('status')).toContainText(`${authorName} is suspended until`);
    });

    const { context, page } = await signedIn(browser, author.account);
    contexts.push(context);
    let notice = '';

    await test.step('the suspended member still reads, and the shell shows the notice', async () => {
      await expect
        .poll(
          async () => {
            await openFeed(page);
            return page.getByText(SUSPENDED).count();
          },
          { timeout: 15_000 },
        )
        .toBe(1);
      notice = (await page.getByText(SUSPENDED).textContent()) ?? '';
      expect(notice).toMatch(new RegExp(`: ${why.replace(/[()]/g, '\\$&')}$`));
      await expect(card(page, autoTitle)).toBeVisible();
      // On every page: the directory too.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Directory' }).click();
      await expect(page.getByText(notice, { exact: true })).toBeVisible();
    });

    await test.step('every write answers 403 with the same words', async () => {
      const headers = await author.session.headers();
      const profileId = author.profile?.profile_id;
      const writes: [string, () => ReturnType<APIRequestContext['post']>][] = [
        [
          'a post',
          () =>
            request.post('/api/posts/add-post', {
              headers,
              data: { post_title: `Suspended ${RUN}`, post_body: '<p>x</p>', post_type: postType },
            }),
        ],
        [
          'a comment',
          () =>
            request.post('/api/posts/add-comment', {
              headers,
              data: { post_id: posts[1], comment_body: 'still here' },
            }),
        ],
        [
          'a like',
          () => request.post('/api/posts/add-like', { headers, data: { post_id: posts[1], liked: true } }),
        ],
        [
          'a report',
          () =>
            request.post('/api/reports', {
              headers,
              data: { target_type: 'post', target_id: posts[1], reason: 'other' },
            }),
        ],
        [
          'a profile edit',
          () =>
            request.post('/api/profiles/update-profile', {
              headers,
              data: { profile_id: profileId, mobile_phone: '9165550142' },
            }),
        ],
        [
          'a bio',
          () => request.post(`/api/profiles/bio/${profileId}`, { headers, data: { user_bio: 'Suspended' } }),
        ],
      ];
      for (const [what, write] of writes) {
        const answer = await write();
        expect.soft(answer.status(), `${what}: ${await answer.text()}`).toBe(403);
        expect
          .soft(
            ((await answer.json().catch(() => ({}))) as { errors?: { msg: string }[] }).errors?.[0]?.msg,
            what,
          )
          .toBe(notice);
      }
    });

    await test.step('the contributor lifts it in one click from the log; writing works again', async () => {
      if (!moderation) throw new Error('the Moderation screen was not opened');
      await moderation.getByRole('tab', { name: 'Log' }).click();
      // The suspension's entry names the member, and is about no post or comment.
      const suspension = moderation
        .getByRole('region', { name: 'Moderation log' })
        .getByRole('row')
        .filter({ hasText: why });
      await expect(suspension).toContainText('Suspended');
      await expect(suspension).toContainText(authorName);
      await expect(suspension).not.toContainText(/null|Post \d|Comment \d/);
      await moderation.getByRole('button', { name: `Lift the suspension of ${authorName}` }).click();
      await expect(moderation.getByText('The suspension is lifted.')).toBeVisible();
      await expect
        .poll(
          async () =>
            (
              await request.post('/api/posts/add-like', {
                headers: await author.session.headers(),
                data: { post_id: posts[1], liked: true },
              })
            ).status(),
          { timeout: 15_000 },
        )
        .toBe(200);
      await request.post('/api/posts/add-like', {
        headers: await author.session.headers(),
        data: { post_id: posts[1], liked: false },
      });
      await openFeed(page);
      await expect(page.getByText(SUSPENDED)).toHaveCount(0);
    });
  } finally {
    for (const context of contexts) await context.close();
  }
});

test('members get 403 and visitors 401 on every moderation call', async ({ request }) => {
  const [plain] = reporters;
  const someone = encodeURIComponent(author.session.user.user_id);
  const calls: { method: string; path: string; data?: unknown; members: number }[] = [
    { method: 'GET', path: '/api/reports?status=open', members: 403 },
    { method: 'GET', path: '/api/reports?status=closed', members: 403 },
    {
      method: 'POST',
      path: '/api/reports/decide',
      data: { target_type: 'post', target_id: posts[0], action: 'hide', reason: 'no' },
      members: 403,
    },
    {
      method: 'POST',
      path: '/api/moderation/suspensions',
      data: { user_id: author.session.user.user_id, days: 1, reason: 'no' },
      members: 403,
    },
    { method: 'DELETE', path: `/api/moderation/suspensions/${someone}`, members: 403 },
    { method: 'GET', path: '/api/moderation/log', members: 403 },
  ];
  for (const call of calls) {
    const asMember = await request.fetch(call.path, {
      method: call.method,
      headers: await plain.session.headers(),
      data: call.data,
    });
    expect.soft(asMember.status(), `${call.method} ${call.path} as a member`).toBe(call.members);
    const asVisitor = await request.fetch(call.path, { method: call.method, data: call.data });
    expect.soft(asVisitor.status(), `${call.method} ${call.path} as a visitor`).toBe(401);
  }
  // A visitor may neither report nor ask about a suspension.
  const visitorReport = await request.post('/api/reports', {
    data: { target_type: 'post', target_id: posts[0], reason: 'spam' },
  });
  expect.soft(visitorReport.status()).toBe(401);
  expect.soft((await request.get('/api/moderation/me')).status()).toBe(401);
  // Nothing changed: the author is not suspended, and the post is still visible.
  expect(
    (
      await json<{ suspension: unknown }>(
        await request.get('/api/moderation/me', { headers: await author.session.headers() }),
      )
    ).suspension,
  ).toBeNull();
  expect(await visitorSearch(request, hiddenTitle)).toBeDefined();
});

test("a member who is not a contributor has no Moderation entry and reads 'Contributors only'", async ({
  page,
}) => {
  await signInAs(page, DEMO.member);
  await openFeed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Directory' })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^Moderation/ })).toHaveCount(0);
  await page.goto('/moderation');
  await expect(page.getByRole('heading', { level: 1, name: 'Contributors only' })).toBeVisible();
});
