// The login dialog: email and password, Enter submits; on success the session is stored and the user goes
// where the route table sends them.
import { clearSession, homePathFor, setSession } from '@rotunda/session';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUi } from '../ui';
import { AccessError, LOGIN_MESSAGES, logIn } from './api';
import { Modal } from './Modal';

export function LoginDialog() {
  const open = useUi((s) => s.dialog === 'login');
  const closeDialog = useUi((s) => s.closeDialog);
  const openDialog = useUi((s) => s.openDialog);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const close = () => {
    setError(null);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      const user = await logIn(email.trim(), password);
      setSession(user);
      setEmail('');
      setPassword('');
      closeDialog();
      navigate(homePathFor(user));
    } catch (failure) {
      // The spec clears the session and empties the form after any failed login.
      clearSession();
      setEmail('');
      setPassword('');
      setError(failure instanceof AccessError ? failure.message : LOGIN_MESSAGES.failed);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Log in"
      description="Welcome back. Use the email you registered with."
      onClose={close}
    >
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span className="field__label">Email</span>
          <input
            className="field__input"
            type="email"
            name="email"
            data-autofocus
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">Password</span>
          <input
            className="field__input"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={submitting}>
          {submitting ? 'Logging in…' : 'Log in'}
        </button>
        <p className="form__footer">
          New to Rotunda?{' '}
          <button type="button" className="link-button" onClick={() => openDialog('register')}>
            Register
          </button>
        </p>
      </form>
    </Modal>
  );
}
