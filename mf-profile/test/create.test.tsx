// Profile creation (/profile/create): owners are sent to their profile, and a member whose claim waits to the
// profile it waits on; matching unclaimed profiles are offered to claim; then personal information, current job, and bio with issue areas, each refusing with the spec's
// words until complete, and the member lands on the public square with the new profile in the session.
import { IMAGE_MESSAGES } from '@rotunda/rules';
import { sessionStore } from '@rotunda/session';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../src/api';
import { BIO_REQUIRED_MESSAGE } from '../src/profile-rules';
import {
  bodyOf,
  callsTo,
  division,
  type Handler,
  issue,
  json,
  organization,
  profile,
  refusal,
  stubFetch,
} from './support/api';
import { renderAt, signIn } from './support/render';

const PICTURE_URL = '/media/pictures/2026/rosa.jpg';
const location = () => screen.getByTestId('location').textContent;
const sessionProfileId = () => sessionStore.getState().user?.profile_id;

/** A newcomer with no profile and nothing matching; `routes` adds to or replaces the gateway's answers. */
function startCreating(routes: Record<string, Handler> = {}, matches: Profile[] = []) {
  signIn();
  const calls = stubFetch({
    'GET /api/profiles/user-check': () => json([]),
    'POST /api/profiles/new-user-check': () => json(matches),
    'POST /api/profiles/upload-profile-picture': () => json({ url: PICTURE_URL }),
    'POST /api/profiles/create-profile': (call) =>
      json({ createdProfileResult: profile({ ...bodyOf(call), profile_id: 31, user_id: 'u-self' }) }, 201),
    'GET /api/issues/': () => json([issue(1, 'Water'), issue(2, 'Wildfire Prevention'), issue(3, 'Energy')]),
    ...routes,
  });
  renderAt('/profile/create');
  return calls;
}

function choosePicture(file: File) {
  const input = screen.getByLabelText('Profile Picture', { selector: 'input' }) as HTMLInputElement;
  expect(input.getAttribute('accept')).toBe('.jpg,.jpeg,.png');
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  fireEvent.change(input);
}

const jpeg = () => new File([new Uint8Array([255, 216, 255])], 'rosa.jpg', { type: 'image/jpeg' });
const field = (label: string) =>
  screen.getByLabelText(label, { exact: false, selector: 'input,select,textarea' });
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

/** Fills step 1 completely (picture included) and goes on to step 2. */
async function completePersonalStep() {
  await screen.findByRole('heading', { name: /Personal information/ });
  choosePicture(jpeg());
  await screen.findByText('Picture updated.');
  type('Office Phone', '9165550199');
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('heading', { name: /Current job/ });
}

describe('who goes where', () => {
  it('sends a member whose session holds a profile to it', async () => {
    signIn({ profileId: 12 });
    const calls = stubFetch({});
    renderAt('/profile/create');
    await waitFor(() => expect(location()).toBe('/profile/12'));
    expect(callsTo(calls, '/api/profiles/user-check')).toHaveLength(0);
    expect(callsTo(calls, '/api/profiles/new-user-check')).toHaveLength(0);
  });

  it('sends a member who owns a profile (user-check) to it, and records it in the session', async () => {
    signIn();
    stubFetch({ 'GET /api/profiles/user-check': () => json([{ user_id: 'u-self', profile_id: 44 }]) });
    renderAt('/profile/create');
    await waitFor(() => expect(location()).toBe('/profile/44'));
    expect(sessionProfileId()).toBe(44);
  });

  it('sends a member whose claim waits for review to the profile it waits on', async () => {
    signIn();
    const calls = stubFetch({
      'GET /api/profiles/user-check': () =>
        json([{ user_id: 'u-self', profile_id: 45, claim_pending: true }]),
    });
    renderAt('/profile/create');
    await waitFor(() => expect(location()).toBe('/profile/45'));
    expect(sessionProfileId()).toBe(45);
    expect(callsTo(calls, '/api/profiles/new-user-check')).toHaveLength(0);
  });

  it('welcomes the member and goes straight to step 1 when no profile matches', async () => {
    const calls = startCreating();
    expect(screen.getByRole('heading', { level: 1, name: 'Create your profile' })).toBeTruthy();
    expect(screen.getByText(/Welcome to Rotunda, Rosa\./)).toBeTruthy();
    await screen.findByRole('heading', { name: /Personal information/ });
    expect(bodyOf(callsTo(calls, '/api/profiles/new-user-check')[0])).toEqual({
      first_name: 'Rosa',
      last_name: 'Nguyen',
      email: 'rosa.nguyen@dof.ca.gov',
    });
    expect((field('First Name') as HTMLInputElement).value).toBe('Rosa');
    expect((field('Last Name') as HTMLInputElement).value).toBe('Nguyen');
    expect(screen.queryByRole('button', { name: /None are me/ })).toBeNull();
  });
});

