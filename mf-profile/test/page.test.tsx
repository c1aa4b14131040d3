// The profile page (/profile/:id): the card, bio, job history, colleagues and issues; edit controls only for
// the owner or a contributor on a profile nobody owns; claiming (at once, or pending review with its notice and
// no edit controls for the claimant); a contributor's review showing who claims; the Edit Profile, Add Job and Edit Job
// dialogs with their completeness rules; duplicate issues refused.
import { sessionStore } from '@rotunda/session';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Profile } from '../src/api';
import { BIO_REQUIRED_MESSAGE } from '../src/profile-rules';
import {
  bodyOf,
  callsTo,
  colleague,
  type Handler,
  issue,
  job,
  json,
  noContent,
  profile,
  refusal,
  stubFetch,
  userIssue,
} from './support/api';
import { renderAt, SELF_USER_ID, signIn } from './support/render';

const WATER = issue(1, 'Water');
const ENERGY = issue(2, 'Energy');
const HOUSING = issue(3, 'Housing');

/** Shows profile 7 (`start`) to the signed-in member; the gateway keeps the profile as the calls change it. */
async function showProfile(start: Profile, routes: Record<string, Handler> = {}) {
  let current = start;
  const calls = stubFetch({
    'GET /api/profiles/profile/7': () => json(current),
    'POST /api/profiles/organization-colleagues': () => json([]),
    'GET /api/issues/': () => json([WATER, ENERGY, HOUSING]),
    'POST /api/profiles/bio/7': (call) => {
      current = { ...current, user_bio: String(bodyOf(call).user_bio) };
      return json(current);
    },
    ...routes,
  });
  const { unmount } = renderAt('/profile/7');
  await screen.findByRole('heading', { level: 1, name: fullNameOf(start) });
  return {
    calls,
    change: (next: Profile) => {
      current = next;
    },
    unmount,
  };
}

const fullNameOf = (p: Profile) => `${p.first_name} ${p.last_name}`;
const own = (overrides: Partial<Profile> = {}) => profile({ user_id: SELF_USER_ID, ...overrides });
const dialogNamed = (name: string) => screen.getByRole('dialog', { name });
/** The field labelled `label`; `exact` for labels that are part of others ('New password'). */
const inputIn = (container: HTMLElement, label: string, exact = false) =>
  within(container).getByLabelText(label, { exact, selector: 'input,select,textarea' }) as HTMLInputElement;

describe('the profile card', () => {
  it('shows name, pronouns, current title and organization, phones, emails and socials', async () => {
    signIn({ profileId: 99 });
    await showProfile(
      profile({
        pronouns: 'She/Her',
        mobile_phone: '9165550111',
        personal_email: 'ada@example.org',
        linkedin_url: 'https://www.linkedin.com/in/ada',
        bluesky_url: 'ada.bsky.social',
      }),
    );
    expect(screen.getByText('She/Her')).toBeTruthy();
    expect(screen.getAllByText('Budget Analyst').length).toBeGreaterThan(0);
    const card = screen.getByRole('region', { name: 'Ada Lopez' });
    expect(within(card).getByRole('link', { name: 'Department of Finance' }).getAttribute('href')).toBe(
      '/organization/10',
    );
    expect(within(card).getByRole('link', { name: '(916) 555-0142' }).getAttribute('href')).toBe(
      'tel:9165550142',
    );
    expect(within(card).getByRole('link', { name: '(916) 555-0111' })).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'ada.lopez@dof.ca.gov' }).getAttribute('href')).toBe(
      'mailto:ada.lopez@dof.ca.gov',
    );
    expect(within(card).getByRole('link', { name: 'ada@example.org' })).toBeTruthy();
    const socials = within(card).getByRole('list', { name: 'Social media' });
    expect(
      within(socials)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['https://www.linkedin.com/in/ada', 'https://ada.bsky.social']);
    expect(card.querySelector('img')?.getAttribute('src')).toBe('/media/pictures/ada.jpg');
  });

  it('shows the lobbyist filer id only when there is one, linking to its Cal-Access page', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile());
    expect(screen.queryByText('Lobbyist filer ID')).toBeNull();
    expect(document.querySelector('a[href*="cal-access"]')).toBeNull();
  });

  it('links a present lobbyist filer id to the lobbyist page of Cal-Access', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile({ lobby_filer_id: '1234567' }));
    expect(screen.getByText('Lobbyist filer ID')).toBeTruthy();
    expect(screen.getByRole('link', { name: /^1234567/ }).getAttribute('href')).toBe(
      'https://cal-access.sos.ca.gov/Lobbying/Lobbyists/Detail.aspx?id=1234567',
    );
  });

  it('says so for an unknown profile', async () => {
    signIn({ profileId: 99 });
    stubFetch({ 'GET /api/profiles/profile/404': () => refusal('Profile not found', 404) });
    renderAt('/profile/404');
    expect(await screen.findByRole('heading', { name: 'This profile is not in session.' })).toBeTruthy();
  });
});

