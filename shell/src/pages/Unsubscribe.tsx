// The page an email's unsubscribe link opens, /unsubscribe?token=… (no sign-in needed): what unsubscribing
// does, and one button that does it (POST /api/notifications/unsubscribe?token=…), then the outcome in words.
import { Spinner } from '@rotunda/ui';
import { MailX } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type UnsubscribeResult, unsubscribe } from '../notifications/api';
import { useHeadingFocus } from './useHeadingFocus';
import '@rotunda/ui/message-panel.css';
import '../styles/notifications.css';

const OUTCOMES: Record<UnsubscribeResult, { title: string; text: string }> = {
  done: {
    title: 'You are unsubscribed',
    text: 'Rotunda will no longer email you digests or notifications. Emails about your account itself, such as a password reset you ask for, still arrive. You can turn emails back on in Settings.',
  },
  invalid: {
    title: 'This link no longer works',
    text: 'The unsubscribe link is not valid any more. Sign in and choose what Rotunda emails you in Settings.',
  },
  failed: {
    title: 'Something went wrong',
    text: 'You could not be unsubscribed just now. Please try again in a moment.',
  },
};

export function Unsubscribe() {
  const frame = useRef<HTMLElement>(null);
  const token = useSearchParams()[0].get('token') ?? '';
  const [result, setResult] = useState<UnsubscribeResult | null>(token ? null : 'invalid');
  const [busy, setBusy] = useState(false);
  useHeadingFocus(frame, result);

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setResult(await unsubscribe(token));
    setBusy(false);
  };

  const outcome = result ? OUTCOMES[result] : null;
  return (
    <section ref={frame} className="message-panel unsubscribe" aria-labelledby="unsubscribe-title">
      <span className="message-panel__icon" aria-hidden="true">
        <MailX size={28} />
      </span>
      <h1 id="unsubscribe-title" className="message-panel__title">
        {outcome ? outcome.title : 'Unsubscribe from Rotunda emails'}
      </h1>
      {outcome ? (
        <>
          <p className="message-panel__text">{outcome.text}</p>
          {result === 'failed' ? (
            <button type="button" className="button button--primary" onClick={() => void confirm()}>
              Try again
            </button>
          ) : (
            <Link className="button button--secondary" to="/public-square">
              Go to the Public Square
            </Link>
          )}
        </>
      ) : (
        <>
          <p className="message-panel__text">
            Unsubscribing turns off the digest and every email Rotunda sends you as things happen (mentions,
            claim and moderation decisions). Emails about your account itself, such as a password reset you
            ask for, still arrive.
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void confirm()}
            disabled={busy}
          >
            {busy && <Spinner size="inline" />}
            {busy ? 'Unsubscribing…' : 'Unsubscribe'}
          </button>
        </>
      )}
    </section>
  );
}
