// The organization directory in the browser, against the running product: the list (cards, search, group
// filter, more cards past 30 as the member scrolls, filters in the URL), the profile (details, the People tab
// over the demo seed's people: their cards, random order, the Title, Office and Location filters with Reset,
// one card per person, never the member themself, a person's link to their profile; the Divisions accordion),
// a contributor editing an organization and uploading its logo, told a name needs letters, setting and then
// correcting a Cal-Access ID, a member without the edit control, every refusal through the API (a member
// updating, a missing name or street address, a name without letters, a member's Cal-Access ID, a logo of the
// wrong type, oversize or a pixel bomb, an unknown id), a visitor turned away by the guard, and no axe
// findings; every dialog opened is modal and named (support/journey.ts).
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import { type Account, DEMO, registerAccount } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { expect, step, test } from './support/journey.ts';
import { signInAs, signInAsConcierge, signInAsMember } from './support/session.ts';

/** The demo seed's agency with divisions of three types, one of them inactive. */
const WATER = 'Department of Water Stewardship';
/** The demo senator's office: the senator, her staff (one in her Elk Grove district office) and the demo member. */
const SENATOR_OFFICE = 'Office of Senator Elena Marquez';
/** The Governor, the Lt. Governor and their staff. */
const GOVERNOR_OFFICE = 'Office of the Governor';
const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

// ------------------------------------------------------------------------------------------------ helpers

const memberToken = (request: APIRequestContext): Promise<string> => loginToken(request, DEMO.member);

async function loginToken(
  request: APIRequestContext,
  account: { email: string; password: string },
): Promise<string> {
  const response = await request.post('/auth/login', { data: account });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
}

