// The member's notifications in the shell: the bell's unread count (at sign-in, then live from the stream,
// reconnecting when it ends or the token is renewed, stopping at sign-out), the notifications page (items,
// links, marking read, paging, the empty state and errors) and the unsubscribe page.
import { clearSession, sessionStore, setSession } from '@rotunda/session';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type FakeStream, item, notificationsFetch } from './notifications-support';
import { makeMember, refusal, renderAt, routeFetch } from './support';

const member = makeMember();
const NOT_SUSPENDED = { 'GET /api/moderation/me': Response.json({ suspension: null }) };
const page = (items: unknown[], unread: number) => () => Response.json({ items, unread_count: unread });

const bell = (name: RegExp | string) => screen.findByRole('link', { name });

describe('the bell', () => {
  it('shows the unread count from sign-in, then follows the stream and announces a growing count', async () => {
    const streams: FakeStream[] = [];
    notificationsFetch(NOT_SUSPENDED, page([], 3), streams);
    setSession(member);
    renderAt('/public-square');
    expect(await bell('Notifications, 3 unread')).toBeTruthy();
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]?.token).toBe(member.token);
    act(() => streams[0]?.send(5));
    const link = await bell('Notifications, 5 unread');
    expect(link.getAttribute('href')).toBe('/notifications');
    expect(link.textContent).toBe('5');
    await waitFor(() => expect(screen.getByText('You have 5 unread notifications')).toBeTruthy());
    act(() => streams[0]?.send(4));
    await bell('Notifications, 4 unread');
    // A count going down is not announced again.
    expect(screen.getByText('You have 5 unread notifications')).toBeTruthy();
    act(() => streams[0]?.send(0));
    expect((await bell('Notifications')).textContent).toBe('');
  });

  it('shows 99+ beyond 99', async () => {
    notificationsFetch(NOT_SUSPENDED, page([], 250), []);
    setSession(member);
    renderAt('/public-square');
    expect((await bell('Notifications, 99+ unread')).textContent).toBe('99+');
  });

  it('opens the stream again after it ends', async () => {
    const streams: FakeStream[] = [];
    notificationsFetch(NOT_SUSPENDED, page([], 0), streams);
    setSession(member);
    renderAt('/public-square');
    await waitFor(() => expect(streams).toHaveLength(1));
    act(() => {
      streams[0]?.send(2);
      streams[0]?.end();
    });
    await bell('Notifications, 2 unread');
    // The first wait is at most a second.
    await waitFor(() => expect(streams).toHaveLength(2), { timeout: 2500 });
    act(() => streams[1]?.send(7));
    expect(await bell('Notifications, 7 unread')).toBeTruthy();
  });

  it('opens the stream again with a renewed token, and stops at sign-out', async () => {
    const streams: FakeStream[] = [];
    notificationsFetch(NOT_SUSPENDED, page([], 1), streams);
    setSession(member);
    renderAt('/public-square');
    await waitFor(() => expect(streams).toHaveLength(1));
    act(() => sessionStore.getState().setTokens('renewed-token', null));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]?.token).toBe('renewed-token');
    act(() => clearSession());
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Notifications/ })).toBeNull());
    act(() => streams[1]?.end());
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(streams).toHaveLength(2);
  });

  it('shows it is the current page on /notifications only', async () => {
    notificationsFetch(NOT_SUSPENDED, page([item(1)], 1), []);
    setSession(member);
    renderAt('/public-square');
    const link = await bell('Notifications, 1 unread');
    expect(link.getAttribute('aria-current')).toBeNull();
    await userEvent.click(link);
    await screen.findByRole('heading', { level: 1, name: 'Notifications' });
    expect(screen.getByRole('link', { name: 'Notifications, 1 unread' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('is in the phone menu with the count', async () => {
    notificationsFetch(NOT_SUSPENDED, page([], 2), []);
    setSession(member);
    renderAt('/public-square');
    await bell('Notifications, 2 unread');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu, 2 unread notifications' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Notifications, 2 unread' }));
    expect(screen.getByTestId('location').textContent).toBe('/notifications');
  });

  it('is not there for visitors, who ask for nothing', async () => {
    const { fetchMock } = routeFetch({});
    renderAt('/public-square');
    await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' });
    expect(screen.queryByRole('link', { name: /^Notifications/ })).toBeNull();
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked.some((path) => path.startsWith('/api/notifications'))).toBe(false);
  });
});

