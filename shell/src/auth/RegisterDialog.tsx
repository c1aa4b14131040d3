// The register dialog: name, work email and a password with the live checklist of the password rules.
import { isPasswordValid, passwordChecklist } from '@rotunda/rules';
import { Check, Circle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useUi } from '../ui';
import { AccessError, REGISTER_MESSAGES, type Registration, register } from './api';
import { Modal } from './Modal';

const EMPTY: Registration = { first_name: '', last_name: '', email: '', password: '' };

type Outcome = { kind: 'success' } | { kind: 'error'; message: string } | null;

export function RegisterDialog() {
  const open = useUi((s) => s.dialog === 'register');
  const closeDialog = useUi((s) => s.closeDialog);
  const openDialog = useUi((s) => s.openDialog);
  const [form, setForm] = useState<Registration>(EMPTY);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);

  const complete =
    form.first_name.trim() !== '' &&
    form.last_name.trim() !== '' &&
    form.email.trim() !== '' &&
    isPasswordValid(form.password);

  const update = (key: keyof Registration) => (event: { target: { value: string } }) =>
    setForm({ ...form, [key]: event.target.value });

  const close = () => {
    setOutcome(null);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete) return;
    setSubmitting(true);
    setOutcome(null);
    try {
      await register({ ...form, email: form.email.trim() });
      setOutcome({ kind: 'success' });
    } catch (failure) {
      setOutcome({
        kind: 'error',
        message: failure instanceof AccessError ? failure.message : REGISTER_MESSAGES.failed,
      });
    } finally {
      // The spec resets the form after both outcomes.
      setForm(EMPTY);
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open={open}
      title="Register"
      description="Rotunda is for people who work in and around California state government. Register with your work email."
      onClose={close}
    >
      {outcome?.kind === 'success' ? (
        <div className="form" role="status">
          <p className="form__success">{REGISTER_MESSAGES.success}</p>
          <p className="form__hint">{REGISTER_MESSAGES.junkFolder}</p>
          <button
            type="button"
            className="button button--primary button--block"
            onClick={() => openDialog('login')}
          >
            Go to login
          </button>
        </div>
      ) : (
        <form className="form" onSubmit={submit}>
          <div className="form__row">
            <label className="field">
              <span className="field__label">First name</span>
              <input
                className="field__input"
                name="first_name"
                data-autofocus
                autoComplete="given-name"
                required
                value={form.first_name}
                onChange={update('first_name')}
              />
            </label>
            <label className="field">
              <span className="field__label">Last name</span>
              <input
                className="field__input"
                name="last_name"
                autoComplete="family-name"
                required
                value={form.last_name}
                onChange={update('last_name')}
              />
            </label>
          </div>
          <label className="field">
            <span className="field__label">Work email</span>
            <input
              className="field__input"
              type="email"
              name="email"
              autoComplete="email"
              required
              value={form.email}
              onChange={update('email')}
            />
          </label>
          <label className="field">
            <span className="field__label">Password</span>
            <input
              className="field__input"
              type="password"
              name="password"
              autoComplete="new-password"
              required
              aria-describedby="register-password-rules"
              value={form.password}
              onChange={update('password')}
            />
          </label>
          <ul id="register-password-rules" className="checklist" aria-label="Password rules">
            {passwordChecklist(form.password).map((rule) => (
              <li
                key={rule.key}
                className={rule.met ? 'checklist__item checklist__item--met' : 'checklist__item'}
              >
                {rule.met ? <Check size={16} aria-hidden="true" /> : <Circle size={16} aria-hidden="true" />}
                {rule.label}
                <span className="visually-hidden">{rule.met ? ' (met)' : ' (not met)'}</span>
              </li>
            ))}
          </ul>
          {outcome?.kind === 'error' && (
            <p className="form__error" role="alert">
              {outcome.message}
            </p>
          )}
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!complete || submitting}
          >
            {submitting ? 'Registering…' : 'Register'}
          </button>
          <p className="form__footer">
            Already registered?{' '}
            <button type="button" className="link-button" onClick={() => openDialog('login')}>
              Log in
            </button>
          </p>
        </form>
      )}
    </Modal>
  );
}
