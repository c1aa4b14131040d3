// The access administration screen, /admin: the three lists shown; a value added (checked in the browser
// first, the server's refusal said) and removed with an Undo; roles granted and taken away with the outcome
// said; the log newest first with 'Load more'; members refused; the navigation's link for administrators only;
// the agencies (Keycloak mode only) listed with their addresses to copy, added and removed after a confirmation.
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
  'GET /api/admin/agencies': Response.json({ available: false, agencies: [] }),
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

  it('keeps the focus on Grant while the change is on its way, and sends it once', async () => {
    let answer: (response: Response) => void = () => {};
    const { sent } = openAdmin({
      'POST /api/admin/roles': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const section = await roles();
    await userEvent.type(within(section).getByRole('textbox', { name: 'Account email' }), 'bo@dof.ca.gov');
    const grant = within(section).getByRole('button', { name: 'Grant' }) as HTMLButtonElement;
    await userEvent.click(grant);
    // Marked busy, not disabled: a disabled button would drop the keyboard focus to the page's start.
    await waitFor(() => expect(grant.getAttribute('aria-disabled')).toBe('true'));
    expect(grant.disabled).toBe(false);
    expect(document.activeElement).toBe(grant);
    await userEvent.click(grant);
    await userEvent.click(within(section).getByRole('button', { name: 'Take away' }));
    answer(new Response(null, { status: 204 }));
    expect(await within(section).findByText(/bo@dof.ca.gov is now Concierge contributor/)).toBeTruthy();
    expect(sent.filter((one) => one.path === '/api/admin/roles')).toHaveLength(1);
    expect(grant.getAttribute('aria-disabled')).toBeNull();
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

describe('agencies', () => {
  const DOF = {
    alias: 'department-of-finance',
    name: 'Department of Finance',
    protocol: 'oidc',
    domains: ['dof.ca.gov'],
    metadata_url: 'https://login.dof.ca.gov/.well-known/openid-configuration',
    client_id: 'rotunda',
    redirect_uri: 'https://sso.rotunda.test/realms/rotunda/broker/department-of-finance/endpoint',
    logout_url: 'https://sso.rotunda.test/realms/rotunda/protocol/openid-connect/logout/backchannel-logout',
    sp_metadata_url: '',
    created_at: '2026-12-01T10:00:00.000Z',
  };
  const CDT = {
    ...DOF,
    alias: 'technology',
    name: 'Department of Technology',
    protocol: 'saml',
    domains: ['cdt.ca.gov', 'state.ca.gov'],
    metadata_url: 'https://sts.cdt.ca.gov/FederationMetadata.xml',
    client_id: '',
    redirect_uri: 'https://sso.rotunda.test/realms/rotunda/broker/technology/endpoint',
    logout_url: 'https://sso.rotunda.test/realms/rotunda/broker/technology/endpoint',
    sp_metadata_url: 'https://sso.rotunda.test/realms/rotunda/broker/technology/endpoint/descriptor',
  };
  const agencies = async () => screen.findByRole('region', { name: 'Agencies' });

  it('is absent when agency sign-in is not available (the built-in provider)', async () => {
    const answered: string[] = [];
    openAdmin({
      'GET /api/admin/agencies': () => {
        answered.push('agencies');
        return Response.json({ available: false, agencies: [] });
      },
    });
    await screen.findByRole('region', { name: 'Roles' });
    await waitFor(() => expect(answered).toEqual(['agencies']));
    // The answer is read after it arrived: give it a turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Agencies' })).toBeNull();
    expect(screen.queryByText(/agencies could not be loaded/)).toBeNull();
  });

  it('lists each agency with the addresses its IT office needs, each one copyable', async () => {
    openAdmin({ 'GET /api/admin/agencies': Response.json({ available: true, agencies: [DOF, CDT] }) });
    const user = userEvent.setup();
    const section = await agencies();
    const [dof, cdt] = await within(section).findAllByRole('listitem');
    expect(within(dof as HTMLElement).getByText('OpenID Connect · dof.ca.gov')).toBeTruthy();
    expect(within(dof as HTMLElement).getByText(DOF.redirect_uri)).toBeTruthy();
    expect(within(dof as HTMLElement).getByText(DOF.logout_url)).toBeTruthy();
    expect(within(dof as HTMLElement).queryByText('SP metadata URL')).toBeNull();
    expect(within(cdt as HTMLElement).getByText('SAML 2.0 · cdt.ca.gov, state.ca.gov')).toBeTruthy();
    await user.click(
      within(cdt as HTMLElement).getByRole('button', {
        name: 'Copy the SP metadata URL of Department of Technology',
      }),
    );
    expect(await navigator.clipboard.readText()).toBe(CDT.sp_metadata_url);
    expect(within(cdt as HTMLElement).getByText('Copied the SP metadata URL.')).toBeTruthy();
  });

  it('adds an OIDC agency with its client, checked first, and says so', async () => {
    const { sent } = openAdmin({
      'GET /api/admin/agencies': Response.json({ available: true, agencies: [] }),
      'POST /api/admin/agencies': Response.json(DOF, { status: 201 }),
    });
    const section = await agencies();
    expect(within(section).getByText('No agencies yet.')).toBeTruthy();
    await userEvent.type(within(section).getByLabelText('Agency name'), 'Department of Finance');
    await userEvent.click(within(section).getByRole('button', { name: 'Add agency' }));
    expect(within(section).getByRole('alert').textContent).toBe('Enter the agency’s email domains.');
    await userEvent.type(within(section).getByLabelText('Email domains'), 'DOF.ca.gov, www.dof.ca.gov');
    await userEvent.type(within(section).getByLabelText('Discovery URL'), DOF.metadata_url);
    await userEvent.type(within(section).getByLabelText('Client ID'), 'rotunda');
    const secret = within(section).getByLabelText('Client secret');
    expect(secret.getAttribute('type')).toBe('password');
    expect(secret.getAttribute('autocomplete')).toBe('off');
    await userEvent.type(secret, 's3cret');
    await userEvent.click(within(section).getByRole('button', { name: 'Add agency' }));
    expect(
      await within(section).findByText(
        'Added Department of Finance. Give its IT office the addresses below.',
      ),
    ).toBeTruthy();
    expect(within(section).getByText(DOF.redirect_uri)).toBeTruthy();
    expect(sent.find((one) => one.path === '/api/admin/agencies' && one.method === 'POST')?.body).toEqual({
      name: 'Department of Finance',
      protocol: 'oidc',
      domains: ['dof.ca.gov'],
      metadata_url: DOF.metadata_url,
      client_id: 'rotunda',
      client_secret: 's3cret',
    });
    expect((within(section).getByLabelText('Agency name') as HTMLInputElement).value).toBe('');
  });

  it('asks a SAML agency for its metadata URL only, and says the server’s refusal', async () => {
    const { sent } = openAdmin({
      'GET /api/admin/agencies': Response.json({ available: true, agencies: [DOF] }),
      'POST /api/admin/agencies': refusal('dof.ca.gov already signs in with Department of Finance.', 400),
    });
    const section = await agencies();
    await userEvent.type(within(section).getByLabelText('Agency name'), 'Finance again');
    await userEvent.click(within(section).getByRole('radio', { name: 'SAML 2.0' }));
    expect(within(section).queryByLabelText('Client secret')).toBeNull();
    await userEvent.type(within(section).getByLabelText('Email domains'), 'dof.ca.gov');
    await userEvent.type(within(section).getByLabelText('Metadata URL'), 'https://sts.dof.ca.gov/m.xml');
    await userEvent.click(within(section).getByRole('button', { name: 'Add agency' }));
    expect((await within(section).findByRole('alert')).textContent).toBe(
      'dof.ca.gov already signs in with Department of Finance.',
    );
    expect(sent.find((one) => one.method === 'POST')?.body).toEqual({
      name: 'Finance again',
      protocol: 'saml',
      domains: ['dof.ca.gov'],
      metadata_url: 'https://sts.dof.ca.gov/m.xml',
    });
  });

  it('removes an agency once the removal is confirmed, and says a refusal', async () => {
    let refuse = true;
    const { sent } = openAdmin({
      'GET /api/admin/agencies': Response.json({ available: true, agencies: [DOF] }),
      'DELETE /api/admin/agencies/department-of-finance': () =>
        refuse ? refusal('Administrators only', 403) : new Response(null, { status: 204 }),
    });
    const section = await agencies();
    await userEvent.click(within(section).getByRole('button', { name: 'Remove Department of Finance' }));
    let confirm = await screen.findByRole('dialog', { name: 'Remove Department of Finance?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent.some((one) => one.method === 'DELETE')).toBe(false);
    await userEvent.click(within(section).getByRole('button', { name: 'Remove Department of Finance' }));
    confirm = await screen.findByRole('dialog', { name: 'Remove Department of Finance?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('Administrators only');
    refuse = false;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(
      await within(section).findByText(
        'Removed Department of Finance. Its members now sign in with a Rotunda password.',
      ),
    ).toBeTruthy();
    expect(within(section).queryByText(DOF.redirect_uri)).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows an agency change in the log in words', async () => {
    openAdmin({
      'GET /api/admin/log': Response.json([entry(3, 'add', 'agencies', 'department-of-finance')]),
    });
    const log = await screen.findByRole('region', { name: 'Log' });
    expect(await within(log).findByText(/added the agency department-of-finance/)).toBeTruthy();
  });
});
