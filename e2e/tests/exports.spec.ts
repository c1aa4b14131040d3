// The directory's 'Other' group and the work contacts members take away, in the browser against the running
// product: 'Other' lists people at an organization of the group Other and people with no current organization
// (a new member moves into it when their only job ends), "Download CSV" saves the current search with a header
// row and exactly the people on screen, "Save contact" saves a vCard that parses back to the profile shown; the
// directory with its button and the profile page with its button are screenshotted at 1280 and 400 px, and axe
// finds no axe findings on either. A member of its own does the downloads, so the demo
// members' allowance is left to the other tests.

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, step, test } from './support/journey.ts';
import { type Member, newMember } from './support/members.ts';
import { WATER } from './support/profiles.ts';
import { signInAs } from './support/session.ts';

/** Seeded organizations of the group Other (services/org/src/seed/demo-organizations.ts). */
const OTHER_ORGANIZATION = 'River City Policy Institute';
const CSV_HEADER = 'first_name,last_name,title,organization,division,work_email,office_phone';
const WIDTHS = [1280, 400] as const;

const results = (page: Page) => page.getByRole('region', { name: 'People found' });
const cardNames = (page: Page) => results(page).locator('.dir-card__name');
const groupSelect = (page: Page) => page.getByRole('combobox', { name: 'Group' });

/** Waits until the list shows the answer for the filters in the URL (the count line is written then). */
async function settled(page: Page): Promise<void> {
  await expect(results(page)).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByText(/^(\d[\d,]* (people|person)( found)?|No people found)$/)).toBeVisible();
}

/** A vCard's properties by name (unfolded; parameters dropped), each with its values in order. */
function parseVCard(text: string): Map<string, { params: string; value: string }[]> {
  expect(text.startsWith('BEGIN:VCARD\r\n')).toBe(true);
  expect(text.endsWith('END:VCARD\r\n')).toBe(true);
  const properties = new Map<string, { params: string; value: string }[]>();
  for (const line of text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean)) {
    const colon = line.indexOf(':');
    const [name = '', ...params] = line.slice(0, colon).split(';');
    const list = properties.get(name.toUpperCase()) ?? [];
    list.push({ params: params.join(';'), value: line.slice(colon + 1) });
    properties.set(name.toUpperCase(), list);
  }
  return properties;
}

/** RFC 6350 text unescaped: \n, \, \; and \\. */
const unescapeText = (value: string) =>
  value.replace(/\\([nN,;\\])/g, (_, c: string) => (c.toLowerCase() === 'n' ? '\n' : c));

let member: Member;
let lastName: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  lastName = `Exportson${Date.now().toString(36)}`;
  member = await newMember(
    request,
    { firstName: 'Olwen', lastName },
    { withProfile: true, title: 'Analyst' },
  );
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, member.account);
});

test("'Other' lists people at an organization of the group Other, and people whose current job ended", async ({
  page,
}) => {
  await step(page, 'the Other group', async () => {
    await page.goto(`/directory?search=${encodeURIComponent(OTHER_ORGANIZATION)}`);
    await settled(page);
    const everyone = await cardNames(page).allInnerTexts();
    expect(everyone.length).toBeGreaterThan(0);
    await expect(groupSelect(page).getByRole('option')).toContainText(['Elected Officials', 'Other']);
    await groupSelect(page).selectOption('Other');
    await expect(page).toHaveURL(/[?&]group=Other/);
    await settled(page);
    await expect(cardNames(page)).toHaveText(everyone);
    await expect(
      page.getByText(
        'People at an organization of the group Other, and people with no current organization.',
      ),
    ).toBeVisible();
  });

  // The new member works at an agency: not Other, until that job ends.
  await page.goto(`/directory?search=${lastName}&group=Other`);
  await settled(page);
  await expect(page.getByText('No people match your search.')).toBeVisible();
  await page.goto(`/directory?search=${lastName}&group=Agencies`);
  await settled(page);
  await expect(cardNames(page)).toHaveText([`Olwen ${lastName}`]);

  const job = member.profile?.JobExperiences[0];
  const token = await member.session.token();
  const ended = await page.request.post('/api/profiles/update-job/', {
    headers: { 'x-auth-token': token },
    data: { ...job, organization_id: job?.organization_id, current_job: false, end_date: '2025-06-30' },
  });
  expect(ended.ok(), await ended.text()).toBe(true);
  // Other words for the same person: the gateway shares a search's answer for a moment (DIRECTORY_CACHE_SECONDS).
  await page.goto(`/directory?search=olwen+${lastName}&group=Other`);
  await settled(page);
  await expect(cardNames(page)).toHaveText([`Olwen ${lastName}`]);
  await page.goto(`/directory?search=olwen+${lastName}&group=Agencies`);
  await settled(page);
  await expect(page.getByText('No people match your search.')).toBeVisible();
});

