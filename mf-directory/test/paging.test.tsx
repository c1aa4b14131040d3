// The directory's pages: 30 people first, 30 more when the last card becomes fully visible, never past the
// last page and never twice at once; the spinner until data arrives; the error line with its retry, for the
// first page and for a later one.

import { FakeIntersectionObserver } from '@rotunda/ui/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, people, refusal, searchCalls, searchOf, stubDirectory } from './support/api';
import { renderAt, signIn } from './support/render';

const cards = () => screen.queryAllByRole('link', { name: /Person \d+/ });

function lastCard(): Element {
  const last = within(screen.getByRole('list')).getAllByRole('listitem').at(-1);
  if (!last) throw new Error('no cards');
  return last;
}

describe('paging', () => {
  it('asks for 30, then 30 more when the last card is fully visible, and stops after the last page', async () => {
    signIn();
    const calls = stubDirectory(searchOf(people(75)));
    renderAt('/directory');
    expect(screen.getByRole('status', { name: 'Loading people' })).toBeTruthy();
    await screen.findByText('75 people');
    expect(screen.queryByRole('status', { name: 'Loading people' })).toBeNull();
    expect(cards()).toHaveLength(30);
    const first = searchCalls(calls)[0]?.url.searchParams;
    expect(first?.get('offset')).toBe('0');
    expect(first?.get('limit')).toBe('30');

    // Only the last card is watched, with threshold 1; partly visible is not enough.
    expect(FakeIntersectionObserver.thresholdsFor(lastCard())).toEqual([[1]]);
    act(() => FakeIntersectionObserver.intersect(lastCard(), 0.6));
    expect(searchCalls(calls)).toHaveLength(1);

    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(cards()).toHaveLength(60));
    expect(searchCalls(calls)[1]?.url.searchParams.get('offset')).toBe('30');
    expect(searchCalls(calls)[1]?.url.searchParams.get('limit')).toBe('30');

    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(cards()).toHaveLength(75));
    expect(searchCalls(calls)[2]?.url.searchParams.get('offset')).toBe('60');

    // Everyone is shown: no further request however often the last card comes into view.
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(searchCalls(calls)).toHaveLength(3);
  });

  it('says "40+ people" while the server has not counted everyone, and pages on to the end', async () => {
    signIn();
    const calls = stubDirectory(searchOf(people(75), 40));
    renderAt('/directory');
    await screen.findByText('40+ people');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(cards()).toHaveLength(60));
    expect(screen.getByText('61+ people')).toBeTruthy();
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(cards()).toHaveLength(75));
    expect(screen.getByText('75 people')).toBeTruthy();
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(searchCalls(calls)).toHaveLength(3);
  });

  it('asks no more when the first page holds everyone', async () => {
    signIn();
    const calls = stubDirectory(searchOf(people(30)));
    renderAt('/directory');
    await screen.findByText('30 people');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(searchCalls(calls)).toHaveLength(1);
  });

  it('asks only once while a page is on its way, showing that more are loading', async () => {
    signIn();
    const all = people(90);
    let answer: (response: Response) => void = () => {};
    const calls = stubDirectory((call) =>
      call.url.searchParams.get('offset') === '0'
        ? searchOf(all)(call)
        : new Promise<Response>((resolve) => {
            answer = resolve;
          }),
    );
    renderAt('/directory');
    await screen.findByText('90 people');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    expect(screen.getByRole('status', { name: 'Loading more people' })).toBeTruthy();
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(searchCalls(calls)).toHaveLength(2);
    await act(async () => answer(json({ profiles: all.slice(30, 60), total: 90, offset: 30, limit: 30 })));
    await waitFor(() => expect(cards()).toHaveLength(60));
  });

  it('starts again from the first page when a filter changes', async () => {
    signIn();
    const calls = stubDirectory(searchOf(people(75)));
    renderAt('/directory');
    await screen.findByText('75 people');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    await waitFor(() => expect(cards()).toHaveLength(60));
    const issue = screen.getByRole('combobox', { name: 'Issue' });
    await waitFor(() => expect(within(issue).getAllByRole('option').length).toBeGreaterThan(1));
    fireEvent.change(issue, { target: { value: '2' } });
    await waitFor(() => expect(searchCalls(calls)).toHaveLength(3));
    expect(searchCalls(calls)[2]?.url.searchParams.get('offset')).toBe('0');
    await screen.findByText('75 people found');
    expect(cards()).toHaveLength(30);
  });
});

describe('states', () => {
  it('shows a calm error line when the directory cannot be loaded, and tries again on request', async () => {
    signIn();
    let fail = true;
    const calls = stubDirectory((call) =>
      fail ? new Response('down', { status: 503 }) : searchOf(people(2))(call),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/directory');
    expect((await screen.findByRole('alert')).textContent).toContain('People could not be loaded right now');
    expect(cards()).toHaveLength(0);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('2 people')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(searchCalls(calls)).toHaveLength(2);
  });

  it('keeps the cards and offers to try again when a later page fails', async () => {
    signIn();
    const all = people(45);
    let fail = true;
    stubDirectory((call) =>
      call.url.searchParams.get('offset') !== '0' && fail
        ? new Response('down', { status: 503 })
        : searchOf(all)(call),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/directory');
    await screen.findByText('45 people');
    act(() => FakeIntersectionObserver.intersect(lastCard(), 1));
    expect((await screen.findByRole('alert')).textContent).toContain('More people could not be loaded.');
    expect(cards()).toHaveLength(30);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(45));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's reason when it refuses the filters, and Reset brings everyone back", async () => {
    signIn();
    const calls = stubDirectory((call) =>
      call.url.searchParams.has('group') ? refusal('Unknown group') : searchOf(people(4))(call),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/directory?group=Nonsense');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This search could not be run (Unknown group). Reset the filters and try another.',
    );
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(await screen.findByText('4 people')).toBeTruthy();
    expect(searchCalls(calls).at(-1)?.url.searchParams.has('group')).toBe(false);
  });

  it('says so when nobody matches, in the list and to screen readers', async () => {
    signIn();
    stubDirectory(searchOf([]));
    renderAt('/directory?search=zzz');
    expect(await screen.findByText('No people match your search.')).toBeTruthy();
    expect(screen.getByText('No people found').getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('announces how many people were found in a live region', async () => {
    signIn();
    stubDirectory(searchOf(people(1)));
    renderAt('/directory?search=person');
    const count = await screen.findByText('1 person found');
    expect(count.getAttribute('aria-live')).toBe('polite');
  });

  it('sends the member token with every call', async () => {
    signIn();
    const calls = stubDirectory();
    renderAt('/directory');
    await screen.findByText('3 people');
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((c) => c.headers.get('x-auth-token'))).toEqual([
      'test-token',
      'test-token',
      'test-token',
    ]);
  });
});