describe('the notifications page', () => {
  it('lists items newest first, marked unread in words, each linking to its post, comment or profile', async () => {
    const items = [
      item(1),
      item(2, { type: 'comment', target: 55, post_id: 9, read: true }),
      item(3, { type: 'profile', target: 4, text: 'Your claim of Ana Ruiz was confirmed', actor: false }),
      item(4, { text: 'liked your post', read: true }),
    ];
    notificationsFetch(NOT_SUSPENDED, page(items, 1), []);
    setSession(member);
    renderAt('/notifications');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Notifications' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const list = await screen.findByRole('list', { name: 'Notifications' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/public-square/post/101',
      '/public-square/post/9',
      '/profile/4',
      '/public-square/post/104',
    ]);
    expect(links[0]?.textContent).toMatch(
      /^Unread: Dana Lee commented on your post number 1(just now|1 minute ago)$/,
    );
    expect(links[1]?.textContent).not.toMatch(/Unread/);
    // The actor leads when the text does not name them.
    expect(links[3]?.textContent).toMatch(/^Dana Lee liked your post/);
    const time = links[3]?.querySelector('time');
    expect(time?.getAttribute('datetime')).toBe(items[3]?.created_at);
    expect(time?.getAttribute('title')).toMatch(/\d{4}/);
  });

  it('marks an opened item read and the bell follows', async () => {
    const { sent } = notificationsFetch(
      { ...NOT_SUSPENDED, 'POST /api/notifications/read': new Response(null, { status: 204 }) },
      page([item(1), item(2)], 2),
      [],
    );
    setSession(member);
    renderAt('/notifications');
    const list = await screen.findByRole('list', { name: 'Notifications' });
    await bell('Notifications, 2 unread');
    await userEvent.click(within(list).getAllByRole('link')[1] as HTMLElement);
    expect(screen.getByTestId('location').textContent).toBe('/public-square/post/102');
    await waitFor(() =>
      expect(sent.find((one) => one.path === '/api/notifications/read')?.body).toEqual({ ids: [2] }),
    );
    expect(await bell('Notifications, 1 unread')).toBeTruthy();
  });

  it('marks all as read', async () => {
    const { sent } = notificationsFetch(
      { ...NOT_SUSPENDED, 'POST /api/notifications/read': new Response(null, { status: 204 }) },
      page([item(1), item(2)], 2),
      [],
    );
    setSession(member);
    renderAt('/notifications');
    await screen.findByText('2 unread');
    const markAll = screen.getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement;
    await userEvent.click(markAll);
    // The summary is a live region: a screen reader hears the outcome.
    expect((await screen.findByText('No unread notifications')).getAttribute('role')).toBe('status');
    expect(sent.filter((one) => one.path === '/api/notifications/read').map((one) => one.body)).toEqual([
      { all: true },
    ]);
    expect(screen.queryByText(/Unread:/)).toBeNull();
    expect(await bell('Notifications')).toBeTruthy();
    // Nothing left to mark: the button says so but keeps the keyboard focus it had, and does nothing more.
    expect(markAll.getAttribute('aria-disabled')).toBe('true');
    expect(markAll.disabled).toBe(false);
    expect(document.activeElement).toBe(markAll);
    await userEvent.click(markAll);
    expect(sent.filter((one) => one.path === '/api/notifications/read')).toHaveLength(1);
  });

  it('says so when marking all as read fails', async () => {
    notificationsFetch(
      { ...NOT_SUSPENDED, 'POST /api/notifications/read': refusal('Server trouble', 503) },
      page([item(1)], 1),
      [],
    );
    setSession(member);
    renderAt('/notifications');
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your notifications could not be marked as read. Please try again.',
    );
    expect(screen.getByText('1 unread')).toBeTruthy();
  });

  it('loads older ones with before, until there are no more', async () => {
    const first = Array.from({ length: 30 }, (_, i) => item(i + 1, { read: true }));
    const older = [item(31, { read: true }), item(32, { read: true })];
    const { listed } = notificationsFetch(
      NOT_SUSPENDED,
      (query) => Response.json({ items: query.get('before') ? older : first, unread_count: 0 }),
      [],
    );
    setSession(member);
    renderAt('/notifications');
    const list = await screen.findByRole('list', { name: 'Notifications' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(30);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(32));
    expect(listed.some((query) => query.get('before') === '30')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    // The button went with the last page: the focus is on the first item it brought, not lost.
    expect(document.activeElement).toBe(within(list).getAllByRole('link')[30]);
  });

  it('offers the new ones when the live count grows', async () => {
    const streams: FakeStream[] = [];
    let items = [item(2)];
    notificationsFetch(NOT_SUSPENDED, () => Response.json({ items, unread_count: items.length }), streams);
    setSession(member);
    renderAt('/notifications');
    await screen.findByRole('list', { name: 'Notifications' });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Show new notifications' })).toBeNull();
    items = [item(1), item(2)];
    act(() => streams[0]?.send(2));
    await userEvent.click(await screen.findByRole('button', { name: 'Show new notifications' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('link')).toHaveLength(
        2,
      ),
    );
    expect(screen.queryByRole('button', { name: 'Show new notifications' })).toBeNull();
  });

  it('says when all is caught up', async () => {
    notificationsFetch(NOT_SUSPENDED, page([], 0), []);
    setSession(member);
    renderAt('/notifications');
    expect(await screen.findByText('You’re all caught up')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    let fail = true;
    notificationsFetch(
      NOT_SUSPENDED,
      () => (fail ? refusal('Server trouble', 503) : Response.json({ items: [item(1)], unread_count: 1 })),
      [],
    );
    setSession(member);
    renderAt('/notifications');
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded/);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Notifications' })).toBeTruthy();
  });

  it('is for members only', async () => {
    routeFetch({});
    renderAt('/notifications');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(screen.getByRole('alert').textContent).toBe('Access Restricted. Please login.');
  });
});

describe('the unsubscribe page', () => {
  it('explains, then unsubscribes with the link’s token without signing in', async () => {
    const { fetchMock } = routeFetch({
      'POST /api/notifications/unsubscribe': new Response(null, { status: 204 }),
    });
    renderAt('/unsubscribe?token=tok%2F1');
    const heading = await screen.findByRole('heading', { name: 'Unsubscribe from Rotunda emails' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText(/turns off the digest and every email/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    const done = await screen.findByRole('heading', { name: 'You are unsubscribed' });
    expect(document.activeElement).toBe(done);
    const [input, init] = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST') ?? [];
    expect(String(input)).toBe('/api/notifications/unsubscribe?token=tok%2F1');
    expect(new Headers(init?.headers).get('x-auth-token')).toBeNull();
  });

  it('says when the link no longer works', async () => {
    routeFetch({ 'POST /api/notifications/unsubscribe': refusal('Unknown token', 404) });
    renderAt('/unsubscribe?token=old');
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeTruthy();
  });

  it('says a link without a token does not work', async () => {
    routeFetch({});
    renderAt('/unsubscribe');
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
