// The screenshots of the pages a visitor sees (node e2e/screenshots.ts): the landing page, the public square,
// the 404 page, the register, login (also asking for the captcha) and reset-request dialogs and the
// reset-password and confirm-email pages, and the page an email's unsubscribe link opens.
// The register, login and confirm POSTs are answered by the runner (screenshots.ts), so no account is created,
// no token spent and no failed login counted.
import type { Page } from '@playwright/test';

export interface Shot {
  name: string;
  path: string;
  /** Brings the page into the state to capture. */
  prepare: (page: Page) => Promise<void>;
  /** Capture the whole page (false: the viewport, e.g. with a dialog open). */
  fullPage?: boolean;
}

const waitForText = (text: string) => async (page: Page) => {
  await page.getByText(text, { exact: true }).first().waitFor();
};

async function openRegister(page: Page) {
  await page.getByRole('button', { name: 'Register Today!' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register' });
  await dialog.getByLabel('First name').fill('Eva');
  await dialog.getByLabel('Last name').fill('Tester');
  return dialog;
}

export const publicShots: Shot[] = [
  { name: 'landing', path: '/', prepare: waitForText('Register Today!'), fullPage: true },
  { name: 'public-square', path: '/public-square', prepare: waitForText('Headlines'), fullPage: true },
  { name: '404', path: '/no-such-page', prepare: waitForText('RETURN TO SESSION'), fullPage: true },
  {
    name: 'register-ineligible',
    path: '/',
    prepare: async (page) => {
      const dialog = await openRegister(page);
      await dialog.getByLabel('Work email').fill('eva.tester@example.com');
      await dialog.getByRole('button', { name: 'Access Currently Unavailable' }).waitFor();
    },
  },
  {
    name: 'register',
    path: '/',
    prepare: async (page) => {
      const dialog = await openRegister(page);
      await dialog.getByLabel('Work email').fill('eva.tester@dof.ca.gov');
      await dialog.getByLabel('Password', { exact: true }).fill('Rotunda2024');
      await dialog.getByRole('button', { name: 'Register', exact: true }).waitFor();
    },
  },
  {
    name: 'register-success',
    path: '/',
    prepare: async (page) => {
      const dialog = await openRegister(page);
      await dialog.getByLabel('Work email').fill('eva.tester@dof.ca.gov');
      await dialog.getByLabel('Password', { exact: true }).fill('Rotunda#2024');
      await dialog.locator('altcha-widget').getByText("I'm not a robot", { exact: true }).click();
      await dialog.getByRole('checkbox', { name: 'Verified' }).waitFor();
      await dialog.getByRole('button', { name: 'Register', exact: true }).click();
      await dialog.getByRole('alert').waitFor();
    },
  },
  {
    name: 'login',
    path: '/',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      await dialog.getByLabel('Email').fill('member@demo.ca.gov');
      await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
      await dialog.getByLabel('Password', { exact: true }).press('Enter');
      await dialog.getByRole('alert').waitFor();
    },
  },
  {
    name: 'login-captcha',
    path: '/',
    prepare: async (page) => {
      // An account slowed down after wrong passwords: the server asks for the captcha (answered here too).
      await page.route(
        '**/auth/login',
        (route) =>
          route.fulfill({
            status: 429,
            headers: { 'Retry-After': '30' },
            json: {
              errors: [{ msg: 'Too many attempts. Try again in 30 seconds.' }],
              captcha_required: true,
            },
          }),
        { times: 1 },
      );
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Log in' });
      await dialog.getByLabel('Email').fill('member@demo.ca.gov');
      await dialog.getByLabel('Password', { exact: true }).fill('Member#2024x');
      await dialog.getByLabel('Password', { exact: true }).press('Enter');
      await dialog.getByRole('group', { name: 'Captcha' }).waitFor();
    },
  },
  {
    name: 'reset-request',
    path: '/',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset your password' });
      await dialog.getByLabel('Email').fill('eva.tester@dof.ca.gov');
    },
  },
  {
    name: 'reset-password',
    path: '/reset-password/screenshot-token',
    prepare: async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('Rotunda#2024');
      await page.getByLabel('Retype new password').fill('Rotunda#202');
      await page.getByText('Passwords do not match').waitFor();
    },
    fullPage: true,
  },
  {
    name: 'confirm-email',
    path: '/confirm-email/screenshot-token',
    prepare: waitForText('Your email is confirmed!'),
    fullPage: true,
  },
  {
    name: 'unsubscribe',
    path: '/unsubscribe?token=screenshot-token',
    prepare: waitForText('Unsubscribe from Rotunda emails'),
  },
];
