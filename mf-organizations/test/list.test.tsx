// The organization list: pages of 30 fetched as the last card becomes fully visible and only while more
// remain, 'Campaigns' left out of the group filter, the filters kept in the URL (debounced search), the
// spinner, the error line, the empty state and cards that link to the organization.
import { formatPhone } from '@rotunda/rules';
import { FakeIntersectionObserver } from '@rotunda/ui/testing';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Organization } from '../src/api';
import OrganizationList from '../src/OrganizationList';
import { GROUPS, json, organization, type RecordedCall, stubFetch } from './support/api';
import { renderAt, signIn } from './support/render';

const many = (count: number, from = 1): Organization[] =>
  Array.from({ length: count }, (_, i) => organization({ organization_id: from + i }));

/** A list endpoint over `all`, paged by offset and limit as the gateway does. */
function listOf(all: Organization[]) {
  return (call: RecordedCall) => {
    const offset = Number(call.url.searchParams.get('offset'));
    const limit = Number(call.url.searchParams.get('limit'));
    return json({ organizations: all.slice(offset, offset + limit), total: all.length, offset, limit });
  };
}

const listCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.pathname === '/api/orgs/');
const location = () => screen.getByTestId('location').textContent;

function lastCard(): Element {
  const items = within(screen.getByRole('list')).getAllByRole('listitem');
  const last = items.at(-1);
  if (!last) throw new Error('no cards');
  return last;
}

describe('paging', () => {
  it('asks for 30, then 30 more when the last card is fully visible, and stops at the total', async () => {
    signIn();
    const calls = stubFetch({
      'GET /api/orgs/': listOf(many(45)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations');
    expect(screen.getByRole('status', { name: 'Loading organizations' })).toBeTruthy();
    await screen.findByText('45 organizations');
    expect(screen.queryByRole('status', { name: 'Loading organizations' })).toBeNull();
    expect(screen.getAllByRole('link', { name: /Organization \d+/ })).toHaveLength(30);
    const first = listCalls(calls)[0]?.url.searchParams;
    expect(first?.get('offset')).toBe('0');
    expect(first?.get('limit')).toBe('30');

    // Only the last card is watched, with threshold 1; partly visible is not enough.
    expect(FakeIntersectionObserver.thresholdsFor(lastCard())).toEqual([[1]]);
    act(() => FakeIntersectionObserver.intersect(lastCard(), 0.5));
    expect(listCalls(calls)).toHaveLength(1);

    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Organization \d+/ })).toHaveLength(45));
    const second = listCalls(calls)[1]?.url.searchParams;
    expect(second?.get('offset')).toBe('30');
    expect(second?.get('limit')).toBe('30');

    // Every organization is shown: no further request however often the last card comes into view.
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    expect(listCalls(calls)).toHaveLength(2);
  });

  it('asks only once while a page is on its way', async () => {
    signIn();
    let answer: (response: Response) => void = () => {};
    const all = many(90);
    const calls = stubFetch({
      'GET /api/orgs/': (call) =>
        call.url.searchParams.get('offset') === '0'
          ? listOf(all)(call)
          : new Promise<Response>((resolve) => {
              answer = resolve;
            }),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations');
    await screen.findByText('90 organizations');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    expect(screen.getByRole('status', { name: 'Loading more organizations' })).toBeTruthy();
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listCalls(calls)).toHaveLength(2);
    await act(async () =>
      answer(json({ organizations: all.slice(30, 60), total: 90, offset: 30, limit: 30 })),
    );
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Organization \d+/ })).toHaveLength(60));
  });
});