test('"Download CSV" saves the search with a header row and exactly the people on screen', async ({
  page,
}) => {
  const shown = await step(page, 'a search to download', async () => {
    await page.goto(`/directory?search=${encodeURIComponent(WATER)}`);
    await settled(page);
    const names = await cardNames(page).allInnerTexts();
    expect(names.length).toBeGreaterThan(1);
    expect(names.length).toBeLessThan(30);
    return names;
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^rotunda-directory-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
  expect(header).toBe(CSV_HEADER);
  // The seeded people's fields hold no comma, quote or line break, so each row splits on commas.
  const names = rows.map((row) => row.split(',').slice(0, 2).join(' '));
  expect(names).toEqual(shown);
  // Each row names its person's current organization: the search's own, or for someone who also holds a
  // current job elsewhere (other specs' members, e.g. verified-employer.spec.ts's), that other one.
  for (const row of rows) expect(row.split(',')[3]).not.toBe('');
  expect(rows.filter((row) => row.split(',')[3] === WATER).length).toBeGreaterThan(1);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
});

test('"Save contact" saves a vCard that parses back to the profile on screen', async ({ page }) => {
  await page.goto(`/directory?search=${encodeURIComponent(OTHER_ORGANIZATION)}`);
  await settled(page);
  const name = ((await cardNames(page).first().textContent()) ?? '').trim();
  await step(page, 'the profile, from the directory', async () => {
    await results(page).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/profile\/\d+$/);
    // The profile's own heading: the directory's may linger while the profile screen loads.
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });
  const workEmail = (
    (await page.locator('.prof-contact__item', { hasText: 'Work email' }).locator('dd').textContent()) ?? ''
  ).trim();
  const officePhone = (
    (await page.locator('.prof-contact__item', { hasText: 'Office phone' }).locator('dd').textContent()) ?? ''
  ).trim();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Save contact' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name.replace(/\s+/g, '-')}.vcf`);
  const card = parseVCard(await readFile(await download.path(), 'utf8'));
  expect(card.get('VERSION')?.[0]?.value).toBe('4.0');
  expect(unescapeText(card.get('FN')?.[0]?.value ?? '')).toBe(name);
  expect(card.get('EMAIL')?.[0]).toEqual({ params: 'TYPE=work', value: workEmail });
  const digits = officePhone.replace(/\D/g, '');
  expect(card.get('TEL')?.[0]).toEqual({
    params: 'TYPE=work,voice;VALUE=uri',
    value: `tel:+1-${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
  });
  expect(unescapeText(card.get('ORG')?.[0]?.value.split(/(?<!\\);/)[0] ?? '')).toBe(OTHER_ORGANIZATION);
});

test('the directory with "Download CSV" and the profile with "Save contact", at 1280 and 400 px, pass axe', async ({
  page,
}, testInfo) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await step(page, 'the directory with Download CSV', async () => {
      await page.goto(`/directory?search=${encodeURIComponent(OTHER_ORGANIZATION)}&group=Other`);
      await settled(page);
      await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`directory-download-${width}.png`),
        fullPage: false,
      });
    });

    await step(page, 'the profile with Save contact', async () => {
      await page.goto(`/profile/${member.profile?.profile_id}`);
      await expect(page.getByRole('button', { name: 'Save contact' })).toBeVisible();
      await page.screenshot({
        path: testInfo.outputPath(`profile-save-contact-${width}.png`),
        fullPage: true,
      });
    });
  }
});
