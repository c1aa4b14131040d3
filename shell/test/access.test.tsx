// The login, register and password-reset-request dialogs: the spec's texts, eligibility, the captcha,
// storing the session and where the user goes next.

import type { AuthUser } from '@rotunda/session';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SOLVED_PAYLOAD } from './fake-captcha';
import {
  APP_CONFIG,
  failFetch,
  fakeJwt,
  inSeconds,
  makeMember,
  refusal,
  renderAt,
  routeFetch,
  storedAuth,
} from './support';

const token = fakeJwt({ exp: inSeconds(300) });
const refreshToken = fakeJwt({ exp: inSeconds(1800) });
const user = makeMember({ token });
const loginAnswer = (u: AuthUser = user) =>
  Response.json({ token: u.token, refreshToken, expiresIn: 300, refreshExpiresIn: 1800, user: u });

async function logInWith(email: string, password: string) {
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  const dialog = await screen.findByRole('dialog', { name: 'Log in' });
  await userEvent.type(within(dialog).getByLabelText('Email'), email);
  // Enter in the password field submits the form.
  await userEvent.type(within(dialog).getByLabelText('Password'), `${password}{Enter}`);
  return dialog;
}

describe('login', () => {
  it('loads the dialog when first opened, starts in its email field and gives the focus back on close', async () => {
    routeFetch({});
    renderAt('/');
    const opener = screen.getByRole('button', { name: 'Login' });
    await userEvent.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'Log in' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Email')));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(opener);
  });

  it('stores the session with its refresh token and goes to the public square', async () => {
    const { sent } = routeFetch({ 'POST /auth/login': loginAnswer() });
    renderAt('/');
    await logInWith('ada@dof.ca.gov', 'Secret#2024x');
    expect(sent.find((one) => one.path === '/auth/login')).toMatchObject({
      method: 'POST',
      path: '/auth/login',
      body: { email: 'ada@dof.ca.gov', password: 'Secret#2024x' },
    });
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(storedAuth()).toMatchObject({
      isAuthenticated: true,
      token,
      refreshToken,
      user: { token, user_id: 'u1' },
    });
  });

  it('sends a user without a profile to profile creation', async () => {
    routeFetch({ 'POST /auth/login': loginAnswer({ ...user, profile_id: null }) });
    renderAt('/');
    await logInWith('ada@dof.ca.gov', 'Secret#2024x');
    expect(await screen.findByRole('heading', { name: 'mf_profile/ProfileCreate' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/profile/create');
  });

  it.each([
    [
      'an unconfirmed email',
      refusal('Please confirm your email to log in', 401),
      'Please confirm your email before logging in.',
    ],
    ['wrong credentials', refusal('Invalid credentials', 401), 'Invalid credentials, please try again'],
    [
      'too many attempts, in the server’s words',
      refusal('Too many login attempts. Try again in 5 minutes.', 429, { 'retry-after': '300' }),
      'Too many login attempts. Try again in 5 minutes.',
    ],
    ['a server error', new Response('', { status: 500 }), 'An error occurred. Please try again later.'],
  ])('explains %s, clears the session and empties the form', async (_case, response, message) => {
    routeFetch({ 'POST /auth/login': response });
    renderAt('/');
    const dialog = await logInWith('ada@dof.ca.gov', 'nope');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('');
    expect((within(dialog).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(storedAuth().isAuthenticated).toBe(false);
  });

  it('reports a network failure with the generic message', async () => {
    failFetch();
    renderAt('/');
    const dialog = await logInWith('ada@dof.ca.gov', 'pw');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'An error occurred. Please try again later.',
    );
  });
});

async function openRegister() {
  await userEvent.click(screen.getByRole('button', { name: 'Register Today!' }));
  return screen.findByRole('dialog', { name: 'Register' });
}

async function fillRegistration(dialog: HTMLElement, email: string, password = 'Pass#2024xy') {
  await userEvent.type(within(dialog).getByLabelText('First name'), 'Ada');
  await userEvent.type(within(dialog).getByLabelText('Last name'), 'Lopez');
  await userEvent.type(within(dialog).getByLabelText('Work email'), email);
  await userEvent.type(within(dialog).getByLabelText('Password'), password);
}

const eligibleWhen = (test: (email: string) => boolean) => (body: unknown) =>
  Response.json({ eligible: test((body as { email: string }).email) });

/** Fills in the form with an eligible email, solves the captcha and presses Register once it is enabled. */
async function submitRegistration(dialog: HTMLElement) {
  await fillRegistration(dialog, 'ada@dof.ca.gov');
  await userEvent.click(within(dialog).getByRole('checkbox', { name: "I'm not a robot" }));
  const submit = within(dialog).getByRole('button', { name: 'Register' }) as HTMLButtonElement;
  await waitFor(() => expect(submit.disabled).toBe(false));
  await userEvent.click(submit);
}

describe('register', () => {
  it('turns the button into "Access Currently Unavailable" while the email is not eligible', async () => {
    const { sent } = routeFetch({
      'GET /app-config.json': Response.json(APP_CONFIG),
      'POST /auth/check-email': eligibleWhen((email) => email.endsWith('.ca.gov')),
    });
    renderAt('/');
    const dialog = await openRegister();
    await fillRegistration(dialog, 'ada@example.com');

    const unavailable = await within(dialog).findByRole('button', { name: 'Access Currently Unavailable' });
    expect((unavailable as HTMLButtonElement).disabled).toBe(true);
    const note = within(dialog).getByText(/If you cannot register, email/);
    expect(note.textContent).toContain('access@rotunda.test');
    expect(within(note).getByRole('link', { name: 'access@rotunda.test' }).getAttribute('href')).toMatch(
      /^mailto:access@rotunda\.test/,
    );
    // Debounced: one question for the whole typed address, not one per keystroke.
    expect(sent.filter((r) => r.path === '/auth/check-email').map((r) => r.body)).toEqual([
      { email: 'ada@example.com' },
    ]);

    const email = within(dialog).getByLabelText('Work email');
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@dof.ca.gov');
    const register = await within(dialog).findByRole('button', { name: 'Register' });
    await waitFor(() => expect((register as HTMLButtonElement).disabled).toBe(false));
    expect(within(dialog).queryByText(/If you cannot register/)).toBeNull();
  });

  it('checks the password rules live and keeps Register disabled until every field is filled in', async () => {
    routeFetch({ 'POST /auth/check-email': eligibleWhen(() => true) });
    renderAt('/');
    const dialog = await openRegister();
    await fillRegistration(dialog, 'ada@dof.ca.gov', 'short');
    const submit = within(dialog).getByRole('button', { name: 'Register' }) as HTMLButtonElement;
    expect(within(dialog).getByText(/At least 10 characters/).textContent).toMatch(/not met/);
    expect(within(dialog).getByText(/At least 1 lowercase letter/).textContent).toMatch(/\(met\)/);
    expect(within(dialog).getByText(/At least 1 symbol/).textContent).toMatch(/not met/);
    expect(submit.disabled).toBe(true);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Pass#2024x');
    expect(within(dialog).getByText(/At least 1 symbol/).textContent).toMatch(/\(met\)/);
    await waitFor(() => expect(submit.disabled).toBe(false));
  });

  it('asks for the captcha, then registers with captchaValue and resets the form', async () => {
    const { sent } = routeFetch({
      'POST /auth/check-email': eligibleWhen(() => true),
      'POST /auth/register': Response.json({ success: true, message: 'ok' }, { status: 201 }),
    });
    renderAt('/');
    const dialog = await openRegister();
    await fillRegistration(dialog, 'ada@dof.ca.gov');
    const submit = within(dialog).getByRole('button', { name: 'Register' }) as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(false));

    await userEvent.click(submit);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please verify the reCAPTCHA!');
    expect(sent.some((r) => r.path === '/auth/register')).toBe(false);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: "I'm not a robot" }));
    await userEvent.click(submit);
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(
      'Registration successful! Please check your email to confirm your account.',
    );
    expect(alert.textContent).toMatch(/junk or spam folder/);
    // The form and its Register button gave way to the outcome: the focus is on what comes next.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Go to login' }));
    expect(sent.find((r) => r.path === '/auth/register')?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Lopez',
      email: 'ada@dof.ca.gov',
      password: 'Pass#2024xy',
      captchaValue: SOLVED_PAYLOAD,
    });

    // Reopening shows an empty form.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await openRegister();
    expect((within(dialog).getByLabelText('First name') as HTMLInputElement).value).toBe('');
  });

  it('shows a spinner while registering', async () => {
    let answer: (response: Response) => void = () => {};
    routeFetch({
      'POST /auth/check-email': eligibleWhen(() => true),
      'POST /auth/register': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderAt('/');
    const dialog = await openRegister();
    await submitRegistration(dialog);
    const busy = await within(dialog).findByRole('button', { name: 'Registering…' });
    expect(busy.querySelector('.spinner')).toBeTruthy();
    expect(dialog.querySelector('form')?.getAttribute('aria-busy')).toBe('true');
    answer(Response.json({ success: true }, { status: 201 }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
  });

  it.each([
    ['a refused registration', refusal('Nope', 400), 'Registration failed'],
    ['a refused captcha', refusal('reCAPTCHA validation failed!', 400), 'reCAPTCHA validation failed!'],
  ])('reports %s and resets the form', async (_case, response, message) => {
    routeFetch({ 'POST /auth/check-email': eligibleWhen(() => true), 'POST /auth/register': response });
    renderAt('/');
    const dialog = await openRegister();
    await submitRegistration(dialog);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    // Everything is to be typed again: the focus starts at the first field, not at the page's start.
    expect(document.activeElement).toBe(within(dialog).getByLabelText('First name'));
    for (const label of ['First name', 'Last name', 'Work email', 'Password']) {
      expect((within(dialog).getByLabelText(label) as HTMLInputElement).value).toBe('');
    }
    expect(
      (within(dialog).getByRole('checkbox', { name: "I'm not a robot" }) as HTMLInputElement).checked,
    ).toBe(false);
  });
});

describe('password reset request', () => {
  async function openResetRequest() {
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Log in' })).getByRole('button', {
        name: 'Forgot password?',
      }),
    );
    return screen.findByRole('dialog', { name: 'Reset your password' });
  }

  it('opens from the login dialog and sends the email with reCaptcha_token', async () => {
    const { sent } = routeFetch({
      'POST /auth/request-password-reset': Response.json({ success: true, message: 'sent' }),
    });
    renderAt('/');
    const dialog = await openResetRequest();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reset link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please verify the reCAPTCHA!');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "I'm not a robot" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reset link' }));
    const send = within(dialog).getByRole('button', { name: 'Send reset link' }) as HTMLButtonElement;
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'Password reset link has been sent to your email',
      ),
    );
    // The emptied form has nothing to send: the button says so but keeps the focus it had, and sends nothing.
    expect(send.getAttribute('aria-disabled')).toBe('true');
    expect(send.disabled).toBe(false);
    expect(document.activeElement).toBe(send);
    await userEvent.click(send);
    expect(sent.filter((r) => r.path === '/auth/request-password-reset')).toHaveLength(1);
    expect(sent.find((r) => r.path === '/auth/request-password-reset')?.body).toEqual({
      email: 'ada@dof.ca.gov',
      reCaptcha_token: SOLVED_PAYLOAD,
    });
  });

  it('reports a failure', async () => {
    routeFetch({
      'POST /auth/request-password-reset': refusal('bad', 400),
    });
    renderAt('/');
    const dialog = await openResetRequest();
    await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "I'm not a robot" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reset link' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Error sending password reset link. Please try again later.',
    );
  });
});
