// The screenshots of the signed-in screens (node e2e/screenshots.ts), as the demo member or the demo
// contributor: the feed with a demo event read, the Create Post dialog and the Report dialog, the organization
// list and an organization's profile (People, Divisions with a row open, the Edit Organization dialog), the
// people directory (as it opens, and with a search and a group), the member's own profile with its dialogs, each
// step of profile creation (the member shown as if without a profile; see screenshots-session.ts), and the
// contributor's Moderation screen (queue and log answered with samples, tests/support/moderation-samples.ts)
// with a decision's dialog and the log; the notifications bell (the phone menu's item at 400 px), the
// Notifications page (both answered with samples, tests/support/notifications.ts), Settings and its Delete my
// account dialog, the "@" completion open under a comment line, and the administrator's Access administration
// screen (its log answered with samples) with a refused domain.
import type { Page } from '@playwright/test';
import type { Shot } from './screenshots-public.ts';
import { DEMO } from './tests/support/accounts.ts';
import { solidPng } from './tests/support/images.ts';
import { answerModerationSamples, SAMPLE_OPEN_REPORTS } from './tests/support/moderation-samples.ts';
import { answerNotificationSamples, SAMPLE_NOTIFICATIONS } from './tests/support/notifications.ts';

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

export interface SignedInShot extends Shot {
  account: { email: string; password: string };
  /** Shows the account as a member without a profile, with the profile calls of creation answered here. */
  asNewMember?: boolean;
}

/** The Create your profile step headings, for waiting on each step. */
const stepTitle = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });

/** Scrolls back to the top, where a full-page shot expects the top bar (focus scrolled the form). */
const scrolledUp = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

/** The Moderation screen with the sample queue and log answered, its first entry on screen. */
async function moderationWithSamples(page: Page) {
  await answerModerationSamples(page);
  await page.reload();
  await page.getByRole('article', { name: SAMPLE_OPEN_REPORTS[0]?.excerpt }).waitFor();
}

/** Sample admin log entries, so the screen looks the same whatever changes earlier runs made. */
const SAMPLE_ADMIN_LOG = [
  { action: 'grant', subject: 'contributor', value: 'lena.ortiz@dof.ca.gov' },
  { action: 'remove', subject: 'emails', value: 'j.park@capitolstrategies.com' },
  { action: 'add', subject: 'domains', value: 'sacrt.com' },
].map((entry, i) => ({
  id: 3 - i,
  at: `2026-11-2${8 - i}T16:0${i}:00.000Z`,
  actor: { user_id: 'admin', email: DEMO.admin.email },
  ...entry,
}));

/** The Access administration screen with the sample log answered, its lists and log on screen. */
async function adminWithSamples(page: Page) {
  await page.route('**/api/admin/log?**', (route) => route.fulfill({ json: SAMPLE_ADMIN_LOG }));
  await page.reload();
  await page.getByRole('region', { name: 'Log' }).getByRole('listitem').first().waitFor();
}

/** The page again with the sample notifications answered, the bell's count arrived. */
async function withNotificationSamples(page: Page) {
  await answerNotificationSamples(page);
  await page.reload();
  const count = SAMPLE_NOTIFICATIONS.unread_count;
  await page
    .getByRole('button', { name: `Open menu, ${count} unread notifications` })
    .or(page.getByRole('banner').getByRole('link', { name: `Notifications, ${count} unread` }))
    .first()
    .waitFor();
}

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

export const signedInShots: SignedInShot[] = [
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
    name: 'feed-report',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      // The first post that is not the demo member's own has the Report button.
      const feed = page.getByRole('region', { name: 'Posts' });
      await feed.getByRole('button', { name: 'Report post' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Report this post' });
      await dialog.getByRole('radio', { name: 'Personal information' }).check();
      await dialog.getByLabel('Note (optional)').fill('The body lists a staffer’s mobile number.');
    },
  },
  {
    name: 'feed-your-reports',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Your reports' }).click();
      await page.getByRole('dialog', { name: 'Your reports' }).getByRole('status').first().waitFor();
    },
  },
  {
    name: 'moderation',
    account: DEMO.concierge,
    path: '/moderation',
    prepare: moderationWithSamples,
    fullPage: true,
  },
  {
    name: 'moderation-hide',
    account: DEMO.concierge,
    path: '/moderation',
    prepare: async (page) => {
      await moderationWithSamples(page);
      const row = page.getByRole('article', { name: SAMPLE_OPEN_REPORTS[0]?.excerpt });
      await row.getByRole('button', { name: 'Hide', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Hide this post' })
        .getByLabel('Reason')
        .fill('Shares a staffer’s personal phone number.');
    },
  },
  {
    name: 'moderation-log',
    account: DEMO.concierge,
    path: '/moderation',
    prepare: async (page) => {
      await moderationWithSamples(page);
      await page.getByRole('tab', { name: 'Log' }).click();
      await page.getByRole('region', { name: 'Moderation log' }).waitFor();
    },
  },
  {
    name: 'notifications-bell',
    account: DEMO.member,
    path: '/directory',
    prepare: async (page) => {
      await withNotificationSamples(page);
      await directoryCards(page);
      // Phones have the bell's count in the menu.
      if ((page.viewportSize()?.width ?? 1280) <= 550) {
        await page.getByRole('button', { name: /^Open menu/ }).click();
        await page
          .getByRole('dialog', { name: 'Menu' })
          .getByRole('link', { name: /^Notifications/ })
          .waitFor();
      }
    },
  },
  {
    name: 'notifications-page',
    account: DEMO.member,
    path: '/notifications',
    prepare: async (page) => {
      await withNotificationSamples(page);
      await page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first().waitFor();
    },
    fullPage: true,
  },
  {
    name: 'settings',
    account: DEMO.member,
    path: '/settings',
    prepare: async (page) => {
      await page.getByRole('radio', { name: 'Weekly' }).waitFor();
    },
    fullPage: true,
  },
  {
    name: 'settings-delete',
    account: DEMO.member,
    path: '/settings',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete my account' });
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await dialog.getByRole('alert').waitFor();
    },
  },
  {
    name: 'admin',
    account: DEMO.admin,
    path: '/admin',
    prepare: adminWithSamples,
    fullPage: true,
  },
  {
    name: 'admin-refused',
    account: DEMO.admin,
    path: '/admin',
    prepare: async (page) => {
      await adminWithSamples(page);
      const domains = page.getByRole('region', { name: /^Approved domains/ });
      await domains.getByLabel(/Add a domain/).fill('https://agency');
      await domains.getByRole('button', { name: 'Add' }).click();
      await domains.getByRole('alert').waitFor();
    },
  },
  {
    name: 'feed-mention',
    account: DEMO.member,
    path: '/public-square',
    prepare: async (page) => {
      const line = page
        .getByRole('region', { name: 'Posts' })
        .getByRole('combobox', { name: 'Add comment' })
        .first();
      await line.click();
      await line.pressSequentially('Looping in @Mar');
      const list = page.getByRole('listbox', { name: 'People to mention' });
      await list.getByRole('option').first().waitFor();
      await list.scrollIntoViewIfNeeded();
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
