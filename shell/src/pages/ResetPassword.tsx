// The page behind a password reset link, /reset-password/:token (docs/product.md#2-screens-and-routes,
// #5-validation-rules, #8-error-catalogue): a new password with the live checklist and its retype ('Passwords
// do not match'). Success says 'Password has been reset' and goes to '/'; failure says so here.
import { PASSWORD_MESSAGES, passwordError, passwordMismatchError } from '@rotunda/rules';
import { Spinner } from '@rotunda/ui';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { AccessError, RESET_MESSAGES, resetPassword } from '../auth/api';
import { FormAlert } from '../auth/FormAlert';
import { NewPasswordField, TextField } from '../auth/fields';
import { useUi } from '../ui';
import '@rotunda/ui/message-panel.css';

export function ResetPassword() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const showNotice = useUi((s) => s.showNotice);
  const [password, setPassword] = useState('');
  const [retyped, setRetyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const mismatch = retyped === '' ? null : passwordMismatchError(password, retyped);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const problem = passwordError(password) ?? passwordMismatchError(password, retyped);
    if (problem) {
      setError(problem);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await resetPassword(token, password);
      showNotice('success', RESET_MESSAGES.success, '/');
      navigate('/', { replace: true });
    } catch (failure) {
      setError(failure instanceof AccessError ? failure.message : RESET_MESSAGES.failed);
      setSubmitting(false);
    }
  };

  return (
    <section className="message-panel auth-page" aria-labelledby="reset-title">
      <span className="message-panel__icon" aria-hidden="true">
        <KeyRound size={28} />
      </span>
      <h1 id="reset-title" className="message-panel__title">
        Choose a new password
      </h1>
      <p className="message-panel__text auth-page__text">
        Pick a password you have not used on Rotunda before. Every device signed in to your account will be
        signed out.
      </p>
      <form className="form auth-page__form" onSubmit={submit} aria-busy={submitting} noValidate>
        <NewPasswordField
          label="New password"
          checklistId="reset-password-rules"
          value={password}
          onChange={(value) => {
            setPassword(value);
            setError(null);
          }}
        />
        <TextField
          label="Retype new password"
          type="password"
          name="retype"
          autoComplete="new-password"
          required
          aria-invalid={mismatch ? true : undefined}
          aria-describedby="reset-password-match"
          value={retyped}
          onChange={(event) => {
            setRetyped(event.target.value);
            setError(null);
          }}
        />
        <p id="reset-password-match" className="field__error" aria-live="polite">
          {mismatch}
        </p>
        {error && error !== PASSWORD_MESSAGES.doNotMatch && <FormAlert tone="error">{error}</FormAlert>}
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={submitting || password === '' || retyped === ''}
        >
          {submitting && <Spinner size="inline" />}
          {submitting ? 'Saving…' : 'Reset password'}
        </button>
      </form>
    </section>
  );
}
