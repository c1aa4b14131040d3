// The directory's filters: the search text, group and issue sent to the server and combined; 'Elected
// Officials' and 'Other' offered (last, once each) and sent as the group, 'Campaigns' not offered; issues in alphabetical
// order; and the filters kept in the URL (prefilled from it, written to it, replacing the history entry).
import { ELECTED_OFFICIAL_TITLES } from '@rotunda/rules';
import { SEARCH_DEBOUNCE_MS } from '@rotunda/ui';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  ISSUES,
  json,
  people,
  person,
  refusal,
  searchCalls,
  searchOf,
  stubApi,
  stubDirectory,
} from './support/api';
import { location, renderAt, renderInLingeringFrame, signIn } from './support/render';

const searchBox = () => screen.getByRole('searchbox', { name: 'Search people' }) as HTMLInputElement;
const groupSelect = () => screen.getByRole('combobox', { name: 'Group' }) as HTMLSelectElement;
const issueSelect = () => screen.getByRole('combobox', { name: 'Issue' }) as HTMLSelectElement;
const optionNames = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);

/** The filters of the last search request, leaving paging out. */
function lastQuery(calls: Parameters<typeof searchCalls>[0]): Record<string, string> {
  const params = new URLSearchParams(searchCalls(calls).at(-1)?.url.searchParams);
  params.delete('offset');
  params.delete('limit');
  return Object.fromEntries(params);
}

