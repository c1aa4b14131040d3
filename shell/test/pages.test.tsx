// The reset-password and confirm-email pages: their texts, what they send, and where they lead.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { refusal, renderAt, routeFetch } from './support';

describe('reset password page', () => {
  it('checks the rules live and says when the passwords do not match', async () => {
    routeFetch({});
    renderAt('/reset-password/tok-1');
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
    const password = screen.getByLabelText('New password');
    const retype = screen.getByLabelText('Retype new password');
    await userEvent.type(password, 'abc');
    expect(screen.getByText(/At least 10 characters/).textContent).toMatch(/not met/);
    expect(screen.getByText(/At least 1 lowercase letter/).textContent).toMatch(/\(met\)/);
    await userEvent.type(password, 'DEF#12345');
    for (const rule of [/At least 10 characters/, /uppercase/, /lowercase/, /number/, /symbol/]) {
      expect(screen.getByText(rule).textContent).toMatch(/\(met\)/);
    }
    await userEvent.type(retype, 'abcDEF#1234');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(retype.getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(retype);
    await userEvent.type(retype, 'abcDEF#12345');
    expect(screen.queryByText('Passwords do not match')).toBeNull();
  });

  it('refuses a password that breaks the rules', async () => {
    const { sent } = routeFetch({});
    renderAt('/reset-password/tok-2');
    await userEvent.type(screen.getByLabelText('New password'), 'weakpass');
    await userEvent.type(screen.getByLabelText('Retype new password'), 'weakpass');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByRole('alert').textContent).toBe('Password does not meet criteria.');
    expect(sent).toEqual([]);
  });

  it('resets the password, says so and goes to /', async () => {
    const { sent } = routeFetch({
      'POST /auth/reset-password/tok-3': Response.json({ success: true, message: 'Password has been reset' }),
    });
    renderAt('/reset-password/tok-3');
    await userEvent.type(screen.getByLabelText('New password'), 'Brand#New2024');
    await userEvent.type(screen.getByLabelText('Retype new password'), 'Brand#New2024');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(screen.getByRole('alert').textContent).toBe('Password has been reset');
    expect(screen.getByRole('button', { name: 'Register Today!' })).toBeTruthy();
    expect(sent[0]).toMatchObject({
      path: '/auth/reset-password/tok-3',
      body: { password: 'Brand#New2024' },
    });
  });

  it('reports a failed reset and stays', async () => {
    routeFetch({
      'POST /auth/reset-password/tok-4': refusal('expired', 400),
    });
    renderAt('/reset-password/tok-4');
    await userEvent.type(screen.getByLabelText('New password'), 'Brand#New2024');
    await userEvent.type(screen.getByLabelText('Retype new password'), 'Brand#New2024');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error resetting password. Please try again later.',
    );
    expect(screen.getByTestId('location').textContent).toBe('/reset-password/tok-4');
  });
});

describe('confirm email page', () => {
  it('confirms the token once and offers to log in', async () => {
    const { sent } = routeFetch({
      'POST /auth/confirm-registration': Response.json({
        success: true,
        message: 'Your email is confirmed!',
      }),
    });
    renderAt('/confirm-email/good-token');
    expect(screen.getByRole('status', { name: 'Confirming your email' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Your email is confirmed!' })).toBeTruthy();
    expect(sent).toEqual([
      expect.objectContaining({ path: '/auth/confirm-registration', body: { token: 'good-token' } }),
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Log in to Rotunda' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in' });
    expect(within(dialog).getByLabelText('Email')).toBeTruthy();
  });

  it.each([
    ['a refused token', Response.json({ success: false, errors: [{ msg: 'expired' }] }, { status: 400 })],
    ['an answer without success', Response.json({ success: false })],
    ['a server error', new Response('', { status: 503 })],
  ])('goes to the 404 page at /error after %s', async (name, response) => {
    routeFetch({ 'POST /auth/confirm-registration': response });
    renderAt(`/confirm-email/${encodeURIComponent(name)}`);
    expect(
      await screen.findByRole('heading', { name: 'ERROR 404: This page is not in session.' }),
    ).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/error');
    expect(screen.queryByText('Your email is confirmed!')).toBeNull();
  });
});
