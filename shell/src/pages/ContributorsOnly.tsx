// What a member who is not a contributor sees at a contributors' screen (the moderation queue): what the
// screen is for and a way back, instead of an empty page or a stream of refused requests.
import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import '@rotunda/ui/message-panel.css';

export function ContributorsOnly() {
  return (
    <section className="message-panel" aria-labelledby="contributors-only-title">
      <span className="message-panel__icon" aria-hidden="true">
        <ShieldCheck size={32} />
      </span>
      <h1 id="contributors-only-title" className="message-panel__title">
        Contributors only
      </h1>
      <p className="message-panel__text">
        This page is where Concierge contributors review what members report. To report a post or a comment,
        use Report on it.
      </p>
      <Link className="button button--primary" to="/public-square">
        Back to the Public Square
      </Link>
    </section>
  );
}
