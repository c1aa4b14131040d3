// The people directory in the browser, against the demo data: every word of the search narrows the cards,
// the group and issue filters combine with it, 'Elected Officials' lists only the spec's titles, the filters
// offer what the spec says, 30 more cards load when the last one is fully in view, the URL keeps the search
// across a reload and in a shared link, a card opens the profile, a visitor is turned away, the whole-directory
// answer carries no personal contact details and is rate-limited per member, and axe finds nothing
// at all. Other spec files add people at the same time, so the tests use specific
// searches of seeded people (those with fictional owners, whom no test edits) rather than whole-list totals.
// axe also checks the screen after each step of the filtering, paging and card journeys (support/journey.ts).
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { expect, step, test } from './support/journey.ts';
import { signInAs, signInAsMember } from './support/session.ts';

/** docs/product.md#9-business-constants-and-limits: the titles the 'Elected Officials' filter selects. */
const ELECTED_TITLES = [
  'Senator',
  'President pro Tempore',
  'Assemblymember',
  'Speaker',
  'Governor',
  'Lt. Governor',
  'Lieutenant Governor',
  'State Treasurer',
  'Insurance Commissioner',
  'State Controller',
];

/** Seeded elected officials (services/profile/src/seed/demo-profiles.ts). */
const SEEDED_ELECTED = [
  'Elena Marquez',
  'David Okafor',
  'Helena Voss',
  'Raymond Castillo',
  'Adrienne Kowalski',
  'Julian Mbeki',
];

// ------------------------------------------------------------------------------------------------ helpers

const results = (page: Page) => page.getByRole('region', { name: 'People found' });
const cards = (page: Page) => results(page).getByRole('link');
/** The card of the person with this name (not those whose organization bears the name). */
const card = (page: Page, name: string) =>
  cards(page).filter({ has: page.locator('.dir-card__name').getByText(name, { exact: true }) });
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search people' });
const groupSelect = (page: Page) => page.getByRole('combobox', { name: 'Group' });
const issueSelect = (page: Page) => page.getByRole('combobox', { name: 'Issue' });

/** Waits until the list shows the answer for the filters in the URL (the count line is written then). */
async function settled(page: Page): Promise<void> {
  await expect(results(page)).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByText(/^(\d[\d,]* (people|person)( found)?|No people found)$/)).toBeVisible();
}

