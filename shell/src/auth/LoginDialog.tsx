// The login dialog: email and password, Enter submits; links to register and to the password reset request.
// On success the session is stored (the session keeper takes it over) and the user goes where the route
// table sends them; after any failure the session is cleared and the form emptied (spec §8).
import { clearSession, homePathFor, setSession } from '@rotunda/session';
import { Dialog, Spinner } from '@rotunda/ui';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUi } from '../ui';
import { AccessError, LOGIN_MESSAGES, logIn } from './api';
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

  const switchTo = (dialog: 'register' | 'reset-request') => {
    setError(null);
    openDialog(dialog);
  };

  const close = () => {
    setError(null);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      const { user, refreshToken } = await logIn(email.trim(), password);
      setSession(user, refreshToken);
      setEmail('');
      setPassword('');
      closeDialog();
      navigate(homePathFor(user));
    } catch (failure) {
      clearSession();
      setEmail('');
      setPassword('');
      setError(failure instanceof AccessError ? failure.message : LOGIN_MESSAGES.failed);
    } finally {
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
      <form className="form dialog__body" onSubmit={submit} aria-busy={submitting}>
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
