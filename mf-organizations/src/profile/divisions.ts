// What the Divisions view lists (docs/product.md#2-screens-and-routes): active divisions only, sorted by
// name, grouped under their division types; the first type is selected at first.
import type { Division } from '../api';

const byName = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true });

/** Active divisions sorted by name (case-insensitive, numbers in order). */
export function activeDivisionsByName(divisions: readonly Division[]): Division[] {
  return divisions
    .filter((division) => division.active_division)
    .sort((a, b) => byName.compare(a.division_name, b.division_name));
}

/** The division types among the active divisions, alphabetically; a missing type reads 'Division'. */
export function divisionTypes(divisions: readonly Division[]): string[] {
  const types = new Set(activeDivisionsByName(divisions).map(typeOf));
  return [...types].sort((a, b) => byName.compare(a, b));
}

export const typeOf = (division: Division): string => division.division_type?.trim() || 'Division';

/** The Divisions tab shows whenever the organization has a division (docs/adr/0010). */
export const showsDivisionsTab = (divisions: readonly Division[] | undefined): boolean =>
  (divisions?.length ?? 0) > 0;
