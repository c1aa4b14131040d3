// Profiles in the browser, against the running product (docs/product.md#2-screens-and-routes Create-profile
// screen and Profile screen, #4-states-and-transitions, #5-validation-rules, #6-roles-and-permissions):
// claiming a matching unclaimed profile from create-profile step 0 (the member's at once); a claim under
// someone else's name waiting for review (the pending notice, every change and post refused, a contributor
// seeing who claims and confirming, then edits taken) and a rejected claim leaving the profile exactly as it
// was; a new member creating a profile through every step with each step's validation message; the owner
// editing the bio, adding and deleting a job and adding an issue (a duplicate refused); a contributor editing
// a profile nobody owns; a member seeing no edit controls on someone else's profile; and no axe findings on
// these screens.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO, registerAccount } from './support/accounts.ts';
import { expectNoAxeFindings } from './support/axe.ts';
import { solidPng } from './support/images.ts';
import { expect, step, test } from './support/journey.ts';
import {
  type ApiProfile,
  apiLogin,
  createOwnProfile,
  getProfile,
  ownProfileId,
  unclaimedProfiles,
  updateProfile,
  WATER,
} from './support/profiles.ts';
import { signInAs, signInAsConcierge, signInAsMember } from './support/session.ts';

const RUN = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const REQUIRED = 'Please provide entries for the following required fields: ';
const BIO_REQUIRED =
  'Please provide a brief discription about who you are and your expertise to finalize your profile.';

const stepHeading = (page: Page, title: string) => page.getByRole('heading', { level: 2, name: title });
const formError = (page: Page) => page.locator('.prof-form-error');

/**
 * The edit controls of the profile page (docs/product.md#6-roles-and-permissions): shown to the owner, or a
 * contributor while unclaimed.
 */
function editControls(page: Page) {
  return [
    page.getByRole('button', { name: 'Edit profile' }),
    page.getByRole('button', { name: 'Edit bio' }),
    page.getByRole('button', { name: 'Add job' }),
    page.getByRole('button', { name: 'Edit issues' }),
    page.getByRole('button', { name: /^Edit .+ at / }),
  ];
}

/** An unclaimed demo profile no claim waits on, other than the one seeded for the newbie account. */
function pickUnclaimed(profiles: ApiProfile[], from: 'first' | 'last'): ApiProfile | undefined {
  const others = profiles.filter(
    (p) => p.work_email !== DEMO.newbie.email && p.profile_picture && !p.claim_pending,
  );
  return from === 'first' ? others[0] : others.at(-1);
}

const CLAIM_PENDING =
  'Your claim on this profile is waiting for a contributor to confirm it. You can change it once it is confirmed.';
const pendingNotice = (page: Page) => page.getByRole('status', { name: 'Your claim is pending review' });
const claimReview = (page: Page) => page.getByRole('region', { name: 'Claim review' });

/** Every change a member could try on a profile, through the API; each answers its status and message. */
async function changeAttempts(request: APIRequestContext, token: string, profile: ApiProfile) {
  const headers = { 'x-auth-token': token };
  const attempts = {
    'update-profile': await request.post('/api/profiles/update-profile', {
      headers,
      data: { profile_id: profile.profile_id, first_name: 'Senator', personal_email: 'me@example.net' },
    }),
    bio: await request.post(`/api/profiles/bio/${profile.profile_id}`, {
      headers,
      data: { user_bio: 'I speak for this office now.' },
    }),
    picture: await request.post('/api/profiles/upload-profile-picture', {
      headers,
      multipart: {
        profile_picture: { name: 'me.png', mimeType: 'image/png', buffer: solidPng(40, 40, [200, 30, 30]) },
        profile_id: String(profile.profile_id),
      },
    }),
    'add-job': await request.post('/api/profiles/add-job/', {
      headers,
      data: {
        profile_id: profile.profile_id,
        title: 'Senator',
        organization_id: profile.JobExperiences[0]?.organization_id ?? 1,
        street_address: '1021 O Street',
        city: 'Sacramento',
        state: 'CA',
        zip_code: '95814',
        start_date: '2024-01-01',
        current_job: true,
      },
    }),
    'add-issue': await request.post('/api/issues/add-user-issue', {
      headers,
      data: { profile_id: profile.profile_id, issue_id: 1 },
    }),
  };
  return Promise.all(
    Object.entries(attempts).map(async ([name, response]) => ({
      name,
      status: response.status(),
      message: ((await response.json()) as { errors?: { msg: string }[] }).errors?.[0]?.msg,
    })),
  );
}

