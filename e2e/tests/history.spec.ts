// Curation history in the browser, against the running product: a contributor edits an organization's city in
// the Edit Organization dialog and sees the change in its History section (who, what, the old and the new value),
// looked at 1280 and 400 px wide with no axe finding in the section; a contributor sees
// History on a profile page too; a member sees no History on either page and their browser never asks for it.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO } from './support/accounts.ts';
import { expect, step, test } from './support/journey.ts';
import { networkSettled } from './support/network.ts';
import { signInAsConcierge, signInAsMember } from './support/session.ts';

/** Letters only, so it can be part of a name. */
const RUN = [...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');

async function loginToken(request: APIRequestContext, account: { email: string; password: string }) {
  const response = await request.post('/auth/login', { data: account });
  expect(response.ok()).toBe(true);
  const { token, user } = await response.json();
  return { token: token as string, profileId: user.profile_id as number };
}

/** A new organization of this name in Sacramento, added by the concierge; its id. */
async function newOrganization(request: APIRequestContext, name: string): Promise<number> {
  const { token } = await loginToken(request, DEMO.concierge);
  const response = await request.post('/api/orgs/add-organization', {
    headers: { 'x-auth-token': token },
    data: {
      organization_name: name,
      group_type: 'Associations',
      street_address: '1020 N Street',
      city: 'Sacramento',
      state: 'CA',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).organization_id as number;
}

/** Every path the page asks the API for. */
function apiRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) paths.push(url.pathname);
  });
  return paths;
}

test('a contributor edits an organization and sees the change with its old and new value in History', async ({
  page,
  request,
}, info) => {
  test.setTimeout(90_000);
  const organizationId = await newOrganization(request, `E2E History Guild ${RUN}`);
  const concierge = await loginToken(request, DEMO.concierge);
  const own = await request.get(`/api/profiles/profile/${concierge.profileId}`, {
    headers: { 'x-auth-token': concierge.token },
  });
  expect(own.ok()).toBe(true);
  const { first_name, last_name } = await own.json();
  await signInAsConcierge(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  const history = page.locator('section.history');
  await step(page, 'the organization with its History', async () => {
    await page.goto(`/organization/${organizationId}`);
    await expect(history.getByRole('heading', { level: 2, name: 'History' })).toBeVisible();
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history.getByRole('listitem').first()).toContainText('created the organization');
  });

  const dialog = page.getByRole('dialog', { name: 'Edit organization' });
  const latest = history.getByRole('listitem').first();
  const change = latest.locator('.history__change');
  await step(page, 'the organization edited, its change in History', async () => {
    await page.getByRole('button', { name: 'Edit organization' }).click();
    await dialog.getByRole('textbox', { name: 'City', exact: true }).fill('Davis');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();

    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(latest.locator('.history__actor')).toHaveText(`${first_name} ${last_name}`);
    await expect(latest).toContainText('edited the organization');
    await expect(change).toHaveCount(1);
    await expect(change.getByRole('term')).toHaveText('City');
    await expect(change.getByRole('definition')).toContainText('Sacramento');
    await expect(change.getByRole('definition')).toContainText('Davis');
    await expect(change.getByRole('definition').locator('.history__value').first()).toHaveText('Sacramento');
    await expect(change.getByRole('definition').locator('.history__value').last()).toHaveText('Davis');
  });

  await history.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('organization-history-1280.png'), fullPage: true });
  await step(page, 'at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 900 });
    await expect(history).toBeVisible();
    const box = await history.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(400);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: info.outputPath('organization-history-400.png'), fullPage: true });
  });
});

test('a contributor sees History on a profile page', async ({ page, request }, info) => {
  const { profileId } = await loginToken(request, DEMO.member);
  await signInAsConcierge(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  const history = page.locator('section.history');
  await step(page, 'the profile with its History', async () => {
    await page.goto(`/profile/${profileId}`);
    await expect(history.getByRole('heading', { level: 2, name: 'History' })).toBeVisible();
    await expect(history.getByText('No changes recorded yet.').or(history.getByRole('list'))).toBeVisible();
    await page.screenshot({ path: info.outputPath('profile-history-1280.png'), fullPage: true });
  });
  await step(page, 'at 400 px', async () => {
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: info.outputPath('profile-history-400.png'), fullPage: true });
  });
});

test('a member sees no History on an organization or a profile, and never asks for it', async ({
  page,
  request,
}) => {
  const organizationId = await newOrganization(request, `E2E Quiet Guild ${RUN}`);
  const { profileId } = await loginToken(request, DEMO.concierge);
  const asked = apiRequests(page);
  await signInAsMember(page);
  await step(page, 'the organization, for a member', async () => {
    await page.goto(`/organization/${organizationId}`);
    await expect(page.getByRole('heading', { level: 1, name: `E2E Quiet Guild ${RUN}` })).toBeVisible();
    await expect(page.getByText('No people to show.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'History', exact: true })).toHaveCount(0);
  });
  await step(page, 'the profile, for a member', async () => {
    await page.goto(`/profile/${profileId}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Bio' })).toBeVisible();
    await networkSettled(page);
  });
  await expect(page.getByRole('heading', { name: 'History', exact: true })).toHaveCount(0);
  expect(asked.filter((path) => path.startsWith('/api/history'))).toEqual([]);
  const { token } = await loginToken(request, DEMO.member);
  const refused = await request.get(`/api/history/organization/${organizationId}`, {
    headers: { 'x-auth-token': token },
  });
  expect(refused.status()).toBe(403);
});
