// Security suite, part 3: cross-site scripting through every text field a member can store and others see
// rendered. Over a hundred well-known payloads (support/xss-payloads.ts) go in through the API: post titles and
// bodies and comments (one post per payload, so each body is parsed on its own), profile names, bio, pronouns,
// emails, social links and job title, an organization's name, address, website and social links. Chromium
// then renders them where members see them: the feed cards and the read-post modal, the profile page, the
// directory card, the organization page and its list card. Nothing may run (no alert, no window.__xss, no
// blocked inline script), and the page may hold no injected handler, script URL, frame, clobbered global, or
// post-body element, class or style outside Quill's own. A payload the server refuses (400) is fine.
import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type APIResponse, expect, type Page, test } from '@playwright/test';
import { DEMO } from '../support/accounts.ts';
import { ApiSession } from '../support/api-session.ts';
import { type Member, newMember } from '../support/members.ts';
import type { ApiProfile } from '../support/profiles.ts';
import { signInAs } from '../support/session.ts';
import { XSS_EMAILS, XSS_PAYLOADS, XSS_URLS } from '../support/xss-payloads.ts';
import { domProblems, watchForXss, xssHits } from '../support/xss-watch.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const SOCIAL = [
  'linkedin_url',
  'facebook_url',
  'youtube_url',
  'threads_url',
  'twitter_url',
  'instagram_url',
  'tiktok_url',
  'bluesky_url',
] as const;
/** Comments per member come in bursts of ten: the payloads travel in a few long comments. */
const COMMENT_LENGTH = 4_900;

async function ok<T>(response: APIResponse, what: string, statuses = [200, 201]): Promise<T | undefined> {
  const status = response.status();
  // A refusal is a fine answer to a payload; anything else (a 5xx, a 403 for one's own data) is not.
  expect
    .soft([...statuses, 400], `${what}: ${status} ${(await response.text()).slice(0, 200)}`)
    .toContain(status);
  return statuses.includes(status) ? ((await response.json()) as T) : undefined;
}

/** Payloads joined with spaces into pieces of at most `max` characters; longer payloads are left out. */
function chunks(payloads: readonly string[], max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const payload of payloads.filter((p) => p.length <= max)) {
    if (current && current.length + 1 + payload.length > max) {
      out.push(current);
      current = '';
    }
    current = current ? `${current} ${payload}` : payload;
  }
  if (current) out.push(current);
  return out;
}

/**
 * Goes to a screen the way the app's own links do (history and popstate, which React Router follows), so a
 * round re-renders the screen with fresh data without reloading the shell and its remotes.
 */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    history.pushState(null, '', target);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** What ran and what got into the page since the last look, labelled with where it was seen. */
async function findings(page: Page, where: string, seen: { hits: number }, root?: string): Promise<string[]> {
  const hits = xssHits(page);
  const fresh = hits.slice(seen.hits).map((hit) => `${where}: ran ${hit}`);
  seen.hits = hits.length;
  return [...fresh, ...(await domProblems(page, root)).map((problem) => `${where}: ${problem}`)];
}

let api: APIRequestContext;