describe('step 0: matching profiles', () => {
  const match = profile({ profile_id: 18, user_id: null, first_name: 'Rosa', last_name: 'Nguyen' });

  it('claims a match after the confirmation; its work email being the member’s, it opens as theirs', async () => {
    // A match has the member's name and email, so its claim is confirmed at once.
    const mine = { ...match, work_email: 'Rosa.Nguyen@dof.ca.gov' };
    const owned = { ...mine, user_id: 'u-self' };
    const calls = startCreating(
      {
        'POST /api/profiles/claim/18': () => json(owned),
        'GET /api/profiles/profile/18': () => json(owned),
        'POST /api/profiles/organization-colleagues': () => json([]),
      },
      [mine],
    );
    await screen.findByRole('heading', { name: 'Is this you?' });
    fireEvent.click(screen.getByRole('button', { name: 'Claim the profile of Rosa Nguyen' }));
    const dialog = screen.getByRole('dialog', { name: 'Claim this profile?' });
    expect(
      within(dialog).getByText('Its work email is your account’s, so it will be yours at once.'),
    ).toBeTruthy();
    expect(callsTo(calls, '/api/profiles/claim/18')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim profile' }));
    await waitFor(() => expect(location()).toBe('/profile/18'));
    expect(callsTo(calls, '/api/profiles/claim/18')).toHaveLength(1);
    // The session learns the profile as the create screen unmounts, a render after the navigation.
    await waitFor(() => expect(sessionProfileId()).toBe(18));
    expect(await screen.findByRole('button', { name: 'Edit profile' })).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Your claim is pending review' })).toBeNull();
  });

  it('shows the refusal when the profile was claimed meanwhile, and stays', async () => {
    startCreating(
      { 'POST /api/profiles/claim/18': () => refusal('This profile has already been claimed', 409) },
      [match],
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Claim the profile of Rosa Nguyen' }));
    const dialog = screen.getByRole('dialog', { name: 'Claim this profile?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim profile' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This profile has already been claimed',
    );
    expect(location()).toBe('/profile/create');
    expect(sessionProfileId()).toBeNull();
  });

  it('asks about one profile in the singular, and about several as a choice', async () => {
    const other = profile({ profile_id: 19, user_id: null, first_name: 'Rosa', last_name: 'Nguyen' });
    startCreating({}, [match, other]);
    expect(await screen.findByRole('heading', { name: 'Is one of these you?' })).toBeTruthy();
    expect(screen.getByText(/If one of them is you, claim it/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Claim the profile of Rosa Nguyen' })).toHaveLength(2);
  });

  it("goes on to step 1 with 'None are me - Enter profile creation'", async () => {
    startCreating({}, [match]);
    fireEvent.click(await screen.findByRole('button', { name: 'None are me - Enter profile creation' }));
    expect(await screen.findByRole('heading', { name: /Personal information/ })).toBeTruthy();
  });
});

describe('step 1: personal information', () => {
  it('names every missing required field with the spec labels and creates nothing', async () => {
    const calls = startCreating();
    await screen.findByRole('heading', { name: /Personal information/ });
    type('First Name', '  ');
    type('Work Email', '');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please provide entries for the following required fields: Profile Picture, First Name, Work Email, Office Phone',
    );
    expect(callsTo(calls, '/api/profiles/create-profile')).toHaveLength(0);
  });

  it('marks each missing field invalid, described by the error, and lets go of one once filled in', async () => {
    startCreating();
    await screen.findByRole('heading', { name: /Personal information/ });
    type('Work Email', '');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const alert = await screen.findByRole('alert');
    // The labels end in an asterisk for the eye.
    const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));
    for (const label of ['Profile Picture', 'Work Email', 'Office Phone']) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(field(label).getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    }
    expect(field('First Name').getAttribute('aria-invalid')).toBeNull();
    type('Work Email', 'jo@water.ca.gov');
    expect(field('Work Email').getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses a picture that is not .jpg, .jpeg or .png without uploading it', async () => {
    const calls = startCreating();
    await screen.findByRole('heading', { name: /Personal information/ });
    choosePicture(new File(['GIF89a'], 'rosa.gif', { type: 'image/gif' }));
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MESSAGES.incorrectFormat);
    expect(callsTo(calls, '/api/profiles/upload-profile-picture')).toHaveLength(0);
  });

  it("shows the server's refusal of a picture", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    startCreating({ 'POST /api/profiles/upload-profile-picture': () => refusal(IMAGE_MESSAGES.tooLarge) });
    await screen.findByRole('heading', { name: /Personal information/ });
    choosePicture(jpeg());
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MESSAGES.tooLarge);
  });

  it('uploads the picture at once without a profile id, previews it, and creates the profile with it', async () => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview');
    let answerUpload: (response: Response) => void = () => {};
    const calls = startCreating({
      'POST /api/profiles/upload-profile-picture': () => new Promise((resolve) => (answerUpload = resolve)),
    });
    await screen.findByRole('heading', { name: /Personal information/ });
    choosePicture(jpeg());
    const preview = await screen.findByRole('img', { name: 'Preview of the new picture' });
    expect(preview.getAttribute('src')).toBe('blob:preview');
    const upload = callsTo(calls, '/api/profiles/upload-profile-picture')[0];
    const form = upload?.body as FormData;
    expect(form.get('profile_id')).toBeNull();
    expect(form.get('image_type')).toBe('image/jpeg');
    expect((form.get('profile_picture') as File).name).toBe('rosa.jpg');
    expect(upload?.headers.get('x-auth-token')).toBe('test-token');
    act(() => answerUpload(json({ url: PICTURE_URL })));
    await screen.findByText('Picture updated.');

    type('Office Phone', '9165550199');
    type('Mobile Phone', '9165550123');
    fireEvent.change(field('Pronouns'), { target: { value: 'She/Her' } });
    type('LinkedIn', 'https://www.linkedin.com/in/rosa');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: /Current job/ });
    expect(bodyOf(callsTo(calls, '/api/profiles/create-profile')[0])).toMatchObject({
      first_name: 'Rosa',
      last_name: 'Nguyen',
      work_email: 'rosa.nguyen@dof.ca.gov',
      other_phone: '(916) 555-0199',
      mobile_phone: '(916) 555-0123',
      personal_email: null,
      pronouns: 'She/Her',
      profile_picture: PICTURE_URL,
      linkedin_url: 'https://www.linkedin.com/in/rosa',
      bluesky_url: null,
    });
    // The new id stays with the flow until the member leaves it (see ProfileCreate).
    expect(sessionProfileId()).toBeNull();
  });
});

