// The People view of an organization's profile: Title, Office (with 2 or more divisions) and Location
// filters with Reset, over the colleagues the profile service lists; each person with picture (initials
// without one), name (a link to their profile), title, office, city and state, phone and work email.
// 'No people to show.' when none; an error line with a retry when the list could not be loaded.
import { ErrorLine, Spinner, telHref } from '@rotunda/ui';
import { Mail, MapPin, Phone, RotateCcw } from 'lucide-react';
import { Fragment, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import type { Division } from '../api';
import { displayPhone } from '../common/format';
import { initialsOf } from '../common/OrgLogo';
import {
  filterPeople,
  locationOptions,
  NO_FILTERS,
  officeOptions,
  type PeopleFilters,
  type Person,
  titleOptions,
} from './people';

export type PeopleState =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'ready'; people: Person[] };

export function PeoplePanel({ state, divisions }: { state: PeopleState; divisions: readonly Division[] }) {
  const [filters, setFilters] = useState<PeopleFilters>(NO_FILTERS);
  const people = state.status === 'ready' ? state.people : [];
  const shown = filterPeople(people, filters);
  const offices = officeOptions(divisions);
  const set = (key: keyof PeopleFilters) => (value: string) => setFilters((f) => ({ ...f, [key]: value }));
  const filtered = filters.title !== '' || filters.office !== '' || filters.location !== '';

  return (
    <div className="orgs-people">
      <div className="orgs-people__filters">
        <FilterSelect label="Title" all="All titles" value={filters.title} onChange={set('title')}>
          {titleOptions(people).map((title) => (
            <option key={title} value={title}>
              {title}
            </option>
          ))}
        </FilterSelect>
        {offices.length > 0 && (
          <FilterSelect label="Office" all="All offices" value={filters.office} onChange={set('office')}>
            {offices.map(({ id, name }) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </FilterSelect>
        )}
        <FilterSelect
          label="Location"
          all="All locations"
          value={filters.location}
          onChange={set('location')}
        >
          {locationOptions(people).map((location) => (
            <option key={location} value={location}>
              {location}
            </option>
          ))}
        </FilterSelect>
        <button
          type="button"
          className="button button--quiet orgs-people__reset"
          onClick={() => setFilters(NO_FILTERS)}
          disabled={!filtered}
        >
          <RotateCcw size={16} aria-hidden="true" />
          Reset
        </button>
      </div>
      {state.status === 'loading' ? (
        <div className="status-panel">
          <Spinner label="Loading people" />
        </div>
      ) : state.status === 'error' ? (
        <ErrorLine onRetry={state.retry}>
          The people of this organization could not be loaded right now. Please try again in a moment.
        </ErrorLine>
      ) : shown.length === 0 ? (
        <p className="orgs-panel-empty">No people to show.</p>
      ) : (
        <ul className="orgs-people__list" aria-label="People">
          {shown.map((person) => (
            <li key={person.profileId}>
              <PersonCard person={person} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function FilterSelect({
  label,
  all,
  value,
  onChange,
  children,
}: {
  label: string;
  all: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input field__input--select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{all}</option>
        {children}
      </select>
    </div>
  );
}

function PersonCard({ person }: { person: Person }) {
  const phone = displayPhone(person.phone);
  // A picture that fails to load gives way to the initials, as a missing one does.
  const [failed, setFailed] = useState(false);
  return (
    <article className="orgs-person">
      {person.picture && !failed ? (
        <img
          className="orgs-person__picture"
          src={person.picture}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          onError={() => setFailed(true)}
        />
      ) : (
        <span className="orgs-person__picture orgs-person__picture--initials" aria-hidden="true">
          {initialsOf(person.name)}
        </span>
      )}
      <div className="orgs-person__body">
        <h3 className="orgs-person__name">
          <Link to={`/profile/${encodeURIComponent(person.profileId)}`}>{person.name}</Link>
        </h3>
        {person.title && <p className="orgs-person__title">{person.title}</p>}
        {person.office && <p className="orgs-person__office">{person.office}</p>}
        <ul className="orgs-person__contact">
          {person.location && (
            <li>
              <MapPin size={15} aria-hidden="true" />
              {person.location}
            </li>
          )}
          {phone && (
            <li>
              <Phone size={15} aria-hidden="true" />
              <a href={telHref(phone)}>{phone}</a>
            </li>
          )}
          {person.email && (
            <li>
              <Mail size={15} aria-hidden="true" />
              <a href={`mailto:${person.email}`}>{breakableEmail(person.email)}</a>
            </li>
          )}
        </ul>
      </div>
    </article>
  );
}

/**
 * The address with line-break opportunities after the '@' and before each dot of the domain, so a long
 * address wraps between its parts ('rosa.yamada@' / 'waterstewardship' / '.example.org'), not mid-word.
 */
function breakableEmail(email: string): ReactNode {
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const [first = '', ...rest] = email.slice(at + 1).split('.');
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {first}
      {rest.map((part, i) => (
        // The parts of one address never move: their place is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={i}>
          <wbr />.{part}
        </Fragment>
      ))}
    </>
  );
}
