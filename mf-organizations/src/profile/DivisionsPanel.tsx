// The Divisions view of an organization's profile: a button per division type (the first selected at
// first) and an accordion of that type's active divisions, sorted by name, each with address, phone and
// website. Native <details>/<summary>, so every row opens with the keyboard and is announced as expandable.
import { NewTabLink, safeHref, telHref } from '@rotunda/ui';
import { ChevronDown, Globe, MapPin, Phone } from 'lucide-react';
import { useState } from 'react';
import type { Division } from '../api';
import { addressLines, displayPhone, displayUrl } from '../common/format';
import { activeDivisionsByName, divisionTypes, typeOf } from './divisions';

export function DivisionsPanel({ divisions }: { divisions: readonly Division[] }) {
  const types = divisionTypes(divisions);
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen !== null && types.includes(chosen) ? chosen : (types[0] ?? null);
  const shown = activeDivisionsByName(divisions).filter((division) => typeOf(division) === selected);

  if (shown.length === 0) return <p className="orgs-panel-empty">No divisions or offices to list.</p>;

  return (
    <div className="orgs-divisions">
      <fieldset className="toggle-row orgs-type-filter">
        <legend className="visually-hidden">Division type</legend>
        {types.map((type) => (
          <button
            key={type}
            type="button"
            className="toggle-pill"
            aria-pressed={type === selected}
            onClick={() => setChosen(type)}
          >
            {type}
          </button>
        ))}
      </fieldset>
      <ul className="orgs-accordion" aria-label={`${selected ?? 'Division'} list`}>
        {shown.map((division) => (
          <li key={division.division_id} className="orgs-accordion__entry">
            <DivisionRow division={division} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function DivisionRow({ division }: { division: Division }) {
  const address = addressLines(division, { withZip: true });
  const phone = displayPhone(division.division_phone);
  const website = safeHref(division.website);
  return (
    <details className="orgs-accordion__item">
      <summary className="orgs-accordion__summary">
        <span className="orgs-accordion__name">{division.division_name}</span>
        <ChevronDown size={18} aria-hidden="true" className="orgs-accordion__chevron" />
      </summary>
      <div className="orgs-accordion__body">
        {address.length === 0 && !phone && !website && (
          <p className="orgs-accordion__none">No contact details on file.</p>
        )}
        {address.length > 0 && (
          <p className="orgs-accordion__line">
            <MapPin size={16} aria-hidden="true" />
            <span>
              <span className="visually-hidden">Address: </span>
              {address.map((line) => (
                <span key={line} className="orgs-contact__line">
                  {line}
                </span>
              ))}
            </span>
          </p>
        )}
        {phone && (
          <p className="orgs-accordion__line">
            <Phone size={16} aria-hidden="true" />
            <span>
              <span className="visually-hidden">Phone: </span>
              <a href={telHref(phone)}>{phone}</a>
            </span>
          </p>
        )}
        {website && (
          <p className="orgs-accordion__line">
            <Globe size={16} aria-hidden="true" />
            <span>
              <span className="visually-hidden">Website: </span>
              <NewTabLink href={website}>{displayUrl(website)}</NewTabLink>
            </span>
          </p>
        )}
      </div>
    </details>
  );
}
