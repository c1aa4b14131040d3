// Likes and what visitors may do: the member's liked posts come from get-likes/<their user_id>; the heart
// toggles at once and takes the server's count, and puts count and heart back, without a message, when the
// server refuses; a visitor's heart and comment input do nothing, and their 'Create Post' asks the shell for
// the login dialog.

import { LOGIN_REQUEST_EVENT } from '@rotunda/session';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, json, post, squareRoutes, stubApi } from './support/api';
import { findCard, renderSquare, signIn } from './support/render';

const heart = (card: HTMLElement) => within(card).getByRole('button', { name: /^Like,/ });

describe('a member liking posts', () => {
  it('shows the posts they like filled, from their own likes', async () => {
    signIn();
    const calls = stubApi(
      squareRoutes(
        [
          post({ post_id: 1, post_title: 'Liked', likes_count: 3 }),
          post({ post_id: 2, post_title: 'Not liked' }),
        ],
        {
          'POST /api/posts/get-likes/u-1': () => json([{ post_id: 1, user_id: 'u-1', liked: true }]),
        },
      ),
    );
    renderSquare();
    const liked = await findCard('Liked');
    await waitFor(() => expect(heart(liked).getAttribute('aria-pressed')).toBe('true'));
    expect(heart(await findCard('Not liked')).getAttribute('aria-pressed')).toBe('false');
    expect(callsTo(calls, 'POST /api/posts/get-likes/u-1')[0]?.headers.get('x-auth-token')).toBe(
      'test-token',
    );
  });

  it('toggles at once, sends liked true or false, and takes the count the server answers', async () => {
    signIn();
    let answer: (response: Response) => void = () => {};
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news', likes_count: 3 })], {
        'POST /api/posts/add-like': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      }),
    );
    renderSquare();
    const card = await findCard('Budget news');
    fireEvent.click(heart(card));
    expect(heart(card).getAttribute('aria-pressed')).toBe('true');
    expect(heart(card).getAttribute('aria-label')).toBe('Like, 4 likes');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-like')).toHaveLength(1));
    expect(callsTo(calls, 'POST /api/posts/add-like')[0]?.body).toEqual({ post_id: 1, liked: true });

    // A second click while the first is on its way waits for it.
    fireEvent.click(heart(card));
    expect(heart(card).getAttribute('aria-pressed')).toBe('true');

    await act(async () => answer(json({ post_id: 1, liked: true, user_id: 'u-1', likes_count: 9 })));
    await waitFor(() => expect(heart(card).getAttribute('aria-label')).toBe('Like, 9 likes'));

    fireEvent.click(heart(card));
    expect(heart(card).getAttribute('aria-pressed')).toBe('false');
    expect(heart(card).getAttribute('aria-label')).toBe('Like, 8 likes');
    await waitFor(() => expect(callsTo(calls, 'POST /api/posts/add-like')).toHaveLength(2));
    expect(callsTo(calls, 'POST /api/posts/add-like')[1]?.body).toEqual({ post_id: 1, liked: false });
    await act(async () => answer(json({ post_id: 1, liked: false, user_id: 'u-1', likes_count: 8 })));
    expect(heart(card).getAttribute('aria-pressed')).toBe('false');
  });

  it('puts the count and the heart back when the like fails, with no message', async () => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = stubApi(
      squareRoutes([post({ post_title: 'Budget news', likes_count: 3 })], {
        'POST /api/posts/add-like': () => new Response('down', { status: 503 }),
      }),
    );
    renderSquare();
    const card = await findCard('Budget news');
    fireEvent.click(heart(card));
    expect(heart(card).getAttribute('aria-pressed')).toBe('true');
    expect(heart(card).getAttribute('aria-label')).toBe('Like, 4 likes');
    await waitFor(() => expect(heart(card).getAttribute('aria-pressed')).toBe('false'));
    expect(heart(card).getAttribute('aria-label')).toBe('Like, 3 likes');
    expect(callsTo(calls, 'POST /api/posts/add-like')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('a visitor', () => {
  it('cannot like: the heart ignores clicks and nothing is sent', async () => {
    const calls = stubApi(squareRoutes([post({ post_title: 'Budget news', likes_count: 3 })]));
    renderSquare();
    const card = await findCard('Budget news');
    expect(heart(card).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(heart(card));
    expect(heart(card).getAttribute('aria-pressed')).toBe('false');
    expect(heart(card).getAttribute('aria-label')).toBe('Like, 3 likes');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(callsTo(calls, 'POST /api/posts/add-like')).toHaveLength(0);
    expect(calls.some((call) => call.url.pathname.startsWith('/api/posts/get-likes'))).toBe(false);
  });

  it('cannot comment: the input and the send button are disabled, on the card and in the read modal', async () => {
    stubApi(squareRoutes([post({ post_title: 'Budget news' })]));
    renderSquare();
    const card = within(await findCard('Budget news'));
    expect((card.getByRole('textbox', { name: 'Add comment' }) as HTMLInputElement).disabled).toBe(true);
    expect((card.getByRole('button', { name: 'Send comment' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(card.getByRole('button', { name: 'Keep Reading' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Budget news' }));
    expect((dialog.getByRole('textbox', { name: 'Add comment' }) as HTMLInputElement).disabled).toBe(true);
  });

  it("'Create Post' asks the shell for the login dialog instead of opening the form", async () => {
    stubApi(squareRoutes([]));
    const requested = vi.fn();
    window.addEventListener(LOGIN_REQUEST_EVENT, requested);
    try {
      renderSquare();
      fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
      expect(requested).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.querySelector('dialog[open]')).toBeNull();
    } finally {
      window.removeEventListener(LOGIN_REQUEST_EVENT, requested);
    }
  });

  it("a member's 'Create Post' opens the form and asks for no login", async () => {
    signIn();
    stubApi(squareRoutes([]));
    const requested = vi.fn();
    window.addEventListener(LOGIN_REQUEST_EVENT, requested);
    try {
      renderSquare();
      fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
      expect(await screen.findByRole('dialog', { name: 'Create Post' })).toBeTruthy();
      expect(requested).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener(LOGIN_REQUEST_EVENT, requested);
    }
  });
});