describe('who may edit', () => {
  const controls = ['Edit profile', 'Edit bio', 'Add job', 'Edit issues'];
  const present = () => controls.filter((name) => screen.queryByRole('button', { name }) !== null);

  it('the owner sees every edit control', async () => {
    signIn({ profileId: 7 });
    await showProfile(own());
    expect(present()).toEqual(controls);
    expect(screen.getByRole('button', { name: 'Edit Budget Analyst at Department of Finance' })).toBeTruthy();
  });

  it('another member sees none', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile());
    expect(present()).toEqual([]);
    expect(screen.queryByRole('button', { name: /^Edit Budget Analyst/ })).toBeNull();
  });

  it('a contributor sees them on a profile nobody owns', async () => {
    signIn({ profileId: 99, contributor: true });
    await showProfile(profile({ user_id: null }));
    expect(present()).toEqual(controls);
  });

  it("a contributor sees none on someone else's profile", async () => {
    signIn({ profileId: 99, contributor: true });
    await showProfile(profile());
    expect(present()).toEqual([]);
  });

  it('a member without a profile sees none on an unclaimed profile, only Claim', async () => {
    signIn();
    await showProfile(profile({ user_id: null }));
    expect(present()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Claim this profile' })).toBeTruthy();
  });
});

describe('claiming', () => {
  const pendingNotice = () => screen.queryByRole('status', { name: 'Your claim is pending review' });
  const controls = ['Edit profile', 'Edit bio', 'Add job', 'Edit issues'];
  const present = () => controls.filter((name) => screen.queryByRole('button', { name }) !== null);

  it('claims a profile after the confirmation; a claim that waits shows the pending-review notice and no edit controls', async () => {
    signIn();
    const waiting = profile({ user_id: null, claim_pending: true, claim_id: 41, claimed_by_you: true });
    const { calls } = await showProfile(profile({ user_id: null }), {
      'POST /api/profiles/claim/7': () => json(waiting),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Claim this profile' }));
    const dialog = dialogNamed('Claim this profile?');
    expect(
      within(dialog).getByText(
        'Rotunda will reach out to confirm that this profile is yours. Until then it stays as it is: you cannot change it or post as it.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim profile' }));
    const notice = await screen.findByRole('status', { name: 'Your claim is pending review' });
    expect(notice.textContent).toContain(
      'Thanks for claiming this profile. Rotunda will reach out to confirm that it is yours.',
    );
    expect(notice.textContent).toContain('you cannot change it or post as it');
    expect(callsTo(calls, '/api/profiles/claim/7')).toHaveLength(1);
    // The session knows at once, so the shell's profile link leads here.
    expect(sessionStore.getState().user?.profile_id).toBe(7);
    expect(screen.queryByRole('button', { name: 'Claim this profile' })).toBeNull();
    expect(present()).toEqual([]);
    // The button that opened the dialog is gone: the focus is on the notice, not back at the page's start.
    await waitFor(() => expect(document.activeElement).toBe(notice));
  });

  it('claims a profile whose work email is the member’s: it is theirs at once, with every edit control', async () => {
    signIn();
    const mine = { work_email: 'rosa.nguyen@dof.ca.gov' };
    await showProfile(profile({ user_id: null, ...mine }), {
      'POST /api/profiles/claim/7': () => json(profile({ user_id: SELF_USER_ID, ...mine })),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Claim this profile' }));
    const dialog = dialogNamed('Claim this profile?');
    expect(
      within(dialog).getByText('Its work email is your account’s, so it will be yours at once.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Claim profile' }));
    const thanks = await screen.findByText(
      'Thanks for claiming this profile. Its work email is your account’s, so it is yours now.',
    );
    await waitFor(() => expect(document.activeElement).toBe(thanks));
    expect(pendingNotice()).toBeNull();
    expect(present()).toEqual(controls);
  });

  it('tells a contributor claiming at their own work email that another contributor confirms it', async () => {
    signIn({ contributor: true });
    await showProfile(profile({ user_id: null, work_email: 'rosa.nguyen@dof.ca.gov' }));
    fireEvent.click(screen.getByRole('button', { name: 'Claim this profile' }));
    const dialog = dialogNamed('Claim this profile?');
    expect(
      within(dialog).queryByText('Its work email is your account’s, so it will be yours at once.'),
    ).toBeNull();
    expect(
      within(dialog).getByText(/Rotunda will reach out to confirm that this profile is yours/),
    ).toBeTruthy();
  });

  it('shows the claimant, back later, the notice and no edit controls; a contributor claimant no review either', async () => {
    for (const contributor of [false, true]) {
      signIn({ profileId: 7, contributor });
      const { unmount } = await showClaimedByMe();
      expect(pendingNotice()).toBeTruthy();
      expect(present()).toEqual([]);
      expect(screen.queryByRole('region', { name: 'Claim review' })).toBeNull();
      unmount();
    }
  });

  it('is not offered to a member who owns a profile', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile({ user_id: null }));
    expect(screen.queryByRole('button', { name: 'Claim this profile' })).toBeNull();
  });

  it('is not offered on a profile someone owns, nor on one another member’s claim waits on', async () => {
    signIn();
    const { unmount } = await showProfile(profile());
    expect(screen.queryByRole('button', { name: 'Claim this profile' })).toBeNull();
    unmount();
    await showProfile(profile({ user_id: null, claim_pending: true, claim_id: 31 }));
    expect(screen.queryByRole('button', { name: 'Claim this profile' })).toBeNull();
    expect(pendingNotice()).toBeNull();
  });
});

