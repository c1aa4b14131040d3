// The Headlines panel of the public square: the day's news cards, each opening the article in a new tab.
import { Spinner, shuffle } from '@rotunda/ui';
import { Newspaper } from 'lucide-react';
import { useEffect, useState } from 'react';
import { fetchHeadlines, formatPacificTime, type Headline, newestCreatedAt } from './news';
import './headlines.css';

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; headlines: Headline[] };

export function Headlines() {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchHeadlines(controller.signal).then(
      (headlines) => setState({ status: 'ready', headlines: shuffle(headlines) }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          console.error('Headlines could not be loaded', error);
          setState({ status: 'error' });
        }
      },
    );
    return () => controller.abort();
  }, []);

  const updated = state.status === 'ready' ? newestCreatedAt(state.headlines) : null;

  return (
    <section
      className="panel headlines"
      aria-labelledby="headlines-title"
      aria-busy={state.status === 'loading'}
    >
      <header className="headlines__header">
        <h2 id="headlines-title" className="headlines__title">
          <Newspaper size={18} aria-hidden="true" />
          Headlines
        </h2>
        {updated && (
          <p className="headlines__updated">
            Updated <time dateTime={updated.toISOString()}>{formatPacificTime(updated)}</time>
          </p>
        )}
      </header>
      {state.status === 'loading' && (
        <div className="headlines__status">
          <Spinner label="Loading headlines" />
        </div>
      )}
      {state.status === 'error' && (
        <p className="headlines__message">Headlines are unavailable right now. Please check back later.</p>
      )}
      {state.status === 'ready' && state.headlines.length === 0 && (
        <p className="headlines__message">No headlines yet today.</p>
      )}
      {state.status === 'ready' && state.headlines.length > 0 && (
        <ul className="headlines__list">
          {state.headlines.map((headline) => (
            <li key={headline.url}>
              <HeadlineCard headline={headline} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function HeadlineCard({ headline }: { headline: Headline }) {
  const [logoFailed, setLogoFailed] = useState(false);
  return (
    <a className="headline-card" href={headline.url} target="_blank" rel="noopener noreferrer">
      <span className="headline-card__publication">
        {headline.logo && !logoFailed && (
          // The publication's name follows as text, so the logo is decorative.
          <img
            className="headline-card__logo"
            src={headline.logo}
            alt=""
            width={18}
            height={18}
            loading="lazy"
            onError={() => setLogoFailed(true)}
          />
        )}
        {headline.publication}
      </span>
      <span className="headline-card__title">{headline.title}</span>
      {headline.snippet && <span className="headline-card__snippet">{headline.snippet}</span>}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}