describe('what the filters offer', () => {
  it("offers the groups less 'Campaigns', then 'Elected Officials' and 'Other'", async () => {
    signIn();
    stubDirectory();
    renderAt('/directory');
    await waitFor(() => expect(optionNames(groupSelect())).toContain('Agencies'));
    expect(optionNames(groupSelect())).toEqual([
      'All groups',
      'Associations',
      'Agencies',
      "Governor's Office",
      'Legislature',
      'Lobbyists',
      'Unions',
      'Elected Officials',
      'Other',
    ]);
  });

  it("offers 'Elected Officials' and 'Other' even when the groups cannot be loaded", async () => {
    signIn();
    stubApi({
      'GET /api/profiles/search': searchOf(people(3)),
      'GET /api/orgs/organization-groups': () => refusal('The org service is unavailable.', 503),
      'GET /api/issues/': () => json(ISSUES),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/directory');
    await screen.findByText('3 people');
    await waitFor(() =>
      expect(optionNames(groupSelect())).toEqual(['All groups', 'Elected Officials', 'Other']),
    );
  });

  it('offers the issues in alphabetical order, whatever order the server answers', async () => {
    signIn();
    stubDirectory();
    renderAt('/directory');
    await waitFor(() => expect(optionNames(issueSelect())).toHaveLength(5));
    expect(optionNames(issueSelect())).toEqual([
      'All issues',
      'agriculture',
      'Education',
      'Housing',
      'Water',
    ]);
  });
});

describe('what is sent', () => {
  it('sends the search text after typing stops, then combines it with a group and an issue', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');
    expect(lastQuery(calls)).toEqual({});

    fireEvent.change(searchBox(), { target: { value: 'ana' } });
    fireEvent.change(searchBox(), { target: { value: 'ana water ' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(2));
    expect(lastQuery(calls)).toEqual({ search: 'ana water' });

    await waitFor(() => expect(optionNames(groupSelect())).toContain('Legislature'));
    fireEvent.change(groupSelect(), { target: { value: 'Legislature' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(3));
    expect(lastQuery(calls)).toEqual({ search: 'ana water', group: 'Legislature' });

    await waitFor(() => expect(optionNames(issueSelect())).toContain('Housing'));
    fireEvent.change(issueSelect(), { target: { value: '1' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(4));
    expect(lastQuery(calls)).toEqual({ search: 'ana water', group: 'Legislature', issue: '1' });
    expect(await screen.findByText('3 people found')).toBeTruthy();
  });

  it("sends 'Elected Officials' as the group and says which titles it means", async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');
    fireEvent.change(groupSelect(), { target: { value: 'Elected Officials' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(2));
    expect(lastQuery(calls)).toEqual({ group: 'Elected Officials' });
    const hint = document.getElementById(groupSelect().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain(ELECTED_OFFICIAL_TITLES.join(', '));
  });

  it("sends 'Other' as the group and says whom it selects", async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');
    await waitFor(() => expect(optionNames(groupSelect())).toContain('Other'));
    fireEvent.change(groupSelect(), { target: { value: 'Other' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(2));
    expect(lastQuery(calls)).toEqual({ group: 'Other' });
    expect(location()).toBe('/directory?group=Other');
    const hint = document.getElementById(groupSelect().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe(
      'People at an organization of the group Other, and people with no current organization.',
    );
  });

  it('applies the typed search at once on Enter', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');
    fireEvent.change(searchBox(), { target: { value: 'budget' } });
    fireEvent.submit(screen.getByRole('search', { name: 'Filter people' }));
    expect(location()).toBe('/directory?search=budget');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ search: 'budget' }));
  });
});

describe('the URL', () => {
  it('prefills the filters from the query string and sends them, so a shared search shows the same people', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory?search=water%20board&group=Legislature&issue=3');
    expect(searchBox().value).toBe('water board');
    await screen.findByText('3 people found');
    expect(lastQuery(calls)).toEqual({ search: 'water board', group: 'Legislature', issue: '3' });
    expect(searchCalls(calls)).toHaveLength(1);
    expect(groupSelect().value).toBe('Legislature');
    await waitFor(() => expect(issueSelect().selectedOptions[0]?.textContent).toBe('Water'));
  });

  it('ignores a group the filter does not offer and an issue that is not an id', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory?group=Campaigns&issue=abc');
    await screen.findByText('3 people');
    expect(lastQuery(calls)).toEqual({});
    expect(groupSelect().value).toBe('');
    expect(issueSelect().value).toBe('');
  });

  it('keeps what the member types while their last search lands in the URL', async () => {
    signIn();
    stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');

    fireEvent.change(searchBox(), { target: { value: 'lee' } });
    // The next keystroke arrives in the same moment the debounced 'lee' is written to the URL.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 50));
      fireEvent.change(searchBox(), { target: { value: 'lee park' } });
    });
    expect(searchBox().value).toBe('lee park');
    await waitFor(() => expect(location()).toBe('/directory?search=lee+park'), { timeout: 3000 });
  });

  it('writes each change to the URL in place of the current history entry, and Reset clears them', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');

    fireEvent.change(searchBox(), { target: { value: 'lee' } });
    expect(location()).toBe('/directory');
    await waitFor(() => expect(location()).toBe('/directory?search=lee'), { timeout: 3000 });
    fireEvent.change(searchBox(), { target: { value: 'lee park' } });
    await waitFor(() => expect(location()).toBe('/directory?search=lee+park'), { timeout: 3000 });
    fireEvent.change(groupSelect(), { target: { value: 'Elected Officials' } });
    expect(location()).toBe('/directory?search=lee+park&group=Elected+Officials');
    await waitFor(() => expect(optionNames(issueSelect())).toContain('Water'));
    fireEvent.change(issueSelect(), { target: { value: '3' } });
    expect(location()).toBe('/directory?search=lee+park&group=Elected+Officials&issue=3');

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(location()).toBe('/directory');
    expect(searchBox().value).toBe('');
    expect(groupSelect().value).toBe('');
    expect(issueSelect().value).toBe('');
    await waitFor(() => expect(lastQuery(calls)).toEqual({}));
    expect((screen.getByRole('button', { name: 'Reset filters' }) as HTMLButtonElement).disabled).toBe(true);

    // No entry per change: Back leaves the directory for the page before it.
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(location()).toBe('/public-square');
  });

  it('drops a search typed just before a card is opened, rather than writing it onto the next page', async () => {
    signIn();
    stubDirectory(searchOf([person({ profile_id: 8, first_name: 'Adrienne', last_name: 'Kowalski' })]));
    renderInLingeringFrame('/directory');
    const card = await screen.findByRole('link', { name: /Adrienne Kowalski/ });
    fireEvent.change(searchBox(), { target: { value: 'kow' } });
    fireEvent.click(card);
    expect(location()).toBe('/profile/8');
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
    expect(location()).toBe('/profile/8');
  });
});
