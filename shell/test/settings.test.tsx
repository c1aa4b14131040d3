// The member's settings page: email choices loaded, changed and saved (and a refusal said), 'Download my data'
// saving the file the server names, and 'Delete my account' (a wrong password said in the dialog; success signs
// out and lands on the home page saying so).
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@rotunda/rules';
import { sessionStore, setSession } from '@rotunda/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_DELETED } from '../src/pages/Settings';
import { type Answer, makeMember, refusal, renderAt, routeFetch } from './support';

const member = makeMember();
const BASE: Record<string, Answer> = {
  'GET /api/moderation/me': Response.json({ suspension: null }),
  'GET /api/notifications': Response.json({ items: [], unread_count: 0 }),
  'GET /api/notifications/preferences': Response.json(DEFAULT_NOTIFICATION_PREFERENCES),
};

function openSettings(routes: Record<string, Answer>) {
  const stub = routeFetch({ ...BASE, ...routes });
  setSession(member);
  renderAt('/settings');
  return stub;
}

afterEach(() => vi.restoreAllMocks());

describe('email choices', () => {
  it('loads them, saves the changes and says so', async () => {
    const { sent } = openSettings({
      'PUT /api/notifications/preferences': (body) => Response.json(body),
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const digest = await screen.findByRole('group', { name: 'Digest of what I missed' });
    expect((within(digest).getByRole('radio', { name: 'Weekly' }) as HTMLInputElement).checked).toBe(true);
    const save = screen.getByRole('button', { name: 'Save email choices' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.click(within(digest).getByRole('radio', { name: 'Daily' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Someone mentions me' }));
    await userEvent.click(save);
    expect(await screen.findByText('Your email choices are saved.')).toBeTruthy();
    expect(sent.find((one) => one.method === 'PUT')?.body).toEqual({
      email_digest: 'daily',
      email_now: { mention: false, claim: true, moderation: true },
    });
    expect(save.disabled).toBe(true);
  });

  it('says the server’s refusal', async () => {
    openSettings({ 'PUT /api/notifications/preferences': refusal('Choose a digest', 400) });
    await userEvent.click(await screen.findByRole('radio', { name: 'Never' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save email choices' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose a digest');
    expect(screen.queryByText('Your email choices are saved.')).toBeNull();
  });

  it('says when they cannot be loaded', async () => {
    openSettings({ 'GET /api/notifications/preferences': refusal('Server trouble', 503) });
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded/);
  });
});

describe('your data', () => {
  it('downloads the export as the file the server names', async () => {
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:export', revokeObjectURL: () => {} }),
    );
    const { sent } = openSettings({
      'GET /api/me/export': new Response('{"account":{}}', {
        headers: {
          'content-type': 'application/json',
          'content-disposition': 'attachment; filename="rotunda-data-2026-12-02.json"',
        },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Your data is downloaded.')).toBeTruthy();
    expect(saved).toEqual([{ name: 'rotunda-data-2026-12-02.json', href: 'blob:export' }]);
    expect(sent.find((one) => one.path === '/api/me/export')?.headers.get('x-auth-token')).toBe(member.token);
  });

  it('says when the download fails', async () => {
    openSettings({ 'GET /api/me/export': refusal('Server trouble', 503) });
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your data could not be downloaded. Please try again.',
    );
  });

  it('keeps the account when the password is wrong, saying so in the dialog', async () => {
    const { sent } = openSettings({ 'POST /api/me/delete': refusal('Incorrect password', 401) });
    const open = await screen.findByRole('button', { name: 'Delete my account' });
    await userEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Delete my account' });
    expect(dialog.textContent).toMatch(/personal email, mobile phone and birthday/);
    const password = within(dialog).getByLabelText('Your password');
    expect(document.activeElement).toBe(password);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter your password to delete your account.');
    await userEvent.type(password, 'wrong-one');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Incorrect password');
    expect(sent.find((one) => one.path === '/api/me/delete')?.body).toEqual({ password: 'wrong-one' });
    expect(sessionStore.getState().isAuthenticated).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('deletes the account, signs out and lands on the home page saying so', async () => {
    openSettings({ 'POST /api/me/delete': new Response(null, { status: 204 }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete my account' });
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'Right#Pass2024');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(sessionStore.getState().isAuthenticated).toBe(false);
    expect(screen.getByRole('alert').textContent).toBe(ACCOUNT_DELETED);
  });
});

it('is linked from the member’s navigation', async () => {
  routeFetch(BASE);
  setSession(member);
  renderAt('/public-square');
  const nav = screen.getByRole('navigation', { name: 'Main' });
  await userEvent.click(within(nav).getByRole('link', { name: 'Settings' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
});
