// The shell's part of moderation: the contributors' Moderation entry with its count of open items, the
// contributors-only route, and a suspended member's notice.
import { suspendedMessage } from '@rotunda/rules';
import { setSession } from '@rotunda/session';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MODERATION_REFRESH_MS, useModeration } from '../src/moderation';
import { makeMember, renderAt, routeFetch } from './support';

const member = makeMember();
const contributor = makeMember({ user_id: 'u9', contributor: true });
const NOT_SUSPENDED = Response.json({ suspension: null });

/** One reported target as GET /api/reports lists it. */
const reported = (id: number) => ({
  target_type: 'post',
  target_id: id,
  reports_count: 1,
  reasons: ['spam'],
  state: 'visible',
  first_reported_at: '2025-03-01T10:00:00.000Z',
  excerpt: 'Buy now',
  author: { user_id: 'u2', profile_id: 2, first_name: 'Bo', last_name: 'Chen' },
});

const openItems = (count: number) => Response.json(Array.from({ length: count }, (_, i) => reported(i + 1)));

const sidebar = () => screen.getByRole('navigation', { name: 'Main' });

describe('for contributors', () => {
  it('shows Moderation in the sidebar with the count of open items, and opens the feed remote’s screen', async () => {
    routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED, 'GET /api/reports': openItems(3) });
    setSession(contributor);
    renderAt('/public-square');
    const link = await within(sidebar()).findByRole('link', { name: 'Moderation, 3 open items' });
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'mf_feed/Moderation' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/moderation');
  });

  it('asks for open items only', async () => {
    const { fetchMock } = routeFetch({
      'GET /api/moderation/me': NOT_SUSPENDED,
      'GET /api/reports': openItems(1),
    });
    setSession(contributor);
    renderAt('/moderation');
    await within(sidebar()).findByRole('link', { name: 'Moderation, 1 open item' });
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked).toContain('/api/reports?status=open');
  });

  it('counts again on every navigation', async () => {
    let open = 2;
    routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED, 'GET /api/reports': () => openItems(open) });
    setSession(contributor);
    renderAt('/public-square');
    await within(sidebar()).findByRole('link', { name: 'Moderation, 2 open items' });
    open = 0;
    await userEvent.click(within(sidebar()).getByRole('link', { name: 'Directory' }));
    expect(await within(sidebar()).findByRole('link', { name: 'Moderation' })).toBeTruthy();
  });

  it('counts again every minute on a page left open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    let open = 1;
    routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED, 'GET /api/reports': () => openItems(open) });
    setSession(contributor);
    renderAt('/public-square');
    await within(sidebar()).findByRole('link', { name: 'Moderation, 1 open item' });
    open = 4;
    await act(async () => vi.advanceTimersByTime(MODERATION_REFRESH_MS));
    expect(await within(sidebar()).findByRole('link', { name: 'Moderation, 4 open items' })).toBeTruthy();
  });

  it('shows the entry in the slide-out menu too', async () => {
    routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED, 'GET /api/reports': openItems(5) });
    setSession(contributor);
    renderAt('/public-square');
    await within(sidebar()).findByRole('link', { name: 'Moderation, 5 open items' });
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    await userEvent.click(within(menu).getByRole('link', { name: 'Moderation, 5 open items' }));
    expect(await screen.findByRole('heading', { name: 'mf_feed/Moderation' })).toBeTruthy();
  });
});

describe('for members who are not contributors', () => {
  it('has no Moderation entry and never asks for the queue', async () => {
    const { sent } = routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED });
    setSession(member);
    renderAt('/directory');
    await screen.findByRole('heading', { name: 'mf_directory/Directory' });
    await waitFor(() => expect(sent.some((r) => r.path === '/api/moderation/me')).toBe(true));
    expect(within(sidebar()).queryByRole('link', { name: /Moderation/ })).toBeNull();
    expect(sent.some((r) => r.path === '/api/reports')).toBe(false);
  });

  it('says the Moderation screen is for contributors only, with a way back', async () => {
    routeFetch({ 'GET /api/moderation/me': NOT_SUSPENDED });
    setSession(member);
    renderAt('/moderation');
    expect(screen.getByRole('heading', { name: 'Contributors only' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'mf_feed/Moderation' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Back to the Public Square' }));
    expect(screen.getByTestId('location').textContent).toBe('/public-square');
  });
});

describe('for visitors', () => {
  it('guards /moderation like every member page and asks nothing about moderation', async () => {
    const { sent } = routeFetch({});
    renderAt('/moderation');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Access Restricted. Please login.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(sent.some((r) => r.path.startsWith('/api/'))).toBe(false);
  });
});

describe('a suspended member', () => {
  const suspension = { until: '2025-04-10T07:00:00.000Z', reason: 'Repeated spam' };
  const notice = suspendedMessage(new Date(suspension.until), suspension.reason);

  it('sees the notice with the end date and the reason on every page', async () => {
    routeFetch({ 'GET /api/moderation/me': Response.json({ suspension }) });
    setSession(member);
    renderAt('/directory');
    const status = await screen.findByText(notice);
    expect(status.textContent).toMatch(/^Your account is suspended until April 10, 2025: Repeated spam$/);
    expect(status.closest('[role="status"]')).toBeTruthy();
    await userEvent.click(within(sidebar()).getByRole('link', { name: 'Organizations' }));
    await screen.findByRole('heading', { name: 'mf_organizations/OrganizationList' });
    expect(screen.getByText(notice)).toBeTruthy();
  });

  it('no longer sees it once the suspension is lifted', async () => {
    let answer: unknown = { suspension };
    routeFetch({ 'GET /api/moderation/me': () => Response.json(answer) });
    setSession(member);
    renderAt('/directory');
    await screen.findByText(notice);
    answer = { suspension: null };
    await userEvent.click(within(sidebar()).getByRole('link', { name: 'Organizations' }));
    await waitFor(() => expect(screen.queryByText(notice)).toBeNull());
  });

  it('keeps the notice when the check fails for a moment', async () => {
    let fail = false;
    routeFetch({
      'GET /api/moderation/me': () =>
        fail ? Response.json({ errors: [{ msg: 'down' }] }, { status: 503 }) : Response.json({ suspension }),
    });
    setSession(member);
    renderAt('/directory');
    await screen.findByText(notice);
    fail = true;
    await userEvent.click(within(sidebar()).getByRole('link', { name: 'Organizations' }));
    await screen.findByRole('heading', { name: 'mf_organizations/OrganizationList' });
    expect(screen.getByText(notice)).toBeTruthy();
  });

  it('forgets the suspension when signing out', async () => {
    routeFetch({ 'GET /api/moderation/me': Response.json({ suspension }) });
    setSession(member);
    renderAt('/directory');
    await screen.findByText(notice);
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(screen.queryByText(notice)).toBeNull());
    expect(useModeration.getState().suspension).toBeNull();
  });
});
