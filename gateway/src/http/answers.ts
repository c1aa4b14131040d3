// Shaping service answers into the spec's JSON: what gRPC leaves out is null, and instants are ISO text.
import type { Division as OrgDivision } from '@rotunda/protos/org';
import type { Division as ProfileDivision } from '@rotunda/protos/profile';
import { DIVISION_FIELD_NAMES } from '@rotunda/rules';

export const orNull = <T>(value: T | undefined): T | null => value ?? null;

/**
 * These fields of a message by a field table's names, null where not given (a field the message always has
 * stays text). Reading the message by the table's names makes a row the proto lacks a compile error.
 */
export function fieldsJson<N extends string, M extends { [K in N]?: string }>(
  message: M,
  names: readonly N[],
): { [K in N]: undefined extends M[K] ? string | null : string } {
  return Object.fromEntries(names.map((name) => [name, orNull(message[name])])) as {
    [K in N]: undefined extends M[K] ? string | null : string;
  };
}

export const instant = (value: Date | undefined): string | null => value?.toISOString() ?? null;

/**
 * A division or office, as the org service answers it (with its organization's name, for an autocomplete) and as
 * the profile service's jobs and colleagues carry it (without).
 */
export function divisionJson(division: OrgDivision | ProfileDivision) {
  return {
    division_id: division.division_id,
    division_name: division.division_name,
    division_type: division.division_type,
    active_division: division.active_division,
    organization_id: division.organization_id,
    ...('organization_name' in division ? { organization_name: division.organization_name } : {}),
    ...fieldsJson(division, DIVISION_FIELD_NAMES),
  };
}