/** Types a search, as a person does, and waits for its answer. */
async function search(page: Page, text: string): Promise<void> {
  await searchBox(page).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]search=${encodeURIComponent(text).replace(/%20/g, '\\+')}`));
  await settled(page);
}

/**
 * Every card's text holds every word (each field the search matches, name, title, organization or division,
 * is shown on the card). Retried, as the cards of the previous search stay on screen until the answer.
 */
async function expectEveryCardMatches(list: Locator, words: string[]): Promise<void> {
  await expect(async () => {
    const texts = await list.allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts)
      for (const word of words) expect(text.toLowerCase(), `a card matching "${word}"`).toContain(word);
  }).toPass();
}

async function memberToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/auth/login', { data: DEMO.member });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
}

interface Found {
  total: number;
  profiles: {
    profile_id: number;
    first_name: string;
    last_name: string;
    profile_picture: string | null;
    organization_name: string | null;
  }[];
}

async function searchApi(request: APIRequestContext, params: Record<string, string>): Promise<Found> {
  const response = await request.get('/api/profiles/search', {
    params: { offset: 0, limit: 30, ...params },
    headers: { 'x-auth-token': await memberToken(request) },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return response.json();
}

/** The profile id of the one seeded person with this name. */
async function profileIdOf(request: APIRequestContext, name: string): Promise<number> {
  const { profiles } = await searchApi(request, { search: name });
  const found = profiles.filter((p) => `${p.first_name} ${p.last_name}` === name);
  expect(found, `one person named ${name}`).toHaveLength(1);
  return found[0]?.profile_id ?? 0;
}

async function issueIdOf(page: Page, name: string): Promise<string> {
  const value = await issueSelect(page).getByRole('option', { name, exact: true }).getAttribute('value');
  expect(value).toMatch(/^\d+$/);
  return value ?? '';
}

// --------------------------------------------------------------------------------------------- the list

test.describe('the people directory', () => {
  test.beforeEach(async ({ page }) => signInAsMember(page));

  test('shows a spinner until the people arrive, then their cards', async ({ page }) => {
    // The server's answer, held back a moment so the spinner can be seen.
    await page.route('**/api/profiles/search?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await page.goto('/directory');
    await expect(page.getByRole('heading', { level: 1, name: 'Directory' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading people' })).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await settled(page);
    await expect(page.getByRole('status', { name: 'Loading people' })).toHaveCount(0);
    await expect(cards(page)).toHaveCount(30);
  });

  test('a card shows the picture, or a drawn placeholder for a person without one', async ({
    page,
    request,
  }) => {
    await page.goto('/directory');
    await search(page, 'kowalski');
    const adrienne = card(page, 'Adrienne Kowalski');
    await expect(adrienne).toContainText('President pro Tempore');
    await expect(adrienne).toContainText('Senate Office of Policy Research');
    await expect(adrienne).toContainText('Sacramento, CA');
    // Her seeded portrait, loaded (a broken one would be swapped for a drawn placeholder).
    const picture = adrienne.locator('img');
    await expect(picture).toHaveAttribute('src', /^\/media\/pictures\//);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Some seeded people have no picture: theirs is drawn in the page, never an empty or broken image.
    const { profiles } = await searchApi(request, { limit: '100' });
    const without = profiles.find((p) => p.profile_picture === null);
    expect(without, 'a person without a picture').toBeTruthy();
    const name = `${without?.first_name} ${without?.last_name}`;
    await search(page, name);
    const plain = card(page, name).first();
    await expect(plain.locator('img')).toHaveCount(0);
    await expect(plain.locator('svg.dir-picture--placeholder')).toBeVisible();
  });

  test('every word of the search must match a name, title, organization or division, in any case', async ({
    page,
  }) => {
    await page.goto('/directory');
    await settled(page);

    // One organization word: the people of that organization, and nobody else.
    await search(page, 'senate');
    await expect(card(page, 'Adrienne Kowalski')).toHaveCount(1);
    await expectEveryCardMatches(cards(page), ['senate']);
    expect(await cards(page).count()).toBeGreaterThan(1);

    // A last name as well: only the person who matches both, whatever the case.
    await search(page, 'Senate KOWALSKI');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText('Adrienne Kowalski');
    await expect(page.getByText('1 person found')).toBeVisible();

    // A title and a first name: 'elena' is also in 'Helena' (any part of a word matches).
    await search(page, 'governor elena');
    await expectEveryCardMatches(cards(page), ['governor', 'elena']);
    await expect(card(page, 'Helena Voss')).toHaveCount(1);
    await expect(card(page, 'Elena Marquez')).toHaveCount(0);

    // A division's name: the people working in it.
    await search(page, 'groundwater');
    await expectEveryCardMatches(cards(page), ['groundwater']);
    await expect(cards(page).first()).toContainText('Groundwater Management Division');

    // Both words must match: Kowalski does not work in housing.
    await search(page, 'kowalski housing');
    await expect(page.getByText('No people match your search.')).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(page).toHaveURL(/\/directory$/);
    await expect(searchBox(page)).toHaveValue('');
    await settled(page);
    await expect(cards(page)).toHaveCount(30);
  });

  test("the group filter offers the groups less 'Campaigns', then 'Elected Officials' and 'Other'", async ({
    page,
  }) => {
    await page.goto('/directory');
    await expect(groupSelect(page).getByRole('option', { name: 'Agencies' })).toHaveCount(1);
    await expect(groupSelect(page).getByRole('option')).toHaveText([
      'All groups',
      'Associations',
      'Agencies',
      "Governor's Office",
      'Legislature',
      'Lobbyists',
      'Unions',
      'Elected Officials',
      'Other',
    ]);
  });

  test('the issue filter lists the issue areas alphabetically', async ({ page }) => {
    await page.goto('/directory');
    await expect(issueSelect(page).getByRole('option', { name: 'Water', exact: true })).toHaveCount(1);
    const [first, ...names] = await issueSelect(page).getByRole('option').allInnerTexts();
    expect(first).toBe('All issues');
    expect(names.length).toBeGreaterThanOrEqual(30);
    const alphabetical = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
    expect(names).toEqual(alphabetical);
  });

  test("'Elected Officials' lists only people whose current title is one of the spec's", async ({ page }) => {
    await page.goto('/directory');
    await settled(page);
    await groupSelect(page).selectOption('Elected Officials');
    await expect(page).toHaveURL(/[?&]group=Elected\+Officials/);
    await settled(page);
    await expect(page.getByText(/^Current title: Senator, /)).toBeVisible();
    for (const name of SEEDED_ELECTED) await expect(card(page, name)).toHaveCount(1);
    const lowered = ELECTED_TITLES.map((t) => t.toLowerCase());
    const titles = await results(page).locator('.dir-card__title').allInnerTexts();
    expect(titles.length).toBe(await cards(page).count());
    for (const title of titles)
      expect(lowered, `'${title}' is an elected title`).toContain(title.toLowerCase());

    // With a search: Elena Marquez is elected; her staff, whose organization bears her name, are not.
    await search(page, 'elena');
    await expect(card(page, 'Elena Marquez')).toHaveCount(1);
    await expect(card(page, 'Marcus Chen')).toHaveCount(0);
    await expectEveryCardMatches(cards(page), ['elena']);
  });

  test('the group and the issue filters combine, with each other and with the search', async ({ page }) => {
    await page.goto('/directory');
    await settled(page);
    // Julian Mbeki: Legislature, Homelessness. Helena Voss: Governor's Office, Homelessness.
    // Elena Marquez: Legislature, no Homelessness.
    await step(page, 'a group chosen', async () => {
      await groupSelect(page).selectOption('Legislature');
      await settled(page);
      await expect(card(page, 'Elena Marquez')).toHaveCount(1);
      await expect(card(page, 'Helena Voss')).toHaveCount(0);
    });

    await issueSelect(page).selectOption({ label: 'Homelessness' });
    await expect(page).toHaveURL(/[?&]group=Legislature&issue=\d+/);
    await settled(page);
    await expect(card(page, 'Julian Mbeki')).toHaveCount(1);
    await expect(card(page, 'Elena Marquez')).toHaveCount(0);
    await expect(card(page, 'Helena Voss')).toHaveCount(0);

    await groupSelect(page).selectOption("Governor's Office");
    await settled(page);
    await expect(card(page, 'Helena Voss')).toHaveCount(1);
    await expect(card(page, 'Julian Mbeki')).toHaveCount(0);

    // And with a search: 'voss' among the Governor's Office people covering Homelessness.
    await search(page, 'voss');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText('Helena Voss');
    await step(page, 'nobody found', async () => {
      await issueSelect(page).selectOption({ label: 'Water' });
      await settled(page);
      await expect(page.getByText('No people match your search.')).toBeVisible();
    });
  });

  test('loads 30 more cards when the last card is fully in view', async ({ page, request }) => {
    const firstPage = page.waitForRequest(
      (r) => r.url().includes('/api/profiles/search?') && r.url().includes('offset=0'),
    );
    await page.goto('/directory');
    expect(new URL((await firstPage).url()).searchParams.get('limit')).toBe('30');
    await settled(page);
    await expect(cards(page)).toHaveCount(30);
    // The seed has more than 60 people, and other tests only add more.
    const { total } = await searchApi(request, {});
    expect(total).toBeGreaterThan(30);

    const nextPage = page.waitForRequest(
      (r) => r.url().includes('/api/profiles/search?') && r.url().includes('offset=30'),
    );
    await step(page, 'the second page', async () => {
      await cards(page).last().scrollIntoViewIfNeeded();
      expect(new URL((await nextPage).url()).searchParams.get('limit')).toBe('30');
      await expect(cards(page)).toHaveCount(Math.min(60, total));
      await expect(page.getByRole('status').filter({ hasText: /^Loaded \d+ more/ })).toHaveText(
        `Loaded ${Math.min(60, total) - 30} more: ${Math.min(60, total)} people shown`,
      );
    });
    // No card twice.
    const hrefs = await cards(page).evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(new Set(hrefs).size).toBe(hrefs.length);

    // The next 30 only once the new last card is in view in turn.
    const third = page.waitForRequest(
      (r) => r.url().includes('/api/profiles/search?') && r.url().includes('offset=60'),
    );
    await cards(page).last().scrollIntoViewIfNeeded();
    await third;
    await expect.poll(() => cards(page).count()).toBeGreaterThan(60);
  });

  test('the URL keeps the search and filters, across a reload and in a shared link', async ({
    page,
    browser,
  }) => {
    await page.goto('/directory');
    await settled(page);
    await search(page, 'senate');
    await groupSelect(page).selectOption('Elected Officials');
    const labor = await issueIdOf(page, 'Labor and Employment');
    await issueSelect(page).selectOption(labor);
    await expect(page).toHaveURL(
      new RegExp(`/directory\\?search=senate&group=Elected\\+Officials&issue=${labor}$`),
    );
    await settled(page);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText('Adrienne Kowalski');
    const shared = page.url();

    const expectSameSearch = async (other: Page) => {
      await expect(searchBox(other)).toHaveValue('senate');
      await expect(groupSelect(other)).toHaveValue('Elected Officials');
      await expect(issueSelect(other)).toHaveValue(labor);
      await expect(issueSelect(other).locator('option:checked')).toHaveText('Labor and Employment');
      await settled(other);
      await expect(cards(other)).toHaveCount(1);
      await expect(cards(other)).toContainText('Adrienne Kowalski');
    };

    await page.reload();
    await expectSameSearch(page);

    // Another member opens the shared link in a browser of their own.
    const context = await browser.newContext();
    try {
      const other = await context.newPage();
      await signInAs(other, DEMO.concierge);
      await other.goto(shared);
      await expectSameSearch(other);
    } finally {
      await context.close();
    }
  });

  test('a card opens the profile, and Back returns to the same search', async ({ page, request }) => {
    const id = await profileIdOf(request, 'Adrienne Kowalski');
    await page.goto('/directory?search=kowalski');
    await settled(page);
    await step(page, 'the card opened', async () => {
      await card(page, 'Adrienne Kowalski').click();
      await expect(page).toHaveURL(new RegExp(`/profile/${id}$`));
      await expect(page.getByRole('heading', { level: 1, name: /Adrienne Kowalski/ })).toBeVisible();
    });

    await page.goBack();
    await expect(page).toHaveURL(/\/directory\?search=kowalski$/);
    await expect(searchBox(page)).toHaveValue('kowalski');
    await expect(card(page, 'Adrienne Kowalski')).toBeVisible();
  });

  test('an organization a contributor renames is found by its new name within seconds', async ({
    page,
    request,
  }) => {
    const login = await request.post('/auth/login', { data: DEMO.concierge });
    expect(login.ok()).toBe(true);
    const contributor = { 'x-auth-token': (await login.json()).token as string };
    const [person] = (await searchApi(request, { search: 'Adrienne Kowalski' })).profiles;
    const original = person?.organization_name ?? '';
    const named = await request.get(`/api/orgs/organization-name/${encodeURIComponent(original)}`, {
      headers: contributor,
    });
    const organization = (
      (await named.json()) as { organization_id: number; organization_name: string }[]
    ).find((o) => o.organization_name === original);
    expect(organization, `the organization ${original}`).toBeTruthy();
    const rename = (organization_name: string) =>
      request.post('/api/orgs/update-organization', {
        headers: contributor,
        data: { organization_id: organization?.organization_id, organization_name },
      });

    const word = `Renamed${Date.now().toString(36)}`;
    expect((await rename(`${original} ${word}`)).ok()).toBe(true);
    try {
      // The org service announces the rename; the profile service re-indexes that organization's people.
      await expect
        .poll(async () => (await searchApi(request, { search: word })).profiles.map((p) => p.last_name), {
          timeout: 10_000,
        })
        .toContain('Kowalski');
      await page.goto(`/directory?search=${word}`);
      await settled(page);
      await expect(card(page, 'Adrienne Kowalski')).toContainText(`${original} ${word}`);
    } finally {
      expect((await rename(original)).ok()).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------- personal data

test('the whole directory carries no personal contact details and answers a member only a few times in a while', async ({
  request,
}) => {
  // A new account, so that the demo members' allowance is left to the other tests.
  const login = await request.post('/auth/login', { data: await registerAccount(request, true) });
  const headers = { 'x-auth-token': ((await login.json()) as { token: string }).token };
  const whole = async () => request.get('/api/profiles/directory', { headers });
  const everyone = (await (await whole()).json()) as Record<string, unknown>[];
  expect(everyone.length).toBeGreaterThan(50);
  for (const person of everyone)
    for (const field of ['personal_email', 'mobile_phone', 'birthday'])
      expect(person).not.toHaveProperty(field);
  // The profile page is where they are: the seed gives most demo people a personal email.
  const pages = await Promise.all(
    everyone.slice(0, 10).map(async (person) => {
      const answer = await request.get(`/api/profiles/profile/${person.profile_id}`, { headers });
      return (await answer.json()) as Record<string, unknown>;
    }),
  );
  for (const page of pages)
    for (const field of ['personal_email', 'mobile_phone', 'birthday']) expect(page).toHaveProperty(field);
  expect(pages.some((page) => typeof page.personal_email === 'string')).toBe(true);

  for (let download = 2; download <= 20; download++)
    expect((await whole()).status(), `download ${download}`).toBe(200);
  const refused = await whole();
  expect(refused.status()).toBe(429);
  const retryAfter = Number(refused.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(await refused.json()).toEqual({
    errors: [{ msg: `Too many downloads of the whole directory. Try again in ${retryAfter} seconds.` }],
  });
  // The paged directory the screen uses is not held back.
  expect((await request.get('/api/profiles/search?search=marquez', { headers })).status()).toBe(200);
});

// ------------------------------------------------------------------------------------------------ visitor

test('a visitor opening a directory search is told to log in and returned to /', async ({ page }) => {
  await page.goto('/directory?search=senate');
  await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
  await expect(page).toHaveURL(/\/$/);
});

// ------------------------------------------------------------------------------------------ accessibility

for (const width of [1280, 400]) {
  test.describe(`accessibility at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the directory has no axe findings, filtered or not', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/directory');
      await settled(page);
      await expect(cards(page)).toHaveCount(30);
      await expectNoAxeFindings(page);

      await page.goto('/directory?search=senate&group=Elected+Officials');
      await settled(page);
      await expect(card(page, 'Adrienne Kowalski')).toBeVisible();
      await expectNoAxeFindings(page);

      await page.goto('/directory?search=kowalski+housing');
      await expect(page.getByText('No people match your search.')).toBeVisible();
      await expectNoAxeFindings(page);
    });
  });
}
