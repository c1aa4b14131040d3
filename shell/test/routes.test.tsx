// The route table and the navigation guard, for visitors and for signed-in users.
import { requestLogin, setSession } from '@rotunda/session';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TOAST_TIMEOUT_MS } from '../src/layout/Notices';
import { makeMember, renderAt, standInRenders, storedAuth } from './support';

const member = makeMember();

describe('for visitors', () => {
  it('shows the landing page at / with the tagline, both buttons, a sign-up link and the 2024 copyright', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toMatch(/policy community/);
    expect(screen.getByRole('button', { name: 'Register Today!' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Sign up/ })).toBeTruthy();
    expect(screen.getByText(/© 2024/)).toBeTruthy();
  });

  it.each(['/directory', '/organizations', '/organization/7', '/profile/create', '/profile/1'])(
    'guards %s: shows the alert and returns to /',
    async (path) => {
      renderAt(path);
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByText('Access Restricted. Please login.')).toBeTruthy();
      expect(screen.getByTestId('location').textContent).toBe('/');
      expect(screen.getByRole('button', { name: 'Register Today!' })).toBeTruthy();
    },
  );

  it('lets the alert be dismissed', async () => {
    renderAt('/directory');
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the alert, with no timer, until the visitor moves on to another screen', async () => {
    vi.useFakeTimers();
    try {
      renderAt('/directory');
      await act(async () => {});
      await act(async () => vi.advanceTimersByTime(10 * 60_000));
      expect(screen.getByRole('alert').textContent).toBe('Access Restricted. Please login.');
    } finally {
      vi.useRealTimers();
    }
    await userEvent.click(screen.getByRole('link', { name: 'Accessibility statement' }));
    expect(screen.getByTestId('location').textContent).toBe('/accessibility');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('opens the public square without logging in', async () => {
    renderAt('/public-square');
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has no desktop sidebar', () => {
    renderAt('/public-square');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });
});

describe('the 404 page', () => {
  it.each(['/no-such-page', '/error', '/reset-password', '/confirm-email/a/b'])(
    'shows at %s with a way back',
    (path) => {
      renderAt(path);
      expect(screen.getByRole('heading', { name: 'ERROR 404: This page is not in session.' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'RETURN TO SESSION' }).getAttribute('href')).toBe(
        '/public-square',
      );
    },
  );
});

describe('a micro-frontend asking for the login dialog', () => {
  it('gets the shell’s login dialog', async () => {
    renderAt('/public-square');
    await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' });
    expect(screen.queryByRole('dialog', { name: 'Log in' })).toBeNull();
    act(() => requestLogin());
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
  });
});

describe('for signed-in users', () => {
  it('sends a user with a profile from / to the public square', async () => {
    setSession(member);
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/public-square');
  });

  it('sends a user without a profile from / to profile creation', async () => {
    setSession({ ...member, profile_id: null });
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfileCreate' })).toBeTruthy();
  });

  it('sends a profile owner from profile creation to their profile', async () => {
    setSession(member);
    renderAt('/profile/create');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfilePage' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/profile/1');
  });

  it('opens protected routes, with the sidebar', async () => {
    setSession(member);
    renderAt('/directory');
    expect(await screen.findByRole('heading', { name: 'mf_directory/Directory' })).toBeTruthy();
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    for (const name of ['Public Square', 'Directory', 'Organizations', 'Profile', 'Feedback']) {
      expect(within(sidebar).getByRole('link', { name })).toBeTruthy();
    }
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('never shows one screen at another screen’s path while the next one loads', async () => {
    setSession(member);
    renderAt('/directory');
    await screen.findByRole('heading', { name: 'mf_directory/Directory' });
    standInRenders.length = 0;
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(sidebar).getByRole('link', { name: 'Profile' }));
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfilePage' })).toBeTruthy();
    expect(standInRenders.filter((r) => r.module === 'mf_directory/Directory')).toEqual([]);
  });

  it('logs out to the landing page without the access alert', async () => {
    setSession(member);
    renderAt('/directory');
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(screen.getByRole('button', { name: 'Register Today!' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(storedAuth().isAuthenticated).toBe(false);
  });

  it('shows the Concierge toast to contributors only', async () => {
    setSession(member);
    const { unmount } = renderAt('/public-square');
    expect(screen.queryByRole('button', { name: 'Concierge Account' })).toBeNull();
    unmount();
    setSession({ ...member, contributor: true });
    renderAt('/public-square');
    await userEvent.click(screen.getByRole('button', { name: 'Concierge Account' }));
    const toast = screen.getByRole('status', { name: 'Notifications' });
    expect(within(toast).getByText('Concierge Account')).toBeTruthy();
    expect(toast.textContent).toMatch(/edit profiles that no one has claimed/);
  });

  it('keeps a toast while the pointer rests on it or the focus is in it, and closes it on Escape', async () => {
    setSession({ ...member, contributor: true });
    renderAt('/public-square');
    vi.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Concierge Account' }));
      const region = screen.getByRole('status', { name: 'Notifications' });
      const card = () => within(region).queryByText('Concierge Account');
      const later = (ms: number) => act(async () => vi.advanceTimersByTime(ms));

      fireEvent.mouseEnter(card() as HTMLElement);
      await later(10 * 60_000);
      expect(card()).not.toBeNull();
      fireEvent.mouseLeave(card() as HTMLElement);
      await later(TOAST_TIMEOUT_MS - 100);
      expect(card()).not.toBeNull();

      const dismiss = within(region).getByRole('button', { name: 'Dismiss' });
      act(() => dismiss.focus());
      await later(10 * 60_000);
      expect(card()).not.toBeNull();
      fireEvent.keyDown(dismiss, { key: 'Escape' });
      expect(card()).toBeNull();

      // Nothing holds the next one: it hides by itself.
      fireEvent.click(screen.getByRole('button', { name: 'Concierge Account' }));
      expect(card()).not.toBeNull();
      await later(TOAST_TIMEOUT_MS);
      expect(card()).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
