// Each post's own address: Keep Reading goes to /public-square/post/:id and closing comes back; an address opens
// the post from the feed it is in, or asks the server for one further down, counting the read either way; a post
// the server does not show (404) gets the not-found panel, one that could not be asked for an error with 'Try
// again'; 'Copy link' copies the address and says so.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, json, post, refusal, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

const location = () => screen.getByTestId('location').textContent;

describe('a post’s own address', () => {
  it('Keep Reading goes to the post’s address; Close comes back to the square', async () => {
    stubApi(squareRoutes([post({ post_id: 5, post_title: 'Budget news' })]));
    renderSquare();
    fireEvent.click(within(await findCard('Budget news')).getByRole('button', { name: 'Keep Reading' }));
    const dialog = await screen.findByRole('dialog', { name: 'Budget news' });
    expect(location()).toBe('/public-square/post/5');
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement);
    await waitFor(() => expect(location()).toBe('/public-square'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Budget news' })).toBeNull());
  });

  it('opens a post the feed does not hold by asking the server, and counts the read', async () => {
    const calls = stubApi(
      squareRoutes([post({ post_id: 5, post_title: 'Budget news' })], {
        'GET /api/posts/77': () => json(post({ post_id: 77, post_title: 'An older hearing' })),
      }),
    );
    renderSquare('/public-square/post/77');
    expect(await screen.findByRole('dialog', { name: 'An older hearing' })).toBeTruthy();
    await waitFor(() =>
      expect(callsTo(calls, 'POST /api/posts/update-read-count').map((call) => call.body)).toEqual([
        { post_id: 77 },
      ]),
    );
  });

  it('starts a visitor from the post the page carries, asking nothing again; a member asks for their own view', async () => {
    const carry = () => {
      const data = document.createElement('script');
      data.type = 'application/json';
      data.id = 'rotunda-first-post';
      data.textContent = JSON.stringify(post({ post_id: 77, post_title: 'An older hearing' }));
      document.body.append(data);
    };
    carry();
    const calls = stubApi(squareRoutes([]));
    const { unmount } = renderSquare('/public-square/post/77');
    expect(await screen.findByRole('dialog', { name: 'An older hearing' })).toBeTruthy();
    expect(callsTo(calls, 'GET /api/posts/77')).toEqual([]);
    unmount();

    signIn();
    carry();
    const memberCalls = stubApi(
      squareRoutes([], {
        'GET /api/posts/77': () =>
          json(post({ post_id: 77, post_title: 'An older hearing, as Eva sees it' })),
      }),
    );
    renderSquare('/public-square/post/77');
    expect(await screen.findByRole('dialog', { name: 'An older hearing, as Eva sees it' })).toBeTruthy();
    expect(callsTo(memberCalls, 'GET /api/posts/77')).toHaveLength(1);
  });

  it('shows the not-found panel for a post the server does not show', async () => {
    stubApi(squareRoutes([], { 'GET /api/posts/41': () => refusal('Post not found', 404) }));
    renderSquare('/public-square/post/41');
    expect(await screen.findByRole('heading', { name: 'This post is not in session.' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the public square' }).getAttribute('href')).toBe(
      '/public-square',
    );
  });

  it('offers to try again when the post could not be asked for; only a 404 is "not found"', async () => {
    let network = false;
    const calls = stubApi(
      squareRoutes([], {
        'GET /api/posts/41': () => {
          if (!network) throw new TypeError('Failed to fetch');
          return json(post({ post_id: 41, post_title: 'Back online' }));
        },
      }),
    );
    renderSquare('/public-square/post/41');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This post could not be loaded right now.');
    expect(screen.queryByRole('heading', { name: 'This post is not in session.' })).toBeNull();
    network = true;
    const asked = callsTo(calls, 'GET /api/posts/41').length;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('dialog', { name: 'Back online' })).toBeTruthy();
    expect(callsTo(calls, 'GET /api/posts/41')).toHaveLength(asked + 1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Copy link puts the address on the clipboard and says so', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    stubApi(squareRoutes([post({ post_id: 5, post_title: 'Budget news' })]));
    renderSquare();
    const card = within(await findCard('Budget news'));
    fireEvent.click(card.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(card.getByRole('status').textContent).toBe('Link copied'));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/public-square/post/5`);
  });
});
