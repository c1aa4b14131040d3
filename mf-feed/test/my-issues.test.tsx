// "My issue areas" on the public square: offered only to a signed-in member whose profile covers an issue area
// (asked once, POST /api/posts/profile-info; never for a visitor or a member without a profile), it asks the
// feed with my_issues: true from the first page and on every next page, alongside the order, type and search;
// turning it off or Reset brings the whole feed back, and an empty answer says why.

import { FakeIntersectionObserver } from '@rotunda/ui/testing';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, feedOf, json, many, type RecordedCall, squareRoutes, stubApi } from './support/api';
import { renderSquare, signIn } from './support/render';

const feedBodies = (calls: RecordedCall[]) => callsTo(calls, 'POST /api/posts/all').map((call) => call.body);
const infoCalls = (calls: RecordedCall[]) => callsTo(calls, 'POST /api/posts/profile-info');
const cards = () => screen.queryAllByRole('article');
const toggle = () => screen.queryByRole('button', { name: 'My issue areas' });

/** The square's routes, with "My issue areas" answered from `mine` and the whole feed from `all`. */
function routes(all: ReturnType<typeof many>, mine: ReturnType<typeof many>, covers: boolean) {
  const whole = feedOf(all);
  const filtered = feedOf(mine);
  return squareRoutes(all, {
    'POST /api/posts/all': (call) => (call.body?.my_issues === true ? filtered(call) : whole(call)),
    'POST /api/posts/profile-info': () =>
      json({ profile_id: 50, first_name: 'Eva', last_name: 'Tester', has_issue_areas: covers }),
  });
}

function lastFeedItem(): Element {
  const last = document.querySelector('.feed-list > li:last-child');
  if (!last) throw new Error('no cards');
  return last;
}

describe('"My issue areas"', () => {
  it('filters the feed for a member who covers an issue area, on every page, and comes off again', async () => {
    signIn();
    const calls = stubApi(routes(many(30), many(25, 101), true));
    renderSquare();
    const button = await screen.findByRole('button', { name: 'My issue areas' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(infoCalls(calls)).toHaveLength(1);
    await waitFor(() => expect(cards()).toHaveLength(20));

    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(screen.getByRole('article', { name: 'Post 101' })).toBeTruthy());
    expect(feedBodies(calls).at(-1)).toEqual({ offset: 0, limit: 20, sort: 'recent', my_issues: true });

    // The next page keeps the filter, as the whole feed's paging does.
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await waitFor(() => expect(cards()).toHaveLength(25));
    expect(feedBodies(calls).at(-1)).toEqual({ offset: 20, limit: 20, sort: 'recent', my_issues: true });

    // Along with an order and a type.
    fireEvent.click(screen.getByRole('button', { name: 'Popular' }));
    await waitFor(() =>
      expect(feedBodies(calls).at(-1)).toEqual({ offset: 0, limit: 20, sort: 'popular', my_issues: true }),
    );

    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('article', { name: 'Post 1' })).toBeTruthy());
    expect(feedBodies(calls).at(-1)).toEqual({ offset: 0, limit: 20, sort: 'popular' });
    expect(infoCalls(calls)).toHaveLength(1);
  });

  it('is turned off by Reset', async () => {
    signIn();
    const calls = stubApi(routes(many(3), many(2, 101), true));
    renderSquare();
    fireEvent.click(await screen.findByRole('button', { name: 'My issue areas' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(toggle()?.getAttribute('aria-pressed')).toBe('false');
    expect(feedBodies(calls).at(-1)).toEqual({ offset: 0, limit: 20, sort: 'recent' });
  });

  it('says so when no post is in the member’s issue areas', async () => {
    signIn();
    stubApi(routes(many(3), [], true));
    renderSquare();
    fireEvent.click(await screen.findByRole('button', { name: 'My issue areas' }));
    expect(await screen.findByText('No posts in your issue areas yet.')).toBeTruthy();
    expect(screen.getByText('Turn off My issue areas to see every post.')).toBeTruthy();
  });

  it('is not offered to a member whose profile covers no issue area', async () => {
    signIn();
    const calls = stubApi(routes(many(3), [], false));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(3));
    await waitFor(() => expect(infoCalls(calls)).toHaveLength(1));
    expect(toggle()).toBeNull();
    expect(feedBodies(calls).every((body) => body?.my_issues === undefined)).toBe(true);
  });

  it('is not offered, and nothing is asked, to a visitor', async () => {
    const calls = stubApi(routes(many(3), [], true));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(toggle()).toBeNull();
    expect(infoCalls(calls)).toEqual([]);
  });

  it('is not offered, and nothing is asked, to a member without a profile', async () => {
    signIn({ profile_id: null });
    const calls = stubApi(routes(many(3), [], true));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(toggle()).toBeNull();
    expect(infoCalls(calls)).toEqual([]);
  });

  it('stays hidden when the check fails, the feed unharmed', async () => {
    signIn();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi(squareRoutes(many(3), { 'POST /api/posts/profile-info': () => json({}, 503) }));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(3));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(toggle()).toBeNull();
  });
});
