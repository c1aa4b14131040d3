// One card of the people directory: picture (or a placeholder), name (the preferred name in place of the first
// when given, as the person asked to be called), current title, organization with the division when there is
// one, and city and state. The whole card is one link to /profile/{id}, so a click,
// Enter on the focused card, or opening it in a new tab all work as people expect.
import { shownFirstName } from '@rotunda/rules';
import { Building2, MapPin } from 'lucide-react';
import { Link } from 'react-router';
import type { PersonCard as Person } from '../api';
import { PersonPicture } from './PersonPicture';
import { VerifiedEmployerBadge } from './VerifiedEmployerBadge';

const clean = (value: string | null): string => value?.trim() ?? '';

/** 'Sacramento, CA', or whichever of the two is known; '' when neither. */
export function placeOf(person: Pick<Person, 'city' | 'state'>): string {
  return [clean(person.city), clean(person.state)].filter(Boolean).join(', ');
}

export function PersonCard({ person }: { person: Person }) {
  const name = `${shownFirstName(person)} ${person.last_name}`.trim();
  const title = clean(person.title);
  const organization = clean(person.organization_name);
  const division = clean(person.division_name);
  const place = placeOf(person);
  return (
    <Link className="link-card dir-card" to={`/profile/${encodeURIComponent(person.profile_id)}`}>
      <span className="dir-card__top">
        <PersonPicture profileId={person.profile_id} picture={person.profile_picture} />
        <span className="dir-card__heading">
          <span className="link-card__name dir-card__name">{name}</span>
          {title && <span className="dir-card__title">{title}</span>}
          {person.verified_employer && <VerifiedEmployerBadge />}
        </span>
      </span>
      {(organization || division || place) && (
        <span className="link-card__details">
          {(organization || division) && (
            <span className="link-card__line dir-card__line">
              <Building2 size={16} aria-hidden="true" />
              <span>
                {organization && <span className="dir-card__organization">{organization}</span>}
                {division && <span className="dir-card__division">{division}</span>}
              </span>
            </span>
          )}
          {place && (
            <span className="link-card__line dir-card__line">
              <MapPin size={16} aria-hidden="true" />
              <span>{place}</span>
            </span>
          )}
        </span>
      )}
    </Link>
  );
}
