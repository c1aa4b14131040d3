// The organization profile: contact details, the Cal-Access link only for its groups, social links by name
// only when present, the edit control for contributors only, the Divisions tab only with divisions (active
// ones, sorted, under type buttons), the People tab over the colleagues call ('No people to show.' when it
// lists nobody, an error line with a retry when it fails), and the not-found panel.

import type { Colleague } from '@rotunda/ui';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { calAccessUrl } from '../src/organization-rules';
import { detail, division, type Handler, json, refusal, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

const nobody = () => json([]);

async function openProfile(organization: ReturnType<typeof detail>, colleagues: Handler = nobody) {
  const calls = stubFetch({
    [`GET /api/orgs/${organization.organization_id}`]: () => json(organization),
    'POST /api/profiles/organization-colleagues': colleagues,
  });
  renderAt(`/organization/${organization.organization_id}`);
  await screen.findByRole('heading', { level: 1, name: organization.organization_name });
  return calls;
}

describe('details', () => {
  it('shows address, phone, website and the social links that are present, each by name', async () => {
    signIn();
    await openProfile(
      detail({
        organization_name: 'Department of Water Stewardship',
        suite_number: 'Floor 16',
        website: 'https://waterstewardship.example.org',
        linkedin_url: 'https://www.linkedin.com/company/water',
        twitter_url: 'https://x.com/water',
        bluesky_url: 'https://bsky.app/profile/water.example.org',
      }),
    );
    expect(screen.getByText('715 P Street, Floor 16')).toBeTruthy();
    expect(screen.getByText('Sacramento, CA 95814')).toBeTruthy();
    expect(screen.getByRole('link', { name: '(916) 555-0100' }).getAttribute('href')).toBe('tel:9165550100');
    expect(screen.getByRole('link', { name: /waterstewardship\.example\.org/ }).getAttribute('href')).toBe(
      'https://waterstewardship.example.org',
    );
    const socials = within(screen.getByRole('list', { name: 'Social media' })).getAllByRole('link');
    expect(socials.map((link) => link.textContent?.replace(' (opens in a new tab)', ''))).toEqual([
      'LinkedIn',
      'Twitter/X',
      'Bluesky',
    ]);
    expect(screen.getByRole('link', { name: /^Twitter\/X/ }).getAttribute('href')).toBe(
      'https://x.com/water',
    );
    for (const link of socials) expect(link.getAttribute('target')).toBe('_blank');
  });

  it('names all eight networks when all are present', async () => {
    signIn();
    const urls = {
      linkedin_url: 'https://linkedin.com/company/a',
      facebook_url: 'https://facebook.com/a',
      youtube_url: 'https://youtube.com/@a',
      threads_url: 'https://threads.net/@a',
      twitter_url: 'https://x.com/a',
      instagram_url: 'https://instagram.com/a',
      tiktok_url: 'https://tiktok.com/@a',
      bluesky_url: 'https://bsky.app/profile/a',
    };
    await openProfile(detail(urls));
    const names = within(screen.getByRole('list', { name: 'Social media' }))
      .getAllByRole('link')
      .map((link) => link.textContent?.replace(' (opens in a new tab)', ''));
    expect(names).toEqual([
      'LinkedIn',
      'Facebook',
      'YouTube',
      'Threads',
      'Twitter/X',
      'Instagram',
      'TikTok',
      'Bluesky',
    ]);
  });

  it('shows no social list when there are none', async () => {
    signIn();
    await openProfile(detail());
    expect(screen.queryByRole('list', { name: 'Social media' })).toBeNull();
  });
});

describe('Cal-Access ID', () => {
  it('links an association to its lobbyist employer page on the disclosure site', async () => {
    signIn();
    await openProfile(detail({ group_type: 'Associations', lobby_filer_id: '9100101' }));
    const link = screen.getByRole('link', { name: /9100101/ });
    expect(link.getAttribute('href')).toBe(
      'https://cal-access.sos.ca.gov/Lobbying/Employers/Detail.aspx?id=9100101',
    );
    expect(screen.getByText('Cal-Access ID')).toBeTruthy();
  });

  it('links a lobbying firm to its firm page', () => {
    expect(calAccessUrl('Lobbyists', '9100120')).toBe(
      'https://cal-access.sos.ca.gov/Lobbying/Firms/Detail.aspx?id=9100120',
    );
    expect(calAccessUrl('Unions', '9100130')).toBe(
      'https://cal-access.sos.ca.gov/Lobbying/Employers/Detail.aspx?id=9100130',
    );
  });

  it('is not shown without an id, nor for groups that do not file', async () => {
    signIn();
    await openProfile(detail({ group_type: 'Unions', lobby_filer_id: null }));
    expect(screen.queryByText('Cal-Access ID')).toBeNull();
  });

  it('is not shown for an agency even if one was stored', async () => {
    signIn();
    await openProfile(detail({ group_type: 'Agencies', lobby_filer_id: '123' }));
    expect(screen.queryByText('Cal-Access ID')).toBeNull();
  });
});

describe('edit control', () => {
  it('is shown to contributors', async () => {
    signIn({ contributor: true });
    await openProfile(detail());
    expect(screen.getByRole('button', { name: 'Edit organization' })).toBeTruthy();
  });

  it('is not shown to other members', async () => {
    signIn();
    await openProfile(detail());
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
  });
});

describe('Divisions', () => {
  const divisions = [
    division({
      division_name: 'Office of Tribal Affairs',
      division_type: 'Office',
      division_phone: '9165550146',
    }),
    division({ division_name: 'Dam Safety Division', division_type: 'Division' }),
    division({ division_name: 'drought Response Unit', division_type: 'Division', active_division: false }),
    division({
      division_name: 'Groundwater Management Division',
      division_type: 'Division',
      street_address: '715 P Street',
      suite_number: 'Floor 9',
      city: 'Sacramento',
      state: 'CA',
      zip_code: '95814',
      division_phone: '(916) 555-0143',
      website: 'https://water.example.org/groundwater',
    }),
    division({ division_name: 'Central Valley Flood Safety Board', division_type: 'Board' }),
    division({ division_name: 'Office of the Director', division_type: 'Office' }),
  ];

  it('has no Divisions tab when the organization has no divisions', async () => {
    signIn();
    await openProfile(detail({ Divisions: [] }));
    expect(screen.queryByRole('tab', { name: 'Divisions' })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'People' })).toBeTruthy();
  });

  it('lists active divisions by name under type buttons, the first type selected', async () => {
    signIn();
    await openProfile(detail({ Divisions: divisions }));
    const tab = screen.getByRole('tab', { name: 'Divisions' });
    expect(screen.getByRole('tab', { name: 'People' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(tab);
    expect(tab.getAttribute('aria-selected')).toBe('true');

    const types = within(screen.getByRole('group', { name: 'Division type' })).getAllByRole('button');
    expect(types.map((b) => b.textContent)).toEqual(['Board', 'Division', 'Office']);
    expect(types.map((b) => b.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false']);
    expect(summaries()).toEqual(['Central Valley Flood Safety Board']);

    fireEvent.click(screen.getByRole('button', { name: 'Division' }));
    // Sorted by name; the inactive 'drought Response Unit' is left out.
    expect(summaries()).toEqual(['Dam Safety Division', 'Groundwater Management Division']);

    const row = screen.getByText('Groundwater Management Division').closest('details');
    if (!row) throw new Error('no accordion row');
    expect(row.open).toBe(false);
    fireEvent.click(within(row).getByText('Groundwater Management Division'));
    expect(row.textContent).toContain('715 P Street, Floor 9');
    expect(row.textContent).toContain('Sacramento, CA 95814');
    expect(within(row).getByRole('link', { name: '(916) 555-0143' })).toBeTruthy();
    expect(within(row).getByRole('link', { name: /water\.example\.org\/groundwater/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Office' }));
    expect(summaries()).toEqual(['Office of the Director', 'Office of Tribal Affairs']);
  });

  it('moves between tabs with the arrow keys', async () => {
    signIn();
    await openProfile(detail({ Divisions: divisions }));
    const people = screen.getByRole('tab', { name: 'People' });
    people.focus();
    fireEvent.keyDown(people, { key: 'ArrowRight' });
    const divisionsTab = screen.getByRole('tab', { name: 'Divisions' });
    expect(divisionsTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(divisionsTab);
    expect(screen.getByRole('tabpanel', { name: 'Divisions' })).toBeTruthy();
  });

  it("says 'No divisions or offices to list.' when none is active", async () => {
    signIn();
    await openProfile(
      detail({ Divisions: [division({ division_name: 'Closed Unit', active_division: false })] }),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Divisions' }));
    expect(screen.getByText('No divisions or offices to list.')).toBeTruthy();
  });

  function summaries(): string[] {
    return [...document.querySelectorAll('summary')].map((s) => s.textContent ?? '');
  }
});

describe('People', () => {
  const colleague = (
    id: number,
    first: string,
    title: string,
    city: string,
    division: { division_id: number; division_name: string } | null = null,
  ): Colleague => ({
    profile_id: id,
    title,
    city,
    state: 'CA',
    Division: division,
    ProfileInfo: {
      profile_id: id,
      first_name: first,
      last_name: 'Lee',
      profile_picture: null,
      other_phone: '9165550199',
      work_email: `${first.toLowerCase()}@water.ca.gov`,
    },
  });

  it("asks for the organization's colleagues and shows 'No people to show.' when it has none", async () => {
    signIn();
    const calls = await openProfile(detail({ organization_id: 8 }));
    expect(await screen.findByText('No people to show.')).toBeTruthy();
    const call = calls.find((c) => c.url.pathname === '/api/profiles/organization-colleagues');
    expect(call?.method).toBe('POST');
    expect(JSON.parse(String(call?.body))).toEqual({ organization_id: 8 });
  });

  it('says the people could not be loaded when the call fails, and tries again on request', async () => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // A refusal, then a connection failing twice (the web client sends a read once more after a failed
    // connection by itself), then the people.
    const people = () => json([colleague(5, 'Dee', 'Analyst', 'Sacramento')]);
    const answers = [
      () => refusal('Service unavailable', 503),
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ];
    const calls = await openProfile(detail(), () => (answers.shift() ?? people)());
    const askedFor = () => calls.filter((c) => c.url.pathname === '/api/profiles/organization-colleagues');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The people of this organization could not be loaded right now.');
    expect(screen.queryByText('No people to show.')).toBeNull();

    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(askedFor()).toHaveLength(3));
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Dee Lee' })).toBeTruthy();
    expect(askedFor()).toHaveLength(4);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows initials in place of a picture that is missing or fails to load', async () => {
    signIn();
    const withPicture = colleague(6, 'Ida', 'Analyst', 'Sacramento');
    if (withPicture.ProfileInfo) withPicture.ProfileInfo.profile_picture = '/media/pictures/gone.jpg';
    await openProfile(detail(), () => json([withPicture, colleague(7, 'Jo', 'Analyst', 'Sacramento')]));
    const card = (name: string) => screen.getByRole('link', { name }).closest('article') as HTMLElement;
    await screen.findByRole('link', { name: 'Ida Lee' });
    expect(card('Jo Lee').querySelector('img')).toBeNull();
    expect(card('Jo Lee').textContent).toContain('JL');
    const picture = card('Ida Lee').querySelector('img');
    expect(picture?.getAttribute('src')).toBe('/media/pictures/gone.jpg');
    fireEvent.error(picture as HTMLImageElement);
    expect(card('Ida Lee').querySelector('img')).toBeNull();
    expect(card('Ida Lee').textContent).toContain('IL');
  });

  it('leaves out the member’s own profile', async () => {
    signIn({ profileId: 2 });
    await openProfile(detail(), () =>
      json([colleague(2, 'Ben', 'Director', 'Fresno'), colleague(1, 'Ana', 'Counsel', 'Sacramento')]),
    );
    await waitFor(() => expect(names()).toEqual(['Ana Lee']));
  });

  it('lists the people in the order the service answers (its random one), with Title, Office and Location filters', async () => {
    signIn();
    const legal = { division_id: 1, division_name: 'Office of Legal Affairs' };
    const director = { division_id: 2, division_name: 'Office of the Director' };
    await openProfile(
      detail({
        Divisions: [
          division({ division_id: 1, division_name: 'Office of Legal Affairs' }),
          division({ division_id: 2, division_name: 'Office of the Director' }),
        ],
      }),
      () =>
        json([
          colleague(2, 'Ben', 'Director', 'Fresno', director),
          colleague(1, 'Ana', 'Counsel', 'Sacramento', legal),
          colleague(3, 'Cy', 'Counsel', 'Fresno', director),
        ]),
    );
    await waitFor(() => expect(names()).toEqual(['Ben Lee', 'Ana Lee', 'Cy Lee']));
    expect(screen.getByRole('list', { name: 'People' }).querySelectorAll(':scope > li')).toHaveLength(3);
    const ana = screen.getByRole('link', { name: 'Ana Lee' });
    expect(ana.getAttribute('href')).toBe('/profile/1');
    const card = ana.closest('article');
    expect(card?.textContent).toContain('Counsel');
    expect(card?.textContent).toContain('Office of Legal Affairs');
    expect(card?.textContent).toContain('Sacramento, CA');
    expect(within(card as HTMLElement).getByRole('link', { name: '(916) 555-0199' })).toBeTruthy();
    expect(
      within(card as HTMLElement)
        .getByRole('link', { name: 'ana@water.ca.gov' })
        .getAttribute('href'),
    ).toBe('mailto:ana@water.ca.gov');

    const title = screen.getByRole('combobox', { name: 'Title' });
    const office = screen.getByRole('combobox', { name: 'Office' });
    const place = screen.getByRole('combobox', { name: 'Location' });
    expect(optionTexts(title)).toEqual(['All titles', 'Counsel', 'Director']);
    expect(optionTexts(office)).toEqual(['All offices', 'Office of Legal Affairs', 'Office of the Director']);
    expect(optionTexts(place)).toEqual(['All locations', 'Fresno, CA', 'Sacramento, CA']);

    act(() => {
      fireEvent.change(title, { target: { value: 'Counsel' } });
    });
    expect(names()).toEqual(['Ana Lee', 'Cy Lee']);
    act(() => {
      fireEvent.change(place, { target: { value: 'Fresno, CA' } });
    });
    expect(names()).toEqual(['Cy Lee']);
    act(() => {
      fireEvent.change(office, { target: { value: '1' } });
    });
    expect(screen.getByText('No people to show.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(names()).toEqual(['Ben Lee', 'Ana Lee', 'Cy Lee']);
  });

  it('offers the Office filter only with 2 or more divisions', async () => {
    signIn();
    await openProfile(detail({ Divisions: [division({ division_name: 'Only Office' })] }));
    await screen.findByText('No people to show.');
    expect(screen.getByRole('combobox', { name: 'Title' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Location' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Office' })).toBeNull();
  });

  function names(): string[] {
    return [...document.querySelectorAll('.orgs-person__name')].map((n) => n.textContent ?? '');
  }

  function optionTexts(select: HTMLElement): string[] {
    return within(select)
      .getAllByRole('option')
      .map((o) => o.textContent ?? '');
  }
});

describe('not found', () => {
  it('shows the not-found panel with the way back when the organization does not exist', async () => {
    signIn();
    stubFetch({ 'GET /api/orgs/9999': () => refusal('Organization not found', 404) });
    renderAt('/organization/9999');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This organization is not in session.' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to organizations' }).getAttribute('href')).toBe(
      '/organizations',
    );
  });

  it('does not ask the server about an id that is not a number', async () => {
    signIn();
    const calls = stubFetch({});
    renderAt('/organization/abc');
    expect(await screen.findByText('This organization is not in session.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('shows a calm error line when the organization cannot be loaded', async () => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch({ 'GET /api/orgs/3': () => new Response('', { status: 503 }) });
    renderAt('/organization/3');
    expect((await screen.findByRole('alert')).textContent).toContain('could not be loaded right now');
  });
});