/** A profile of the account's own (as profile creation's first step makes it, with a picture); its id. */
async function createProfile(request: APIRequestContext, token: string, account: Account): Promise<number> {
  const uploaded = await request.post('/api/profiles/upload-profile-picture', {
    headers: { 'x-auth-token': token },
    multipart: {
      profile_picture: { name: 'me.png', mimeType: 'image/png', buffer: solidPng(60, 80, [120, 60, 40]) },
      image_type: 'png',
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const created = await request.post('/api/profiles/create-profile', {
    headers: { 'x-auth-token': token },
    data: {
      first_name: account.firstName,
      last_name: account.lastName,
      work_email: account.email,
      other_phone: '9165550188',
      profile_picture: (await uploaded.json()).url,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).createdProfileResult.profile_id as number;
}

async function listTotal(request: APIRequestContext, token: string, search = ''): Promise<number> {
  const response = await request.get('/api/orgs/', {
    params: { search, offset: 0, limit: 1 },
    headers: { 'x-auth-token': token },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).total as number;
}

async function addOrganization(
  request: APIRequestContext,
  token: string,
  data: Record<string, string>,
): Promise<{ organization_id: number; organization_name: string }> {
  const response = await request.post('/api/orgs/add-organization', {
    headers: { 'x-auth-token': token },
    data,
  });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

async function organizationId(request: APIRequestContext, token: string, name: string): Promise<number> {
  const response = await request.get(`/api/orgs/organization-name/${encodeURIComponent(name)}`, {
    headers: { 'x-auth-token': token },
  });
  expect(response.ok()).toBe(true);
  const found = ((await response.json()) as { organization_id: number; organization_name: string }[]).find(
    (o) => o.organization_name === name,
  );
  expect(found, `the demo organization ${name}`).toBeTruthy();
  return found?.organization_id ?? 0;
}

/** One PNG chunk: length, type, data and CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of RGB pixels: signature, IHDR, one zlib-compressed IDAT and IEND. */
function png(width: number, height: number, pixels: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid RGB PNG of one colour, made here. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat()),
  ]);
  return png(width, height, Buffer.concat(Array.from({ length: height }, () => row)));
}

/**
 * A decompression bomb: a header claiming 20,000 × 20,000 pixels (1.2 GB once decoded) in a file of under a
 * kilobyte. Its few pixel bytes never matter: a pipeline that trusts the header would start decoding.
 */
const pixelBomb = () => png(20_000, 20_000, Buffer.alloc(1024));

const results = (page: Page) => page.getByRole('region', { name: 'Organizations found' });
const peopleList = (page: Page) => page.getByRole('list', { name: 'People' });
/** The names on the People tab's cards. */
const personNames = (page: Page) => peopleList(page).locator('.orgs-person__name');
/** The People tab's card of one person, by full name. */
const personCard = (page: Page, name: string) =>
  peopleList(page)
    .locator('.orgs-person')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
const cards = (page: Page) => results(page).getByRole('link');

// ------------------------------------------------------------------------------------------------- list

test.describe('the organization list', () => {
  test.beforeEach(async ({ page }) => signInAsMember(page));

  test('shows a card per organization with name, address and formatted phone', async ({ page }) => {
    await page.goto('/organizations');
    await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
    const water = cards(page).filter({ hasText: WATER });
    await expect(water).toHaveCount(1);
    await expect(water).toContainText('715 P Street');
    await expect(water).toContainText('Sacramento, CA');
    await expect(water).toContainText(/\(\d{3}\) \d{3}-\d{4}/);
    await expect(page.getByRole('status', { name: 'Loading organizations' })).toHaveCount(0);
    await expect(page.getByText(/^\d+ organizations$/)).toBeVisible();
  });

  test('every word of the search narrows the list, and the URL keeps it across a reload', async ({
    page,
  }) => {
    await page.goto('/organizations');
    await expect(cards(page).first()).toBeVisible();
    const before = await cards(page).count();
    await page.getByRole('searchbox', { name: 'Search by name' }).fill('stewardship WATER');
    await expect(page).toHaveURL(/\?search=stewardship\+WATER$/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText(WATER);
    expect(before).toBeGreaterThan(1);

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search by name' })).toHaveValue('stewardship WATER');
    await expect(cards(page)).toHaveCount(1);

    await page.getByRole('searchbox', { name: 'Search by name' }).fill('stewardship zzzz');
    await expect(page.getByText('No organizations match your search.')).toBeVisible();
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(page).toHaveURL(/\/organizations$/);
    await expect(cards(page)).toHaveCount(Math.min(before, 30));
  });

  test("the group filter lists one group, and 'Campaigns' is not offered", async ({ page }) => {
    const group = page.getByRole('combobox', { name: 'Group' });
    await step(page, 'one group listed', async () => {
      await page.goto('/organizations');
      await expect(group.getByRole('option', { name: 'Lobbyists' })).toHaveCount(1);
      await expect(group.getByRole('option')).toHaveText([
        'All groups',
        'Associations',
        'Agencies',
        "Governor's Office",
        'Legislature',
        'Lobbyists',
        'Unions',
        'Other',
      ]);
      await group.selectOption('Lobbyists');
      await expect(page).toHaveURL(/group=Lobbyists/);
      await expect(page.getByText(/organizations? found$/)).toBeVisible();
      await expect(cards(page).first()).toBeVisible();
      // Retried as a whole: the unfiltered cards may still be on screen for a moment.
      await expect(cards(page).filter({ hasNotText: 'Lobbyists' })).toHaveCount(0);
      await expect(cards(page).first()).toBeVisible();
      await page.reload();
      await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue('Lobbyists');
    });
  });

  test('loads 30 more when the last card is fully in view', async ({ page, request }) => {
    const token = await memberToken(request);
    const total = await listTotal(request, token);
    // The demo seed has about 40; with fewer than 31 listed, the test adds its own (a unique prefix) first.
    for (let n = total; n < 31; n++)
      await addOrganization(request, token, {
        organization_name: `E2E Scroll ${RUN} ${n}`,
        group_type: 'Other',
        street_address: '1 Capitol Mall',
        city: 'Sacramento',
        state: 'CA',
      });

    const firstPage = page.waitForRequest(
      (r) => r.url().includes('/api/orgs/?') && r.url().includes('offset=0'),
    );
    await step(page, '30 more loaded', async () => {
      await page.goto('/organizations');
      expect(new URL((await firstPage).url()).searchParams.get('limit')).toBe('30');
      await expect(cards(page)).toHaveCount(30);

      const nextPage = page.waitForRequest(
        (r) => r.url().includes('/api/orgs/?') && r.url().includes('offset=30'),
      );
      await cards(page).last().scrollIntoViewIfNeeded();
      expect(new URL((await nextPage).url()).searchParams.get('limit')).toBe('30');
      await expect.poll(() => cards(page).count()).toBeGreaterThan(30);
    });
  });
});

// ---------------------------------------------------------------------------------------------- profile

test.describe('an organization profile', () => {
  test.beforeEach(async ({ page }) => signInAsMember(page));

  test('opens from its card with the keyboard and shows its details', async ({ page }) => {
    await page.goto('/organizations?search=water%20stewardship');
    const card = cards(page).filter({ hasText: WATER });
    await card.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/organization\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: WATER })).toBeVisible();
    const contact = page.getByRole('region', { name: 'Contact' });
    await expect(contact.getByText('715 P Street')).toBeVisible();
    await expect(contact.getByRole('link', { name: /^\(916\) 555-\d{4}$/ })).toHaveAttribute('href', /^tel:/);
    await expect(contact.getByRole('link', { name: /waterstewardship\.example\.org/ })).toHaveAttribute(
      'target',
      '_blank',
    );
    const socials = page.getByRole('list', { name: 'Social media' }).getByRole('link');
    await expect(socials).toHaveText([/^LinkedIn/, /^YouTube/, /^Twitter\/X/, /^Bluesky/]);
    await page.getByRole('link', { name: 'All organizations' }).click();
    await expect(page).toHaveURL(/\/organizations$/);
  });

  test('links a lobbying group to its Cal-Access page', async ({ page, request }) => {
    const id = await organizationId(request, await memberToken(request), 'Sierra Valley Growers Association');
    await page.goto(`/organization/${id}`);
    await expect(page.getByRole('link', { name: /^9100101/ })).toHaveAttribute(
      'href',
      'https://cal-access.sos.ca.gov/Lobbying/Employers/Detail.aspx?id=9100101',
    );
  });

  test('the Divisions tab lists active divisions by type, in an accordion sorted by name', async ({
    page,
    request,
  }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    await page.goto(`/organization/${id}`);
    await page.getByRole('tab', { name: 'Divisions' }).click();
    const types = page.getByRole('group', { name: 'Division type' }).getByRole('button');
    await expect(types).toHaveText(['Board', 'Division', 'Office']);
    await expect(types.first()).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('button', { name: 'Division', exact: true }).click();
    const rows = page.locator('summary');
    // 'Drought Response Unit' is inactive, so it is not listed.
    await expect(rows).toHaveText(['Dam Safety Division', 'Groundwater Management Division']);
    const groundwater = page.locator('details').filter({ hasText: 'Groundwater Management Division' });
    await expect(groundwater.getByRole('link', { name: /^\(916\) 555-0143$/ })).toBeHidden();
    await groundwater.locator('summary').press('Enter');
    await expect(groundwater.getByRole('link', { name: /^\(916\) 555-0143$/ })).toBeVisible();
    await expect(groundwater).toContainText('715 P Street, Floor 9');
  });

  test('the People tab lists the people who work there, each with picture, title, office, place, phone and email', async ({
    page,
    request,
  }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    const nora = personCard(page, 'Nora Whitfield');
    const picture = nora.locator('img');
    const elena = personCard(page, 'Elena Marquez');
    await step(page, 'the People tab', async () => {
      await page.goto(`/organization/${id}`);
      await expect(page.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
      // Seeded at the agency (services/profile's demo seed), in its Groundwater Management Division.
      await expect(nora).toHaveCount(1);
      await expect(nora).toContainText('Policy Analyst');
      await expect(nora).toContainText('Groundwater Management Division');
      await expect(nora).toContainText('Sacramento, CA');
      await expect(nora.getByRole('link', { name: '(916) 555-0103' })).toHaveAttribute(
        'href',
        'tel:9165550103',
      );
      await expect(nora.getByRole('link', { name: 'newbie@demo.ca.gov' })).toHaveAttribute(
        'href',
        'mailto:newbie@demo.ca.gov',
      );
      await expect(picture).toHaveAttribute('src', /^\/media\/pictures\//);
      await picture.scrollIntoViewIfNeeded();
      await expect
        .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);

      // The senator has no picture: her initials stand in for it.
      const senatorOffice = await organizationId(request, await memberToken(request), SENATOR_OFFICE);
      await page.goto(`/organization/${senatorOffice}`);
      await expect(elena).toContainText('Senator');
      await expect(elena.locator('img')).toHaveCount(0);
      await expect(elena.locator('.orgs-person__picture')).toHaveText('EM');
    });
  });

  test('people are listed in a random order', async ({ page, request }) => {
    const id = await organizationId(request, await memberToken(request), GOVERNOR_OFFICE);
    await page.goto(`/organization/${id}`);
    await expect(personCard(page, 'Helena Voss')).toHaveCount(1);
    const first = await personNames(page).allTextContents();
    expect(first.length).toBeGreaterThanOrEqual(5);
    // With 5 or more people, the same order on five loads in a row is a chance of 1 in 120^4 or less.
    const orders = new Set([first.join('|')]);
    for (let load = 0; load < 4 && orders.size === 1; load++) {
      await page.reload();
      await expect(personCard(page, 'Helena Voss')).toHaveCount(1);
      orders.add((await personNames(page).allTextContents()).join('|'));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  test('the Title, Office and Location filters narrow the people, and Reset brings them all back', async ({
    page,
    request,
  }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    const reset = page.getByRole('button', { name: 'Reset', exact: true });
    const office = page.getByRole('combobox', { name: 'Office' });
    const location = page.getByRole('combobox', { name: 'Location' });
    await step(page, 'the people filtered, then reset', async () => {
      await page.goto(`/organization/${id}`);
      await expect(personCard(page, 'Nora Whitfield')).toHaveCount(1);
      const everyone = await personNames(page).count();
      await expect(reset).toBeDisabled();

      await page.getByRole('combobox', { name: 'Title' }).selectOption('Policy Analyst');
      await expect(personNames(page)).not.toHaveCount(everyone);
      await expect(personCard(page, 'Nora Whitfield')).toHaveCount(1);
      await expect(personCard(page, 'Rosa Yamada')).toHaveCount(0);
      for (const title of await page.locator('.orgs-person__title').allTextContents())
        expect(title).toBe('Policy Analyst');
      await reset.click();
      await expect(personNames(page)).toHaveCount(everyone);
      await expect(page.getByRole('combobox', { name: 'Title' })).toHaveValue('');

      // The Office filter offers the agency's divisions (it has more than 2).
      await expect(office.getByRole('option', { name: 'Dam Safety Division' })).toHaveCount(1);
      await office.selectOption({ label: 'Groundwater Management Division' });
      await expect(personCard(page, 'Nora Whitfield')).toHaveCount(1);
      await expect(personNames(page)).not.toHaveCount(everyone);
      for (const name of await page.locator('.orgs-person__office').allTextContents())
        expect(name).toBe('Groundwater Management Division');
      await office.selectOption({ label: 'Dam Safety Division' });
      await expect(personCard(page, 'Nora Whitfield')).toHaveCount(0);
      await reset.click();
      await expect(personNames(page)).toHaveCount(everyone);

      // The senator's district office is in Elk Grove; she works in Sacramento.
      const senatorOffice = await organizationId(request, await memberToken(request), SENATOR_OFFICE);
      await page.goto(`/organization/${senatorOffice}`);
      await expect(personCard(page, 'Elena Marquez')).toHaveCount(1);
      const staff = await personNames(page).count();
      await expect(location.getByRole('option')).toContainText([
        'All locations',
        'Elk Grove, CA',
        'Sacramento, CA',
      ]);
      await location.selectOption('Elk Grove, CA');
      await expect(personCard(page, 'Elena Marquez')).toHaveCount(0);
      await expect(personNames(page).first()).toBeVisible();
      await expect(
        peopleList(page).locator('.orgs-person').filter({ hasNotText: 'Elk Grove, CA' }),
      ).toHaveCount(0);
      await page.getByRole('combobox', { name: 'Title' }).selectOption('Senator');
      await expect(page.getByText('No people to show.')).toBeVisible();
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect(personNames(page)).toHaveCount(staff);
      await expect(location).toHaveValue('');
    });
  });

  test("the member's own profile is not among the people of their organization, and a person opens their profile", async ({
    page,
    request,
  }) => {
    // The demo member is Marcus Chen, the senator's Legislative Director.
    const id = await organizationId(request, await memberToken(request), SENATOR_OFFICE);
    await page.goto(`/organization/${id}`);
    await expect(personCard(page, 'Elena Marquez')).toHaveCount(1);
    await expect(personCard(page, 'Marcus Chen')).toHaveCount(0);

    await page.getByRole('link', { name: 'Elena Marquez', exact: true }).click();
    await expect(page).toHaveURL(/\/profile\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Elena Marquez' })).toBeVisible();
  });

  test('a colleague sees the member among the people there', async ({ browser, request }) => {
    const id = await organizationId(request, await memberToken(request), SENATOR_OFFICE);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAsConcierge(page);
    await page.goto(`/organization/${id}`);
    await expect(personCard(page, 'Marcus Chen')).toHaveCount(1);
    await expect(personCard(page, 'Marcus Chen')).toContainText('Legislative Director');
    await context.close();
  });

  test("lists a person with two current jobs there once, and shows a member nobody but themself as 'No people to show.'", async ({
    browser,
    request,
  }) => {
    // An organization of this run's own, with two offices, and one new member holding a job in each.
    const member = await memberToken(request);
    const organization = await addOrganization(request, member, {
      organization_name: `E2E People ${RUN}`,
      group_type: 'Associations',
      street_address: '1020 N Street',
      city: 'Sacramento',
      state: 'CA',
    });
    const offices = [];
    for (const [name, city] of [
      ['Capitol Office', 'Sacramento'],
      ['Valley Office', 'Fresno'],
    ]) {
      const response = await request.post('/api/orgs/add-division', {
        headers: { 'x-auth-token': member },
        data: {
          organization_id: organization.organization_id,
          division_name: name,
          division_type: 'Office',
          city,
          state: 'CA',
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      offices.push(((await response.json()) as { division_id: number }).division_id);
    }
    const account = await registerAccount(request, true, { firstName: 'Ines', lastName: 'Holloway' });
    const token = await loginToken(request, account);
    const profileId = await createProfile(request, token, account);
    for (const [title, divisionId, city, start] of [
      ['Policy Director', offices[0], 'Sacramento', '2019-01-01'],
      ['Senior Advisor', offices[1], 'Fresno', '2022-03-01'],
    ] as const) {
      const response = await request.post('/api/profiles/add-job/', {
        headers: { 'x-auth-token': token },
        data: {
          profile_id: profileId,
          title,
          organization_id: organization.organization_id,
          division_id: divisionId,
          street_address: '1020 N Street',
          city,
          state: 'CA',
          zip_code: '95814',
          start_date: start,
          current_job: true,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
    }

    const asMember = await browser.newContext();
    const page = await asMember.newPage();
    await signInAsMember(page);
    await step(page, 'a person with two jobs listed once', async () => {
      await page.goto(`/organization/${organization.organization_id}`);
      await expect(personNames(page)).toHaveText(['Ines Holloway']);
      await expect(page.getByRole('combobox', { name: 'Office' }).getByRole('option')).toHaveText([
        'All offices',
        'Capitol Office',
        'Valley Office',
      ]);
    });
    await asMember.close();

    const asThemself = await browser.newContext();
    const own = await asThemself.newPage();
    await signInAs(own, account);
    await step(own, 'no people to show', async () => {
      await own.goto(`/organization/${organization.organization_id}`);
      await expect(own.getByText('No people to show.')).toBeVisible();
      await expect(own.locator('.orgs-person')).toHaveCount(0);
    });
    await asThemself.close();
  });

  test('an unknown organization shows the not-found panel with the way back', async ({ page }) => {
    await step(page, 'the not-found panel', async () => {
      await page.goto('/organization/2147483000');
      await expect(page.getByRole('heading', { name: 'This organization is not in session.' })).toBeVisible();
      await page.getByRole('link', { name: 'Back to organizations' }).click();
      await expect(page).toHaveURL(/\/organizations$/);
    });
  });

  test('a member sees no edit control', async ({ page, request }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    await page.goto(`/organization/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: WATER })).toBeVisible();
    await expect(page.getByRole('button', { name: /edit/i })).toHaveCount(0);
  });
});

// -------------------------------------------------------------------------------------------- contributor

test('a contributor edits the name and uploads a logo', async ({ page, request }) => {
  const token = await memberToken(request);
  const created = await addOrganization(request, token, {
    organization_name: `E2E Edit ${RUN}`,
    group_type: 'Associations',
    street_address: '1215 K Street',
    city: 'Sacramento',
    state: 'CA',
    zip_code: '95814',
  });
  const renamed = `E2E Edited ${RUN}`;

  await signInAsConcierge(page);
  await page.goto(`/organization/${created.organization_id}`);
  await page.getByRole('button', { name: 'Edit organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit organization' });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
  await expect(dialog.getByLabel('Cal-Access ID')).toBeEnabled();
  const logoInput = dialog.locator('input[type="file"]');

  await step(page, 'a GIF refused in the Edit organization dialog', async () => {
    // A GIF is refused in the browser, with the spec's text.
    await logoInput.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect(dialog.getByRole('alert')).toHaveText(
      'Incorrect image format. Please select only .jpg or .jpeg.',
    );
  });

  await step(page, 'a logo uploaded', async () => {
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/orgs/upload-organization-logo'));
    await logoInput.setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: solidPng(160, 120, [29, 74, 122]),
    });
    expect((await uploaded).status()).toBe(200);
    await expect(dialog.getByText('Logo updated.')).toBeVisible();
  });

  // Save needs the name; the phone is formatted as it is typed.
  const logo = page.locator('.orgs-profile__header img');
  await step(page, 'renamed and saved', async () => {
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('');
    await expect(dialog.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await dialog.getByLabel('Phone').fill('9165550177');
    await expect(dialog.getByLabel('Phone')).toHaveValue('(916) 555-0177');
    await dialog.getByRole('button', { name: 'Save changes' }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
    await expect(page.getByRole('link', { name: '(916) 555-0177' })).toBeVisible();
    await expect(logo).toHaveAttribute('src', /^\/media\/logos\//);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  const stored = await request.get(`/api/orgs/${created.organization_id}`, {
    headers: { 'x-auth-token': token },
  });
  expect(await stored.json()).toMatchObject({
    organization_name: renamed,
    main_phone: '(916) 555-0177',
    logo: expect.stringMatching(/^\/media\/logos\//),
  });
});

test('a contributor is told a name needs letters, and sets then corrects a Cal-Access ID', async ({
  page,
  request,
}) => {
  const token = await memberToken(request);
  const created = await addOrganization(request, token, {
    organization_name: `E2E Filer ${RUN}`,
    group_type: 'Lobbyists',
    street_address: '1127 11th Street',
    city: 'Sacramento',
    state: 'CA',
  });
  await signInAsConcierge(page);
  await page.goto(`/organization/${created.organization_id}`);
  const openEditor = async () => {
    await page.getByRole('button', { name: 'Edit organization' }).click();
    return page.getByRole('dialog', { name: 'Edit organization' });
  };
  let dialog = await openEditor();
  const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
  const save = dialog.getByRole('button', { name: 'Save changes' });

  await step(page, 'a name without letters said under the field', async () => {
    await name.fill('1e+308');
    await expect(
      dialog.getByText('Organization Name must contain letters, not only numbers or symbols.'),
    ).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(save).toBeDisabled();
  });
  await name.fill(created.organization_name);
  await expect(save).toBeEnabled();

  const filerId = dialog.getByRole('textbox', { name: 'Cal-Access ID' });
  await step(page, 'a Cal-Access ID set', async () => {
    await filerId.fill('F-12');
    await expect(dialog.getByText(/digits only, e\.g\. 1234567/)).toBeVisible();
    await expect(save).toBeDisabled();
    await filerId.fill('9100777');
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('link', { name: /^9100777/ })).toHaveAttribute(
      'href',
      'https://cal-access.sos.ca.gov/Lobbying/Firms/Detail.aspx?id=9100777',
    );
  });

  // Saved, it is locked; Correct unlocks it for a contributor who finds it wrong.
  await step(page, 'the Cal-Access ID corrected', async () => {
    dialog = await openEditor();
    await expect(dialog.getByRole('textbox', { name: 'Cal-Access ID' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Correct the Cal-Access ID' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Cal-Access ID' })).toBeFocused();
    await dialog.getByRole('textbox', { name: 'Cal-Access ID' }).fill('9100778');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('link', { name: /^9100778/ })).toBeVisible();
  });
  const stored = await request.get(`/api/orgs/${created.organization_id}`, {
    headers: { 'x-auth-token': token },
  });
  expect(await stored.json()).toMatchObject({
    organization_name: created.organization_name,
    lobby_filer_id: '9100778',
  });
});

// --------------------------------------------------------------------------------------- API refusals

test.describe('refusals through the API', () => {
  const FORMAT = 'Incorrect image format. Please select only .jpg or .jpeg.';
  const TOO_LARGE = 'Image is too large. Please resize or select a smaller image.';
  const UNKNOWN_ID = 2_147_483_000;

  async function ownOrganization(request: APIRequestContext, token: string, label: string) {
    return addOrganization(request, token, {
      organization_name: `E2E Refusals ${label} ${RUN}`,
      group_type: 'Other',
      street_address: '1 Capitol Mall',
      city: 'Sacramento',
      state: 'CA',
    });
  }

  const uploadLogo = (request: APIRequestContext, token: string, organizationId: number, logo: Buffer) =>
    request.post('/api/orgs/upload-organization-logo', {
      headers: { 'x-auth-token': token },
      multipart: {
        organization_id: String(organizationId),
        image_type: 'image/png',
        logo: { name: 'logo.png', mimeType: 'image/png', buffer: logo },
      },
    });

  async function expectRefusal(response: APIResponse, status: number, message: string) {
    expect(response.status(), await response.text()).toBe(status);
    expect(await response.json()).toEqual({ errors: [{ msg: message }] });
  }

  test('a member may neither update an organization nor upload its logo', async ({ request }) => {
    const token = await memberToken(request);
    const created = await ownOrganization(request, token, 'Member');
    await expectRefusal(
      await request.post('/api/orgs/update-organization', {
        headers: { 'x-auth-token': token },
        data: {
          organization_id: created.organization_id,
          organization_name: `Hijacked ${RUN}`,
          street_address: '2 Main Street',
        },
      }),
      403,
      'Contributors only',
    );
    await expectRefusal(
      await uploadLogo(request, token, created.organization_id, solidPng(20, 20, [1, 2, 3])),
      403,
      'Contributors only',
    );
    const stored = await request.get(`/api/orgs/${created.organization_id}`, {
      headers: { 'x-auth-token': token },
    });
    expect(await stored.json()).toMatchObject({ organization_name: created.organization_name, logo: null });
  });

  test('a name without letters is refused for an organization and a division, and nothing is added', async ({
    request,
  }) => {
    const token = await memberToken(request);
    const before = await listTotal(request, token);
    for (const organization_name of ['0', '1e+308', '----'])
      await expectRefusal(
        await request.post('/api/orgs/add-organization', {
          headers: { 'x-auth-token': token },
          data: { organization_name, group_type: 'Other', street_address: '1 Capitol Mall' },
        }),
        400,
        'Organization Name must contain letters, not only numbers or symbols.',
      );
    expect(await listTotal(request, token)).toBe(before);
    const created = await ownOrganization(request, token, 'Names');
    await expectRefusal(
      await request.post('/api/orgs/add-division', {
        headers: { 'x-auth-token': token },
        data: { organization_id: created.organization_id, division_name: '----' },
      }),
      400,
      'Division Name must contain letters, not only numbers or symbols.',
    );
    const divisions = await request.get(`/api/orgs/divisions/${created.organization_id}`, {
      headers: { 'x-auth-token': token },
    });
    expect(await divisions.json()).toEqual([]);
  });

  test('a member adding an organization may not give it a Cal-Access ID, and nothing is added', async ({
    request,
  }) => {
    const token = await memberToken(request);
    const name = `E2E Member Filer ${RUN}`;
    await expectRefusal(
      await request.post('/api/orgs/add-organization', {
        headers: { 'x-auth-token': token },
        data: { organization_name: name, group_type: 'Lobbyists', lobby_filer_id: '9100999' },
      }),
      403,
      'Only contributors can set or correct a Cal-Access ID.',
    );
    expect(await listTotal(request, token, name)).toBe(0);
  });

  test('an update without a name or a street address is refused with the fields named', async ({
    request,
  }) => {
    const contributor = await loginToken(request, DEMO.concierge);
    const created = await ownOrganization(request, contributor, 'Required');
    const update = (fields: Record<string, string>) =>
      request.post('/api/orgs/update-organization', {
        headers: { 'x-auth-token': contributor },
        data: { organization_id: created.organization_id, ...fields },
      });
    const REQUIRED = 'Please provide entries for the following required fields: ';
    await expectRefusal(
      await update({ organization_name: '', street_address: '1 Capitol Mall' }),
      400,
      `${REQUIRED}Organization Name`,
    );
    await expectRefusal(
      await update({ organization_name: created.organization_name, street_address: ' ' }),
      400,
      `${REQUIRED}Street Address`,
    );
    await expectRefusal(
      await update({ organization_name: '', street_address: '' }),
      400,
      `${REQUIRED}Organization Name, Street Address`,
    );
    const stored = await request.get(`/api/orgs/${created.organization_id}`, {
      headers: { 'x-auth-token': contributor },
    });
    expect(await stored.json()).toMatchObject({
      organization_name: created.organization_name,
      street_address: '1 Capitol Mall',
    });
  });

  test("a logo of the wrong type, an oversize one and a pixel bomb are refused with the spec's texts", async ({
    request,
  }) => {
    const contributor = await loginToken(request, DEMO.concierge);
    const created = await ownOrganization(request, contributor, 'Logo');
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    // A GIF, though named and declared as a PNG: the bytes decide.
    await expectRefusal(await uploadLogo(request, contributor, created.organization_id, gif), 400, FORMAT);
    await expectRefusal(
      await uploadLogo(request, contributor, created.organization_id, pixelBomb()),
      400,
      TOO_LARGE,
    );
    const oversize = Buffer.concat([solidPng(20, 20, [1, 2, 3]), randomBytes(11 * 1024 * 1024)]);
    await expectRefusal(
      await uploadLogo(request, contributor, created.organization_id, oversize),
      413,
      TOO_LARGE,
    );
    const stored = await request.get(`/api/orgs/${created.organization_id}`, {
      headers: { 'x-auth-token': contributor },
    });
    expect((await stored.json()).logo).toBeNull();
  });

  test('an unknown organization id answers 404', async ({ request }) => {
    const contributor = await loginToken(request, DEMO.concierge);
    const auth = { 'x-auth-token': contributor };
    expect((await request.get(`/api/orgs/${UNKNOWN_ID}`, { headers: auth })).status()).toBe(404);
    await expectRefusal(
      await request.post('/api/orgs/update-organization', {
        headers: auth,
        data: {
          organization_id: UNKNOWN_ID,
          organization_name: `Nowhere ${RUN}`,
          street_address: '1 Capitol Mall',
        },
      }),
      404,
      'Organization not found',
    );
    await expectRefusal(
      await uploadLogo(request, contributor, UNKNOWN_ID, solidPng(20, 20, [1, 2, 3])),
      404,
      'Organization not found',
    );
  });
});

// ------------------------------------------------------------------------------------------------ visitor

test('a visitor opening an organization is told to log in and returned to /', async ({ page }) => {
  await page.goto('/organization/1');
  await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
  await expect(page).toHaveURL(/\/$/);
});

// ------------------------------------------------------------------------------------------ accessibility

for (const width of [1280, 400]) {
  test.describe(`accessibility at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the list has no axe findings', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/organizations');
      await expect(cards(page).first()).toBeVisible();
      await expectNoAxeFindings(page);
    });

    test('a profile and its Divisions tab have none', async ({ page, request }) => {
      const id = await organizationId(request, await memberToken(request), WATER);
      await signInAsMember(page);
      await page.goto(`/organization/${id}`);
      // The People tab has answered: its people, or the empty line.
      await expect(page.locator('.orgs-panel-empty, .orgs-person').first()).toBeVisible();
      await expectNoAxeFindings(page);
      await page.getByRole('tab', { name: 'Divisions' }).click();
      await page.locator('summary').first().click();
      await expectNoAxeFindings(page);
    });

    test('the Edit Organization dialog has none', async ({ page, request }) => {
      const id = await organizationId(request, await memberToken(request), 'Capitol Bridge Advocates');
      await signInAsConcierge(page);
      await page.goto(`/organization/${id}`);
      await page.getByRole('button', { name: 'Edit organization' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit organization' })).toBeVisible();
      await expectNoAxeFindings(page, { include: 'dialog[open]' });
    });
  });
}
