// The password reset request dialog (docs/product.md#2-screens-and-routes, #8-error-catalogue): email and
// captcha. The answer never says whether the address has an account; a link arrives by mail when it does.
import { CAPTCHA_MESSAGES } from '@rotunda/rules';
import { Dialog, Spinner } from '@rotunda/ui';
import { type FormEvent, useRef, useState } from 'react';
import { useUi } from '../ui';
import { AccessError, RESET_REQUEST_MESSAGES, requestPasswordReset } from './api';
import { Captcha, type CaptchaHandle } from './Captcha';
import { FormAlert } from './FormAlert';
import { AccountEmailField } from './fields';

type Outcome = { tone: 'success' | 'error'; message: string } | null;

export function ResetRequestDialog() {
  const open = useUi((s) => s.dialog === 'reset-request');
  const closeDialog = useUi((s) => s.closeDialog);
  const openDialog = useUi((s) => s.openDialog);
  const [email, setEmail] = useState('');
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submitting, setSubmitting] = useState(false);
  const captchaRef = useRef<CaptchaHandle>(null);

  const solved = (payload: string | null) => {
    setCaptcha(payload);
    // Solving the captcha answers 'Please verify the reCAPTCHA!'.
    if (payload) setOutcome((current) => (current?.message === CAPTCHA_MESSAGES.missing ? null : current));
  };

  const close = () => {
    setOutcome(null);
    closeDialog();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() === '' || submitting) return;
    if (!captcha) {
      setOutcome({ tone: 'error', message: CAPTCHA_MESSAGES.missing });
      return;
    }
    setSubmitting(true);
    setOutcome(null);
    try {
      await requestPasswordReset(email.trim(), captcha);
      setOutcome({ tone: 'success', message: RESET_REQUEST_MESSAGES.success });
      setEmail('');
    } catch (failure) {
      setOutcome({
        tone: 'error',
        message: failure instanceof AccessError ? failure.message : RESET_REQUEST_MESSAGES.failed,
      });
    } finally {
      // A captcha solution is good for one request only.
      captchaRef.current?.reset();
      setCaptcha(null);
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      title="Reset your password"
      description="Enter the email you registered with and we will send you a link to choose a new password."
      onClose={close}
    >
      <form className="form dialog__body" onSubmit={submit} aria-busy={submitting} noValidate>
        <AccountEmailField value={email} onChange={setEmail} />
        <Captcha ref={captchaRef} onChange={solved} />
        {outcome && <FormAlert tone={outcome.tone}>{outcome.message}</FormAlert>}
        <button
          type="submit"
          className="button button--primary button--block"
          // Marked rather than disabled: it keeps the keyboard focus while sending and once the field is emptied.
          aria-disabled={submitting || email.trim() === '' || undefined}
        >
          {submitting && <Spinner size="inline" />}
          {submitting ? 'Sending…' : 'Send reset link'}
        </button>
        <p className="form__footer">
          Remembered it?{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setOutcome(null);
              openDialog('login');
            }}
          >
            Log in
          </button>
        </p>
      </form>
    </Dialog>
  );
}
