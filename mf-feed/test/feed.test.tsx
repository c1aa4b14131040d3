// The feed: pages of 20 from POST /api/posts/all, the next when the last card is within 1000 px of the
// viewport's bottom and only while the last page held 20; Recent, Popular and Random one at a time and sent
// to the server (Random with one seed per visit); the type filter, the search and Reset; the spinner, the
// error line and the Posts / Headlines toggle.

import { FIRST_SCREEN_DRAWN_EVENT } from '@rotunda/rules';
import { FakeIntersectionObserver } from '@rotunda/ui/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  feedOf,
  json,
  many,
  POST_TYPES,
  type RecordedCall,
  squareRoutes,
  stubApi,
} from './support/api';
import { renderSquare, signIn } from './support/render';
import { FakeResizeObserver } from './support/resize';

const feedCalls = (calls: RecordedCall[]) => callsTo(calls, 'POST /api/posts/all');
const lastFeedBody = (calls: RecordedCall[]) => feedCalls(calls).at(-1)?.body;
const cards = () => screen.queryAllByRole('article');

function lastFeedItem(): Element {
  const last = document.querySelector('.feed-list > li:last-child');
  if (!last) throw new Error('no cards');
  return last;
}

const sortButton = (name: string) => screen.getByRole('button', { name });
const pressed = (name: string) => sortButton(name).getAttribute('aria-pressed');

describe('the first screen', () => {
  it('says it is drawn once the first page of cards shows, not while it is loading', async () => {
    stubApi(squareRoutes(many(3)));
    const drawn = vi.fn();
    window.addEventListener(FIRST_SCREEN_DRAWN_EVENT, drawn);
    try {
      renderSquare();
      expect(screen.getByRole('status', { name: 'Loading posts' })).toBeTruthy();
      expect(drawn).not.toHaveBeenCalled();
      await waitFor(() => expect(cards()).toHaveLength(3));
      await waitFor(() => expect(drawn).toHaveBeenCalled());
    } finally {
      window.removeEventListener(FIRST_SCREEN_DRAWN_EVENT, drawn);
    }
  });
});

describe('paging', () => {
  it('asks for 20, then the next 20 when the last card is within 1000 px, and stops after a short page', async () => {
    const calls = stubApi(squareRoutes(many(27)));
    renderSquare();
    expect(screen.getByRole('status', { name: 'Loading posts' })).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(screen.queryByRole('status', { name: 'Loading posts' })).toBeNull();
    expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'recent' });

    // Only the last card is watched, against the viewport grown by 1000 px at the bottom.
    expect(FakeIntersectionObserver.marginsFor(lastFeedItem())).toEqual(['0px 0px 1000px 0px']);
    act(() => FakeIntersectionObserver.intersect(lastFeedItem(), 0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedCalls(calls)).toHaveLength(1);

    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await waitFor(() => expect(cards()).toHaveLength(27));
    expect(lastFeedBody(calls)).toEqual({ offset: 20, limit: 20, sort: 'recent' });

    // The last page held 7, not 20: no more requests however often the last card comes near.
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedCalls(calls)).toHaveLength(2);
  });

  it('keeps asking while pages are full, and stops at an empty page', async () => {
    const calls = stubApi(squareRoutes(many(40)));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(20));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await waitFor(() => expect(cards()).toHaveLength(40));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await waitFor(() => expect(feedCalls(calls)).toHaveLength(3));
    expect(lastFeedBody(calls)?.offset).toBe(40);
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedCalls(calls)).toHaveLength(3);
    expect(cards()).toHaveLength(40);
  });

  it('asks only once while a page is on its way', async () => {
    let answer: (response: Response) => void = () => {};
    const all = many(60);
    const calls = stubApi(
      squareRoutes(all, {
        'POST /api/posts/all': (call) =>
          call.body?.offset === 0
            ? feedOf(all)(call)
            : new Promise<Response>((resolve) => {
                answer = resolve;
              }),
      }),
    );
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(20));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    expect(screen.getByRole('status', { name: 'Loading more posts' })).toBeTruthy();
    await waitFor(() => expect(feedCalls(calls)).toHaveLength(2));
    await act(async () => answer(json(all.slice(20, 40))));
    await waitFor(() => expect(cards()).toHaveLength(40));
    expect(feedCalls(calls)).toHaveLength(2);
  });
});

describe('order', () => {
  it('Recent, Popular and Random are one at a time, Recent first, and each is sent to the server', async () => {
    const calls = stubApi(squareRoutes(many(3)));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect([pressed('Recent'), pressed('Popular'), pressed('Random')]).toEqual(['true', 'false', 'false']);

    fireEvent.click(sortButton('Popular'));
    expect([pressed('Recent'), pressed('Popular'), pressed('Random')]).toEqual(['false', 'true', 'false']);
    await waitFor(() => expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'popular' }));

    fireEvent.click(sortButton('Random'));
    expect([pressed('Recent'), pressed('Popular'), pressed('Random')]).toEqual(['false', 'false', 'true']);
    await waitFor(() => expect(lastFeedBody(calls)?.sort).toBe('random'));
    const seed = lastFeedBody(calls)?.seed;
    expect(Number.isInteger(seed)).toBe(true);

    fireEvent.click(sortButton('Recent'));
    await waitFor(() => expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'recent' }));
  });

  it('Random keeps one seed for the whole visit, page after page', async () => {
    const calls = stubApi(squareRoutes(many(30)));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(20));
    fireEvent.click(sortButton('Random'));
    await waitFor(() => expect(lastFeedBody(calls)?.sort).toBe('random'));
    const seed = lastFeedBody(calls)?.seed;
    await waitFor(() => expect(screen.queryByRole('list')?.className).not.toContain('stale'));
    act(() => FakeIntersectionObserver.intersect(lastFeedItem()));
    await waitFor(() => expect(lastFeedBody(calls)?.offset).toBe(20));
    expect(lastFeedBody(calls)?.seed).toBe(seed);

    fireEvent.click(sortButton('Popular'));
    fireEvent.click(sortButton('Random'));
    await waitFor(() => expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'random', seed }));
  });
});

