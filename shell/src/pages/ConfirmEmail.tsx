// The page behind a confirmation link, /confirm-email/:token (docs/product.md#2-screens-and-routes,
// #8-error-catalogue): it confirms the email once on load; success shows 'Your email is confirmed!' with a
// way to log in, failure goes to /error (the 404 page).
import { Spinner } from '@rotunda/ui';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CONFIRM_MESSAGES, confirmRegistration } from '../auth/api';
import { useUi } from '../ui';
import '@rotunda/ui/message-panel.css';

// A confirmation token works once: remember the answer per token so that a second render of the page (React
// StrictMode in development, a remount) does not spend it again and then report a failure.
const confirmations = new Map<string, Promise<boolean>>();

function confirmOnce(token: string): Promise<boolean> {
  let confirmation = confirmations.get(token);
  if (!confirmation) {
    confirmation = confirmRegistration(token);
    confirmations.set(token, confirmation);
  }
  return confirmation;
}

export function ConfirmEmail() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const openDialog = useUi((s) => s.openDialog);
  const [confirmed, setConfirmed] = useState(false);

  useEffect(() => {
    let current = true;
    confirmOnce(token).then((success) => {
      if (!current) return;
      if (success) setConfirmed(true);
      else navigate('/error', { replace: true });
    });
    return () => {
      current = false;
    };
  }, [token, navigate]);

  if (!confirmed) {
    return (
      <div className="remote-status">
        <Spinner label="Confirming your email" />
      </div>
    );
  }
  return (
    <section className="message-panel auth-page" aria-labelledby="confirm-title">
      <span className="message-panel__icon auth-page__icon--success" aria-hidden="true">
        <MailCheck size={28} />
      </span>
      <h1 id="confirm-title" className="message-panel__title">
        {CONFIRM_MESSAGES.success}
      </h1>
      <p className="message-panel__text auth-page__text">
        Thank you. Your Rotunda account is ready: log in to set up your profile and meet the community.
      </p>
      <button type="button" className="button button--primary" onClick={() => openDialog('login')}>
        Log in to Rotunda
      </button>
    </section>
  );
}
