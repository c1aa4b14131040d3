// Notifications in the browser, against the running product (docs/notifications.md, ADR 0042): a member
// comments on another member's post, mentioning her through the comment line's "@" completion (typed, chosen
// with the keyboard), and likes it, as does a third member within the hour; the author's bell counts up live,
// without a reload; her Notifications page lists a comment, a mention and one like notification for both
// likes, each in words and linking to the post; the mention in the comment links to her profile; opening one
// marks it read and "Mark all as read" empties the bell. A rejected claim and a contributor's hiding of a
// post reach their members as 'claim' and 'moderation' notifications. Email: choices made in Settings stay
// after a reload; a mention is mailed at once with one-click unsubscribe headers, whose POST (no sign-in)
// turns every mail off; the /unsubscribe page does the same from a digest sent by `npm run admin --
// send-digests`; account mail carries no unsubscribe header. Every member here is new, so the tests run in
// any order and against a product that has run them before.
import { randomBytes } from 'node:crypto';
import { type Browser, expect, type Page, request as requests, test } from '@playwright/test';
import { baseURL } from '../playwright.config.ts';
import { DEMO } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { waitForMail } from './support/mail.ts';
import { type Member, newMember } from './support/members.ts';
import {
  ALL_OFF,
  addComment,
  addPost,
  headersOf,
  json,
  like,
  notificationsOf,
  plainPostType,
  preferencesOf,
  sendDigests,
  setPreferences,
  uniqueSurname,
  unsubscribeUrl,
} from './support/notifications.ts';
import { unclaimedProfiles } from './support/profiles.ts';
import { signInAs } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

let author: Member;
let commenter: Member;
let liker: Member;
let postType = 1;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  author = await newMember(
    request,
    { firstName: 'Olive', lastName: uniqueSurname('Author') },
    { withProfile: true },
  );
  commenter = await newMember(
    request,
    { firstName: 'Cora', lastName: uniqueSurname('Writer') },
    { withProfile: true },
  );
  liker = await newMember(
    request,
    { firstName: 'Liam', lastName: uniqueSurname('Reader') },
    { withProfile: true },
  );
  postType = await plainPostType(request);
});

async function signedIn(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, account);
  return { context, page };
}

const fullName = (member: Member) => `${member.account.firstName} ${member.account.lastName}`;
const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
const feed = (page: Page) => page.getByRole('region', { name: 'Posts' });
const card = (page: Page, title: string) => feed(page).getByRole('article', { name: title, exact: true });

/** Opens the public square and narrows it to one post by its title. */
async function openPost(page: Page, title: string) {
  await page.goto('/public-square');
  await expect(feed(page).getByRole('article').first()).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(title);
  await expect(card(page, title)).toBeVisible();
  await expect(feed(page)).toHaveAttribute('aria-busy', 'false');
}

const item = (page: Page, text: string) =>
  page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: text });

