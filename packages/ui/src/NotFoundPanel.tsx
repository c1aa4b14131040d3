// The panel a screen shows for a record that is not there (an unknown organization or profile id): an icon, the
// product's "not in session" heading, what may have happened, and the way back (the link given as children).
import { SearchX } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import './message-panel.css';

export interface NotFoundPanelProps {
  title: string;
  text: string;
  /** The way back, e.g. a link to the list. */
  children: ReactNode;
}

export function NotFoundPanel({ title, text, children }: NotFoundPanelProps) {
  const titleId = useId();
  return (
    <section className="message-panel" aria-labelledby={titleId}>
      <span className="message-panel__icon" aria-hidden="true">
        <SearchX size={28} />
      </span>
      <h1 id={titleId} className="message-panel__title">
        {title}
      </h1>
      <p className="message-panel__text">{text}</p>
      {children}
    </section>
  );
}
