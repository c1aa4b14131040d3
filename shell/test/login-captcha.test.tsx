// The login dialog while an account is slowed down after wrong passwords: the server's 429 asks for the captcha,
// the dialog shows it (labelled, the refusal announced, the focus back on the emptied email field), and the next
// try sends the solved captcha as captchaValue; a captcha is good for one try, and a plain wait shows none.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SOLVED_PAYLOAD } from './fake-captcha';
import { fakeJwt, inSeconds, makeMember, refusal, renderAt, routeFetch, storedAuth } from './support';

const token = fakeJwt({ exp: inSeconds(300) });
const refreshToken = fakeJwt({ exp: inSeconds(1800) });
const user = makeMember({ token });
const signedIn = () => Response.json({ token, refreshToken, expiresIn: 300, refreshExpiresIn: 1800, user });
const slowedDown = () =>
  Response.json(
    { errors: [{ msg: 'Too many attempts. Try again in 30 seconds.' }], captcha_required: true },
    { status: 429, headers: { 'retry-after': '30' } },
  );
const ASKED =
  'Too many attempts. Try again in 30 seconds. To log in now, solve the captcha and enter your email and password again.';

async function openLogin() {
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
  return screen.findByRole('dialog', { name: 'Log in' });
}

async function fillIn(dialog: HTMLElement, password: string) {
  await userEvent.type(within(dialog).getByLabelText('Email'), 'ada@dof.ca.gov');
  await userEvent.type(within(dialog).getByLabelText('Password'), password);
}

/** Answers each login with the next of `answers`. */
function loginsAnswer(...answers: (() => Response)[]) {
  let next = 0;
  return routeFetch({
    'POST /auth/login': () => (answers[Math.min(next++, answers.length - 1)] as () => Response)(),
  });
}

describe('login while the account is slowed down', () => {
  it('shows the captcha the server asks for, and logs in with it and the password', async () => {
    const { sent } = loginsAnswer(slowedDown, signedIn);
    renderAt('/');
    const dialog = await openLogin();
    expect(within(dialog).queryByRole('group', { name: 'Captcha' })).toBeNull();
    await fillIn(dialog, 'Secret#2024x{Enter}');

    expect((await within(dialog).findByRole('alert')).textContent).toBe(ASKED);
    const captcha = within(dialog).getByRole('group', { name: 'Captcha' });
    expect(captcha.getAttribute('aria-describedby')).toBe('login-captcha-hint');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Email')));
    expect(storedAuth().isAuthenticated).toBe(false);

    await fillIn(dialog, 'Secret#2024x');
    await userEvent.click(within(captcha).getByRole('checkbox', { name: "I'm not a robot" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'mf_feed/PublicSquare' })).toBeTruthy();
    expect(sent.filter((request) => request.path === '/auth/login').map((request) => request.body)).toEqual([
      { email: 'ada@dof.ca.gov', password: 'Secret#2024x' },
      { email: 'ada@dof.ca.gov', password: 'Secret#2024x', captchaValue: SOLVED_PAYLOAD },
    ]);
    expect(storedAuth()).toMatchObject({ isAuthenticated: true, token });
  });

  it('asks for the captcha before sending, and needs a fresh one after each try', async () => {
    const { sent } = loginsAnswer(slowedDown, () => refusal('Invalid credentials', 401), slowedDown);
    renderAt('/');
    const dialog = await openLogin();
    await fillIn(dialog, 'Secret#2024x{Enter}');
    await within(dialog).findByRole('group', { name: 'Captcha' });

    // Not solved: nothing is sent, and the dialog says what is missing.
    await fillIn(dialog, 'Secret#2024x{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Please verify the reCAPTCHA!');
    expect(sent.filter((request) => request.path === '/auth/login')).toHaveLength(1);

    // A wrong password with the captcha is only wrong; the captcha stays, unsolved again.
    const checkbox = within(dialog).getByRole('checkbox', { name: "I'm not a robot" }) as HTMLInputElement;
    await userEvent.click(checkbox);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe('Invalid credentials, please try again'),
    );
    expect(within(dialog).getByRole('group', { name: 'Captcha' })).toBeTruthy();
    expect(checkbox.checked).toBe(false);
  });

  it('shows no captcha for a plain wait (the address is limited)', async () => {
    routeFetch({
      'POST /auth/login': refusal('Too many attempts. Try again in 60 minutes.', 429, {
        'retry-after': '3600',
      }),
    });
    renderAt('/');
    const dialog = await openLogin();
    await fillIn(dialog, 'Secret#2024x{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Too many attempts. Try again in 60 minutes.',
    );
    expect(within(dialog).queryByRole('group', { name: 'Captcha' })).toBeNull();
  });

  it('keeps the captcha when the server refuses a spent one, and forgets it once the dialog closes', async () => {
    loginsAnswer(slowedDown, () => refusal('reCAPTCHA validation failed!', 400));
    renderAt('/');
    const dialog = await openLogin();
    await fillIn(dialog, 'Secret#2024x{Enter}');
    await within(dialog).findByRole('group', { name: 'Captcha' });
    await fillIn(dialog, 'Secret#2024x');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "I'm not a robot" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toBe(
        'reCAPTCHA validation failed! To log in now, solve the captcha and enter your email and password again.',
      ),
    );
    expect(within(dialog).getByRole('group', { name: 'Captcha' })).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    const reopened = await openLogin();
    expect(within(reopened).queryByRole('group', { name: 'Captcha' })).toBeNull();
  });
});