/** Profile 7 with the signed-in member's own claim pending on it. */
function showClaimedByMe() {
  return showProfile(profile({ user_id: null, claim_pending: true, claim_id: 31, claimed_by_you: true }));
}

describe('reviewing a pending claim', () => {
  const NOTICE =
    'A member claimed this profile as their own, and the claim waits for a contributor to confirm it.';
  const CLAIMANT = {
    user_id: 'u-claimant',
    first_name: 'Ada',
    last_name: 'Lopez',
    email: 'ada.lopez.claims@gmail.example',
    claimed_at: '2026-11-20T17:04:05.000Z',
  };
  const pending = (overrides: Partial<Profile> = {}) =>
    profile({ user_id: null, claim_pending: true, claim_id: 31, claimant: CLAIMANT, ...overrides });
  const review = () => screen.queryByRole('region', { name: 'Claim review' });

  /** Profile 7 with claim 31 pending; the claim route answers `answer` and records the decision. */
  async function showPending(answer?: Handler) {
    const shown = await showProfile(pending(), {
      'POST /api/profiles/claims/31': (call) => {
        if (answer) return answer(call);
        const decision = bodyOf(call).decision;
        shown.change(
          decision === 'reject' ? profile({ user_id: null }) : profile({ user_id: CLAIMANT.user_id }),
        );
        return json({
          claim_id: 31,
          profile_id: 7,
          status: decision === 'reject' ? 'rejected' : 'confirmed',
          decided_at: '2025-03-01T10:00:00.000Z',
        });
      },
    });
    return shown;
  }

  it('shows a contributor who claims (name, confirmed email, when) with Confirm claim and Reject claim', async () => {
    signIn({ profileId: 99, contributor: true });
    await showPending();
    const region = review() as HTMLElement;
    expect(within(region).getByText(NOTICE)).toBeTruthy();
    const who = (term: string) =>
      within(region).getByText(term).closest('div')?.querySelector('dd')?.textContent;
    expect(who('Claimed by')).toBe('Ada Lopez');
    expect(who('Confirmed account email')).toBe('ada.lopez.claims@gmail.example');
    expect(who('Claimed on')).toBe('Nov 20, 2026, 9:04 AM');
    expect(within(region).getByRole('button', { name: 'Confirm claim' })).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Reject claim' })).toBeTruthy();
    // Nobody owns it while the claim waits: the contributor may still keep it up to date.
    expect(screen.getByRole('button', { name: 'Edit profile' })).toBeTruthy();
  });

  it("confirms with one click, then reloads the profile, the claimant's now", async () => {
    signIn({ profileId: 99, contributor: true });
    const { calls } = await showPending();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm claim' }));
    await waitFor(() => expect(screen.queryByText(NOTICE)).toBeNull());
    const decisions = callsTo(calls, '/api/profiles/claims/31');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.method).toBe('POST');
    expect(bodyOf(decisions[0])).toEqual({ decision: 'confirm' });
    expect(callsTo(calls, '/api/profiles/profile/7')).toHaveLength(2);
    // Someone owns it now: no edit controls for the contributor.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Edit profile' })).toBeNull());
    // The button that held the focus is gone with the review: the focus is on the line saying what was decided.
    const decided = screen.getByText('Claim confirmed: the profile is its claimant’s now.');
    expect(decided.getAttribute('role')).toBe('status');
    expect(document.activeElement).toBe(decided);
  });

  it('asks before rejecting: Cancel sends nothing; confirming rejects and the profile is unclaimed', async () => {
    signIn({ profileId: 99, contributor: true });
    const { calls } = await showPending();
    fireEvent.click(within(review() as HTMLElement).getByRole('button', { name: 'Reject claim' }));
    let dialog = dialogNamed('Reject this claim?');
    expect(within(dialog).getByText('The profile will be unclaimed again, exactly as it was.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Reject this claim?' })).toBeNull();
    expect(callsTo(calls, '/api/profiles/claims/31')).toHaveLength(0);

    fireEvent.click(within(review() as HTMLElement).getByRole('button', { name: 'Reject claim' }));
    dialog = dialogNamed('Reject this claim?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject claim' }));
    await waitFor(() => expect(screen.queryByText(NOTICE)).toBeNull());
    expect(bodyOf(callsTo(calls, '/api/profiles/claims/31')[0])).toEqual({ decision: 'reject' });
    // Unclaimed again: the contributor may edit it now.
    expect(await screen.findByRole('button', { name: 'Edit profile' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe(
      'Claim rejected: the profile is unclaimed again, exactly as it was.',
    );
  });

  it('keeps the focus on the pressed button while the decision is on its way', async () => {
    signIn({ profileId: 99, contributor: true });
    let answer: (response: Response) => void = () => {};
    await showPending(() => new Promise<Response>((resolve) => (answer = resolve)));
    const confirm = screen.getByRole('button', { name: 'Confirm claim' }) as HTMLButtonElement;
    confirm.focus();
    fireEvent.click(confirm);
    await waitFor(() => expect(confirm.getAttribute('aria-disabled')).toBe('true'));
    expect(confirm.disabled).toBe(false);
    expect(document.activeElement).toBe(confirm);
    // A second press while it is on its way sends nothing more.
    fireEvent.click(confirm);
    answer(
      json({ claim_id: 31, profile_id: 7, status: 'confirmed', decided_at: '2025-03-01T10:00:00.000Z' }),
    );
    await screen.findByText('Claim confirmed: the profile is its claimant’s now.');
  });

  it('shows a member who is not a contributor no review controls', async () => {
    signIn({ profileId: 99 });
    await showProfile(pending({ claimant: null }));
    expect(review()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm claim' })).toBeNull();
  });

  it("shows the server's refusal when the decision fails, and keeps the notice", async () => {
    signIn({ profileId: 99, contributor: true });
    await showPending(() => refusal('This claim has already been decided', 409));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This claim has already been decided');
    expect(screen.getByText(NOTICE)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Confirm claim' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says so in its own words when the server fails', async () => {
    signIn({ profileId: 99, contributor: true });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await showPending(() => json({}, 500));
    fireEvent.click(within(review() as HTMLElement).getByRole('button', { name: 'Reject claim' }));
    fireEvent.click(within(dialogNamed('Reject this claim?')).getByRole('button', { name: 'Reject claim' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The claim could not be decided right now. Please try again.',
    );
  });
});

describe('the bio', () => {
  const long = `${'Budgets and water. '.repeat(30)}The end.`;

  it('cuts a bio over 550 characters with an ellipsis until expanded', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile({ user_bio: long }));
    const text = document.querySelector('.prof-bio__text')?.textContent ?? '';
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(551);
    expect(text).not.toContain('The end.');
    const more = screen.getByRole('button', { name: 'Show more' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(document.querySelector('.prof-bio__text')?.textContent).toBe(long.trim());
    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(document.querySelector('.prof-bio__text')?.textContent?.endsWith('…')).toBe(true);
  });

  it('shows a bio of 550 characters whole, without Show more', async () => {
    signIn({ profileId: 99 });
    const exact = 'x'.repeat(550);
    await showProfile(profile({ user_bio: exact }));
    expect(document.querySelector('.prof-bio__text')?.textContent).toBe(exact);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('edits with the pencil, saves with the save icon, and shows the new bio from the top', async () => {
    signIn({ profileId: 7 });
    const { calls } = await showProfile(own({ user_bio: 'Short bio.' }));
    expect(screen.queryByRole('button', { name: 'Save bio' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit bio' }));
    const editor = screen.getByRole('textbox', { name: 'Bio' });
    expect((editor as HTMLTextAreaElement).value).toBe('Short bio.');
    fireEvent.change(editor, { target: { value: long } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bio' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Bio' })).toBeNull());
    expect(bodyOf(callsTo(calls, '/api/profiles/bio/7')[0])).toEqual({
      profile_id: 7,
      user_bio: long.trim(),
    });
    expect(document.querySelector('.prof-bio__text')?.textContent?.endsWith('…')).toBe(true);
    expect(screen.getByRole('button', { name: 'Show more' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('resets the expand state after saving', async () => {
    signIn({ profileId: 7 });
    await showProfile(own({ user_bio: long }));
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit bio' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Bio' }), { target: { value: `${long} More.` } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bio' }));
    expect((await screen.findByRole('button', { name: 'Show more' })).getAttribute('aria-expanded')).toBe(
      'false',
    );
  });

  it('refuses a blank bio with the spec words, and the pencil leaves without saving', async () => {
    signIn({ profileId: 7 });
    const { calls } = await showProfile(own({ user_bio: 'Short bio.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit bio' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Bio' }), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bio' }));
    expect((await screen.findByRole('alert')).textContent).toBe(BIO_REQUIRED_MESSAGE);
    fireEvent.click(screen.getByRole('button', { name: 'Edit bio' }));
    expect(screen.getByText('Short bio.')).toBeTruthy();
    expect(callsTo(calls, '/api/profiles/bio/7')).toHaveLength(0);
  });
});

describe('job history', () => {
  const current = job({ job_id: 1, title: 'Budget Analyst', start_date: '2020-01-15' });
  const past = job({
    job_id: 2,
    title: 'Legislative Aide',
    start_date: '2015-03-02',
    end_date: '2019-12-20',
    current_job: false,
    organization_id: 20,
    Organization: {
      organization_id: 20,
      organization_name: 'Assembly',
      group_type: 'Legislature',
      logo: null,
    },
    Division: {
      division_id: 5,
      division_name: 'District Office',
      division_type: 'Office',
      active_division: true,
      organization_id: 20,
      street_address: null,
      suite_number: null,
      city: null,
      state: null,
      zip_code: null,
      division_phone: null,
      website: null,
    },
  });

  it('lists title, organization link, office and short month-year dates', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile({ JobExperiences: [current, past] }));
    const history = screen.getByRole('region', { name: 'Job history' });
    const items = within(history).getAllByRole('listitem');
    expect(within(items[0] as HTMLElement).getByText(/Jan 2020 – present/)).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('Mar 2015 – Dec 2019')).toBeTruthy();
    expect(
      within(items[1] as HTMLElement)
        .getByRole('link', { name: 'Assembly' })
        .getAttribute('href'),
    ).toBe('/organization/20');
    expect(within(items[1] as HTMLElement).getByText('District Office')).toBeTruthy();
  });

  it('enables Save in Add Job only when complete; Current Position disables and clears the end date', async () => {
    signIn({ profileId: 7 });
    const { calls, change } = await showProfile(own({ JobExperiences: [current] }), {
      'GET /api/orgs/organization-name/Assembly': () =>
        json([
          {
            organization_id: 20,
            organization_name: 'Assembly',
            group_type: 'Legislature',
            logo: null,
            street_address: '1021 O Street',
            suite_number: null,
            city: 'Sacramento',
            state: 'CA',
            zip_code: '95814',
          },
        ]),
      'POST /api/profiles/add-job/': (call) => json({ ...past, ...bodyOf(call), job_id: 3 }, 201),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add job' }));
    const dialog = dialogNamed('Add job');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(inputIn(dialog, 'Job Title'), { target: { value: 'Legislative Aide' } });
    const user = userEvent.setup();
    await user.type(within(dialog).getByRole('combobox', { name: 'Company' }), 'Assembly');
    await user.click(await within(dialog).findByRole('option', { name: /Assembly/ }));
    fireEvent.change(inputIn(dialog, 'Start Date'), { target: { value: '2015-03-02' } });
    expect(save.disabled).toBe(true);

    const end = inputIn(dialog, 'End Date');
    fireEvent.change(end, { target: { value: '2019-12-20' } });
    expect(save.disabled).toBe(false);
    const currentBox = within(dialog).getByRole('checkbox', { name: 'Current Position' });
    fireEvent.click(currentBox);
    expect(end.disabled).toBe(true);
    expect(end.value).toBe('');
    expect(save.disabled).toBe(false);
    fireEvent.click(currentBox);
    expect(end.disabled).toBe(false);
    expect(save.disabled).toBe(true);
    fireEvent.change(end, { target: { value: '2019-12-20' } });
    fireEvent.change(inputIn(dialog, 'City'), { target: { value: '' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(inputIn(dialog, 'City'), { target: { value: 'sacramento' } });

    change(own({ JobExperiences: [current, past] }));
    fireEvent.click(save);
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    expect(bodyOf(callsTo(calls, '/api/profiles/add-job/')[0])).toEqual({
      profile_id: 7,
      title: 'Legislative Aide',
      organization_id: 20,
      division_id: null,
      street_address: '1021 O Street',
      suite_number: null,
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      start_date: '2015-03-02',
      end_date: '2019-12-20',
      current_job: false,
    });
    expect(await screen.findByText('Mar 2015 – Dec 2019')).toBeTruthy();
  });

  it('edits a job with the same rules, and updates it', async () => {
    signIn({ profileId: 7 });
    const { calls } = await showProfile(own({ JobExperiences: [current, past] }), {
      'POST /api/profiles/update-job/': (call) => json({ ...past, ...bodyOf(call) }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Legislative Aide at Assembly' }));
    const dialog = dialogNamed('Edit job');
    expect(inputIn(dialog, 'Job Title').value).toBe('Legislative Aide');
    expect(within(dialog).getByRole('combobox', { name: 'Company' })).toHaveProperty('value', 'Assembly');
    expect(inputIn(dialog, 'End Date').value).toBe('2019-12-20');
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    fireEvent.change(inputIn(dialog, 'Job Title'), { target: { value: '' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(inputIn(dialog, 'Job Title'), { target: { value: 'Senior Legislative Aide' } });
    fireEvent.click(save);
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    expect(bodyOf(callsTo(calls, '/api/profiles/update-job/')[0])).toMatchObject({
      job_id: 2,
      profile_id: 7,
      title: 'Senior Legislative Aide',
      organization_id: 20,
      division_id: 5,
      end_date: '2019-12-20',
      current_job: false,
    });
    expect(callsTo(calls, '/api/orgs/add-organization')).toHaveLength(0);
  });

  it('offers Delete only for a job that is not current on a profile with more than one job', async () => {
    signIn({ profileId: 7 });
    const { calls, change } = await showProfile(own({ JobExperiences: [current, past] }), {
      'DELETE /api/profiles/delete-job': () => noContent(),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Budget Analyst at Department of Finance' }));
    expect(within(dialogNamed('Edit job')).queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(within(dialogNamed('Edit job')).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Edit Legislative Aide at Assembly' }));
    const dialog = dialogNamed('Edit job');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(callsTo(calls, '/api/profiles/delete-job')).toHaveLength(0);
    change(own({ JobExperiences: [current] }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete position' }));
    await waitFor(() => expect(screen.queryByText('Legislative Aide')).toBeNull());
    expect(bodyOf(callsTo(calls, '/api/profiles/delete-job')[0])).toEqual({ job_id: 2 });
  });

  it('does not offer Delete for the only job, even when it is not current', async () => {
    signIn({ profileId: 7 });
    await showProfile(own({ JobExperiences: [past] }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Legislative Aide at Assembly' }));
    expect(within(dialogNamed('Edit job')).queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

describe('colleagues', () => {
  it('lists 5 at random without the profile itself, each linking to their profile; all of them in a dialog', async () => {
    signIn({ profileId: 99 });
    const everyone = [
      colleague(7, 'Ada'),
      colleague(11, 'Ben'),
      colleague(12, 'Cy'),
      colleague(13, 'Dee'),
      colleague(14, 'Eve'),
      colleague(15, 'Fay'),
      colleague(16, 'Gus'),
    ];
    const { calls } = await showProfile(profile(), {
      'POST /api/profiles/organization-colleagues': () => json(everyone),
    });
    const panel = screen.getByRole('region', { name: 'Colleagues' });
    const links = await within(panel).findAllByRole('link');
    expect(links).toHaveLength(5);
    expect(links.map((a) => a.textContent)).not.toContain('Ada Tester');
    for (const link of links) expect(link.getAttribute('href')).toMatch(/^\/profile\/1[1-6]$/);
    expect(bodyOf(callsTo(calls, '/api/profiles/organization-colleagues')[0])).toEqual({
      organization_id: 10,
    });

    fireEvent.click(within(panel).getByRole('button', { name: 'See all 6 colleagues' }));
    const dialog = dialogNamed('All colleagues');
    expect(
      within(dialog)
        .getAllByRole('link')
        .map((a) => a.textContent)
        .sort(),
    ).toEqual(['Ben Tester', 'Cy Tester', 'Dee Tester', 'Eve Tester', 'Fay Tester', 'Gus Tester']);
  });
});

describe('issues', () => {
  it('links to the state legislature bill site', async () => {
    signIn({ profileId: 99 });
    await showProfile(profile({ UserIssues: [userIssue(100, WATER)] }));
    const panel = screen.getByRole('region', { name: 'Issues' });
    expect(within(panel).getByText('Water')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: /bills/ }).getAttribute('href')).toBe(
      'https://leginfo.legislature.ca.gov/',
    );
  });

  it("toggles edit mode; suggests only issues not assigned; refuses a duplicate with 'You already cover this issue.'", async () => {
    signIn({ profileId: 7 });
    const user = userEvent.setup();
    const { calls } = await showProfile(own({ UserIssues: [userIssue(100, WATER)] }), {
      'POST /api/issues/add-user-issue': () => json(userIssue(101, ENERGY), 201),
    });
    const panel = screen.getByRole('region', { name: 'Issues' });
    expect(within(panel).queryByRole('combobox')).toBeNull();
    const toggle = within(panel).getByRole('button', { name: 'Edit issues' });
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const input = within(panel).getByRole('combobox', { name: 'Add an issue area' });

    await user.type(input, 'e');
    const listbox = await within(panel).findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Energy']);
    await user.clear(input);
    await user.type(input, 'water{Enter}');
    expect((await within(panel).findByRole('alert')).textContent).toBe('You already cover this issue.');
    expect(callsTo(calls, '/api/issues/add-user-issue')).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'Ener');
    await user.click(await within(panel).findByRole('option', { name: 'Energy' }));
    expect(await within(panel).findByText('Energy')).toBeTruthy();
    expect(bodyOf(callsTo(calls, '/api/issues/add-user-issue')[0])).toEqual({ profile_id: 7, issue_id: 2 });
    expect(callsTo(calls, '/api/issues/add-issue-area')).toHaveLength(0);

    fireEvent.click(toggle);
    expect(within(panel).queryByRole('combobox')).toBeNull();
    expect(within(panel).queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('makes a new issue area for a new name, and removes issues in edit mode', async () => {
    signIn({ profileId: 7 });
    const user = userEvent.setup();
    const TRANSIT = issue(9, 'Transit');
    const { calls } = await showProfile(own({ UserIssues: [userIssue(100, WATER)] }), {
      'POST /api/issues/add-issue-area': () => json(TRANSIT, 201),
      'POST /api/issues/add-user-issue': () => json(userIssue(102, TRANSIT), 201),
      'DELETE /api/issues/delete-user-issue': () => noContent(),
    });
    const panel = screen.getByRole('region', { name: 'Issues' });
    fireEvent.click(within(panel).getByRole('button', { name: 'Edit issues' }));
    await user.type(within(panel).getByRole('combobox', { name: 'Add an issue area' }), 'Transit{Enter}');
    expect(await within(panel).findByText('Transit')).toBeTruthy();
    expect(bodyOf(callsTo(calls, '/api/issues/add-issue-area')[0])).toEqual({ issue_name: 'Transit' });
    expect(bodyOf(callsTo(calls, '/api/issues/add-user-issue')[0])).toEqual({ profile_id: 7, issue_id: 9 });

    fireEvent.click(within(panel).getByRole('button', { name: 'Remove Water' }));
    await waitFor(() => expect(within(panel).queryByText('Water')).toBeNull());
    expect(bodyOf(callsTo(calls, '/api/issues/delete-user-issue')[0])).toEqual({ id: 100 });
  });
});

describe('the Edit Profile dialog', () => {
  async function openEditor(start: Profile, routes: Record<string, Handler> = {}) {
    const shown = await showProfile(start, {
      'POST /api/profiles/update-profile': (call) => json({ ...start, ...bodyOf(call) }),
      ...routes,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit profile' }));
    return { ...shown, dialog: dialogNamed('Edit profile') };
  }

  it('names the missing required fields with the spec labels, then saves every field', async () => {
    signIn({ profileId: 7 });
    const { dialog, calls } = await openEditor(own({ profile_picture: null }));
    expect(document.activeElement).toBe(inputIn(dialog, 'First Name'));
    fireEvent.change(inputIn(dialog, 'Last Name'), { target: { value: '' } });
    fireEvent.change(inputIn(dialog, 'Office Phone'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Please provide entries for the following required fields: Profile Picture, Last Name, Office Phone',
    );
    expect(callsTo(calls, '/api/profiles/update-profile')).toHaveLength(0);
  });

  it('uploads a new picture to the profile at once, and saves the changes', async () => {
    signIn({ profileId: 7 });
    const { dialog, calls } = await openEditor(own(), {
      'POST /api/profiles/upload-profile-picture': () => json({ url: '/media/pictures/new.jpg' }),
    });
    const input = within(dialog).getByLabelText('Profile Picture', { selector: 'input' }) as HTMLInputElement;
    Object.defineProperty(input, 'files', {
      value: [new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' })],
    });
    fireEvent.change(input);
    await within(dialog).findByText('Picture updated.');
    const upload = callsTo(calls, '/api/profiles/upload-profile-picture')[0];
    const form = upload?.body as FormData;
    expect(form.get('profile_id')).toBe('7');
    fireEvent.change(inputIn(dialog, 'Personal Email'), { target: { value: 'ada@example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    const sent = bodyOf(callsTo(calls, '/api/profiles/update-profile')[0]);
    expect(sent).toMatchObject({
      profile_id: 7,
      profile_picture: '/media/pictures/new.jpg',
      personal_email: 'ada@example.org',
      other_phone: '(916) 555-0142',
    });
    expect(sent).not.toHaveProperty('lobby_filer_id');
    expect(screen.getByText('ada@example.org')).toBeTruthy();
  });

  it('sets a preferred name, which heads the profile with the legal name under it', async () => {
    signIn({ profileId: 7 });
    const { dialog, calls } = await openEditor(own());
    expect(screen.queryByText(/Legal name/)).toBeNull();
    fireEvent.change(inputIn(dialog, 'Preferred Name'), { target: { value: ' Addie ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect((dialog as HTMLDialogElement).open).toBe(false));
    expect(bodyOf(callsTo(calls, '/api/profiles/update-profile')[0])).toMatchObject({
      preferred_name: 'Addie',
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Addie Lopez');
    expect(screen.getByText('Legal name: Ada Lopez')).toBeTruthy();
  });

  it('shows the lobbyist filer id field to contributors only', async () => {
    signIn({ profileId: 7 });
    const { dialog } = await openEditor(own({ lobby_filer_id: '1234567' }));
    expect(within(dialog).queryByLabelText('Lobbyist Filer ID', { exact: false })).toBeNull();
  });

  it('lets a contributor set the lobbyist filer id on an unclaimed profile, with no password section', async () => {
    signIn({ profileId: 99, contributor: true });
    const { dialog, calls } = await openEditor(profile({ user_id: null }));
    expect(within(dialog).queryByRole('button', { name: 'Update password' })).toBeNull();
    fireEvent.change(inputIn(dialog, 'Lobbyist Filer ID'), { target: { value: ' 1234567 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(callsTo(calls, '/api/profiles/update-profile')).toHaveLength(1));
    expect(bodyOf(callsTo(calls, '/api/profiles/update-profile')[0])).toMatchObject({
      lobby_filer_id: '1234567',
    });
  });

  it("updates the member's own password with the live checklist and the spec's alerts", async () => {
    signIn({ profileId: 7 });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let answer = () => json({ success: true, message: 'Password has been updated' });
    const { dialog, calls } = await openEditor(own(), { 'POST /auth/update-password/': () => answer() });
    const rules = within(dialog).getByRole('list', { name: 'Password rules' });
    fireEvent.change(inputIn(dialog, 'New password', true), { target: { value: 'short' } });
    expect(within(rules).getByText('At least 10 characters').textContent).toContain('(not met)');
    fireEvent.change(inputIn(dialog, 'Current password'), { target: { value: 'Old#password1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Password does not meet criteria.');

    fireEvent.change(inputIn(dialog, 'New password', true), { target: { value: 'New#password12' } });
    expect(within(rules).getByText('At least 10 characters').textContent).toContain('(met)');
    fireEvent.change(inputIn(dialog, 'Retype new password'), { target: { value: 'New#password1' } });
    expect(within(dialog).getByText('Passwords do not match')).toBeTruthy();
    fireEvent.change(inputIn(dialog, 'Retype new password'), { target: { value: 'New#password12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Password has been updated');
    expect(bodyOf(callsTo(calls, '/auth/update-password/')[0])).toEqual({
      currentPassword: 'Old#password1',
      newPassword: 'New#password12',
    });

    answer = () => refusal('Current password is incorrect');
    fireEvent.change(inputIn(dialog, 'Current password'), { target: { value: 'wrong' } });
    fireEvent.change(inputIn(dialog, 'New password', true), { target: { value: 'New#password12' } });
    fireEvent.change(inputIn(dialog, 'Retype new password'), { target: { value: 'New#password12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Error updating password. Please try again.',
    );
  });
});
