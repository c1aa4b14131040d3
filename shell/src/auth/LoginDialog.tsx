// The login dialog: email and password, Enter submits; links to register and to the password reset request.
// On success the session is stored (the session keeper takes it over) and the user goes where the route
// table sends them; after any failure the session is cleared and the form emptied (spec §8). While the account
// is slowed down after wrong passwords the server asks for a captcha: the dialog then shows it, and the right
// password with the solved captcha gets in at once.
import { CAPTCHA_MESSAGES } from '@rotunda/rules';
import { clearSession, homePathFor, setSession } from '@rotunda/session';
import { Dialog, Spinner } from '@rotunda/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUi } from '../ui';
import { AccessError, CaptchaRequiredError, LOGIN_MESSAGES, logIn } from './api';
import { Captcha, type CaptchaHandle } from './Captcha';
import { FormAlert } from './FormAlert';
import { AccountEmailField } from './fields';

export function LoginDialog() {
  const open = useUi((s) => s.dialog === 'login');
  const closeDialog = useUi((s) => s.closeDialog);
  const openDialog = useUi((s) => s.openDialog);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const forgetCaptcha = () => {
    // A solved captcha is good for one try only.
    captchaRef.current?.reset();
    setCaptcha(null);
  };

  const solved = (payload: string | null) => {
    setCaptcha(payload);
    if (payload) setError((current) => (current === CAPTCHA_MESSAGES.missing ? null : current));
  };

  const switchTo = (dialog: 'register' | 'reset-request') => {
    setError(null);
    setCaptchaAsked(false);
    openDialog(dialog);
  };

  const close = () => {
    setError(null);
    setCaptchaAsked(false);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (captchaAsked && !captcha) {
      setError(CAPTCHA_MESSAGES.missing);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const { user, refreshToken } = await logIn(email.trim(), password, captcha ?? undefined);
      setSession(user, refreshToken);
      setEmail('');
      setPassword('');
      setCaptchaAsked(false);
      closeDialog();
      navigate(homePathFor(user));
    } catch (failure) {
      clearSession();
      setEmail('');
      setPassword('');
      if (failure instanceof CaptchaRequiredError) {
        setCaptchaAsked(true);
        setError(`${failure.message} ${LOGIN_MESSAGES.captchaRequired}`);
        // The form was emptied: the member starts again from the email.
        formRef.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      } else {
        setError(failure instanceof AccessError ? failure.message : LOGIN_MESSAGES.failed);
      }
    } finally {
      if (captcha) forgetCaptcha();
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Log in"
      description="Welcome back. Use the email you registered with."
      onClose={close}
    >
      <form className="form dialog__body" onSubmit={submit} aria-busy={submitting} ref={formRef}>
        <AccountEmailField value={email} onChange={setEmail} />
        <div className="field">
          <div className="field__label-row">
            <label className="field__label" htmlFor="login-password">
              Password
            </label>
            <button
              type="button"
              className="link-button link-button--small"
              onClick={() => switchTo('reset-request')}
            >
              Forgot password?
            </button>
          </div>
          <input
            id="login-password"
            className="field__input"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        {captchaAsked && (
          <fieldset className="form-fieldset" aria-describedby="login-captcha-hint">
            <legend className="form-fieldset__legend">Captcha</legend>
            <p id="login-captcha-hint">
              Too many wrong passwords were tried for this account. Solve the captcha to log in now.
            </p>
            <Captcha ref={captchaRef} onChange={solved} />
          </fieldset>
        )}
        {error && <FormAlert tone="error">{error}</FormAlert>}
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting && <Spinner size="inline" />}
          {submitting ? 'Logging in…' : 'Log in'}
        </button>
        <p className="form__footer">
          New to Rotunda?{' '}
          <button type="button" className="link-button" onClick={() => switchTo('register')}>
            Register
          </button>
        </p>
      </form>
    </Dialog>
  );
}
