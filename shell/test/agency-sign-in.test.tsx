// Agency sign-in (ADR 0044): the login dialog's agency step for a domain an agency signs in (and only for
// it), the password still there for whoever wants it, the start refused in the dialog; the page the agency's
// sign-in comes back to storing the session and going on, or saying why it did not finish.
import type { AuthUser } from '@rotunda/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SIGN_IN_NOTICE } from '../src/pages/AgencyCallback';
import { fakeJwt, inSeconds, makeMember, refusal, renderAt, routeFetch, storedAuth } from './support';

const leaveFor = vi.hoisted(() => vi.fn());
vi.mock('../src/auth/leave', () => ({ leaveFor }));

afterEach(() => leaveFor.mockReset());

const token = fakeJwt({ exp: inSeconds(300) });
const refreshToken = fakeJwt({ exp: inSeconds(1800) });
const user = makeMember({ token, email: 'ada@dof.ca.gov' });
const loginAnswer = (u: AuthUser = user, extra: Record<string, unknown> = {}) =>
  Response.json({ token: u.token, refreshToken, expiresIn: 300, refreshExpiresIn: 1800, user: u, ...extra });

const DOF = { alias: 'department-of-finance', name: 'Department of Finance' };

async function openLogin() {
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  return screen.findByRole('dialog', { name: 'Log in' });
}

/** Routes `routes`, and answers which agency signs an email in as the gateway does: only dof.ca.gov has one. */
function routeWithAgencies(routes: Parameters<typeof routeFetch>[0] = {}) {
  const stub = routeFetch({
    'GET /auth/agency': () => {
      // The call being answered is the last one the stand-in recorded.
      const url = new URL(String(stub.fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost');
      const email = url.searchParams.get('email') ?? '';
      return Response.json({ agency: email.endsWith('@dof.ca.gov') ? DOF : null });
    },
    ...routes,
  });
  return stub;
}

describe('the login dialog’s agency step', () => {
  it('offers the agency for its domain, announced, and sends the browser to its sign-in', async () => {
    const { sent } = routeWithAgencies({
      'POST /auth/agency/start': Response.json({ url: 'https://sso.example/auth?kc_idp_hint=dof' }),
    });
    renderAt('/');
    const dialog = await openLogin();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    const go = await within(dialog).findByRole('button', { name: 'Continue with Department of Finance' });
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    const live = dialog.querySelector('[aria-live="polite"]');
    expect(live?.textContent).toBe('Department of Finance signs you in to Rotunda.');
    await userEvent.click(go);
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://sso.example/auth?kc_idp_hint=dof'));
    expect(sent.find((one) => one.path === '/auth/agency/start')?.body).toEqual({ email: 'ada@dof.ca.gov' });
    expect(sent.find((one) => one.path === '/auth/agency')?.headers.get('x-auth-token') ?? null).toBeNull();
  });

  it('asks at once when the email field is left, and Enter continues with the agency', async () => {
    routeWithAgencies({
      'POST /auth/agency/start': Response.json({ url: 'https://sso.example/auth' }),
    });
    renderAt('/');
    const dialog = await openLogin();
    const email = within(dialog).getByLabelText('Email');
    await userEvent.type(email, 'ada@dof.ca.gov');
    await userEvent.tab();
    const go = await within(dialog).findByRole('button', { name: 'Continue with Department of Finance' });
    await waitFor(() => expect(document.activeElement).toBe(go));
    await userEvent.type(email, '{Enter}');
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith('https://sso.example/auth'));
  });

  it('stays as it is for every other domain, and goes back to it when the domain changes', async () => {
    routeWithAgencies();
    renderAt('/');
    const dialog = await openLogin();
    const email = within(dialog).getByLabelText('Email');
    await userEvent.type(email, 'bo@lobby.com');
    await userEvent.tab();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(within(dialog).getByLabelText('Password')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /Continue with/ })).toBeNull();
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@dof.ca.gov');
    expect(await within(dialog).findByRole('button', { name: /Continue with/ })).toBeTruthy();
    await userEvent.type(email, '{Backspace}{Backspace}{Backspace}org');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /Continue with/ })).toBeNull());
    expect(within(dialog).getByLabelText('Password')).toBeTruthy();
    expect(dialog.querySelector('[aria-live="polite"]')?.textContent).toBe('');
  });

  it('keeps the password sign-in one click away for an agency’s domain', async () => {
    const { sent } = routeWithAgencies({ 'POST /auth/login': loginAnswer() });
    renderAt('/');
    const dialog = await openLogin();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    await userEvent.click(
      await within(dialog).findByRole('button', { name: 'Sign in with a Rotunda password instead' }),
    );
    const password = within(dialog).getByLabelText('Password');
    expect(document.activeElement).toBe(password);
    await userEvent.type(password, 'Secret#2024x{Enter}');
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(sent.find((one) => one.path === '/auth/login')?.body).toEqual({
      email: 'ada@dof.ca.gov',
      password: 'Secret#2024x',
    });
    expect(sent.some((one) => one.path === '/auth/agency/start')).toBe(false);
    expect(storedAuth()).toMatchObject({ isAuthenticated: true, refreshToken });
  });

  it('says in the dialog when the agency’s sign-in cannot start', async () => {
    routeWithAgencies({
      'POST /auth/agency/start': refusal('Too many sign-ins. Try again in a minute.', 429),
    });
    renderAt('/');
    const dialog = await openLogin();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    const go = await within(dialog).findByRole('button', { name: /Continue with/ });
    await userEvent.click(go);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Too many sign-ins. Try again in a minute.',
    );
    expect(leaveFor).not.toHaveBeenCalled();
    expect((go as HTMLButtonElement).disabled).toBe(false);
  });

  it('says a failed start calmly when the server gave no reason', async () => {
    routeWithAgencies({ 'POST /auth/agency/start': new Response('', { status: 502 }) });
    renderAt('/');
    const dialog = await openLogin();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    await userEvent.click(await within(dialog).findByRole('button', { name: /Continue with/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Your agency’s sign-in could not be started. Please try again later.',
    );
  });
});

