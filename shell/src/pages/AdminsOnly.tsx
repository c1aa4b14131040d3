// What a member who is not an administrator sees at /admin: what the screen is for and a way back, instead of
// an empty page or a stream of refused requests (as contributors' screens do for other members).
import { KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import '@rotunda/ui/message-panel.css';

export function AdminsOnly() {
  return (
    <section className="message-panel" aria-labelledby="admins-only-title">
      <span className="message-panel__icon" aria-hidden="true">
        <KeyRound size={32} />
      </span>
      <h1 id="admins-only-title" className="message-panel__title">
        Administrators only
      </h1>
      <p className="message-panel__text">
        This page is where administrators decide who may register and who holds which role. To ask for access
        for a colleague, use Feedback.
      </p>
      <Link className="button button--primary" to="/public-square">
        Back to the Public Square
      </Link>
    </section>
  );
}
