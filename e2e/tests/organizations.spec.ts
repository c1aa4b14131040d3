// The organization directory in the browser, against the running product: the list (cards, search, group
// filter, more cards past 30 as the member scrolls, filters in the URL), the profile (details, People,
// the Divisions accordion), a contributor editing an organization and uploading its logo, a member without
// the edit control, a visitor turned away by the guard, and no serious or critical axe violations.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { signInAsConcierge, signInAsMember } from './support/session.ts';

/** The demo seed's agency with divisions of three types, one of them inactive. */
const WATER = 'Department of Water Stewardship';
const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

// ------------------------------------------------------------------------------------------------ helpers

async function memberToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/auth/login', { data: DEMO.member });
  expect(response.ok()).toBe(true);
  return (await response.json()).token as string;
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

/** A valid RGB PNG of one colour, made here: signature, IHDR, one zlib-compressed IDAT and IEND. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const results = (page: Page) => page.getByRole('region', { name: 'Organizations found' });
const cards = (page: Page) => results(page).getByRole('link');

async function expectNoBlockingViolations(page: Page, include?: string) {
  await page.waitForLoadState('networkidle');
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  const blocking = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(blocking).toEqual([]);
}

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
    await page.goto('/organizations');
    const group = page.getByRole('combobox', { name: 'Group' });
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
    for (const card of await cards(page).all()) await expect(card).toContainText('Lobbyists');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Group' })).toHaveValue('Lobbyists');
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
    await expect(page.getByText('715 P Street')).toBeVisible();
    await expect(page.getByRole('link', { name: /^\(916\) 555-\d{4}$/ })).toHaveAttribute('href', /^tel:/);
    await expect(page.getByRole('link', { name: /waterstewardship\.example\.org/ })).toHaveAttribute(
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

  test("the People tab has its filters, and says 'No people to show.' without the colleagues call", async ({
    page,
    request,
  }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    const colleagues = page.waitForResponse((r) => r.url().endsWith('/api/profiles/organization-colleagues'));
    await page.goto(`/organization/${id}`);
    await expect(page.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('combobox', { name: 'Title' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Office' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Location' })).toBeVisible();
    const status = (await colleagues).status();
    // Until the profile service has organization-colleagues, nobody is listed (never made-up people).
    if (status === 404 || status === 501) await expect(page.getByText('No people to show.')).toBeVisible();
  });

  test('People filters narrow the list of colleagues', async ({ page, request }) => {
    const id = await organizationId(request, await memberToken(request), WATER);
    // The profile service's answer, given here so the filters can be exercised before that call exists.
    const person = (profile_id: string, first_name: string, title: string, city: string) => ({
      profile_id,
      title,
      city,
      state: 'CA',
      Division: null,
      ProfileInfo: {
        profile_id,
        first_name,
        last_name: 'Example',
        profile_picture: null,
        other_phone: '9165550190',
        work_email: `${first_name.toLowerCase()}@water.example.org`,
      },
    });
    await page.route('**/api/profiles/organization-colleagues', (route) =>
      route.fulfill({
        json: [
          person('e2e-1', 'Ana', 'Counsel', 'Sacramento'),
          person('e2e-2', 'Ben', 'Engineer', 'Fresno'),
          person('e2e-3', 'Cy', 'Counsel', 'Fresno'),
        ],
      }),
    );
    await page.goto(`/organization/${id}`);
    const people = page.locator('.orgs-person__name');
    await expect(people).toHaveCount(3);
    await page.getByRole('combobox', { name: 'Title' }).selectOption('Counsel');
    await expect(people).toHaveCount(2);
    await page.getByRole('combobox', { name: 'Location' }).selectOption('Fresno, CA');
    await expect(people).toHaveText(['Cy Example']);
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect(people).toHaveCount(3);
  });

  test('an unknown organization shows the not-found panel with the way back', async ({ page }) => {
    await page.goto('/organization/2147483000');
    await expect(page.getByRole('heading', { name: 'This organization is not in session.' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to organizations' }).click();
    await expect(page).toHaveURL(/\/organizations$/);
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

  // A GIF is refused in the browser, with the spec's text.
  await logoInput.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(dialog.getByRole('alert')).toHaveText(
    'Incorrect image format. Please select only .jpg or .jpeg.',
  );

  const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/orgs/upload-organization-logo'));
  await logoInput.setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: solidPng(160, 120, [29, 74, 122]),
  });
  expect((await uploaded).status()).toBe(200);
  await expect(dialog.getByText('Logo updated.')).toBeVisible();

  // Save needs the name; the phone is formatted as it is typed.
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('');
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
  await dialog.getByLabel('Phone').fill('9165550177');
  await expect(dialog.getByLabel('Phone')).toHaveValue('(916) 555-0177');
  await dialog.getByRole('button', { name: 'Save changes' }).click();

  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(renamed);
  await expect(page.getByRole('link', { name: '(916) 555-0177' })).toBeVisible();
  const logo = page.locator('.orgs-profile__header img');
  await expect(logo).toHaveAttribute('src', /^\/media\/logos\//);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  const stored = await request.get(`/api/orgs/${created.organization_id}`, {
    headers: { 'x-auth-token': token },
  });
  expect(await stored.json()).toMatchObject({
    organization_name: renamed,
    main_phone: '(916) 555-0177',
    logo: expect.stringMatching(/^\/media\/logos\//),
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

    test('the list has no serious or critical axe violations', async ({ page }) => {
      await signInAsMember(page);
      await page.goto('/organizations');
      await expect(cards(page).first()).toBeVisible();
      await expectNoBlockingViolations(page);
    });

    test('a profile and its Divisions tab have none', async ({ page, request }) => {
      const id = await organizationId(request, await memberToken(request), WATER);
      await signInAsMember(page);
      await page.goto(`/organization/${id}`);
      // The People tab has answered: its people, or the empty line.
      await expect(page.locator('.orgs-panel-empty, .orgs-person').first()).toBeVisible();
      await expectNoBlockingViolations(page);
      await page.getByRole('tab', { name: 'Divisions' }).click();
      await page.locator('summary').first().click();
      await expectNoBlockingViolations(page);
    });

    test('the Edit Organization dialog has none', async ({ page, request }) => {
      const id = await organizationId(request, await memberToken(request), 'Capitol Bridge Advocates');
      await signInAsConcierge(page);
      await page.goto(`/organization/${id}`);
      await page.getByRole('button', { name: 'Edit organization' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit organization' })).toBeVisible();
      await expectNoBlockingViolations(page, 'dialog[open]');
    });
  });
}
