// A member's own data in the browser, against the running product (docs/product.md#your-data, ADR 0042):
// "Download my data" in Settings saves a JSON file with every part held about the member and no secret; "Delete my
// account" with a wrong password deletes nothing and says so, with the right one signs out, and then sign-in
// answers 401, the member's posts, comments and likes are gone from the public square and the profile they made
// from the directory; a profile they had claimed is unclaimed again, its personal email, mobile and birthday
// cleared. A deletion made while the post service is down (killed through DATA_DIR/pids.json) completes once the
// product has restarted it. Every member here is new, so the tests run in any order.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { ApiSession } from './support/api-session.ts';
import { type Member, newMember } from './support/members.ts';
import {
  addComment,
  addPost,
  json,
  like,
  pidsOf,
  plainPostType,
  uniqueSurname,
} from './support/notifications.ts';
import { type ApiProfile, getProfile, unclaimedProfiles, updateProfile } from './support/profiles.ts';
import { signInAs } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

const EXPORT_KEYS = [
  'account',
  'profile',
  'jobs',
  'issue_areas',
  'claims',
  'reports',
  'posts',
  'comments',
  'likes',
  'notifications',
  'preferences',
];

/** What the shell says once the account is gone (shell/src/pages/Settings.tsx). */
const ACCOUNT_DELETED = 'Your account has been deleted. Thank you for being part of Rotunda.';

let bystander: Member;
let postType = 1;
let bystanderTitle = '';
let bystanderPost = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(90_000);
  bystander = await newMember(
    request,
    { firstName: 'Bea', lastName: uniqueSurname('Bystander') },
    { withProfile: true },
  );
  postType = await plainPostType(request);
  bystanderTitle = `Open office hours ${RUN}`;
  bystanderPost = await addPost(request, bystander.session, bystanderTitle, postType);
});

interface FeedPost {
  post_id: number;
  post_title: string;
  likes_count: number;
  PostComments: { comment_body: string; user_id: string }[];
}

/** The post as a visitor's search finds it (through the gateway's kept pages), or undefined. */
async function visitorSearch(request: APIRequestContext, title: string): Promise<FeedPost | undefined> {
  const found = await json<FeedPost[]>(
    await request.post('/api/posts/all', { data: { offset: 0, limit: 20, search: title } }),
  );
  return found.find((post) => post.post_title === title);
}

/** A member who has written a post, commented on and liked the bystander's post. */
async function activeMember(request: APIRequestContext, stem: string, withProfile = true) {
  const member = await newMember(
    request,
    { firstName: 'Lena', lastName: uniqueSurname(stem) },
    { withProfile },
  );
  const title = `Leaving soon ${stem} ${RUN}`;
  const comment = `See you there — ${member.account.lastName}`;
  const postId = withProfile ? await addPost(request, member.session, title, postType) : 0;
  await addComment(request, member.session, bystanderPost, comment);
  await like(request, member.session, bystanderPost);
  return { member, title, comment, postId };
}

/** Every key anywhere in a JSON value. */
function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysIn(inner)]);
}

test('"Download my data" saves everything held about the member, and no secret', async ({
  page,
  request,
}) => {
  const { member, title, comment } = await activeMember(request, 'Exporter');
  await signInAs(page, member.account);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  await expect(page.getByText('Your data is downloaded.')).toBeVisible();

  const path = await download.path();
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  expect(Object.keys(data)).toEqual(expect.arrayContaining(EXPORT_KEYS));
  const text = JSON.stringify(data);
  expect(text).toContain(member.account.email);
  expect(text).toContain(title);
  expect(text).toContain(comment);
  expect(JSON.stringify(data.profile)).toContain(member.account.lastName);
  expect((data.likes as unknown[]).length).toBe(1);
  // Nothing secret: no password or its hash, no token of any kind.
  expect(keysIn(data).filter((key) => /password|hash|token|secret/i.test(key))).toEqual([]);
  expect(text).not.toContain(member.account.password);
  expect(text).not.toMatch(/\$(argon2|2[aby]\$|scrypt)/);
});

test('"Delete my account": a wrong password deletes nothing; the right one removes the member and their content', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { member, title, comment } = await activeMember(request, 'Leaver');
  const profileId = member.profile?.profile_id ?? 0;
  await expect.poll(async () => (await visitorSearch(request, title)) !== undefined).toBe(true);
  const before = await visitorSearch(request, bystanderTitle);
  expect(before?.PostComments.map((c) => c.comment_body)).toContain(comment);

  await signInAs(page, member.account);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete my account' });
  const password = dialog.getByLabel('Your password');
  await expect(password).toBeFocused();
  await expect(dialog).toContainText('This cannot be undone.');

  await test.step('a wrong password deletes nothing, and says so', async () => {
    await password.fill('Not-my-password#1');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).not.toBeEmpty();
    await expect(dialog).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    expect((await request.post('/auth/login', { data: member.account })).status()).toBe(200);
  });

  await test.step('the right password deletes the account and signs out', async () => {
    await password.fill(member.account.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByText(ACCOUNT_DELETED)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? '{}').token ?? null),
    ).toBeNull();
    expect((await request.post('/auth/login', { data: member.account })).status()).toBe(401);
  });

  await test.step('their post, comment and like are gone from the public square', async () => {
    await expect.poll(() => visitorSearch(request, title), { timeout: 30_000 }).toBeUndefined();
    await expect
      .poll(
        async () => {
          const post = await visitorSearch(request, bystanderTitle);
          return {
            comment: post?.PostComments.some((c) => c.comment_body === comment),
            likes: post?.likes_count,
          };
        },
        { timeout: 30_000 },
      )
      .toEqual({ comment: false, likes: (before?.likes_count ?? 1) - 1 });
  });

  await test.step('the profile they made is gone from the directory', async () => {
    await expect
      .poll(
        async () =>
          (
            await request.get(`/api/profiles/profile/${profileId}`, {
              headers: await bystander.session.headers(),
            })
          ).status(),
        { timeout: 30_000 },
      )
      .toBe(404);
    const directory = await json<ApiProfile[]>(
      await request.get('/api/profiles/directory', { headers: await bystander.session.headers() }),
    );
    expect(directory.map((p) => p.profile_id)).not.toContain(profileId);
  });
});

