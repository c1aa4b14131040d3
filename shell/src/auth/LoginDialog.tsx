// The login dialog: email and password, Enter submits; links to register and to the password reset request.
// On success the session is stored (the session keeper takes it over) and the user goes where the route
// table sends them; after any failure the session is cleared and the form emptied
// (docs/product.md#8-error-catalogue). While the account is slowed down after wrong passwords the server asks
// for a captcha: the dialog then shows it, and the right password with the solved captcha gets in at once.
// Agency sign-in (ADR 0044): once the email is well formed the server is asked which agency signs it in; if
// one does, the dialog offers "Continue with <agency>" (the browser goes to the agency's sign-in and comes back
// to /agency-sign-in) in place of the password, which stays one click away for anyone who has one.
import { CAPTCHA_MESSAGES, emailDomain, isDomainName } from '@rotunda/rules';
import { clearSession, homePathFor, setSession } from '@rotunda/session';
import { Dialog, Spinner } from '@rotunda/ui';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUi } from '../ui';
import {
  AccessError,
  AGENCY_MESSAGES,
  type AgencyBrief,
  CaptchaRequiredError,
  findAgency,
  LOGIN_MESSAGES,
  logIn,
  startAgencySignIn,
} from './api';
import { Captcha, type CaptchaHandle } from './Captcha';
import { FormAlert } from './FormAlert';
import { AccountEmailField } from './fields';
import { leaveFor } from './leave';

/** How long typing must pause before the server is asked which agency signs the email in. */
export const AGENCY_DEBOUNCE_MS = 300;

/**
 * The agency that signs `email` in, asked when typing pauses (or at once through `askNow`, on leaving the
 * field), once per domain: the answer depends on the domain only. Null while the domain has none, or the
 * question failed (the password sign-in then stays, as for everyone).
 */
function useAgency(email: string): { agency: AgencyBrief | null; askNow: () => void } {
  const address = email.trim();
  const typed = emailDomain(address);
  const domain = typed && isDomainName(typed) ? typed : null;
  const [found, setFound] = useState<{ domain: string; agency: AgencyBrief | null } | null>(null);
  const latest = useRef(address);
  latest.current = address;
  const ask = useRef<() => void>(() => {});

  useEffect(() => {
    if (!domain) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const askOnce = () => {
      clearTimeout(timer);
      ask.current = () => {};
      findAgency(latest.current, controller.signal).then(
        (agency) => setFound({ domain, agency }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.warn('Could not ask which agency signs this email in', error);
          setFound({ domain, agency: null });
        },
      );
    };
    ask.current = askOnce;
    timer = setTimeout(askOnce, AGENCY_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
      ask.current = () => {};
    };
  }, [domain]);

  return {
    agency: domain && found?.domain === domain ? found.agency : null,
    askNow: () => ask.current(),
  };
}

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
  const { agency, askNow } = useAgency(email);
  // The agency whose step the member set aside for their Rotunda password.
  const [passwordFor, setPasswordFor] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const continueRef = useRef<HTMLButtonElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const agencyStep = agency !== null && passwordFor !== agency.alias;

  // The password field goes away with the agency step: if the focus was in it, it moves to Continue.
  useEffect(() => {
    if (agencyStep && !formRef.current?.contains(document.activeElement)) continueRef.current?.focus();
  }, [agencyStep]);

  // Back from the agency's page to this one kept in the browser's page cache: Continue works again.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setStarting(false);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  const choosePassword = () => {
    if (!agency) return;
    setError(null);
    setPasswordFor(agency.alias);
  };

  // The password field appears once the member chose it: the focus goes there.
  useEffect(() => {
    if (passwordFor) passwordRef.current?.focus();
  }, [passwordFor]);

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
    setPasswordFor(null);
    closeDialog();
  };

  const continueWithAgency = async () => {
    if (starting) return;
    setStarting(true);
    setError(null);
    try {
      // The page leaves for the agency's sign-in: the button stays busy until it does.
      leaveFor(await startAgencySignIn(email.trim()));
    } catch (failure) {
      setError(failure instanceof AccessError ? failure.message : AGENCY_MESSAGES.startFailed);
      setStarting(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (agencyStep) {
      void continueWithAgency();
      return;
    }
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
      <form className="form dialog__body" onSubmit={submit} aria-busy={submitting || starting} ref={formRef}>
        <AccountEmailField value={email} onChange={setEmail} onBlur={askNow} />
        <p className="visually-hidden" aria-live="polite">
          {agencyStep ? `${agency.name} signs you in to Rotunda.` : ''}
        </p>
        {agencyStep ? (
          <div className="login-agency">
            <p id="login-agency-text" className="login-agency__text">
              {agency.name} signs you in to Rotunda.
            </p>
            {error && <FormAlert tone="error">{error}</FormAlert>}
            <button
              ref={continueRef}
              type="submit"
              aria-describedby="login-agency-text"
              className="button button--primary button--block"
              disabled={starting}
            >
              {starting && <Spinner size="inline" />}
              Continue with {agency.name}
            </button>
            <button type="button" className="link-button" onClick={choosePassword}>
              Sign in with a Rotunda password instead
            </button>
          </div>
        ) : (
          <>
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
                ref={passwordRef}
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
          </>
        )}
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