test('comments, likes and a mention reach the author live; her page lists, opens and marks them read', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const title = `Water bond hearing moved ${RUN}`;
  const postId = await addPost(request, author.session, title, postType);
  const profileId = author.profile?.profile_id ?? 0;
  // The "@" completion asks the directory: wait until the author's new profile is found there.
  await expect
    .poll(async () => {
      const found = await json<{ profiles: { profile_id: number }[] }>(
        await request.get('/api/profiles/search', {
          headers: await commenter.session.headers(),
          params: { search: fullName(author), offset: 0, limit: 6 },
        }),
      );
      return found.profiles.map((p) => p.profile_id);
    })
    .toContain(profileId);

  const owner = await signedIn(browser, author.account);
  const writer = await signedIn(browser, commenter.account);
  try {
    await test.step('the author has no unread notifications', async () => {
      await owner.page.goto('/public-square');
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications');
      // Marks this document: a reload would lose it.
      await owner.page.evaluate(() => {
        (window as unknown as { e2eSameDocument: boolean }).e2eSameDocument = true;
      });
    });

    await test.step('a member comments, mentioning her through the "@" completion chosen with the keyboard', async () => {
      await openPost(writer.page, title);
      const line = card(writer.page, title).getByRole('combobox', { name: 'Add comment' });
      await line.click();
      await line.pressSequentially(
        `Thanks @${author.account.firstName} ${author.account.lastName.slice(0, 8)}`,
      );
      const list = writer.page.getByRole('listbox', { name: 'People to mention' });
      await expect(list.getByRole('option', { name: new RegExp(fullName(author)) })).toBeVisible();
      await expect(line).toHaveAttribute('aria-expanded', 'true');
      await expect(list.getByRole('option', { selected: true })).toContainText(fullName(author));
      await line.press('Enter');
      await expect(list).toBeHidden();
      await expect(line).toHaveValue(new RegExp(`^Thanks @${fullName(author)}\\s?$`));
      await line.pressSequentially(' — see you Thursday');
      const sent = writer.page.waitForResponse((r) => r.url().endsWith('/api/posts/add-comment'));
      await line.press('Enter');
      expect((await sent).status()).toBe(201);
      // The mention in the comment links to her profile.
      const comments = card(writer.page, title).getByRole('list', { name: 'Latest comments' });
      await expect(comments.getByRole('link', { name: `@${fullName(author)}` })).toHaveAttribute(
        'href',
        `/profile/${profileId}`,
      );
    });

    await test.step('her bell counts the comment and the mention without a reload', async () => {
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications, 2 unread', { timeout: 15_000 });
      await expect(bell(owner.page)).toHaveText('2');
    });

    await test.step('two members like the post within the hour: one more notification', async () => {
      const heart = card(writer.page, title).getByRole('button', { name: /^Like/ });
      await heart.click();
      await expect(heart).toHaveAttribute('aria-pressed', 'true');
      await like(request, liker.session, postId);
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications, 3 unread', { timeout: 15_000 });
      await expect
        .poll(
          async () =>
            (await notificationsOf(request, author.session)).items.find((n) => n.kind === 'like')?.text,
        )
        .toMatch(/ and 1 other liked your post /);
      expect(
        await owner.page.evaluate(() => (window as unknown as { e2eSameDocument?: boolean }).e2eSameDocument),
      ).toBe(true);
    });

    await test.step('the Notifications page lists each kind in words, linking to the post', async () => {
      await bell(owner.page).click();
      await expect(owner.page).toHaveURL(/\/notifications$/);
      await expect(owner.page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
      const postPath = `/public-square/post/${postId}`;
      const texts = [
        `${fullName(commenter)} commented on your post “${title}”`,
        `${fullName(commenter)} mentioned you in a comment on “${title}”`,
      ];
      const likes = new RegExp(
        `^(${fullName(commenter)}|${fullName(liker)}) and 1 other liked your post “${title}”`,
      );
      for (const text of texts) {
        await expect(item(owner.page, text)).toHaveCount(1);
        await expect(item(owner.page, text).getByRole('link')).toHaveAttribute('href', postPath);
        await expect(item(owner.page, text)).toContainText('Unread:');
      }
      const liked = owner.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').filter({
        hasText: ' liked your post ',
      });
      await expect(liked).toHaveCount(1);
      await expect(liked.locator('.notification__text')).toHaveText(likes);
      await expect(owner.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem')).toHaveCount(
        3,
      );
      await expect(owner.page.getByText('3 unread', { exact: true })).toBeVisible();
    });

    await test.step('opening one marks it read', async () => {
      const comment = item(owner.page, `${fullName(commenter)} commented on your post`);
      await comment.getByRole('link').click();
      await expect(owner.page).toHaveURL(new RegExp(`/public-square/post/${postId}$`));
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications, 2 unread');
      await owner.page.goBack();
      await expect(owner.page).toHaveURL(/\/notifications$/);
      await expect(comment).not.toContainText('Unread:');
      await expect(item(owner.page, 'mentioned you')).toContainText('Unread:');
      await expect.poll(async () => (await notificationsOf(request, author.session)).unread_count).toBe(2);
    });

    await test.step('"Mark all as read" empties the bell', async () => {
      await owner.page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(owner.page.getByText('No unread notifications', { exact: true })).toBeVisible();
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications');
      await expect(owner.page.getByRole('list', { name: 'Notifications' })).not.toContainText('Unread:');
      await owner.page.reload();
      await expect(owner.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem')).toHaveCount(
        3,
      );
      await expect(bell(owner.page)).toHaveAccessibleName('Notifications');
      expect((await notificationsOf(request, author.session)).unread_count).toBe(0);
    });
  } finally {
    await owner.context.close();
    await writer.context.close();
  }
});

