// The People tab's list (docs/product.md#2-screens-and-routes) as cards take it, and the Title, Office and
// Location filter options and the filtering. The profile service answers everyone working there, one per
// profile, in random order (services/profile organizationColleagues): the list keeps that order and leaves
// out the member's own profile (docs/product.md#2-screens-and-routes).
import type { Colleague } from '@rotunda/ui';
import type { Division } from '../api';

export interface Person {
  profileId: string;
  name: string;
  picture: string | null;
  title: string;
  officeId: number | null;
  office: string;
  location: string;
  phone: string;
  email: string;
}

export interface PeopleFilters {
  title: string;
  /** A division id as text, or ''. */
  office: string;
  location: string;
}

export const NO_FILTERS: PeopleFilters = { title: '', office: '', location: '' };

const text = (value: string | null | undefined): string => value?.trim() ?? '';
const collator = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

/** 'City, ST', either part alone, or ''. */
export function locationOf(city: string | null | undefined, state: string | null | undefined): string {
  return [text(city), text(state)].filter(Boolean).join(', ');
}

/** The colleagues as the cards show them, in the order given, without `ownProfileId`. */
export function peopleFrom(colleagues: readonly Colleague[], ownProfileId: number | null): Person[] {
  const own = ownProfileId === null ? null : String(ownProfileId);
  return colleagues.flatMap((entry) => {
    const info = entry.ProfileInfo;
    const profileId = String(entry.profile_id ?? info?.profile_id ?? '');
    if (profileId === own) return [];
    return {
      profileId,
      name: [text(info?.first_name), text(info?.last_name)].filter(Boolean).join(' ') || 'Member',
      picture: text(info?.profile_picture) || null,
      title: text(entry.title),
      officeId: entry.Division?.division_id ?? null,
      office: text(entry.Division?.division_name),
      location: locationOf(entry.city, entry.state),
      phone: text(info?.other_phone),
      email: text(info?.work_email),
    };
  });
}

/** The distinct non-empty values, sorted. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter(Boolean))].sort(collator.compare);
}

export const titleOptions = (people: readonly Person[]): string[] => distinct(people.map((p) => p.title));
export const locationOptions = (people: readonly Person[]): string[] =>
  distinct(people.map((p) => p.location));

/**
 * The Office filter shows only with 2 or more divisions (docs/product.md#9-business-constants-and-limits);
 * its options are those divisions.
 */
export function officeOptions(divisions: readonly Division[]): { id: string; name: string }[] {
  if (divisions.length < 2) return [];
  return [...divisions]
    .sort((a, b) => collator.compare(a.division_name, b.division_name))
    .map((division) => ({ id: String(division.division_id), name: division.division_name }));
}

export function filterPeople(people: readonly Person[], filters: PeopleFilters): Person[] {
  return people.filter(
    (person) =>
      (!filters.title || person.title === filters.title) &&
      (!filters.office || String(person.officeId) === filters.office) &&
      (!filters.location || person.location === filters.location),
  );
}