describe('coming back from the agency', () => {
  it('stores the session, takes the code off the address and goes where a login goes', async () => {
    const { sent } = routeFetch({
      'POST /auth/agency/complete': loginAnswer({ ...user, profile_id: null }, { firstSignIn: true }),
    });
    renderAt('/agency-sign-in?code=c0de&state=st4te');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfileCreate' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/profile/create');
    expect(sent.find((one) => one.path === '/auth/agency/complete')?.body).toEqual({
      code: 'c0de',
      state: 'st4te',
    });
    expect(storedAuth()).toMatchObject({ isAuthenticated: true, token, refreshToken, user: { token } });
    expect(screen.getByText(FIRST_SIGN_IN_NOTICE)).toBeTruthy();
  });

  it('goes to the profile the sign-in claimed', async () => {
    routeFetch({
      'POST /auth/agency/complete': loginAnswer(
        { ...user, profile_id: 42 },
        { firstSignIn: false, claimedProfileId: 42 },
      ),
    });
    renderAt('/agency-sign-in?code=c1&state=s1');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfilePage' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/profile/42');
  });

  it('says it is signing in meanwhile, with the code already off the address bar', async () => {
    let finish: (response: Response) => void = () => {};
    routeFetch({
      'POST /auth/agency/complete': () =>
        new Promise<Response>((resolve) => {
          finish = resolve;
        }),
    });
    renderAt('/agency-sign-in?code=c2&state=s2');
    expect((await screen.findByText('Signing you in…')).getAttribute('role')).toBe('status');
    const probe = screen.getByTestId('location');
    await waitFor(() => expect(probe.getAttribute('data-search')).toBe(''));
    expect(probe.textContent).toBe('/agency-sign-in');
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    finish(loginAnswer());
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
  });

  it('says the server’s refusal, and the login dialog opens again', async () => {
    routeFetch({
      'POST /auth/agency/complete': refusal(
        'Your agency signs in only its own email domains: ada@gmail.com is not one of them.',
        403,
      ),
    });
    renderAt('/agency-sign-in?code=c3&state=s3');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Sign-in did not finish' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(
      screen.getByText('Your agency signs in only its own email domains: ada@gmail.com is not one of them.'),
    ).toBeTruthy();
    expect(storedAuth().isAuthenticated).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
  });

  it.each([
    ['the agency’s own words', '?error=access_denied&error_description=Account+disabled', 'Account disabled'],
    ['a cancelled sign-in', '?error=access_denied&state=s4', 'The sign-in was cancelled at your agency.'],
    [
      'an address without a code',
      '?state=s5',
      'The address Rotunda was sent back to is incomplete. Please log in again.',
    ],
  ])('says %s without asking the server', async (_case, query, reason) => {
    const { sent } = routeFetch({});
    renderAt(`/agency-sign-in${query}`);
    expect(await screen.findByRole('heading', { name: 'Sign-in did not finish' })).toBeTruthy();
    expect(screen.getByText(reason)).toBeTruthy();
    expect(sent.some((one) => one.path === '/auth/agency/complete')).toBe(false);
  });
});
