// The page an agency's sign-in comes back to, /agency-sign-in (ADR 0044): Keycloak sends the browser here
// with ?code=…&state=… (or ?error=…&error_description=…). The page takes them off the address bar at once (a
// code in the history or a shared link is of no use to anyone, and must not be tried twice), finishes the
// sign-in, stores the session as a password login does and goes where one would: the profile the sign-in
// claimed, else the member's home. A refusal says why and offers the login dialog again. Never indexed.
import { clearSession, homePathFor, setSession } from '@rotunda/session';
import { Spinner } from '@rotunda/ui';
import { CircleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AccessError, AGENCY_MESSAGES, type AgencySignIn, completeAgencySignIn } from '../auth/api';
import { useUi } from '../ui';
import { useHeadingFocus } from './useHeadingFocus';
import '@rotunda/ui/message-panel.css';

export const FIRST_SIGN_IN_NOTICE = 'Welcome to Rotunda! Your agency confirmed your email.';

// A code works once: remember the answer per state, so that a second render of the page (React StrictMode in
// development, a remount) does not spend it again and then report a failure.
const completions = new Map<string, Promise<AgencySignIn>>();

function completeOnce(code: string, state: string): Promise<AgencySignIn> {
  let completion = completions.get(state);
  if (!completion) {
    completion = completeAgencySignIn(code, state);
    completions.set(state, completion);
  }
  return completion;
}

/** What the identity provider's own error means for the member. */
function errorReason(error: string, description: string | null): string {
  if (description) return description;
  return error === 'access_denied' ? AGENCY_MESSAGES.cancelled : AGENCY_MESSAGES.refusedAtAgency;
}

interface Returned {
  code: string | null;
  state: string | null;
  error: string | null;
  errorDescription: string | null;
}

export function AgencyCallback() {
  const location = useLocation();
  const navigate = useNavigate();
  const openDialog = useUi((s) => s.openDialog);
  const showNotice = useUi((s) => s.showNotice);
  // Read once: the address bar loses them right after.
  const [returned] = useState<Returned>(() => {
    const query = new URLSearchParams(location.search);
    return {
      code: query.get('code'),
      state: query.get('state'),
      error: query.get('error'),
      errorDescription: query.get('error_description'),
    };
  });
  const [failure, setFailure] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  useHeadingFocus(frame, failure);

  useEffect(() => {
    if (location.search) navigate(location.pathname, { replace: true });
  }, [location.search, location.pathname, navigate]);

  useEffect(() => {
    const { code, state, error, errorDescription } = returned;
    if (error) {
      setFailure(errorReason(error, errorDescription));
      return;
    }
    if (!code || !state) {
      setFailure(AGENCY_MESSAGES.incomplete);
      return;
    }
    let current = true;
    completeOnce(code, state).then(
      ({ user, refreshToken, firstSignIn, claimedProfileId }) => {
        if (!current) return;
        setSession(user, refreshToken);
        const landing = claimedProfileId !== null ? `/profile/${claimedProfileId}` : homePathFor(user);
        if (firstSignIn) showNotice('success', FIRST_SIGN_IN_NOTICE, landing);
        navigate(landing, { replace: true });
      },
      (problem: unknown) => {
        if (!current) return;
        clearSession();
        if (!(problem instanceof AccessError)) console.error('Could not finish an agency sign-in', problem);
        setFailure(problem instanceof AccessError ? problem.message : AGENCY_MESSAGES.completeFailed);
      },
    );
    return () => {
      current = false;
    };
  }, [returned, navigate, showNotice]);

  return (
    <div ref={frame}>
      <meta name="robots" content="noindex" />
      {failure === null ? (
        <div className="remote-status" role="status">
          <Spinner size="inline" /> Signing you in…
        </div>
      ) : (
        <section className="message-panel auth-page" aria-labelledby="agency-callback-title">
          <span className="message-panel__icon" aria-hidden="true">
            <CircleAlert size={28} />
          </span>
          <h1 id="agency-callback-title" className="message-panel__title">
            Sign-in did not finish
          </h1>
          <p className="message-panel__text auth-page__text">{failure}</p>
          <button type="button" className="button button--primary" onClick={() => openDialog('login')}>
            Log in again
          </button>
        </section>
      )}
    </div>
  );
}
