// Saves PNGs of the screens at desktop and phone widths into e2e/screenshots/, to review how they look: the
// landing page, the public square, the 404 page, the register dialog (an ineligible email, a filled-in form,
// the success alert), the login dialog after a wrong password, the password reset request dialog, the
// reset-password page and the confirm-email page. The register, login and confirm POSTs are answered here,
// so no account is created, no token spent and no failed login counted. Then, signed in as the demo member
// or the demo contributor: the organization list, an organization's profile (People, and Divisions with a
// row open), the Edit Organization dialog, the people directory (as it opens, and with a search and a
// group), the member's own profile page with its Edit Profile and Add Job dialogs, and each step of profile
// creation (the member shown as if without a profile: the profile calls those steps make are answered here
// with the member's own profile, so nothing is created). Run with: node e2e/screenshots.ts (product running);
// names as arguments take only the shots whose name starts with one of them: node e2e/screenshots.ts
// organization.
// The public square, signed in as the demo member: the feed, a demo event in the read dialog, and the
// Create Post dialog with the event's fields (node e2e/screenshots.ts feed).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page, request } from '@playwright/test';
import { baseURL, chromiumLaunchOptions } from './playwright.config.ts';
import { DEMO } from './tests/support/accounts.ts';
import { solidPng } from './tests/support/images.ts';

const outDir = fileURLToPath(new URL('./screenshots/', import.meta.url));

interface Shot {
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

const shots: Shot[] = [
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
];
/** The demo agency with divisions of three types. */
const WATER = 'Department of Water Stewardship';

/**
 * Waits for the directory's cards and their pictures. The pictures load lazily, as the member scrolls near
 * them, and a full-page shot does not scroll: those below the first screen are asked for now, or they would
 * show as empty circles.
 */
async function directoryCards(page: Page) {
  await page.getByRole('region', { name: 'People found' }).getByRole('link').first().waitFor();
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll('img.dir-picture')).every((img) => {
      if (!(img instanceof HTMLImageElement)) return true;
      img.loading = 'eager';
      return img.complete && img.naturalWidth > 0;
    }),
  );
}

interface SignedInShot extends Shot {
  account: { email: string; password: string };
  /** Shows the account as a member without a profile, with the profile calls of creation answered here. */
  asNewMember?: boolean;
}

/** The Create your profile step headings, for waiting on each step. */
const stepTitle = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });

/** Scrolls back to the top, where a full-page shot expects the top bar (focus scrolled the form). */
const scrolledUp = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

/** Profile creation up to its job step, with the required-fields message of the empty personal step shown. */
async function toJobStep(page: Page) {
  await page.getByRole('button', { name: 'None are me - Enter profile creation' }).click();
  await page.getByLabel('Profile Picture').setInputFiles({
    name: 'portrait.png',
    mimeType: 'image/png',
    buffer: solidPng(300, 400, [60, 120, 180]),
  });
  await page.locator('img.prof-avatar').waitFor();
  await page.getByLabel('Office Phone').fill('9165550177');
  await page.getByRole('button', { name: 'Next' }).click();
  await stepTitle(page, 'Step 2 of 3: Current job').waitFor();
}

/** Chooses the demo agency in the job step's Company field and completes the step. */
async function toBioStep(page: Page) {
  await toJobStep(page);
  await page.getByLabel('Job Title').fill('Policy Analyst');
  await page.getByRole('combobox', { name: 'Company' }).fill('Water Stewardship');
  await page.getByRole('option', { name: new RegExp(WATER) }).click();
  await page.getByLabel('Address').fill('1416 Ninth Street');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('State').fill('CA');
  await page.getByLabel('Zip Code').fill('95814');
  await page.getByLabel('Start Date').fill('2023-05-01');
  await page.getByRole('button', { name: 'Next' }).click();
  await stepTitle(page, 'Step 3 of 3: Bio and issue areas').waitFor();
}