describe('filters', () => {
  it("offers every group but 'Campaigns'", async () => {
    signIn();
    stubFetch({
      'GET /api/orgs/': listOf(many(3)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations');
    const select = screen.getByRole('combobox', { name: 'Group' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(8));
    const names = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(names).toEqual([
      'All groups',
      'Associations',
      'Agencies',
      "Governor's Office",
      'Legislature',
      'Lobbyists',
      'Unions',
      'Other',
    ]);
  });

  it('reads search and group from the URL, so a reload or a shared link keeps them', async () => {
    signIn();
    const calls = stubFetch({
      'GET /api/orgs/': listOf(many(2)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations?search=water%20board&group=Agencies');
    expect((screen.getByRole('searchbox', { name: 'Search by name' }) as HTMLInputElement).value).toBe(
      'water board',
    );
    await screen.findByText('2 organizations found');
    expect((screen.getByRole('combobox', { name: 'Group' }) as HTMLSelectElement).value).toBe('Agencies');
    const query = listCalls(calls)[0]?.url.searchParams;
    expect(query?.get('search')).toBe('water board');
    expect(query?.get('group')).toBe('Agencies');
  });

  it('writes the search to the URL 250 ms after typing stops, and fetches once', async () => {
    signIn();
    const calls = stubFetch({
      'GET /api/orgs/': listOf(many(2)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations');
    await screen.findByText('2 organizations');
    const box = screen.getByRole('searchbox', { name: 'Search by name' });
    fireEvent.change(box, { target: { value: 'wat' } });
    fireEvent.change(box, { target: { value: 'water' } });
    expect(location()).toBe('/organizations');
    await waitFor(() => expect(location()).toBe('/organizations?search=water'));
    await waitFor(() => expect(listCalls(calls)).toHaveLength(2));
    expect(listCalls(calls)[1]?.url.searchParams.get('search')).toBe('water');

    fireEvent.change(screen.getByRole('combobox', { name: 'Group' }), { target: { value: 'Unions' } });
    expect(location()).toBe('/organizations?search=water&group=Unions');
    await waitFor(() => expect(listCalls(calls)).toHaveLength(3));

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(location()).toBe('/organizations');
    expect((box as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(listCalls(calls)).toHaveLength(4));
    expect(listCalls(calls)[3]?.url.searchParams.get('search')).toBe('');
    expect(listCalls(calls)[3]?.url.searchParams.get('group')).toBe('');
  });

  it('sends the member token with every call', async () => {
    signIn();
    const calls = stubFetch({
      'GET /api/orgs/': listOf(many(1)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations');
    await screen.findByText('1 organization');
    expect(calls.map((c) => c.headers.get('x-auth-token'))).toEqual(['test-token', 'test-token']);
  });
});

describe('cards and states', () => {
  it('shows logo or initials, name, address with suite, city and state, and the formatted phone', async () => {
    signIn();
    stubFetch({
      'GET /api/orgs/': listOf([
        organization({
          organization_id: 7,
          organization_name: 'Sierra Valley Growers Association',
          group_type: 'Associations',
          street_address: '1215 K Street',
          suite_number: 'Suite 1400',
          main_phone: '9165550101',
          logo: '/media/logos/2026/11/sierra.png',
        }),
        organization({ organization_id: 8, organization_name: 'Delta Water Board', logo: null }),
      ]),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    const { container } = renderAt('/organizations');
    const card = await screen.findByRole('link', { name: /Sierra Valley Growers Association/ });
    expect(card.getAttribute('href')).toBe('/organization/7');
    expect(card.textContent).toContain('1215 K Street, Suite 1400');
    expect(card.textContent).toContain('Sacramento, CA');
    expect(card.textContent).toContain(formatPhone('9165550101'));
    expect(card.querySelector('img')?.getAttribute('src')).toBe('/media/logos/2026/11/sierra.png');
    const other = screen.getByRole('link', { name: /Delta Water Board/ });
    expect(other.querySelector('img')).toBeNull();
    expect(other.textContent).toContain('DW');
    expect(container.querySelectorAll('.orgs-card')).toHaveLength(2);
  });

  it('opens the organization on a card click', async () => {
    signIn();
    stubFetch({
      'GET /api/orgs/': listOf(many(1, 12)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
      'GET /api/orgs/12': () => json({ ...organization({ organization_id: 12 }), Divisions: [] }),
    });
    renderAt('/organizations');
    fireEvent.click(await screen.findByRole('link', { name: /Organization 12/ }));
    expect(location()).toBe('/organization/12');
  });

  it('says so when nothing matches', async () => {
    signIn();
    stubFetch({
      'GET /api/orgs/': listOf([]),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    renderAt('/organizations?search=zzz');
    expect(await screen.findByText('No organizations match your search.')).toBeTruthy();
  });

  it('shows a calm error line when the list cannot be loaded, and tries again on request', async () => {
    signIn();
    let fail = true;
    stubFetch({
      'GET /api/orgs/': (call) => (fail ? new Response('down', { status: 503 }) : listOf(many(2))(call)),
      'GET /api/orgs/organization-groups': () => json(GROUPS),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <MemoryRouter initialEntries={['/organizations']}>
        <OrganizationList />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Organizations could not be loaded right now',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('2 organizations')).toBeTruthy();
  });
});