describe('step 2: current job', () => {
  const suggestions = [
    organization({ organization_id: 1, organization_name: 'Capitol Advocates', group_type: 'Lobbyists' }),
    organization({ organization_id: 2, organization_name: 'Capitol Bridge', group_type: 'Associations' }),
    organization({
      organization_id: 3,
      organization_name: 'Capitol Budget Office',
      group_type: 'Legislature',
      street_address: '1020 N Street',
      suite_number: 'Room 200',
    }),
    organization({ organization_id: 4, organization_name: 'Capitol Health', group_type: 'Associations' }),
    organization({ organization_id: 5, organization_name: 'Capitol Water', group_type: 'Agencies' }),
    organization({ organization_id: 6, organization_name: 'Capitol Zoning', group_type: 'Agencies' }),
  ];

  it('names every missing required field with the spec labels', async () => {
    const calls = startCreating();
    await completePersonalStep();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please provide entries for the following required fields: Job Title, Company, Address, City, State, Zip Code, Start Date, Type of Organization',
    );
    expect(callsTo(calls, '/api/profiles/add-job/')).toHaveLength(0);
  });

  it('offers the Type of Organization options of the spec', async () => {
    startCreating();
    await completePersonalStep();
    const options = [...(field('Type of Organization') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual([
      '',
      'Associations',
      'Agencies',
      "Governor's Office",
      'Legislature',
      'Lobbyists',
      'Unions',
      'Other',
    ]);
  });

  it('moves through at most 5 suggestions with the arrow keys; Enter chooses; typing again forgets it', async () => {
    const user = userEvent.setup();
    const calls = startCreating({ 'GET /api/orgs/organization-name/Capitol': () => json(suggestions) });
    await completePersonalStep();
    const company = screen.getByRole('combobox', { name: 'Company' });
    await user.type(company, 'Capitol');
    const listbox = await screen.findByRole('listbox', { name: 'Company suggestions' });
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Capitol AdvocatesLobbyists',
      'Capitol BridgeAssociations',
      'Capitol Budget OfficeLegislature',
      'Capitol HealthAssociations',
      'Capitol WaterAgencies',
    ]);
    expect(company.getAttribute('aria-expanded')).toBe('true');
    expect(company.getAttribute('aria-activedescendant')).toBeNull();
    const active = () =>
      within(listbox)
        .getAllByRole('option')
        .findIndex((o) => o.getAttribute('aria-selected') === 'true');

    await user.keyboard('{ArrowDown}');
    expect(active()).toBe(0);
    expect(company.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(active()).toBe(4);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(active()).toBe(2);
    await user.keyboard('{Enter}');

    expect((company as HTMLInputElement).value).toBe('Capitol Budget Office');
    expect(screen.queryByRole('listbox', { name: 'Company suggestions' })).toBeNull();
    expect(screen.getByText('In the directory.')).toBeTruthy();
    const groupType = field('Type of Organization') as HTMLSelectElement;
    expect(groupType.value).toBe('Legislature');
    expect(groupType.disabled).toBe(true);
    expect((field('Address') as HTMLInputElement).value).toBe('1020 N Street');
    expect((field('Suite') as HTMLInputElement).value).toBe('Room 200');
    // Enter chose; it did not submit the step.
    expect(callsTo(calls, '/api/profiles/add-job/')).toHaveLength(0);

    await user.type(company, ' East');
    expect(screen.queryByText('In the directory.')).toBeNull();
    expect(screen.getByText('Not in the directory yet: it will be added when you save.')).toBeTruthy();
    expect((field('Type of Organization') as HTMLSelectElement).disabled).toBe(false);
  });

  it('chooses a suggestion with a click, and closes the list with Escape', async () => {
    const user = userEvent.setup();
    startCreating({ 'GET /api/orgs/organization-name/Capitol': () => json(suggestions) });
    await completePersonalStep();
    const company = screen.getByRole('combobox', { name: 'Company' });
    await user.type(company, 'Capitol');
    await screen.findByRole('listbox', { name: 'Company suggestions' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Company suggestions' })).toBeNull();
    await user.type(company, '{Backspace}l');
    await user.click(await screen.findByRole('option', { name: /Capitol Water/ }));
    expect((company as HTMLInputElement).value).toBe('Capitol Water');
    expect((field('Type of Organization') as HTMLSelectElement).value).toBe('Agencies');
  });

  it('makes a typed organization and office, then adds the current job with their ids', async () => {
    const calls = startCreating({
      'POST /api/orgs/add-organization': (call) =>
        json(
          organization({ organization_id: 77, organization_name: String(bodyOf(call).organization_name) }),
          201,
        ),
      'POST /api/orgs/add-division': (call) =>
        json(
          division({
            division_id: 88,
            organization_id: 77,
            division_name: String(bodyOf(call).division_name),
          }),
          201,
        ),
      'POST /api/profiles/add-job/': (call) => json({ ...bodyOf(call), job_id: 5 }, 201),
    });
    await completePersonalStep();
    type('Job Title', 'Policy Director');
    type('Company', 'Delta Water Coalition');
    type('Office or Division', 'government affairs');
    fireEvent.change(field('Type of Organization'), { target: { value: 'Associations' } });
    type('Address', '1215 k street');
    type('Suite', 'suite 1200');
    type('City', 'sacramento');
    type('State', 'ca');
    type('Zip Code', '95814');
    type('Start Date', '2021-03-01');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: /Bio and issue areas/ });

    const address = {
      street_address: '1215 K Street',
      suite_number: 'Suite 1200',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
    };
    expect(bodyOf(callsTo(calls, '/api/orgs/add-organization')[0])).toEqual({
      organization_name: 'Delta Water Coalition',
      group_type: 'Associations',
      ...address,
    });
    expect(bodyOf(callsTo(calls, '/api/orgs/add-division')[0])).toMatchObject({
      organization_id: 77,
      division_name: 'Government Affairs',
    });
    expect(bodyOf(callsTo(calls, '/api/profiles/add-job/')[0])).toEqual({
      profile_id: 31,
      title: 'Policy Director',
      organization_id: 77,
      division_id: 88,
      ...address,
      start_date: '2021-03-01',
      end_date: null,
      current_job: true,
    });
  });

  it('uses a chosen organization as it is, without making one', async () => {
    const user = userEvent.setup();
    const calls = startCreating({
      'GET /api/orgs/organization-name/Capitol': () => json(suggestions),
      'POST /api/profiles/add-job/': (call) => json({ ...bodyOf(call), job_id: 5 }, 201),
    });
    await completePersonalStep();
    type('Job Title', 'Analyst');
    await user.type(screen.getByRole('combobox', { name: 'Company' }), 'Capitol');
    await user.click(await screen.findByRole('option', { name: /Capitol Bridge/ }));
    type('Start Date', '2022-05-02');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: /Bio and issue areas/ });
    expect(callsTo(calls, '/api/orgs/add-organization')).toHaveLength(0);
    expect(bodyOf(callsTo(calls, '/api/profiles/add-job/')[0])).toMatchObject({
      organization_id: 2,
      division_id: null,
      street_address: '915 L Street',
      city: 'Sacramento',
      current_job: true,
    });
  });
});