test("a claim decision and a moderation decision reach their members as 'claim' and 'moderation'", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const contributor = await ApiSession.logIn(request, DEMO.concierge);
  const claimant = await newMember(
    request,
    { firstName: 'Clara', lastName: uniqueSurname('Claimant') },
    { withProfile: false },
  );

  const target = (await unclaimedProfiles(request, await contributor.token())).find(
    (p) => p.work_email !== DEMO.newbie.email && !p.claim_pending,
  );
  expect(target, 'an unclaimed demo profile to claim').toBeTruthy();
  if (!target) return;
  const claimText = `Your claim of the profile of ${target.first_name} ${target.last_name} was not accepted`;

  await test.step('a contributor rejects a claim', async () => {
    await json(
      await request.post(`/api/profiles/claim/${target.profile_id}`, {
        headers: await claimant.session.headers(),
      }),
    );
    const pending = await json<{ claim_id: number; profile_id: number }[]>(
      await request.get('/api/profiles/claims', { headers: await contributor.headers() }),
    );
    const claim = pending.find((c) => c.profile_id === target.profile_id);
    expect(claim, 'the pending claim').toBeTruthy();
    await json(
      await request.post(`/api/profiles/claims/${claim?.claim_id}`, {
        headers: await contributor.headers(),
        data: { decision: 'reject' },
      }),
    );
  });

  const title = `Committee aide's mobile ${RUN}`;
  const reason = `Shares a personal phone number (${RUN})`;
  const postId = await addPost(request, author.session, title, postType);
  await test.step('a member reports a post and a contributor hides it', async () => {
    await json(
      await request.post('/api/reports', {
        headers: await claimant.session.headers(),
        data: { target_type: 'post', target_id: postId, reason: 'personal_information' },
      }),
      201,
    );
    await json(
      await request.post('/api/reports/decide', {
        headers: await contributor.headers(),
        data: { target_type: 'post', target_id: postId, action: 'hide', reason },
      }),
    );
  });

  const claimantPage = await signedIn(browser, claimant.account);
  const authorPage = await signedIn(browser, author.account);
  try {
    await test.step("the claimant reads the claim's outcome and her report's", async () => {
      const { page } = claimantPage;
      await page.goto('/notifications');
      await expect(item(page, claimText)).toBeVisible();
      await expect(item(page, 'The post you reported was')).toBeVisible();
      const kinds = (await notificationsOf(request, claimant.session)).items.map((n) => n.kind).sort();
      expect(kinds).toEqual(['claim', 'moderation']);
    });

    await test.step('the author reads that her post was hidden, and why', async () => {
      const { page } = authorPage;
      await page.goto('/notifications');
      const hidden = item(page, `Your post “${title}” was hidden by a contributor. Reason: ${reason}`);
      await expect(hidden).toBeVisible();
      await expect(hidden.getByRole('link')).toHaveAttribute('href', `/public-square/post/${postId}`);
      const moderation = (await notificationsOf(request, author.session)).items.find(
        (n) => n.kind === 'moderation',
      );
      expect(moderation?.target).toMatchObject({ type: 'post', id: postId });
    });
  } finally {
    await claimantPage.context.close();
    await authorPage.context.close();
    await request.post('/api/reports/decide', {
      headers: await contributor.headers(),
      data: { target_type: 'post', target_id: postId, action: 'restore', reason: `Test over (${RUN})` },
    });
  }
});

