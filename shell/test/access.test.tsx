// The login and register dialogs: the spec's messages, storing the session and where the user goes next.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from './render';

const user = {
  token: 'jwt',
  user_id: 'u1',
  profile_id: 'p1',
  first_name: 'Ada',
  last_name: 'Lopez',
  email: 'ada@dof.ca.gov',
  contributor: false,
  email_confirmed: true,
};

function answer(response: Response | Promise<Response>) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function logInWith(email: string, password: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  const dialog = screen.getByRole('dialog', { name: 'Log in' });
  await userEvent.type(within(dialog).getByLabelText('Email'), email);
  // Enter in the password field submits the form.
  await userEvent.type(within(dialog).getByLabelText('Password'), `${password}{Enter}`);
  return dialog;
}

afterEach(() => vi.unstubAllGlobals());

describe('login', () => {
  it('stores the session and goes to the public square', async () => {
    const fetchMock = answer(Response.json({ user }));
    renderAt('/');
    await logInWith('ada@dof.ca.gov', 'Secret#2024x');
    expect(fetchMock).toHaveBeenCalledWith('/auth/login', expect.objectContaining({ method: 'POST' }));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'ada@dof.ca.gov',
      password: 'Secret#2024x',
    });
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('auth') ?? '{}')).toMatchObject({
      isAuthenticated: true,
      token: 'jwt',
    });
  });

  it('sends a user without a profile to profile creation', async () => {
    answer(Response.json({ ...user, profile_id: null }));
    renderAt('/');
    await logInWith('ada@dof.ca.gov', 'Secret#2024x');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfileCreate' })).toBeTruthy();
  });

  it.each([
    [
      'an unconfirmed email',
      Response.json({ errors: [{ msg: 'Please confirm your email to log in' }] }, { status: 401 }),
      'Please confirm your email before logging in.',
    ],
    [
      'wrong credentials',
      Response.json({ errors: [{ msg: 'Invalid' }] }, { status: 401 }),
      'Invalid credentials, please try again',
    ],
    ['a server error', new Response('', { status: 500 }), 'An error occurred. Please try again later.'],
  ])('explains %s and empties the form', async (_case, response, message) => {
    answer(response);
    renderAt('/');
    const dialog = await logInWith('ada@dof.ca.gov', 'nope');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('');
    expect(JSON.parse(localStorage.getItem('auth') ?? '{}').isAuthenticated).toBe(false);
  });

  it('reports a network failure with the generic message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    renderAt('/');
    const dialog = await logInWith('ada@dof.ca.gov', 'pw');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error occurred. Please try again later.',
    );
  });
});

describe('register', () => {
  it('checks the password rules live and enables Register only when everything is filled in', async () => {
    const fetchMock = answer(Response.json({ success: true }));
    renderAt('/');
    await userEvent.click(screen.getByRole('button', { name: 'Register Today!' }));
    const dialog = screen.getByRole('dialog', { name: 'Register' });
    await userEvent.type(within(dialog).getByLabelText('First name'), 'Ada');
    await userEvent.type(within(dialog).getByLabelText('Last name'), 'Lopez');
    await userEvent.type(within(dialog).getByLabelText('Work email'), 'ada@dof.ca.gov');
    const submit = within(dialog).getByRole('button', { name: 'Register' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'short');
    expect(within(dialog).getByText(/At least 10 characters/).textContent).toMatch(/not met/);
    expect(within(dialog).getByText(/At least 1 lowercase letter/).textContent).toMatch(/\(met\)/);
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Pass#2024x');
    expect((submit as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(submit);
    expect(
      await within(dialog).findByText(
        'Registration successful! Please check your email to confirm your account.',
      ),
    ).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/auth/register', expect.objectContaining({ method: 'POST' }));
  });
});
