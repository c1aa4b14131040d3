// Access administration in the browser, against the running product (docs/product.md#access-administration):
// the demo administrator approves a new domain on /admin and a person at it can register at once; granting
// them 'contributor' shows at their next sign-in (the login answer and the Moderation link); removing the
// domain refuses the next person there again; the log lists all three changes. A value that is not a domain
// is refused in words; a member who opens /admin is told it is for administrators (and has no link to it), a
// visitor to log in.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO, registerAccount, solvedCaptcha } from './support/accounts.ts';
import { networkSettled } from './support/network.ts';
import { signInAs, signInAsMember } from './support/session.ts';
import { expect, test } from './support/test.ts';
import { logIn } from './support/ui.ts';

const eligible = async (request: APIRequestContext, email: string): Promise<boolean> => {
  const response = await request.post('/auth/check-email', { data: { email } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { eligible: boolean }).eligible;
};

/** The Approved domains list of the screen. */
const domainsList = (page: Page) => page.getByRole('region', { name: /^Approved domains/ });

test('an administrator opens registration to a domain, grants a role and closes it again', async ({
  page,
  browser,
  request,
}) => {
  const domain = `e2e-${randomBytes(4).toString('hex')}.example.org`;
  const person = { firstName: 'Noor', lastName: 'Haddad', email: `noor@${domain}` };
  expect(await eligible(request, person.email)).toBe(false);

  await test.step('the administrator approves the domain on /admin', async () => {
    await signInAs(page, DEMO.admin);
    await page.goto('/public-square');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Administration' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Access administration' })).toBeFocused();
    const domains = domainsList(page);
    await domains.getByLabel(/Add a domain/).fill(domain.toUpperCase());
    await domains.getByRole('button', { name: 'Add' }).click();
    await expect(domains.getByRole('status')).toHaveText(`Added ${domain} to Approved domains.`);
    await expect(domains.getByRole('button', { name: `Remove ${domain}` })).toBeVisible();
  });

  await test.step('a person at the domain can register at once', async () => {
    expect(await eligible(request, person.email)).toBe(true);
    await registerAccount(request, true, person);
  });

  await test.step('the administrator grants them Concierge contributor', async () => {
    const roles = page.getByRole('region', { name: 'Roles' });
    await roles.getByLabel('Account email').fill(person.email);
    await roles.getByLabel('Role').selectOption({ label: 'Concierge contributor' });
    await roles.getByRole('button', { name: 'Grant' }).click();
    await expect(roles.getByRole('status')).toContainText(`${person.email} is now Concierge contributor.`);
  });

  await test.step('at their next sign-in they are a contributor', async () => {
    const context = await browser.newContext();
    const theirs = await context.newPage();
    await theirs.goto('/');
    const answered = theirs.waitForResponse((r) => r.url().endsWith('/auth/login'));
    await logIn(theirs, person.email, 'Rotunda#E2e2024');
    const { user } = await (await answered).json();
    expect(user).toMatchObject({ contributor: true, admin: false });
    await expect(
      theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Moderation/ }),
    ).toBeVisible();
    await expect(theirs.getByRole('link', { name: 'Administration' })).toHaveCount(0);
    await context.close();
  });

  await test.step('removing the domain refuses the next person there', async () => {
    const domains = domainsList(page);
    await domains.getByRole('button', { name: `Remove ${domain}` }).click();
    await expect(domains.getByRole('button', { name: 'Undo' })).toBeFocused();
    await expect(domains.getByRole('status')).toContainText(`Removed ${domain} from Approved domains.`);
    await expect(domains.getByRole('button', { name: `Remove ${domain}` })).toHaveCount(0);
    const next = `sam@${domain}`;
    expect(await eligible(request, next)).toBe(false);
    const refused = await request.post('/auth/register', {
      data: {
        first_name: 'Sam',
        last_name: 'Ortiz',
        email: next,
        password: 'Rotunda#E2e2024',
        captchaValue: await solvedCaptcha(request),
      },
    });
    expect(refused.status()).toBe(403);
  });

  await test.step('the log lists each change, newest first, with who made it', async () => {
    const log = page.getByRole('region', { name: 'Log' });
    const entries = log.getByRole('listitem');
    await expect(entries.nth(0)).toContainText(`${DEMO.admin.email} removed ${domain} from Approved domains`);
    await expect(entries.nth(1)).toContainText(
      `${DEMO.admin.email} granted Concierge contributor to ${person.email}`,
    );
    await expect(entries.nth(2)).toContainText(`${DEMO.admin.email} added ${domain} to Approved domains`);
  });
});

test('a domain that is not one is refused in the browser, in words', async ({ page }) => {
  await signInAs(page, DEMO.admin);
  await page.goto('/admin');
  const domains = domainsList(page);
  await domains.getByLabel(/Add a domain/).fill('https://agency');
  await domains.getByRole('button', { name: 'Add' }).click();
  await expect(domains.getByRole('alert')).toHaveText('Enter a domain such as agency.ca.gov.');
  await expect(domains.getByLabel(/Add a domain/)).toBeFocused();
});

test('a member who opens /admin is told it is for administrators', async ({ page }) => {
  await signInAsMember(page);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Administrators only' })).toBeVisible();
  await networkSettled(page);
  await expect(page.getByRole('link', { name: 'Administration' })).toHaveCount(0);
});

test('a visitor who opens /admin is asked to log in', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByRole('alert')).toHaveText('Access Restricted. Please login.');
  await expect(page).toHaveURL(/\/$/);
});
