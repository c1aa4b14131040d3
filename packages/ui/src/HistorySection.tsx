// The curation history of an organization or a profile for contributors (ADR 0031; GET /api/history/...),
// newest first, each entry "date · who · what" with the fields it changed (old → new), a long list of changes
// folded behind a disclosure and only the latest entries shown until asked for more. The pages render it for
// contributors only, so nobody else's browser asks for it; each app loads it through its own API client.
import { SOCIAL_FIELDS } from '@rotunda/rules';
import { useEffect, useId, useRef, useState } from 'react';
import { Spinner } from './Spinner';
import './history.css';

/** One entry as the gateway answers it (docs/api.md: GET /api/history/...). */
export interface HistoryEntry {
  id: number;
  at: string;
  actor: { user_id: string; first_name: string; last_name: string };
  action: string;
  changes: { field: string; from: string | null; to: string | null }[];
}

const ACTIONS: Record<string, string> = {
  organization_created: 'created the organization',
  organization_edited: 'edited the organization',
  logo_changed: 'changed the logo',
  division_added: 'added a division',
  profile_edited: 'edited the profile',
  bio_edited: 'edited the bio',
  picture_changed: 'changed the picture',
  job_added: 'added a job',
  job_edited: 'edited a job',
  job_deleted: 'deleted a job',
  issue_added: 'added an issue area',
  issue_removed: 'removed an issue area',
  claim_confirmed: 'confirmed a claim',
  claim_rejected: 'rejected a claim',
};

/** Names the forms use where the API's field name reads poorly (a page may name more, or differently). */
const FIELDS: Record<string, string> = {
  zip_code: 'ZIP',
  user_bio: 'Bio',
  profile_picture: 'Picture',
  group_type: 'Type of organization',
  ...Object.fromEntries(SOCIAL_FIELDS.map(({ field, label }) => [field, label])),
  issue_area: 'Issue area',
  current_job: 'Current position',
};

/** Entries shown before "Show older changes". */
const FIRST_ENTRIES = 10;
/** More changes than this in one entry fold behind a disclosure. */
const OPEN_CHANGES = 3;

const fieldLabel = (field: string, names: Record<string, string>) => {
  const words = field.replace(/_/g, ' ');
  return names[field] ?? FIELDS[field] ?? words.charAt(0).toUpperCase() + words.slice(1);
};
const actorName = (actor: HistoryEntry['actor']) =>
  `${actor.first_name} ${actor.last_name}`.trim() || 'A member without a profile';
const when = (at: string) =>
  new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; entries: HistoryEntry[] };

export interface HistorySectionProps {
  /** Reads the entries, newest first. */
  load: (signal: AbortSignal) => Promise<HistoryEntry[]>;
  /** A new value (another record, or a change saved on the page) reads the history again. */
  refreshKey: unknown;
  /** The page's panel and section-title classes, so the section looks like its neighbours. */
  panelClassName: string;
  titleClassName: string;
  /** Field names this page's forms use, over the common ones. */
  fieldNames?: Record<string, string>;
}

export function HistorySection({
  load,
  refreshKey,
  panelClassName,
  titleClassName,
  fieldNames = {},
}: HistorySectionProps) {
  const titleId = useId();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [showAll, setShowAll] = useState(false);

  // A change saved on the page (a new `refreshKey`) or a retry (`attempt`) reads the history again.
  // The latest `load` is used, but a page passing a new function on each render does not read again: only a new
  // `refreshKey` (or a retry) does.
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey and attempt re-trigger the load
  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (entries) => setState({ status: 'ready', entries }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('The history could not be loaded', error);
        setState((previous) => (previous.status === 'ready' ? previous : { status: 'error' }));
      },
    );
    return () => controller.abort();
  }, [refreshKey, attempt]);

  const entries = state.status === 'ready' ? state.entries : [];
  const shown = showAll ? entries : entries.slice(0, FIRST_ENTRIES);
  return (
    <section className={`${panelClassName} history`} aria-labelledby={titleId}>
      <h2 id={titleId} className={titleClassName}>
        History
      </h2>
      {state.status === 'loading' && <Spinner label="Loading history" />}
      {state.status === 'error' && (
        // Not an alert: the page's own content loaded; only this side section did not.
        <p className="history__error">
          The history could not be loaded right now.{' '}
          <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </p>
      )}
      {state.status === 'ready' && entries.length === 0 && (
        <p className="history__empty">No changes recorded yet.</p>
      )}
      {shown.length > 0 && (
        <ol className="history__list">
          {shown.map((entry) => (
            <li key={entry.id} className="history__entry">
              <p className="history__summary">
                <time dateTime={entry.at}>{when(entry.at)}</time>
                <span aria-hidden="true"> · </span>
                <span className="visually-hidden">, </span>
                <span className="history__actor">{actorName(entry.actor)}</span>
                <span aria-hidden="true"> · </span>
                <span className="visually-hidden"> </span>
                {ACTIONS[entry.action] ?? entry.action.replace(/_/g, ' ')}
              </p>
              {entry.changes.length > OPEN_CHANGES ? (
                <details className="history__details">
                  <summary>{entry.changes.length} fields changed</summary>
                  <Changes changes={entry.changes} fieldNames={fieldNames} />
                </details>
              ) : (
                <Changes changes={entry.changes} fieldNames={fieldNames} />
              )}
            </li>
          ))}
        </ol>
      )}
      {!showAll && entries.length > FIRST_ENTRIES && (
        <button type="button" className="button button--secondary" onClick={() => setShowAll(true)}>
          Show {entries.length - FIRST_ENTRIES} older changes
        </button>
      )}
    </section>
  );
}

function Changes({
  changes,
  fieldNames,
}: {
  changes: HistoryEntry['changes'];
  fieldNames: Record<string, string>;
}) {
  return (
    <dl className="history__changes">
      {changes.map((change) => (
        <div key={change.field} className="history__change">
          <dt>{fieldLabel(change.field, fieldNames)}</dt>
          <dd>
            <Value value={change.from} />
            <span aria-hidden="true"> → </span>
            <span className="visually-hidden"> changed to </span>
            <Value value={change.to} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value }: { value: string | null }) {
  return value === null ? (
    <span className="history__none">(empty)</span>
  ) : (
    <span className="history__value">{value}</span>
  );
}
