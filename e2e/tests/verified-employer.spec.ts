// The "Verified employer" badge in the browser: a contributor lists a member's email domain on the organization
// the member works at now (in the Edit Organization dialog), and the member's profile page and directory card
// then show the badge (words, a tooltip saying what it means), at 1280 and 400 px wide, with no axe
// finding; a domain the rule refuses is said under the field and nothing is saved; removing the
// domain removes the badge.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser } from '@playwright/test';
import { registerAccount } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { apiLogin, createOwnProfile, getProfile } from './support/profiles.ts';
import { signInAs, signInAsConcierge } from './support/session.ts';

const TOOLTIP = 'Their account email is at a domain of their current organization';
/** Letters only, so it can be part of a name. */
const RUN = [...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
const LAST_NAME = `Verifyd ${RUN}`;

async function post(request: APIRequestContext, token: string, path: string, data: object, status = 200) {
  const response = await request.post(path, { headers: { 'x-auth-token': token }, data });
  expect(response.status(), await response.text()).toBe(status);
  return response.json();
}

/** A contributor's page on the organization's Edit dialog. */
async function editDomainsOf(browser: Browser, organizationId: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAsConcierge(page);
  await page.goto(`/organization/${organizationId}`);
  await page.getByRole('button', { name: 'Edit organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit organization' });
  const field = dialog.getByRole('textbox', { name: 'Email domains' });
  return { context, page, dialog, field };
}

test('a contributor lists a domain and the member working there shows the Verified employer badge', async ({
  browser,
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  const account = await registerAccount(request, true, { firstName: 'Vera', lastName: LAST_NAME });
  const domain = account.email.split('@')[1] as string;
  const session = await apiLogin(request, account);
  const organization = await post(
    request,
    session.token,
    '/api/orgs/add-organization',
    {
      organization_name: `E2E Verified Agency ${RUN}`,
      group_type: 'Agencies',
      street_address: '915 L Street',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
    },
    201,
  );
  const profile = await createOwnProfile(request, session, account.email, 'Budget Analyst');
  await post(
    request,
    session.token,
    '/api/profiles/add-job/',
    {
      profile_id: profile.profile_id,
      title: 'Senior Budget Analyst',
      organization_id: organization.organization_id,
      street_address: '915 L Street',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      start_date: '2024-07-01',
      current_job: true,
    },
    201,
  );
  expect(await getProfile(request, session.token, profile.profile_id)).toMatchObject({
    verified_employer: false,
  });

  // The contributor's form refuses what the rule refuses, then saves the member's domain.
  const edit = await editDomainsOf(browser, organization.organization_id);
  await step(edit.page, 'the refused domain said under the field', async () => {
    await edit.field.fill('https://example.org');
    await expect(
      edit.dialog.getByText('"https://example.org" is not a domain', { exact: false }),
    ).toBeVisible();
    await expect(edit.dialog.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await edit.field.fill(domain.toUpperCase());
  });
  await edit.page.screenshot({ path: info.outputPath('edit-organization-email-domains-1280.png') });
  await edit.dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.dialog).toBeHidden();
  await edit.context.close();
  expect(await getProfile(request, session.token, profile.profile_id)).toMatchObject({
    verified_employer: true,
  });

  // The profile page.
  await signInAs(page, account);
  await page.setViewportSize({ width: 1280, height: 900 });
  const badge = page.locator('.prof-card').getByText('Verified employer', { exact: true });
  await step(page, 'the profile with the badge', async () => {
    await page.goto(`/profile/${profile.profile_id}`);
    await expect(badge).toBeVisible();
    await expect(page.locator('.prof-verified')).toHaveAttribute('title', TOOLTIP);
    await page.screenshot({ path: info.outputPath('profile-1280.png'), fullPage: true });
  });
  await step(page, 'at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(badge).toBeVisible();
    await page.screenshot({ path: info.outputPath('profile-400.png'), fullPage: true });
  });

  // The directory card.
  await page.setViewportSize({ width: 1280, height: 900 });
  const card = page.getByRole('link', { name: new RegExp(`Vera ${LAST_NAME}`) });
  await step(page, 'the directory card with the badge', async () => {
    await page.goto(`/directory?search=${encodeURIComponent(LAST_NAME)}`);
    await expect(card).toBeVisible();
    await expect(card.getByText('Verified employer', { exact: true })).toBeVisible();
    await expect(card.locator('.dir-verified')).toHaveAttribute('title', TOOLTIP);
    await page.screenshot({ path: info.outputPath('directory-1280.png'), fullPage: true });
  });
  await step(page, 'at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 860 });
    await expect(card.getByText('Verified employer', { exact: true })).toBeVisible();
    const [cardBox, badgeBox] = [await card.boundingBox(), await card.locator('.dir-verified').boundingBox()];
    expect(badgeBox && cardBox && badgeBox.x + badgeBox.width <= cardBox.x + cardBox.width).toBe(true);
    await page.screenshot({ path: info.outputPath('directory-400.png'), fullPage: true });
  });

  // The contributor removes the domain: the badge goes.
  const removal = await editDomainsOf(browser, organization.organization_id);
  await removal.field.fill('');
  await removal.dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(removal.dialog).toBeHidden();
  await removal.context.close();
  await page.goto(`/profile/${profile.profile_id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Vera ${LAST_NAME}` })).toBeVisible();
  await expect(page.getByText('Verified employer', { exact: true })).toHaveCount(0);
  await page.goto(`/directory?search=${encodeURIComponent(LAST_NAME)}`);
  await expect(card).toBeVisible();
  await expect(card.getByText('Verified employer', { exact: true })).toHaveCount(0);
});
