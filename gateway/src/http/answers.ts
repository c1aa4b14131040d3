// Shaping service answers into the spec's JSON: what gRPC leaves out is null, and instants are ISO text.
import type { Division as OrgDivision } from '@rotunda/protos/org';
import type { Division as ProfileDivision } from '@rotunda/protos/profile';

export const orNull = <T>(value: T | undefined): T | null => value ?? null;

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
    street_address: orNull(division.street_address),
    suite_number: orNull(division.suite_number),
    city: orNull(division.city),
    state: orNull(division.state),
    zip_code: orNull(division.zip_code),
    division_phone: orNull(division.division_phone),
    website: orNull(division.website),
  };
}