test('email choices made in Settings stay after a reload', async ({ page }) => {
  const member = await newMember(
    page.request,
    { firstName: 'Pia', lastName: uniqueSurname('Chooser') },
    { withProfile: false },
  );
  await signInAs(page, member.account);
  await page.goto('/public-square');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  const digest = page.getByRole('group', { name: 'Digest of what I missed' });
  // A new member's choices: a weekly digest, every kind mailed at once.
  await expect(digest.getByRole('radio', { name: 'Weekly' })).toBeChecked();
  const claims = page.getByRole('checkbox', { name: 'My claim of a profile is decided' });
  await expect(claims).toBeChecked();
  const save = page.getByRole('button', { name: 'Save email choices' });
  await expect(save).toBeDisabled();

  await digest.getByRole('radio', { name: 'Daily' }).check();
  await claims.uncheck();
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Your email choices are saved.' })).toBeVisible();

  await page.reload();
  await expect(
    page.getByRole('group', { name: 'Digest of what I missed' }).getByRole('radio', { name: 'Daily' }),
  ).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'My claim of a profile is decided' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Someone mentions me' })).toBeChecked();
  expect(await preferencesOf(page.request, member.session)).toEqual({
    email_digest: 'daily',
    email_now: { mention: true, claim: false, moderation: true },
  });
});

test('a mention is mailed at once, unsubscribable in one click without signing in', async ({ request }) => {
  const mentioned = await newMember(
    request,
    { firstName: 'Mona', lastName: uniqueSurname('Mailed') },
    { withProfile: true },
  );
  const title = `Budget subcommittee agenda ${RUN}`;

  await test.step('account mail (the confirmation) has no unsubscribe header', async () => {
    const confirmation = await waitForMail(request, mentioned.account.email, /Confirm your email/);
    expect(Object.keys(await headersOf(request, confirmation))).not.toContain('list-unsubscribe');
  });

  const postId = await addPost(request, author.session, title, postType);
  await addComment(request, commenter.session, postId, `Looping in @${fullName(mentioned)}`, [
    mentioned.profile?.profile_id ?? 0,
  ]);
  const mail = await waitForMail(
    request,
    mentioned.account.email,
    new RegExp(`${fullName(commenter)} mentioned you in a comment on`),
  );
  const headers = await headersOf(request, mail);
  expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const url = unsubscribeUrl(headers);

  await test.step('the one-click POST, with no session, turns every mail off', async () => {
    const anonymous = await requests.newContext();
    try {
      const answer = await anonymous.post(url, { form: { 'List-Unsubscribe': 'One-Click' } });
      expect(answer.status(), await answer.text()).toBeGreaterThanOrEqual(200);
      expect(answer.status()).toBeLessThan(300);
    } finally {
      await anonymous.dispose();
    }
    expect(await preferencesOf(request, mentioned.session)).toEqual(ALL_OFF);
  });
});

test('a digest from `npm run admin -- send-digests` unsubscribes through the /unsubscribe page', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const reader = await newMember(
    request,
    { firstName: 'Dora', lastName: uniqueSurname('Digest') },
    { withProfile: true },
  );
  await setPreferences(request, reader.session, {
    email_digest: 'daily',
    email_now: { mention: true, claim: true, moderation: true },
  });
  const title = `Digest worthy ${RUN}`;
  const postId = await addPost(request, reader.session, title, postType);
  await addComment(request, commenter.session, postId, 'Worth a read');
  await expect
    .poll(async () => (await notificationsOf(request, reader.session)).unread_count)
    .toBeGreaterThan(0);

  const output = await sendDigests();
  expect(output).toMatch(/Digests: \d+ sent/);
  const digest = await waitForMail(request, reader.account.email, /Your daily Rotunda digest/);
  expect(`${digest.text ?? ''}${digest.html ?? ''}`).toContain(title);
  const headers = await headersOf(request, digest);
  expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const token = new URL(unsubscribeUrl(headers)).searchParams.get('token') ?? '';
  expect(token).not.toBe('');

  await page.goto(`${baseURL}/unsubscribe?token=${encodeURIComponent(token)}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Unsubscribe from Rotunda emails' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeVisible();
  expect(await preferencesOf(request, reader.session)).toEqual(ALL_OFF);
});
