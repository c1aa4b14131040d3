// The 404 page, also shown at /error.
import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import '@rotunda/ui/message-panel.css';

export function NotFound() {
  return (
    <section className="message-panel not-found" aria-labelledby="not-found-title">
      <span className="message-panel__icon" aria-hidden="true">
        <Compass size={32} />
      </span>
      <h1 id="not-found-title" className="message-panel__title">
        ERROR 404: This page is not in session.
      </h1>
      <p className="message-panel__text not-found__text">
        The page you are looking for has adjourned, or it never convened.
      </p>
      <Link className="button button--primary" to="/public-square">
        RETURN TO SESSION
      </Link>
    </section>
  );
}
