// The register dialog (docs/product.md#2-screens-and-routes, #4-states-and-transitions, #5-validation-rules,
// #8-error-catalogue): name, work email, a password with the live checklist of the password rules, and the
// captcha. As the email is typed the server says whether it may register (POST /auth/check-email); while it
// may not, the button reads 'Access Currently Unavailable' and people are told whom to email for access. A
// spinner shows while registering; the form is reset after either outcome, and the keyboard focus, whose
// Register button went busy, goes to 'Go to login' after a success and to the first field after a failure.
import { CAPTCHA_MESSAGES, emailDomain, isPasswordValid } from '@rotunda/rules';
import { Dialog, Spinner } from '@rotunda/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useAccessEmail } from '../config';
import { useUi } from '../ui';
import { AccessError, checkEmail, REGISTER_MESSAGES, type Registration, register } from './api';
import { Captcha, type CaptchaHandle } from './Captcha';
import { FormAlert } from './FormAlert';
import { NewPasswordField, TextField } from './fields';

const EMPTY: Registration = { first_name: '', last_name: '', email: '', password: '' };

/** How long typing must pause before the email's eligibility is asked. */
export const ELIGIBILITY_DEBOUNCE_MS = 300;

/**
 * 'unknown': nothing checkable typed yet. 'unverified': the check itself failed; the server still enforces
 * eligibility when registering, so the button is not held back by a failed check.
 */
type Eligibility = 'unknown' | 'eligible' | 'ineligible' | 'unverified';

type Outcome = { kind: 'success' } | { kind: 'error'; message: string } | null;

/** Asks the server about the typed email, debounced; a newer email cancels the older question. */
function useEligibility(email: string): { eligibility: Eligibility; checking: boolean } {
  const [result, setResult] = useState<{ email: string; eligibility: Eligibility } | null>(null);
  const address = email.trim();
  const checkable = emailDomain(address) !== null;

  useEffect(() => {
    if (!checkable) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkEmail(address, controller.signal).then(
        (eligible) => setResult({ email: address, eligibility: eligible ? 'eligible' : 'ineligible' }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('Could not check the email address', error);
          setResult({ email: address, eligibility: 'unverified' });
        },
      );
    }, ELIGIBILITY_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [address, checkable]);

  if (!checkable) return { eligibility: 'unknown', checking: false };
  if (result?.email === address) return { eligibility: result.eligibility, checking: false };
  // While the new answer is on its way the last one stays on screen, so the button does not flicker.
  return { eligibility: result?.eligibility ?? 'unknown', checking: true };
}

export function RegisterDialog() {
  const open = useUi((s) => s.dialog === 'register');
  const closeDialog = useUi((s) => s.closeDialog);
  const openDialog = useUi((s) => s.openDialog);
  const accessEmail = useAccessEmail(open);
  const [form, setForm] = useState<Registration>(EMPTY);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);
  const captchaRef = useRef<CaptchaHandle>(null);
  const goToLogin = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { eligibility, checking } = useEligibility(form.email);

  useEffect(() => {
    if (outcome?.kind === 'success') goToLogin.current?.focus();
    else if (outcome?.kind === 'error')
      formRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [outcome]);

  const ineligible = eligibility === 'ineligible';
  const complete =
    form.first_name.trim() !== '' &&
    form.last_name.trim() !== '' &&
    form.email.trim() !== '' &&
    isPasswordValid(form.password);
  const canSubmit =
    complete && !checking && (eligibility === 'eligible' || eligibility === 'unverified') && !submitting;

  const update = (key: keyof Registration) => (event: { target: { value: string } }) =>
    setForm({ ...form, [key]: event.target.value });

  const reset = () => {
    setForm(EMPTY);
    captchaRef.current?.reset();
    setCaptcha(null);
  };

  const solved = (payload: string | null) => {
    setCaptcha(payload);
    // Solving the captcha answers 'Please verify the reCAPTCHA!'.
    if (payload) {
      setOutcome((current) =>
        current?.kind === 'error' && current.message === CAPTCHA_MESSAGES.missing ? null : current,
      );
    }
  };

  const close = () => {
    setOutcome(null);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit) return;
    if (!captcha) {
      setOutcome({ kind: 'error', message: CAPTCHA_MESSAGES.missing });
      return;
    }
    setSubmitting(true);
    setOutcome(null);
    try {
      await register({ ...form, email: form.email.trim() }, captcha);
      setOutcome({ kind: 'success' });
    } catch (failure) {
      setOutcome({
        kind: 'error',
        message: failure instanceof AccessError ? failure.message : REGISTER_MESSAGES.failed,
      });
    } finally {
      // The spec resets the form after both outcomes; a captcha solution is good for one use only.
      reset();
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Register"
      description="Rotunda is for people who work in and around California state government. Register with your work email."
      onClose={close}
    >
      {outcome?.kind === 'success' ? (
        <div className="form dialog__body">
          <FormAlert tone="success">
            <p className="form-alert__title">{REGISTER_MESSAGES.success}</p>
            <p className="form-alert__text">{REGISTER_MESSAGES.junkFolder}</p>
          </FormAlert>
          <button
            ref={goToLogin}
            type="button"
            className="button button--primary button--block"
            onClick={() => {
              setOutcome(null);
              openDialog('login');
            }}
          >
            Go to login
          </button>
        </div>
      ) : (
        <form ref={formRef} className="form dialog__body" onSubmit={submit} aria-busy={submitting} noValidate>
          <div className="form__row">
            <TextField
              label="First name"
              name="first_name"
              data-autofocus
              autoComplete="given-name"
              required
              value={form.first_name}
              onChange={update('first_name')}
            />
            <TextField
              label="Last name"
              name="last_name"
              autoComplete="family-name"
              required
              value={form.last_name}
              onChange={update('last_name')}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="register-email">
              Work email
            </label>
            <input
              id="register-email"
              className="field__input"
              type="email"
              name="email"
              autoComplete="email"
              required
              aria-invalid={ineligible || undefined}
              aria-describedby="register-access-note"
              value={form.email}
              onChange={update('email')}
            />
            <div id="register-access-note" aria-live="polite">
              {ineligible && (
                <p className="form__note">
                  This email is not approved for Rotunda yet. If you cannot register, email{' '}
                  {accessEmail ? (
                    <a href={`mailto:${accessEmail}?subject=${encodeURIComponent('Rotunda access request')}`}>
                      {accessEmail}
                    </a>
                  ) : (
                    'the Rotunda team'
                  )}{' '}
                  to request access.
                </p>
              )}
            </div>
          </div>
          <NewPasswordField
            label="Password"
            checklistId="register-password-rules"
            value={form.password}
            onChange={(password) => setForm({ ...form, password })}
          />
          <Captcha ref={captchaRef} onChange={solved} />
          {outcome?.kind === 'error' && <FormAlert tone="error">{outcome.message}</FormAlert>}
          <button type="submit" className="button button--primary button--block" disabled={!canSubmit}>
            {submitting && <Spinner size="inline" />}
            {submitting ? 'Registering…' : ineligible ? REGISTER_MESSAGES.unavailable : 'Register'}
          </button>
          <p className="form__footer">
            Already registered?{' '}
            <button type="button" className="link-button" onClick={() => openDialog('login')}>
              Log in
            </button>
          </p>
        </form>
      )}
    </Dialog>
  );
}