/** Whether the member may post as a profile: the post service's author lookup (POST /api/posts/profile-info). */
async function authorStatus(request: APIRequestContext, token: string): Promise<number> {
  return (
    await request.post('/api/posts/profile-info', { headers: { 'x-auth-token': token }, data: {} })
  ).status();
}

test.describe('claiming a profile', () => {
  test('a member whose name and email match an unclaimed profile claims it from step 0, theirs at once', async ({
    page,
    request,
  }) => {
    // The demo newbie matches the seeded Nora Whitfield, once per database. When an earlier run has claimed
    // it, a contributor points another unclaimed profile at a new account's address, which the new account
    // (registered under that profile's name) then finds and claims in the same way.
    const newbie = await apiLogin(request, DEMO.newbie);
    let account: { email: string; password: string } = DEMO.newbie;
    let firstName = newbie.user.first_name;
    if ((await ownProfileId(request, newbie.token)) !== null) {
      const concierge = await apiLogin(request, DEMO.concierge);
      const target = pickUnclaimed(await unclaimedProfiles(request, concierge.token), 'last');
      test.skip(!target, 'every demo profile is claimed already: a fresh database has some to claim');
      if (!target) return;
      const fresh = await registerAccount(request, true, {
        firstName: target.first_name,
        lastName: target.last_name,
      });
      await updateProfile(request, concierge.token, target.profile_id, { work_email: fresh.email });
      account = fresh;
      firstName = fresh.firstName;
    }
    const session = await apiLogin(request, account);
    expect(session.user.profile_id).toBeNull();

    await signInAs(page, account);
    await page.goto('/profile/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeVisible();
    await expect(page.getByText(`Welcome to Rotunda, ${firstName}.`)).toBeVisible();
    await expect(stepHeading(page, 'Is this you?')).toBeVisible();
    await expect(page.getByRole('button', { name: 'None are me - Enter profile creation' })).toBeVisible();
    await expectNoAxeFindings(page);

    const claimButtons = page.getByRole('button', { name: /^Claim the profile of / });
    await expect(claimButtons).toHaveCount(1);
    await claimButtons.click();
    const dialog = page.getByRole('dialog', { name: 'Claim this profile?' });
    // Its work email is the account's confirmed email: the claim needs no review.
    await expect(
      dialog.getByText('Its work email is your account’s, so it will be yours at once.'),
    ).toBeVisible();
    await expectNoAxeFindings(page);
    await dialog.getByRole('button', { name: 'Claim profile' }).click();

    await expect(page).toHaveURL(/\/profile\/\d+$/);
    const claimedId = Number(page.url().split('/').pop());
    await expect(page.getByRole('button', { name: 'Edit profile' })).toBeVisible();
    await expect(pendingNotice(page)).toHaveCount(0);
    expect(await ownProfileId(request, session.token)).toBe(claimedId);
    expect(await authorStatus(request, session.token)).toBe(200);

    // Now an owner, profile creation sends the member to their profile.
    await page.goto('/profile/create');
    await expect(page).toHaveURL(new RegExp(`/profile/${claimedId}$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('a claim under someone else’s name waits: nothing changes until a contributor confirms it, then it is theirs', async ({
    page,
    browser,
    request,
  }) => {
    const concierge = await apiLogin(request, DEMO.concierge);
    const target = pickUnclaimed(await unclaimedProfiles(request, concierge.token), 'first');
    test.skip(!target, 'every demo profile is claimed already: a fresh database has some to claim');
    if (!target) return;
    // A member registers under the profile's name, at an address that is not its work email.
    const account = await registerAccount(request, true, {
      firstName: target.first_name,
      lastName: target.last_name,
    });
    const claimant = await apiLogin(request, account);
    const before = await getProfile(request, concierge.token, target.profile_id);

    await signInAs(page, account);
    await page.goto(`/profile/${target.profile_id}`);
    await page.getByRole('button', { name: 'Claim this profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Claim this profile?' });
    await expect(
      dialog.getByText(/Rotunda will reach out to confirm that this profile is yours\./),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Claim profile' }).click();

    // The claimant lands on the profile with the pending-review notice, and no way to change it.
    await expect(pendingNotice(page)).toBeVisible();
    await expect(pendingNotice(page)).toContainText('you cannot change it or post as it');
    for (const control of editControls(page)) await expect(control).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Claim this profile' })).toHaveCount(0);
    await expectNoAxeFindings(page);
    expect(await ownProfileId(request, claimant.token)).toBe(target.profile_id);

    // Every change and every post as the profile is refused, saying why; nothing changed.
    for (const attempt of await changeAttempts(request, claimant.token, before))
      expect(attempt, attempt.name).toEqual({ name: attempt.name, status: 403, message: CLAIM_PENDING });
    expect(await authorStatus(request, claimant.token)).toBe(404);
    const post = await request.post('/api/posts/add-post', {
      headers: { 'x-auth-token': claimant.token },
      data: { post_title: `As ${target.first_name} (${RUN})`, post_body: '<p>Hello.</p>', post_type: 1 },
    });
    expect(post.status()).toBe(409);
    expect(await getProfile(request, concierge.token, target.profile_id)).toEqual({
      ...before,
      claim_pending: true,
      claim_id: expect.any(Number),
      claimant: expect.objectContaining({ email: account.email }),
    });

    // A contributor sees who claims and confirms.
    const desk = await browser.newContext();
    try {
      const deskPage = await desk.newPage();
      await signInAsConcierge(deskPage);
      await deskPage.goto(`/profile/${target.profile_id}`);
      const review = claimReview(deskPage);
      await expect(review).toContainText(`${account.firstName} ${account.lastName}`);
      await expect(review).toContainText(account.email);
      await expectNoAxeFindings(deskPage);
      await review.getByRole('button', { name: 'Confirm claim' }).click();
      await expect(review).toHaveCount(0);
      await expect(deskPage.getByRole('button', { name: 'Edit profile' })).toHaveCount(0);
    } finally {
      await desk.close();
    }

    // Now the claimant's: the notice is gone, the edit controls are there, and their changes are taken.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Edit profile' })).toBeVisible();
    await expect(pendingNotice(page)).toHaveCount(0);
    const bio = `Confirmed and mine (${RUN}).`;
    await page.getByRole('button', { name: 'Edit bio' }).click();
    await page.getByRole('textbox', { name: 'Bio' }).fill(bio);
    await page.getByRole('button', { name: 'Save bio' }).click();
    await expect(page.locator('.prof-bio__text')).toHaveText(bio);
    const owned = await getProfile(request, claimant.token, target.profile_id);
    expect(owned).toMatchObject({ user_id: claimant.user.user_id, claim_pending: false, user_bio: bio });
    expect(await authorStatus(request, claimant.token)).toBe(200);
  });

  test('a rejected claim leaves the profile exactly as it was, unclaimed', async ({ page, request }) => {
    const concierge = await apiLogin(request, DEMO.concierge);
    const target = pickUnclaimed(await unclaimedProfiles(request, concierge.token), 'first');
    test.skip(!target, 'every demo profile is claimed already: a fresh database has some to claim');
    if (!target) return;
    const before = await getProfile(request, concierge.token, target.profile_id);
    const claimant = await apiLogin(
      request,
      await registerAccount(request, true, { firstName: target.first_name, lastName: target.last_name }),
    );
    const claimed = await request.post(`/api/profiles/claim/${target.profile_id}`, {
      headers: { 'x-auth-token': claimant.token },
    });
    expect(claimed.status()).toBe(200);
    expect(await claimed.json()).toMatchObject({ user_id: null, claim_pending: true, claimed_by_you: true });
    for (const attempt of await changeAttempts(request, claimant.token, before))
      expect(attempt.status, attempt.name).toBe(403);

    await signInAsConcierge(page);
    await page.goto(`/profile/${target.profile_id}`);
    const review = claimReview(page);
    await review.getByRole('button', { name: 'Reject claim' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject this claim?' });
    await expect(dialog).toContainText('The profile will be unclaimed again, exactly as it was.');
    await dialog.getByRole('button', { name: 'Reject claim' }).click();
    // Nobody owns it again: the review is gone and the contributor may edit it.
    await expect(review).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit profile' })).toBeVisible();

    const after = await getProfile(request, concierge.token, target.profile_id);
    for (const field of Object.keys(before) as (keyof ApiProfile)[])
      expect(after[field], field).toEqual(before[field]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(await ownProfileId(request, claimant.token)).toBeNull();
    expect(await authorStatus(request, claimant.token)).toBe(404);
  });
});

test('a new member creates a profile through every step, told what each step is missing', async ({
  page,
  request,
}) => {
  const account = await registerAccount(request, true);
  await signInAs(page, account);
  await page.goto('/profile/create');

  // Step 1: personal information. Nothing matches a new address, so step 0 is skipped.
  await expect(page.getByText(`Welcome to Rotunda, ${account.firstName}.`)).toBeVisible();
  await expect(stepHeading(page, 'Step 1 of 3: Personal information')).toBeVisible();
  await expect(page.getByLabel('Work Email')).toHaveValue(account.email);
  await expectNoAxeFindings(page);
  await page.getByLabel('First Name').fill('');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(formError(page)).toHaveText(`${REQUIRED}Profile Picture, First Name, Office Phone`);

  await page.getByLabel('First Name').fill(account.firstName);
  await page.getByLabel('Profile Picture').setInputFiles({
    name: 'portrait.png',
    mimeType: 'image/png',
    buffer: solidPng(300, 400, [60, 120, 180]),
  });
  await expect(page.locator('img.prof-avatar')).toBeVisible();
  await page.getByLabel('Office Phone').fill('9165550177');
  await expect(page.getByLabel('Office Phone')).toHaveValue('(916) 555-0177');
  await page.getByLabel('Pronouns').selectOption('She/Her');
  await page.getByLabel('LinkedIn').fill('https://www.linkedin.com/in/eva-tester');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 2: the current job.
  await expect(stepHeading(page, 'Step 2 of 3: Current job')).toBeVisible();
  await expect(page.getByLabel('Type of Organization').locator('option')).toHaveText([
    'Choose a type',
    'Associations',
    'Agencies',
    "Governor's Office",
    'Legislature',
    'Lobbyists',
    'Unions',
    'Other',
  ]);
  await expectNoAxeFindings(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(formError(page)).toHaveText(
    `${REQUIRED}Job Title, Company, Address, City, State, Zip Code, Start Date, Type of Organization`,
  );

  await page.getByLabel('Job Title').fill('Water Policy Fellow');
  const company = page.getByRole('combobox', { name: 'Company' });
  await company.fill('Office');
  const suggestions = page.getByRole('listbox', { name: 'Company suggestions' }).getByRole('option');
  await expect(suggestions).toHaveCount(5);
  // The arrow keys move over the five suggestions and stop at the last.
  for (let i = 0; i < 7; i++) await company.press('ArrowDown');
  await expect(suggestions.nth(4)).toHaveAttribute('aria-selected', 'true');
  await company.fill('Water Stewardship');
  await expect(suggestions.filter({ hasText: WATER })).toBeVisible();
  await company.press('ArrowDown');
  await expect(suggestions.first()).toHaveAttribute('aria-selected', 'true');
  await suggestions.filter({ hasText: WATER }).click();
  await expect(company).toHaveValue(WATER);
  await expect(page.getByText('In the directory.')).toBeVisible();
  await expect(page.getByLabel('Type of Organization')).toBeDisabled();
  // Typing again forgets the chosen organization; choosing again brings it back.
  await company.press('End');
  await company.pressSequentially('s');
  await expect(page.getByText('Not in the directory yet: it will be added when you save.')).toBeVisible();
  await expect(page.getByLabel('Type of Organization')).toBeEnabled();
  await company.fill('Water Stewardship');
  await suggestions.filter({ hasText: WATER }).click();
  await expect(page.getByText('In the directory.')).toBeVisible();
  // The office suggestions are the chosen organization's.
  const office = page.getByRole('combobox', { name: 'Office or Division' });
  await office.fill('Groundwater');
  await page
    .getByRole('listbox', { name: 'Office or Division suggestions' })
    .getByRole('option', { name: /Groundwater Management Division/ })
    .click();
  await expect(page.getByText(`An office of ${WATER}.`)).toBeVisible();

  await page.getByLabel('Address').fill('1416 ninth street');
  await expect(page.getByLabel('Address')).toHaveValue('1416 Ninth Street');
  await page.getByLabel('City').fill('sacramento');
  await page.getByLabel('State').fill('ca');
  await expect(page.getByLabel('State')).toHaveValue('CA');
  await page.getByLabel('Zip Code').fill('95814');
  await page.getByLabel('Start Date').fill('2023-05-01');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3: bio and issue areas, then the public square.
  await expect(stepHeading(page, 'Step 3 of 3: Bio and issue areas')).toBeVisible();
  await expectNoAxeFindings(page);
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(formError(page)).toHaveText(BIO_REQUIRED);

  await page
    .getByRole('textbox', { name: 'Bio', exact: true })
    .fill(`Policy fellow on groundwater (${RUN}).`);
  const issue = page.getByRole('combobox', { name: 'Add an issue area' });
  await issue.fill('wate');
  await page
    .getByRole('listbox', { name: 'Add an issue area suggestions' })
    .getByRole('option', { name: 'Water' })
    .click();
  const chips = page.getByRole('list', { name: 'Your issue areas' });
  await expect(chips.getByRole('listitem')).toHaveText(['Water']);
  await issue.fill('water');
  await issue.press('Enter');
  await expect(page.getByText('You already added this issue.')).toBeVisible();
  await issue.fill('Housing');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(chips.getByRole('listitem')).toHaveText(['Water', 'Housing']);
  await page.getByRole('button', { name: 'Save and finish' }).click();
  await expect(page).toHaveURL(/\/public-square$/);

  const session = await apiLogin(request, account);
  const id = await ownProfileId(request, session.token);
  expect(id).not.toBeNull();
  const profile = await getProfile(request, session.token, id ?? 0);
  expect(profile.user_bio).toBe(`Policy fellow on groundwater (${RUN}).`);
  expect(
    profile.JobExperiences.map((job) => [job.title, job.current_job, job.Division?.division_name]),
  ).toEqual([['Water Policy Fellow', true, 'Groundwater Management Division']]);
  expect(profile.UserIssues.map((u) => u.IssueArea.issue_name).sort()).toEqual(['Housing', 'Water']);

  // A member who owns a profile is sent from profile creation to it.
  await page.goto('/profile/create');
  await expect(page).toHaveURL(new RegExp(`/profile/${id}$`));
  await expect(
    page.getByRole('heading', { level: 1, name: `${account.firstName} ${account.lastName}` }),
  ).toBeVisible();
});

test('the owner edits the bio, adds and deletes a job, and adds an issue but not twice', async ({
  page,
  request,
}) => {
  const account = await registerAccount(request, true);
  const profile = await createOwnProfile(request, await apiLogin(request, account), account.email);
  await signInAs(page, account);
  await page.goto(`/profile/${profile.profile_id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Eva Tester' })).toBeVisible();
  await expect(page.getByRole('link', { name: account.email })).toHaveAttribute(
    'href',
    `mailto:${account.email}`,
  );
  await expectNoAxeFindings(page);

  // Bio: the pencil opens the editor, the save icon writes it; past 550 characters it is cut until expanded.
  const long =
    `Budget analyst ${RUN}. ${'I follow water allocations and the budget that pays for them. '.repeat(12)}`.trim();
  await page.getByRole('button', { name: 'Edit bio' }).click();
  await page.getByRole('textbox', { name: 'Bio' }).fill(long);
  await page.getByRole('button', { name: 'Save bio' }).click();
  const bioText = page.locator('.prof-bio__text');
  await expect(bioText).toHaveText(`${long.slice(0, 550).trimEnd()}…`);
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(bioText).toHaveText(long);
  await page.reload();
  await expect(bioText).toContainText(`Budget analyst ${RUN}.`);

  // Add a past job at an organization not yet in the directory: it is made on save.
  const jobs = page.locator('.prof-job');
  await expect(jobs).toHaveCount(1);
  await expect(jobs.first()).toContainText('Mar 2021 – present');
  await page.getByRole('button', { name: 'Add job' }).click();
  const add = page.getByRole('dialog', { name: 'Add job' });
  const save = add.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await add.getByLabel('Job Title').fill('Budget Fellow');
  await add.getByRole('combobox', { name: 'Company' }).fill(`Fiscal Institute ${RUN}`);
  await expect(add.getByText('Not in the directory yet: it will be added when you save.')).toBeVisible();
  await add.getByLabel('Type of Organization').selectOption('Associations');
  await add.getByLabel('Address').fill('915 L Street');
  await add.getByLabel('City').fill('Sacramento');
  await add.getByLabel('State').fill('CA');
  await add.getByLabel('Zip Code').fill('95814');
  await add.getByLabel('Start Date').fill('2018-01-15');
  await expect(save).toBeDisabled();
  // 'Current Position' disables the end date; unchecked, an end date completes the job.
  await add.getByLabel('Current Position').check();
  await expect(add.getByLabel('End Date')).toBeDisabled();
  await expect(save).toBeEnabled();
  await add.getByLabel('Current Position').uncheck();
  await expect(save).toBeDisabled();
  await add.getByLabel('End Date').fill('2020-06-30');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(add).toBeHidden();
  await expect(jobs).toHaveCount(2);
  const fellow = jobs.filter({ hasText: 'Budget Fellow' });
  await expect(fellow).toContainText(`Fiscal Institute ${RUN}`);
  await expect(fellow).toContainText('Jan 2018 – Jun 2020');

  // The current job cannot be deleted; the past one can, after a confirmation.
  await page.getByRole('button', { name: `Edit Program Analyst at ${WATER}` }).click();
  const editCurrent = page.getByRole('dialog', { name: 'Edit job' });
  await expect(editCurrent.getByRole('button', { name: 'Save' })).toBeEnabled();
  await expect(editCurrent.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await editCurrent.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: `Edit Budget Fellow at Fiscal Institute ${RUN}` }).click();
  const editPast = page.getByRole('dialog', { name: 'Edit job' });
  await editPast.getByRole('button', { name: 'Delete' }).click();
  await editPast.getByRole('button', { name: 'Delete position' }).click();
  await expect(editPast).toBeHidden();
  await expect(jobs).toHaveCount(1);
  await expect(page.getByText('Budget Fellow')).toHaveCount(0);

  // Issues: edit mode adds one from the suggestions, which then leave it out; a second add is refused.
  const issues = page.getByRole('list', { name: 'Issue areas' });
  await expect(page.getByText('No issue areas listed yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit issues' }).click();
  const issue = page.getByRole('combobox', { name: 'Add an issue area' });
  const options = page.getByRole('listbox', { name: 'Add an issue area suggestions' }).getByRole('option');
  await issue.fill('Mental');
  await options.filter({ hasText: 'Mental Health' }).click();
  await expect(issues.getByRole('listitem')).toHaveText(['Mental Health']);
  await issue.fill('Mental');
  await expect(options.filter({ hasText: 'Environmental Protection' })).toBeVisible();
  await expect(options.filter({ hasText: 'Mental Health' })).toHaveCount(0);
  await issue.fill('mental health');
  await issue.press('Enter');
  await expect(page.getByText('You already cover this issue.')).toBeVisible();
  await page.reload();
  await expect(issues.getByRole('listitem')).toHaveText(['Mental Health']);

  const session = await apiLogin(request, account);
  const saved = await getProfile(request, session.token, profile.profile_id);
  expect(saved.JobExperiences.map((job) => job.title)).toEqual(['Program Analyst']);
  expect(saved.UserIssues.map((u) => u.IssueArea.issue_name)).toEqual(['Mental Health']);

  // Removing it in edit mode takes it off.
  await page.getByRole('button', { name: 'Edit issues' }).click();
  await page.getByRole('button', { name: 'Remove Mental Health' }).click();
  await expect(page.getByText('No issue areas listed yet.')).toBeVisible();

  // The owner's Edit Profile dialog offers Update password.
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await expect(edit.getByRole('heading', { name: 'Update password' })).toBeVisible();
  await expect(edit.getByLabel('Lobbyist Filer ID')).toHaveCount(0);
  await expectNoAxeFindings(page);

  // A preferred name heads the profile, the legal name under it, and replaces the first name on the card.
  const preferred = `Evie ${RUN}`;
  await edit.getByLabel('Preferred Name').fill(preferred);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `${preferred} Tester` })).toBeVisible();
  await expect(page.getByText('Legal name: Eva Tester')).toBeVisible();
  await expect(async () => {
    await page.goto(`/directory?search=${RUN}`);
    await expect(
      page.getByRole('region', { name: 'People found' }).getByRole('link', { name: `${preferred} Tester` }),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass();
});

test('a contributor edits a profile nobody owns', async ({ page, request }) => {
  const concierge = await apiLogin(request, DEMO.concierge);
  const target = pickUnclaimed(await unclaimedProfiles(request, concierge.token), 'first');
  test.skip(!target, 'every demo profile is claimed already');
  if (!target) return;

  await signInAsConcierge(page);
  await page.goto(`/profile/${target.profile_id}`);
  await expect(
    page.getByRole('heading', { level: 1, name: `${target.first_name} ${target.last_name}` }),
  ).toBeVisible();
  // The contributor owns a profile, so is offered no claim; but may edit this one.
  await expect(page.getByRole('button', { name: 'Claim this profile' })).toHaveCount(0);
  const bio = `Profile kept by the concierge desk (${RUN}).`;
  await step(page, 'a contributor edits the bio', async () => {
    await page.getByRole('button', { name: 'Edit bio' }).click();
    await page.getByRole('textbox', { name: 'Bio' }).fill(bio);
    await page.getByRole('button', { name: 'Save bio' }).click();
    await expect(page.locator('.prof-bio__text')).toHaveText(bio);
    expect((await getProfile(request, concierge.token, target.profile_id)).user_bio).toBe(bio);
  });

  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await step(page, 'the Edit profile dialog, for a contributor', async () => {
    // The Edit Profile dialog has the filer id for a contributor, and no password (not their profile).
    await page.getByRole('button', { name: 'Edit profile' }).click();
    await expect(edit.getByLabel('Lobbyist Filer ID')).toBeVisible();
    await expect(edit.getByRole('heading', { name: 'Update password' })).toHaveCount(0);
  });
  await step(page, 'saved', async () => {
    await edit.getByLabel('Mobile Phone').fill('9165550111');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('link', { name: '(916) 555-0111' })).toBeVisible();
  });
});

test.describe('someone else’s profile', () => {
  test('a member sees no edit controls on another member’s profile, nor on one nobody owns', async ({
    page,
    request,
  }) => {
    const member = await apiLogin(request, DEMO.member);
    const concierge = await apiLogin(request, DEMO.concierge);
    const unclaimed = pickUnclaimed(await unclaimedProfiles(request, member.token), 'first');
    await signInAsMember(page);

    await page.goto(`/profile/${concierge.user.profile_id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Camila Reyes' })).toBeVisible();
    await expect(page.locator('.prof-job').first()).toBeVisible();
    for (const control of editControls(page)) await expect(control).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'concierge@demo.ca.gov' })).toHaveAttribute(
      'href',
      'mailto:concierge@demo.ca.gov',
    );
    await expect(page.getByRole('link', { name: /California Legislative Information/ })).toHaveAttribute(
      'href',
      'https://leginfo.legislature.ca.gov/',
    );
    await expectNoAxeFindings(page);

    if (unclaimed) {
      await page.goto(`/profile/${unclaimed.profile_id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        `${unclaimed.first_name} ${unclaimed.last_name}`,
      );
      for (const control of editControls(page)) await expect(control).toHaveCount(0);
      // The member owns a profile already, so is offered no claim either.
      await expect(page.getByRole('button', { name: 'Claim this profile' })).toHaveCount(0);
    }
  });

  test('colleagues are people at the current organization, the profile itself left out', async ({ page }) => {
    await signInAsMember(page);
    const people = page.getByRole('region', { name: 'Colleagues' }).getByRole('link');
    await step(page, 'a colleague’s profile, from the Colleagues panel', async () => {
      await page.goto('/');
      await page.getByRole('link', { name: 'Profile', exact: true }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: 'Marcus Chen' })).toBeVisible();
      await expect(page.getByText('At Office of Senator Elena Marquez', { exact: true })).toBeVisible();
      await expect(people.first()).toBeVisible();
      expect(await people.count()).toBeLessThanOrEqual(5);
      await expect(people.filter({ hasText: 'Marcus Chen' })).toHaveCount(0);
      await people.filter({ hasText: 'Elena Marquez' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Elena Marquez' })).toBeVisible();
      await expect(people.filter({ hasText: 'Farah Thornbury' })).toBeVisible();
      await expect(people.filter({ hasText: 'Elena Marquez' })).toHaveCount(0);
    });
  });

  test('a lobbyist’s filer id links to the lobbying disclosure page', async ({ page, request }) => {
    const member = await apiLogin(request, DEMO.member);
    const all = await request.get('/api/profiles/directory', { headers: { 'x-auth-token': member.token } });
    const lobbyist = ((await all.json()) as ApiProfile[]).find((p) => p.lobby_filer_id);
    expect(lobbyist, 'a demo lobbyist with a filer id').toBeTruthy();
    await signInAsMember(page);
    await step(page, 'the lobbyist’s profile', async () => {
      await page.goto(`/profile/${lobbyist?.profile_id}`);
      await expect(page.getByRole('link', { name: lobbyist?.lobby_filer_id ?? '' })).toHaveAttribute(
        'href',
        `https://cal-access.sos.ca.gov/Lobbying/Lobbyists/Detail.aspx?id=${lobbyist?.lobby_filer_id}`,
      );
    });
  });

  test('an unknown profile id shows the not-found panel', async ({ page }) => {
    await signInAsMember(page);
    await step(page, 'the not-found panel', async () => {
      await page.goto('/profile/999999999');
      await expect(page.getByRole('heading', { name: 'This profile is not in session.' })).toBeVisible();
    });
  });
});
