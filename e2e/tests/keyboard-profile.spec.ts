// A profile made and kept with the keyboard alone (support/keyboard.ts): a new member logs in, creates a profile
// through its three steps (the picture chosen in the file chooser that Space opens on the upload control, the
// company and an issue area chosen from their suggestions with the arrow keys), then on the profile edits it,
// adds a past job and edits it, and adds an issue area. Focus is asserted as each dialog opens and closes, and
// axe finds nothing where the journey ends.
import { randomBytes } from 'node:crypto';
import { registerAccount } from './support/accounts.ts';
import { solidPng } from './support/images.ts';
import { expect, step, test } from './support/journey.ts';
import { expectFocusOn, logInByKeyboard, tabTo } from './support/keyboard.ts';
import { WATER } from './support/profiles.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

test('create a profile with a picture, edit it, add and edit a job, add an issue area: by keyboard alone', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const account = await registerAccount(request, true, { firstName: 'Kit', lastName: `Keys${RUN}` });
  await logInByKeyboard(page, account);
  await expect(page).toHaveURL(/\/profile\/create$/);

  await step(page, 'step 1: the picture uploaded', async () => {
    // Step 1: the picture through the file chooser, then the office phone.
    await expect(
      page.getByRole('heading', { level: 2, name: 'Step 1 of 3: Personal information' }),
    ).toBeVisible();
    await tabTo(page, page.getByLabel('Profile Picture'));
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles({
      name: 'portrait.png',
      mimeType: 'image/png',
      buffer: solidPng(300, 400, [60, 120, 180]),
    });
    await expect(page.getByRole('status').filter({ hasText: 'Picture updated.' })).toBeVisible();
    // The input kept the focus through the upload (ADR 0054).
    await expectFocusOn(page, page.getByLabel('Profile Picture'));
    await tabTo(page, page.getByLabel('Office Phone'));
  });
  await page.keyboard.type('9165550177');
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');

  // Step 2: the current job, the company chosen from its suggestions.
  const jobStep = page.getByRole('heading', { level: 2, name: 'Step 2 of 3: Current job' });
  const company = page.getByRole('combobox', { name: 'Company' });
  const companies = page.getByRole('listbox', { name: 'Company suggestions' });
  await step(page, 'step 2: the current job', async () => {
    await expect(jobStep).toBeFocused();
    await tabTo(page, page.getByLabel('Job Title'));
    await page.keyboard.type('Keyboard Analyst');
    await tabTo(page, company, { limit: 1 });
    await page.keyboard.type('Water Stewardship');
    await expect(companies.getByRole('option', { name: WATER })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(company).toHaveValue(WATER);
    await tabTo(page, page.getByLabel('Address'));
    await page.keyboard.type('1416 Ninth Street');
    await tabTo(page, page.getByLabel('City'));
    await page.keyboard.type('Sacramento');
    await tabTo(page, page.getByLabel('State'), { limit: 1 });
    await page.keyboard.type('CA');
    await tabTo(page, page.getByLabel('Zip Code'), { limit: 1 });
    await page.keyboard.type('95814');
    await tabTo(page, page.getByLabel('Start Date'));
    await page.keyboard.type('05012023');
    await expect(page.getByLabel('Start Date')).toHaveValue('2023-05-01');
  });
  await tabTo(page, page.getByRole('button', { name: 'Next' }));
  await page.keyboard.press('Enter');

  const issue = page.getByRole('combobox', { name: 'Add an issue area' });
  await step(page, 'step 3: the bio and an issue area', async () => {
    // Step 3: the bio and an issue area chosen from the suggestions.
    await expect(
      page.getByRole('heading', { level: 2, name: 'Step 3 of 3: Bio and issue areas' }),
    ).toBeFocused();
    await tabTo(page, page.getByRole('textbox', { name: 'Bio', exact: true }));
    await page.keyboard.type(`Analyst who never reaches for a mouse (${RUN}).`);
    await tabTo(page, issue);
    await page.keyboard.type('Wate');
    await expect(
      page
        .getByRole('listbox', { name: 'Add an issue area suggestions' })
        .getByRole('option', { name: 'Water' }),
    ).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Your issue areas' }).getByRole('listitem')).toHaveText([
      'Water',
    ]);
  });
  await tabTo(page, page.getByRole('button', { name: 'Save and finish' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/public-square$/);

  // The profile, from the sidebar.
  const mine = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Profile', exact: true });
  await step(page, 'the profile', async () => {
    // Back from the public square's heading, where the focus is after the last step, to the sidebar before it.
    await tabTo(page, mine, { back: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: `Kit Keys${RUN}` })).toBeVisible();
    // WCAG 1.1.1: no image without a text alternative; the uploaded picture is decorative beside the name.
    await expect(page.locator('img:not([alt])')).toHaveCount(0);
    const card = page.getByRole('region', { name: `Kit Keys${RUN}` });
    await expect(card.locator('img.prof-avatar')).toHaveAttribute('alt', '');
    await expect(card.locator('img.prof-avatar')).toHaveAttribute('src', /^\/media\//);
  });

  const editProfile = page.getByRole('button', { name: 'Edit profile' });
  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await step(page, 'the Edit profile dialog', async () => {
    await tabTo(page, editProfile);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, edit.getByLabel('First Name'));
  });
  // A past job at an organization not in the directory yet.
  const addJob = page.getByRole('button', { name: 'Add job' });
  const add = page.getByRole('dialog', { name: 'Add job' });
  await step(page, 'the profile edited, then the Add job dialog', async () => {
    await tabTo(page, edit.getByLabel('Mobile Phone'));
    await page.keyboard.type('9165550111');
    await tabTo(page, edit.getByRole('button', { name: 'Save changes' }));
    await page.keyboard.press('Enter');
    await expect(edit).toBeHidden();
    await expectFocusOn(page, editProfile);
    await expect(page.getByRole('link', { name: '(916) 555-0111' })).toBeVisible();

    await tabTo(page, addJob);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, add.getByLabel('Job Title'));
    await page.keyboard.type('Budget Fellow');
    await tabTo(page, add.getByRole('combobox', { name: 'Company' }), { limit: 1 });
    await page.keyboard.type(`Fiscal Institute ${RUN}`);
    await expect(add.getByText('Not in the directory yet: it will be added when you save.')).toBeVisible();
  });
  const type = add.getByLabel('Type of Organization');
  const fellow = page.locator('.prof-job').filter({ hasText: 'Budget Fellow' });
  const editing = page.getByRole('dialog', { name: 'Edit job' });
  await step(page, 'the job added, then the Edit job dialog', async () => {
    await tabTo(page, type);
    await page.keyboard.press('ArrowDown');
    await expect(type).not.toHaveValue('');
    for (const [label, text] of [
      ['Address', '915 L Street'],
      ['City', 'Sacramento'],
      ['State', 'CA'],
      ['Zip Code', '95814'],
      ['Start Date', '01152018'],
      ['End Date', '06302020'],
    ] as const) {
      await tabTo(page, add.getByLabel(label));
      await page.keyboard.type(text);
    }
    await tabTo(page, add.getByRole('button', { name: 'Save' }));
    await page.keyboard.press('Enter');
    await expect(add).toBeHidden();
    await expectFocusOn(page, addJob);
    await expect(fellow).toContainText('Jan 2018 – Jun 2020');

    // Renamed in the Edit job dialog: the focus comes back to the job's (renamed) edit button.
    const editJob = page.getByRole('button', { name: `Edit Budget Fellow at Fiscal Institute ${RUN}` });
    await tabTo(page, editJob);
    await page.keyboard.press('Enter');
    await expectFocusOn(page, editing.getByLabel('Job Title'));
  });
  await step(page, 'the job renamed, then a second issue area', async () => {
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Senior Budget Fellow');
    await tabTo(page, editing.getByRole('button', { name: 'Save' }));
    await page.keyboard.press('Enter');
    await expect(editing).toBeHidden();
    await expectFocusOn(
      page,
      page.getByRole('button', { name: `Edit Senior Budget Fellow at Fiscal Institute ${RUN}` }),
    );

    // A second issue area, in the issues panel's edit mode.
    const more = page.getByRole('combobox', { name: 'Add an issue area' });
    await tabTo(page, page.getByRole('button', { name: 'Edit issues' }));
    await page.keyboard.press('Enter');
    await tabTo(page, more);
    await page.keyboard.type('Housing');
    await expect(
      page
        .getByRole('listbox', { name: 'Add an issue area suggestions' })
        .getByRole('option', { name: 'Housing' }),
    ).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Issue areas' }).getByRole('listitem')).toHaveText([
      'Housing',
      'Water',
    ]);
    await expectFocusOn(page, more);
  });
});