test('a claimed profile returns to unclaimed, its personal email, mobile and birthday cleared', async ({
  request,
}) => {
  test.setTimeout(90_000);
  const contributor = await ApiSession.logIn(request, DEMO.concierge);
  const target = (await unclaimedProfiles(request, await contributor.token())).find(
    (p) => p.work_email !== DEMO.newbie.email && !p.claim_pending && p.profile_picture,
  );
  expect(target, 'an unclaimed demo profile to claim').toBeTruthy();
  if (!target) return;
  const account = await registerAccount(request, true, {
    firstName: target.first_name,
    lastName: target.last_name,
  });
  const claimant = await ApiSession.logIn(request, account);
  await json(
    await request.post(`/api/profiles/claim/${target.profile_id}`, { headers: await claimant.headers() }),
  );
  const pending = await json<{ claim_id: number; profile_id: number }[]>(
    await request.get('/api/profiles/claims', { headers: await contributor.headers() }),
  );
  const claim = pending.find((c) => c.profile_id === target.profile_id);
  await json(
    await request.post(`/api/profiles/claims/${claim?.claim_id}`, {
      headers: await contributor.headers(),
      data: { decision: 'confirm' },
    }),
  );
  expect(await getProfile(request, await claimant.token(), target.profile_id)).toMatchObject({
    user_id: claimant.user.user_id,
    claim_pending: false,
  });
  await updateProfile(request, await claimant.token(), target.profile_id, {
    personal_email: `home-${RUN}@example.com`,
    mobile_phone: '9165550199',
    birthday: '1980-04-12',
  });
  const owned = (await getProfile(request, await claimant.token(), target.profile_id)) as ApiProfile &
    Record<string, unknown>;
  expect(owned.personal_email).toBe(`home-${RUN}@example.com`);

  const deleted = await request.post('/api/me/delete', {
    headers: await claimant.headers(),
    data: { password: account.password },
  });
  expect(deleted.status(), await deleted.text()).toBeLessThan(300);

  await expect
    .poll(
      async () => {
        const profile = (await getProfile(
          request,
          await contributor.token(),
          target.profile_id,
        )) as ApiProfile & Record<string, unknown>;
        return {
          user_id: profile.user_id,
          personal_email: profile.personal_email ?? null,
          mobile_phone: profile.mobile_phone ?? null,
          birthday: profile.birthday ?? null,
        };
      },
      { timeout: 30_000 },
    )
    .toEqual({ user_id: null, personal_email: null, mobile_phone: null, birthday: null });
  const after = await getProfile(request, await contributor.token(), target.profile_id);
  expect(after).toMatchObject({ first_name: target.first_name, last_name: target.last_name });
});

test('a deletion made while the post service is down completes once it is back', async ({ request }) => {
  test.setTimeout(150_000);
  const { member, title } = await activeMember(request, 'Downtime');
  await expect.poll(async () => (await visitorSearch(request, title)) !== undefined).toBe(true);

  const killed = pidsOf('post');
  expect(killed.length, 'the post service in DATA_DIR/pids.json').toBeGreaterThan(0);
  for (const pid of killed) process.kill(pid, 'SIGKILL');
  // Gone before the deletion is asked for (signal 0 only asks whether the process exists).
  await expect
    .poll(() =>
      killed.filter((pid) => {
        try {
          return process.kill(pid, 0);
        } catch {
          return false;
        }
      }),
    )
    .toEqual([]);

  const deleted = await request.post('/api/me/delete', {
    headers: await member.session.headers(),
    data: { password: member.account.password },
  });
  expect(deleted.status(), await deleted.text()).toBeLessThan(300);
  expect((await request.post('/auth/login', { data: member.account })).status()).toBe(401);

  // The product restarts what died (new pids), and the post service then reads the recorded deletion.
  await expect
    .poll(() => pidsOf('post').some((pid) => !killed.includes(pid)), { timeout: 60_000 })
    .toBe(true);
  await expect
    .poll(
      async () => {
        const answer = await request.post('/api/posts/all', {
          data: { offset: 0, limit: 20, search: title },
        });
        if (!answer.ok()) return 'post service not answering';
        const found = (await answer.json()) as FeedPost[];
        return found.some((post) => post.post_title === title) ? 'still there' : 'gone';
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe('gone');
});
