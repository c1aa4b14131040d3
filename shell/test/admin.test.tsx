// The access administration screen, /admin: the three lists shown; a value added (checked in the browser
// first, the server's refusal said) and removed with an Undo; roles granted and taken away with the outcome
// said; the log newest first with 'Load more'; members refused; the navigation's link for administrators only.
import { ADMIN_LOG_PAGE } from '@rotunda/rules';
import { setSession } from '@rotunda/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answer, makeMember, refusal, renderAt, routeFetch } from './support';

const admin = makeMember({ user_id: 'a1', email: 'admin@demo.ca.gov', admin: true });
const member = makeMember();
const contributor = makeMember({ user_id: 'u9', contributor: true });

const LISTS = { domains: ['cityofsac.org'], emails: ['jo@lobby.com'], beta_emails: [] };

const entry = (id: number, action = 'add', subject = 'domains', value = `d${id}.org`) => ({
  id,
  at: '2026-12-01T10:00:00.000Z',
  actor: { user_id: 'a1', email: 'admin@demo.ca.gov' },
  action,
  subject,
  value,
});

const BASE: Record<string, Answer> = {
  'GET /api/moderation/me': Response.json({ suspension: null }),
  'GET /api/notifications': Response.json({ items: [], unread_count: 0 }),
  'GET /api/reports': Response.json([]),
  'GET /api/admin/access': Response.json(LISTS),
  'GET /api/admin/log': Response.json([entry(2, 'grant', 'contributor', 'bo@dof.ca.gov'), entry(1)]),
};

function openAdmin(routes: Record<string, Answer> = {}, user = admin) {
  const stub = routeFetch({ ...BASE, ...routes });
  setSession(user);
  renderAt('/admin');
  return stub;
}

const list = async (name: string) => screen.findByRole('region', { name: new RegExp(`^${name}`) });

afterEach(() => vi.restoreAllMocks());

describe('who may register', () => {
  it('shows each list with its values, the heading focused', async () => {
    openAdmin();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Access administration' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(await list('Approved domains')).getByText('cityofsac.org')).toBeTruthy();
    expect(within(await list('Approved emails')).getByText('jo@lobby.com')).toBeTruthy();
    expect(within(await list('Beta testers')).getByText('None yet.')).toBeTruthy();
  });

  it('adds a domain as the server keeps it, and says so', async () => {
    const { sent } = openAdmin({
      'POST /api/admin/access': Response.json({ ...LISTS, domains: ['cityofsac.org', 'agency.org'] }),
    });
    const domains = await list('Approved domains');
    await userEvent.type(within(domains).getByRole('textbox', { name: /Add a domain/ }), 'WWW.Agency.org');
    await userEvent.click(within(domains).getByRole('button', { name: 'Add' }));
    expect(await within(domains).findByText('Added agency.org to Approved domains.')).toBeTruthy();
    expect(within(domains).getByText('agency.org')).toBeTruthy();
    expect(sent.find((one) => one.method === 'POST')?.body).toEqual({ list: 'domains', value: 'agency.org' });
  });

  it('refuses what is not a domain or an email before sending, and says the server’s refusal', async () => {
    const { sent } = openAdmin({
      'POST /api/admin/access': refusal('That email is already an account', 409),
    });
    const domains = await list('Approved domains');
    await userEvent.type(within(domains).getByRole('textbox'), 'https://agency');
    await userEvent.click(within(domains).getByRole('button', { name: 'Add' }));
    expect(within(domains).getByRole('alert').textContent).toBe('Enter a domain such as agency.ca.gov.');
    const emails = await list('Approved emails');
    const field = within(emails).getByRole('textbox', { name: /Add an email/ });
    await userEvent.type(field, 'jo at lobby');
    await userEvent.click(within(emails).getByRole('button', { name: 'Add' }));
    expect(within(emails).getByRole('alert').textContent).toBe(
      'Enter an email address such as name@agency.ca.gov.',
    );
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(sent.some((one) => one.method === 'POST')).toBe(false);
    await userEvent.clear(field);
    await userEvent.type(field, 'ann@lobby.com');
    await userEvent.click(within(emails).getByRole('button', { name: 'Add' }));
    expect((await within(emails).findByRole('alert')).textContent).toBe('That email is already an account');
  });

  it('removes a value at once and puts it back on Undo', async () => {
    const { sent } = openAdmin({
      'DELETE /api/admin/access': Response.json({ ...LISTS, domains: [] }),
      'POST /api/admin/access': Response.json(LISTS),
    });
    const domains = await list('Approved domains');
    await userEvent.click(within(domains).getByRole('button', { name: 'Remove cityofsac.org' }));
    const undo = await within(domains).findByRole('button', { name: 'Undo' });
    expect(within(domains).getByText(/Removed cityofsac.org from Approved domains/)).toBeTruthy();
    expect(document.activeElement).toBe(undo);
    expect(sent.find((one) => one.method === 'DELETE')?.body).toEqual({
      list: 'domains',
      value: 'cityofsac.org',
    });
    await userEvent.click(undo);
    expect(await within(domains).findByText('cityofsac.org is back in Approved domains.')).toBeTruthy();
    expect(within(domains).getByRole('button', { name: 'Remove cityofsac.org' })).toBeTruthy();
  });

  it('says when a removal is refused', async () => {
    openAdmin({ 'DELETE /api/admin/access': refusal('Administrators only', 403) });
    const emails = await list('Approved emails');
    await userEvent.click(within(emails).getByRole('button', { name: 'Remove jo@lobby.com' }));
    expect((await within(emails).findByRole('alert')).textContent).toBe('Administrators only');
    expect(within(emails).getByText('jo@lobby.com')).toBeTruthy();
  });
});