describe('type filter, search and Reset', () => {
  it('sends the chosen type, the search, and Reset returns to Recent with neither', async () => {
    const calls = stubApi(squareRoutes(many(2)));
    renderSquare();
    const select = screen.getByRole('combobox', { name: 'Filter by type' });
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(POST_TYPES.length + 1));
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All types of posts', 'ANNOUNCEMENT', 'JOB POSTING', 'EVENT']);

    fireEvent.change(select, { target: { value: '9' } });
    await waitFor(() =>
      expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'recent', posttype_id: 9 }),
    );

    fireEvent.click(sortButton('Popular'));
    const box = screen.getByRole('searchbox', { name: 'Search posts' });
    fireEvent.change(box, { target: { value: '  budget hearing ' } });
    await waitFor(() =>
      expect(lastFeedBody(calls)).toEqual({
        offset: 0,
        limit: 20,
        sort: 'popular',
        posttype_id: 9,
        search: 'budget hearing',
      }),
    );

    const before = feedCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect((box as HTMLInputElement).value).toBe('');
    expect((select as HTMLSelectElement).value).toBe('');
    expect(pressed('Recent')).toBe('true');
    await waitFor(() => expect(feedCalls(calls)).toHaveLength(before + 1));
    expect(lastFeedBody(calls)).toEqual({ offset: 0, limit: 20, sort: 'recent' });
  });

  it('searches 250 ms after typing stops, once, or at once on Enter', async () => {
    const calls = stubApi(squareRoutes(many(2)));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(2));
    const box = screen.getByRole('searchbox', { name: 'Search posts' });
    fireEvent.change(box, { target: { value: 'wat' } });
    fireEvent.change(box, { target: { value: 'water' } });
    await waitFor(() => expect(feedCalls(calls)).toHaveLength(2));
    expect(lastFeedBody(calls)?.search).toBe('water');

    fireEvent.change(box, { target: { value: 'water board' } });
    fireEvent.submit(box);
    await waitFor(() => expect(lastFeedBody(calls)?.search).toBe('water board'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(feedCalls(calls)).toHaveLength(3);
  });

  it('says so when nothing matches a search', async () => {
    stubApi(squareRoutes([]));
    renderSquare();
    expect(await screen.findByText('No posts yet.')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search posts' }), { target: { value: 'zzz' } });
    expect(await screen.findByText('No posts match your search.')).toBeTruthy();
  });
});

describe('states and layout', () => {
  it('shows a calm error line when the feed cannot be loaded, and tries again on request', async () => {
    let fail = true;
    stubApi(
      squareRoutes(many(2), {
        'POST /api/posts/all': (call) =>
          fail ? new Response('down', { status: 503 }) : feedOf(many(2))(call),
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderSquare();
    expect((await screen.findByRole('alert')).textContent).toContain('Posts could not be loaded right now');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
  });

  it('reads the feed without a token for visitors, and with the member token once signed in', async () => {
    const calls = stubApi(squareRoutes(many(1)));
    renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(feedCalls(calls)[0]?.headers.get('x-auth-token')).toBeNull();
    expect(callsTo(calls, 'POST /api/posts/get-likes/u-1')).toHaveLength(0);
  });

  it('narrower than 722 px (the square, not the window) toggles between Posts and Headlines, Posts first', async () => {
    signIn();
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const calls = stubApi(squareRoutes(many(1)));
    const { container } = renderSquare();
    await waitFor(() => expect(cards()).toHaveLength(1));
    const square = container.querySelector('.square') as Element;
    act(() => FakeResizeObserver.resize(square, 721));
    expect(feedCalls(calls)[0]?.headers.get('x-auth-token')).toBe('test-token');
    const columns = container.querySelector('.square__columns');
    expect(columns?.getAttribute('data-column')).toBe('posts');
    expect(screen.getByRole('button', { name: 'Posts' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Headlines' }));
    expect(columns?.getAttribute('data-column')).toBe('headlines');
    expect(screen.getByRole('button', { name: 'Headlines' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Posts' }).getAttribute('aria-pressed')).toBe('false');

    // Wide enough again: both columns, no toggle.
    act(() => FakeResizeObserver.resize(square, 722));
    expect(screen.queryByRole('button', { name: 'Headlines' })).toBeNull();
    expect(columns?.hasAttribute('data-column')).toBe(false);
    expect(columns?.classList.contains('square__columns--two')).toBe(true);
    FakeResizeObserver.reset();
  });
});