const signedInShots: SignedInShot[] = [
  {
    name: 'feed',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      await page.getByRole('region', { name: 'Posts' }).getByRole('article').first().waitFor();
    },
  },
  {
    name: 'feed-read-event',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      await page.getByRole('searchbox', { name: 'Search posts' }).fill('annual water policy conference');
      const event = page.getByRole('article', { name: 'Annual water policy conference' });
      await event.getByRole('button', { name: 'Keep Reading' }).click();
      const dialog = page.getByRole('dialog', { name: 'Annual water policy conference' });
      await dialog.getByRole('link', { name: 'Add to calendar' }).waitFor();
    },
  },
  {
    name: 'feed-create',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Create Post' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create Post' });
      await dialog.getByRole('textbox', { name: 'Post Body' }).waitFor();
      await dialog.getByLabel('Type of Post').selectOption({ label: 'EVENT' });
      const other = dialog.getByLabel('Event Type').getByRole('option', { name: 'OTHER' });
      await other.waitFor({ state: 'attached' });
    },
  },
  {
    name: 'organizations',
    account: DEMO.member,
    path: '/organizations',
    prepare: async (page) => {
      await page.getByRole('region', { name: 'Organizations found' }).getByRole('link').first().waitFor();
    },
  },
  {
    name: 'organization',
    account: DEMO.member,
    path: `/organization/{${WATER}}`,
    prepare: async (page) => {
      // The People tab's cards, with every picture loaded (they load lazily, and a full-page shot does not
      // scroll to them).
      await page.getByRole('list', { name: 'People' }).getByRole('listitem').first().waitFor();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('img.orgs-person__picture')).every((img) => {
          if (!(img instanceof HTMLImageElement)) return true;
          img.loading = 'eager';
          return img.complete && img.naturalWidth > 0;
        }),
      );
    },
    fullPage: true,
  },
  {
    name: 'organization-divisions',
    account: DEMO.member,
    path: `/organization/{${WATER}}`,
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'Divisions' }).click();
      await page.getByRole('button', { name: 'Division', exact: true }).click();
      await page.locator('summary').first().click();
    },
    fullPage: true,
  },
  {
    name: 'organization-edit',
    account: DEMO.concierge,
    path: '/organization/{Capitol Bridge Advocates}',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Edit organization' }).click();
      await page.getByRole('dialog', { name: 'Edit organization' }).waitFor();
    },
  },
  {
    name: 'directory',
    account: DEMO.member,
    path: '/directory',
    prepare: directoryCards,
    fullPage: true,
  },
  {
    name: 'directory-filtered',
    account: DEMO.member,
    path: '/directory',
    prepare: async (page) => {
      await page.getByRole('searchbox', { name: 'Search people' }).fill('director');
      await page.getByRole('combobox', { name: 'Group' }).selectOption('Agencies');
      await page.getByText(/(people|person) found$/).waitFor();
      await directoryCards(page);
    },
    fullPage: true,
  },
  {
    name: 'profile',
    account: DEMO.member,
    path: '/profile/{own}',
    prepare: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Marcus Chen' }).waitFor();
      await page.getByRole('heading', { name: 'Colleagues' }).waitFor();
    },
    fullPage: true,
  },
  {
    name: 'profile-edit',
    account: DEMO.member,
    path: '/profile/{own}',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Edit profile' }).click();
      await page.getByRole('dialog', { name: 'Edit profile' }).waitFor();
    },
  },
  {
    name: 'profile-add-job',
    account: DEMO.member,
    path: '/profile/{own}',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Add job' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add job' });
      await dialog.getByRole('combobox', { name: 'Company' }).fill('Office');
      await dialog.getByRole('option').first().waitFor();
    },
  },
  {
    name: 'profile-issues-edit',
    account: DEMO.member,
    path: '/profile/{own}',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Edit issues' }).click();
      await page.getByRole('combobox', { name: 'Add an issue area' }).fill('housing');
      await page.getByRole('combobox', { name: 'Add an issue area' }).press('Enter');
      await page.getByText('You already cover this issue.').waitFor();
      await page.getByRole('combobox', { name: 'Add an issue area' }).fill('Water');
      await page.getByRole('option').first().waitFor();
    },
  },
  {
    name: 'profile-create-match',
    account: DEMO.member,
    asNewMember: true,
    path: '/profile/create',
    prepare: async (page) => {
      await stepTitle(page, 'Is this you?').waitFor();
    },
    fullPage: true,
  },
  {
    name: 'profile-create-personal',
    account: DEMO.member,
    asNewMember: true,
    path: '/profile/create',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'None are me - Enter profile creation' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Please provide entries for the following required fields:').waitFor();
      await scrolledUp(page);
    },
    fullPage: true,
  },
  {
    name: 'profile-create-job',
    account: DEMO.member,
    asNewMember: true,
    path: '/profile/create',
    prepare: async (page) => {
      await toJobStep(page);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Please provide entries for the following required fields:').waitFor();
      await scrolledUp(page);
    },
    fullPage: true,
  },
  {
    name: 'profile-create-job-suggestions',
    account: DEMO.member,
    asNewMember: true,
    path: '/profile/create',
    prepare: async (page) => {
      await toJobStep(page);
      await page.getByRole('combobox', { name: 'Company' }).fill('Office');
      await page.getByRole('option').first().waitFor();
    },
  },
  {
    name: 'profile-create-bio',
    account: DEMO.member,
    asNewMember: true,
    path: '/profile/create',
    prepare: async (page) => {
      await toBioStep(page);
      await page.getByRole('button', { name: 'Save and finish' }).click();
      await page.getByRole('combobox', { name: 'Add an issue area' }).fill('Water');
      await page.getByRole('combobox', { name: 'Add an issue area' }).press('Enter');
      await page.getByRole('list', { name: 'Your issue areas' }).waitFor();
      await scrolledUp(page);
    },
    fullPage: true,
  },
];