describe('roles', () => {
  const roles = async () => screen.findByRole('region', { name: 'Roles' });

  it('grants and takes away a role, saying what happened', async () => {
    const { sent } = openAdmin({ 'POST /api/admin/roles': new Response(null, { status: 204 }) });
    const section = await roles();
    await userEvent.type(within(section).getByRole('textbox', { name: 'Account email' }), ' Bo@DOF.ca.gov ');
    await userEvent.click(within(section).getByRole('button', { name: 'Grant' }));
    expect(
      await within(section).findByText(
        'bo@dof.ca.gov is now Concierge contributor. They see it at their next sign-in.',
      ),
    ).toBeTruthy();
    await userEvent.selectOptions(within(section).getByRole('combobox', { name: 'Role' }), 'Administrator');
    await userEvent.click(within(section).getByRole('button', { name: 'Take away' }));
    expect(await within(section).findByText(/bo@dof.ca.gov is no longer Administrator/)).toBeTruthy();
    expect(sent.filter((one) => one.path === '/api/admin/roles').map((one) => one.body)).toEqual([
      { email: 'bo@dof.ca.gov', role: 'contributor', grant: true },
      { email: 'bo@dof.ca.gov', role: 'admin', grant: false },
    ]);
  });

  it('says the server’s refusal (an unknown account)', async () => {
    openAdmin({ 'POST /api/admin/roles': refusal('No account has this email.', 404) });
    const section = await roles();
    await userEvent.type(
      within(section).getByRole('textbox', { name: 'Account email' }),
      'nobody@dof.ca.gov',
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Grant' }));
    expect((await within(section).findByRole('alert')).textContent).toBe('No account has this email.');
  });
});

describe('the log', () => {
  it('lists who did what, newest first, and loads older ones with before', async () => {
    const first = Array.from({ length: ADMIN_LOG_PAGE.default }, (_, i) => entry(200 - i));
    let calls = 0;
    const { fetchMock } = openAdmin({
      'GET /api/admin/log': () =>
        Response.json(calls++ === 0 ? first : [entry(7, 'remove', 'emails', 'x@y.org')]),
    });
    const log = await screen.findByRole('region', { name: 'Log' });
    const items = await within(log).findAllByRole('listitem');
    expect(items).toHaveLength(ADMIN_LOG_PAGE.default);
    expect(items[0]?.textContent).toMatch(/admin@demo.ca.gov added d200.org to Approved domains/);
    await userEvent.click(within(log).getByRole('button', { name: 'Load more' }));
    expect(await within(log).findByText(/removed x@y.org from Approved emails/)).toBeTruthy();
    const asked = fetchMock.mock.calls
      .map(([url]) => String(url))
      .filter((url) => url.includes('/api/admin/log'));
    expect(asked.at(-1)).toContain('before=151');
    expect(within(log).queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows a granted role in words', async () => {
    openAdmin();
    const log = await screen.findByRole('region', { name: 'Log' });
    expect(await within(log).findByText(/granted Concierge contributor to bo@dof.ca.gov/)).toBeTruthy();
  });
});

describe('who sees it', () => {
  it.each([
    ['members', member],
    ['contributors', contributor],
  ])('refuses %s, without asking the server', async (_, user) => {
    const { sent } = openAdmin({}, user);
    expect(await screen.findByRole('heading', { name: 'Administrators only' })).toBeTruthy();
    expect(sent.some((one) => one.path.startsWith('/api/admin'))).toBe(false);
  });

  it('links Administration in the sidebar and the phone menu for administrators only', async () => {
    routeFetch(BASE);
    setSession(admin);
    renderAt('/public-square');
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(within(sidebar).getByRole('link', { name: 'Administration' }).getAttribute('href')).toBe('/admin');
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('link', { name: 'Administration' }),
    ).toBeTruthy();
  });

  it('shows no Administration link to contributors', () => {
    routeFetch(BASE);
    setSession(contributor);
    renderAt('/public-square');
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(within(sidebar).queryByRole('link', { name: 'Administration' })).toBeNull();
  });
});