test('no stored payload runs or gets injected markup into any page that renders it', async ({
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(480_000);
  const baseURL = String(testInfo.project.use.baseURL);
  api = await playwright.request.newContext({ baseURL });
  let writer: Member | undefined;
  let contributor: ApiSession | undefined;
  let organizationId = 0;
  let jobId = 0;
  await test.step('set up: a new member with a profile and an organization of their own', async () => {
    writer = await newMember(
      api,
      { firstName: 'Xena', lastName: `Writer${RUN}` },
      { withProfile: true, title: 'Writer' },
    );
    contributor = await ApiSession.logIn(api, DEMO.concierge);
    const organization = await api.post('/api/orgs/add-organization', {
      headers: await writer.session.headers(),
      data: {
        organization_name: `Xss Org ${RUN}`,
        group_type: 'Associations',
        street_address: '1 Capitol Mall',
      },
    });
    expect(organization.status()).toBe(201);
    organizationId = ((await organization.json()) as { organization_id: number }).organization_id;
    jobId = (writer.profile as ApiProfile).JobExperiences[0]?.job_id ?? 0;
  });
  if (!writer || !contributor) return;
  const member = writer;
  const concierge = contributor;
  const profileId = (member.profile as ApiProfile).profile_id;

  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await watchForXss(page);
  await signInAs(page, member.account);
  const seen = { hits: 0 };
  const problems: string[] = [];
  const cases = { posts: 0, comments: 0, profileRounds: 0, fields: 0 };

  const started = Date.now();
  await test.step(`post titles, bodies and comments: ${XSS_PAYLOADS.length} posts`, async () => {
    const postType = 1;
    const posts: number[] = [];
    for (const [i, payload] of XSS_PAYLOADS.entries()) {
      const created = await ok<{ post_id: number }>(
        await api.post('/api/posts/add-post', {
          headers: await member.session.headers(),
          data: {
            post_title: payload.slice(0, 200),
            post_body: `<p>${RUN} #${i}</p>${payload}`,
            post_type: postType,
          },
        }),
        `post #${i}`,
      );
      if (created) posts.push(created.post_id);
    }
    cases.posts = posts.length;
    for (const [i, body] of chunks(XSS_PAYLOADS, COMMENT_LENGTH).entries()) {
      const comment = await ok(
        await api.post('/api/posts/add-comment', {
          headers: await member.session.headers(),
          data: { post_id: posts[posts.length - 1 - i], comment_body: body },
        }),
        `comment ${i}`,
      );
      if (comment) cases.comments++;
    }

    await page.goto('/public-square');
    const search = page.getByRole('searchbox', { name: 'Search posts' });
    await search.fill(RUN);
    await search.press('Enter');
    const cards = page.getByRole('region', { name: 'Posts' }).getByRole('article');
    // The feed loads 20 at a time as the last card nears the bottom: scroll until every post is there.
    await expect(async () => {
      await cards.last().scrollIntoViewIfNeeded();
      expect(await cards.count()).toBe(posts.length);
    }).toPass({ timeout: 60_000 });
    problems.push(...(await findings(page, 'feed cards', seen)));
    console.log(`rendered-xss: ${posts.length} feed cards checked in ${Date.now() - started} ms`);
    // The card's preview is the whole sanitized body whenever it is under 300 visible characters, as these are:
    // the modal is opened for the posts that carry the comments and for every fifth post besides.
    for (let i = 0; i < posts.length; i++) {
      if (i >= cases.comments && i % 5 !== 0) continue;
      await cards.nth(i).getByRole('button', { name: 'Keep Reading' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      problems.push(...(await findings(page, `read-post modal of card ${i}`, seen, '[role=dialog]')));
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    console.log(`rendered-xss: posts and comments checked in ${Date.now() - started} ms`);
    expect.soft(problems).toEqual([]);
  });

  await test.step('profile, directory card, organization page and list card, payloads packed field by field', async () => {
    const fieldsText = {
      name: chunks(XSS_PAYLOADS, 200),
      title: chunks(XSS_PAYLOADS, 180),
      bio: chunks(XSS_PAYLOADS, 5_000),
      organizationName: chunks(XSS_PAYLOADS, 150),
      address: chunks(XSS_PAYLOADS, 256),
    };
    const rounds = Math.max(...Object.values(fieldsText).map((list) => list.length));
    const as = () => member.session.headers();
    const update = async (data: Record<string, unknown>, what: string) =>
      ok(
        await api.post('/api/profiles/update-profile', {
          headers: await as(),
          data: { profile_id: profileId, ...data },
        }),
        what,
      );
    const updateOrganization = async (data: Record<string, unknown>, what: string) =>
      ok(
        await api.post('/api/orgs/update-organization', {
          headers: await concierge.headers(),
          data: { organization_id: organizationId, ...data },
        }),
        what,
      );
    for (let round = 0; round < rounds; round++) {
      const token = `R${RUN}r${round}`;
      const name = fieldsText.name[round] ?? '';
      const cut = name.length > 100 ? name.lastIndexOf(' ', 100) : -1;
      const [first, last] =
        cut > 0 ? [name.slice(0, cut), name.slice(cut + 1)] : [name || 'Xena', `Writer${RUN}`];
      await update(
        { first_name: first, last_name: last.slice(0, 100) || `Writer${RUN}` },
        `names, round ${round}`,
      );
      await update({ pronouns: XSS_PAYLOADS[round] ?? '' }, `pronouns, round ${round}`);
      const email = XSS_EMAILS[round % XSS_EMAILS.length] as string;
      await update({ personal_email: email }, `personal email ${email}`);
      for (const [k, field] of SOCIAL.entries()) {
        const url = XSS_URLS[(round * SOCIAL.length + k) % XSS_URLS.length] as string;
        await update({ [field]: url }, `${field} ${url}`);
        await updateOrganization({ [field]: url }, `organization ${field} ${url}`);
      }
      const bio = fieldsText.bio[round];
      if (bio)
        await ok(
          await api.post(`/api/profiles/bio/${profileId}`, { headers: await as(), data: { user_bio: bio } }),
          `bio ${round}`,
        );
      await ok(
        await api.post('/api/profiles/update-job', {
          headers: await as(),
          data: {
            job_id: jobId,
            title: `${fieldsText.title[round] ?? 'Writer'} ${token}`,
            organization_id: organizationId,
            street_address: '1 Capitol Mall',
            city: 'Sacramento',
            state: 'CA',
            zip_code: '95814',
            start_date: '2020-01-01',
            current_job: true,
          },
        }),
        `job title, round ${round}`,
      );
      const organizationName = `Xss Org ${token} ${fieldsText.organizationName[round] ?? ''}`.trim();
      const renamed = await updateOrganization(
        {
          organization_name: organizationName,
          street_address: fieldsText.address[round] ?? '1 Capitol Mall',
          city: fieldsText.address[rounds - 1 - round] ?? 'Sacramento',
        },
        `organization name and address, round ${round}`,
      );
      await updateOrganization(
        { website: XSS_URLS[round % XSS_URLS.length] },
        `organization website, round ${round}`,
      );
      await updateOrganization(
        { lobby_filer_id: XSS_PAYLOADS[round] ?? '' },
        `Cal-Access ID, round ${round}`,
      );
      cases.profileRounds++;

      if (round === 0) await page.goto(`/profile/${profileId}`);
      else await go(page, `/profile/${profileId}`);
      await expect(page.locator('#prof-card-name')).toContainText(first.slice(0, 20).trim());
      problems.push(...(await findings(page, `profile page, round ${round}`, seen)));

      await go(page, `/directory?search=${encodeURIComponent(token)}`);
      await expect(page.locator(`a[href="/profile/${profileId}"]`).first()).toBeVisible({ timeout: 20_000 });
      problems.push(...(await findings(page, `directory card, round ${round}`, seen)));

      await go(page, `/organization/${organizationId}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(renamed ? token : 'Xss Org');
      problems.push(...(await findings(page, `organization page, round ${round}`, seen)));

      await go(page, `/organizations?search=${encodeURIComponent(token)}`);
      await expect(page.locator(`a[href="/organization/${organizationId}"]`).first()).toBeVisible({
        timeout: 20_000,
      });
      problems.push(...(await findings(page, `organization list card, round ${round}`, seen)));
    }
    cases.fields = rounds;
    expect.soft(problems).toEqual([]);
  });

  testInfo.annotations.push({
    type: 'cases',
    description: `${XSS_PAYLOADS.length} payloads, ${XSS_URLS.length} links, ${XSS_EMAILS.length} emails; ${cases.posts} posts stored, ${cases.comments} comments, ${cases.profileRounds} profile/organization rounds`,
  });
  console.log(`rendered-xss: ${JSON.stringify(cases)}`);
  expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(100);
  await context.close();
  await api.dispose();
});