/** Logs in through the API (not the page, whose login is answered above) and answers the session to seed. */
async function sessionOf(account: { email: string; password: string }) {
  const api = await request.newContext({ baseURL });
  try {
    const response = await api.post('/auth/login', { data: account });
    if (!response.ok()) throw new Error(`login of ${account.email} answered ${response.status()}`);
    const { token, refreshToken, user } = await response.json();
    return { token, refreshToken, isAuthenticated: true, loading: false, user };
  } finally {
    await api.dispose();
  }
}

/** '/organization/{Name}' with the organization's id in place of its name. */
async function resolvePath(path: string, token: string): Promise<string> {
  const match = path.match(/\{(.+)\}/);
  if (!match?.[1]) return path;
  const name = match[1];
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { 'x-auth-token': token } });
  try {
    const response = await api.get(`/api/orgs/organization-name/${encodeURIComponent(name)}`);
    const found = ((await response.json()) as { organization_id: number; organization_name: string }[]).find(
      (o) => o.organization_name === name,
    );
    if (!found) throw new Error(`no organization named ${name}`);
    return path.replace(match[0], String(found.organization_id));
  } finally {
    await api.dispose();
  }
}

/**
 * Shows the member as one without a profile: no own profile, their profile as the one matching profile, and
 * creating a profile, uploading a picture and adding a job answered with theirs, so nothing is written.
 */
async function answerAsNewMember(context: BrowserContext, token: string, profileId: number) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { 'x-auth-token': token } });
  try {
    const response = await api.get(`/api/profiles/profile/${profileId}`);
    if (!response.ok()) throw new Error(`profile ${profileId} answered ${response.status()}`);
    const profile = await response.json();
    await context.route('**/api/profiles/user-check', (route) => route.fulfill({ json: [] }));
    await context.route('**/api/profiles/new-user-check', (route) => route.fulfill({ json: [profile] }));
    await context.route('**/api/profiles/upload-profile-picture', (route) =>
      route.fulfill({ json: { url: profile.profile_picture } }),
    );
    await context.route('**/api/profiles/create-profile', (route) =>
      route.fulfill({ status: 201, json: { createdProfileResult: profile } }),
    );
    await context.route('**/api/profiles/add-job/', (route) =>
      route.fulfill({ status: 201, json: profile.JobExperiences[0] }),
    );
  } finally {
    await api.dispose();
  }
}

async function captureSignedIn(browser: Browser, width: number) {
  for (const { name, account, path, prepare, fullPage = false, asNewMember } of signedInShots.filter(
    wanted,
  )) {
    const auth = await sessionOf(account);
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const profileId = auth.user.profile_id;
    if (asNewMember) await answerAsNewMember(context, auth.token, profileId);
    const seed = asNewMember ? { ...auth, user: { ...auth.user, profile_id: null } } : auth;
    await context.addInitScript((stored) => localStorage.setItem('auth', JSON.stringify(stored)), seed);
    const page = await context.newPage();
    const ownPath = path.replace('{own}', String(profileId));
    await page.goto(new URL(await resolvePath(ownPath, auth.token), baseURL).href);
    await prepare(page);
    await page.waitForLoadState('networkidle');
    const file = `${outDir}${name}-${width}.png`;
    await page.screenshot({ path: file, fullPage });
    console.log(`saved ${file}`);
    await context.close();
  }
}

const widths = [1280, 400];
const only = process.argv.slice(2);
const wanted = ({ name }: { name: string }) =>
  only.length === 0 || only.some((prefix) => name.startsWith(prefix));

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.route('**/auth/confirm-registration', (route) =>
      route.fulfill({ json: { success: true, message: 'Your email is confirmed!' } }),
    );
    await page.route('**/auth/login', (route) =>
      route.fulfill({ status: 401, json: { errors: [{ msg: 'Invalid credentials' }] } }),
    );
    await page.route('**/auth/register', (route) =>
      route.fulfill({ status: 201, json: { success: true, message: 'Registered' } }),
    );
    for (const { name, path, prepare, fullPage = false } of shots.filter(wanted)) {
      await page.goto(new URL(path, baseURL).href);
      await prepare(page);
      await page.waitForLoadState('networkidle');
      const file = `${outDir}${name}-${width}.png`;
      await page.screenshot({ path: file, fullPage });
      console.log(`saved ${file}`);
    }
    await page.close();
    await captureSignedIn(browser, width);
  }
} finally {
  await browser.close();
}