describe('step 3: bio and issue areas', () => {
  async function reachBioStep(routes: Record<string, Handler> = {}) {
    const user = userEvent.setup();
    const calls = startCreating({
      'GET /api/orgs/organization-name/Capitol': () =>
        json([organization({ organization_id: 2, organization_name: 'Capitol Bridge' })]),
      'POST /api/profiles/add-job/': (call) => json({ ...bodyOf(call), job_id: 5 }, 201),
      'POST /api/profiles/bio/31': (call) =>
        json(profile({ profile_id: 31, user_bio: String(bodyOf(call).user_bio) })),
      'POST /api/issues/add-issue-area': (call) => json(issue(40, String(bodyOf(call).issue_name)), 201),
      'POST /api/issues/add-user-issue': (call) => json({ id: 1, ...bodyOf(call) }, 201),
      ...routes,
    });
    await completePersonalStep();
    type('Job Title', 'Analyst');
    await user.type(screen.getByRole('combobox', { name: 'Company' }), 'Capitol');
    await user.click(await screen.findByRole('option', { name: /Capitol Bridge/ }));
    type('Start Date', '2022-05-02');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { name: /Bio and issue areas/ });
    return { user, calls };
  }

  it('asks for a bio with the spec words before saving anything', async () => {
    const { calls } = await reachBioStep();
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    expect((await screen.findByRole('alert')).textContent).toBe(BIO_REQUIRED_MESSAGE);
    expect(callsTo(calls, '/api/profiles/bio/31')).toHaveLength(0);
  });

  it("suggests issues not yet chosen and refuses one already added with 'You already added this issue.'", async () => {
    const { user } = await reachBioStep();
    const input = screen.getByRole('combobox', { name: 'Add an issue area' });
    await user.type(input, 'w');
    const listbox = await screen.findByRole('listbox', { name: 'Add an issue area suggestions' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Water', 'Wildfire Prevention']);
    await user.keyboard('{ArrowDown}{Enter}');
    const chosen = screen.getByRole('list', { name: 'Your issue areas' });
    expect(within(chosen).getByText('Water')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');

    await user.type(input, 'w');
    const again = await screen.findByRole('listbox', { name: 'Add an issue area suggestions' });
    expect(
      within(again)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Wildfire Prevention']);
    await user.clear(input);
    await user.type(input, 'WATER{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('You already added this issue.');
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(1);
  });

  it('saves the bio, makes a new issue area, adds every issue, then goes to the public square', async () => {
    const { user, calls } = await reachBioStep();
    fireEvent.change(screen.getByLabelText('Bio', { exact: false, selector: 'textarea' }), {
      target: { value: 'Analyst of water budgets.' },
    });
    const input = screen.getByRole('combobox', { name: 'Add an issue area' });
    await user.type(input, 'energy{Enter}');
    await user.type(input, 'Groundwater');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    await waitFor(() => expect(location()).toBe('/public-square'));

    expect(bodyOf(callsTo(calls, '/api/profiles/bio/31')[0])).toEqual({
      profile_id: 31,
      user_bio: 'Analyst of water budgets.',
    });
    expect(callsTo(calls, '/api/issues/add-issue-area').map(bodyOf)).toEqual([{ issue_name: 'Groundwater' }]);
    expect(callsTo(calls, '/api/issues/add-user-issue').map(bodyOf)).toEqual([
      { profile_id: 31, issue_id: 3 },
      { profile_id: 31, issue_id: 40 },
    ]);
    expect(sessionProfileId()).toBe(31);
  });
});
