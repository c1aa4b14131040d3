// What an owning service announces when a record other services keep a read copy of changes: the record's
// shown fields as they are after the change. Consumers upsert them; nothing is ever inferred from a diff.
export const CHANGES_CHANNEL = 'rotunda_changes';

/** The org service: an organization was added or edited (names and groups show in bylines and searches). */
export interface OrganizationChanged {
  kind: 'organization';
  organization_id: number;
  organization_name: string;
  group_type: string;
  logo: string | null;
  /**
   * The email domains that make a member with a current job there a verified employer: the website's host and
   * the domains a contributor listed, lower-case, without "www." (`organizationEmailDomains` in @rotunda/rules).
   * Absent from announcements of an org service that predates them.
   */
  email_domains?: string[];
}

/** The org service: a division was added or edited. */
export interface DivisionChanged {
  kind: 'division';
  division_id: number;
  division_name: string;
  division_type: string;
  active_division: boolean;
  organization_id: number;
  street_address: string | null;
  suite_number: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  division_phone: string | null;
  website: string | null;
}

/** The profile service: a profile's name, picture, owner, current job or issue areas changed. */
export interface ProfileChanged {
  kind: 'profile';
  profile_id: number;
  user_id: string | null;
  first_name: string;
  last_name: string;
  profile_picture: string | null;
  /**
   * The ids of the issue areas the profile covers, ascending (the public square's "My issue areas" filter).
   * Absent from announcements of a profile service that predates them: keep what the copy holds.
   */
  issue_area_ids?: number[];
}

export type Change = OrganizationChanged | DivisionChanged | ProfileChanged;

const KINDS: ReadonlySet<string> = new Set<Change['kind']>(['organization', 'division', 'profile']);

const isIdList = (ids: unknown) =>
  Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0);

/** The notification's payload back as a change; undefined for anything this version does not know. */
export function parseChange(payload: string | undefined): Change | undefined {
  if (!payload) return undefined;
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value === 'object' && value !== null && KINDS.has((value as { kind?: string }).kind ?? '')) {
      const change = value as Change;
      // A list of issue areas this version cannot read is treated as absent (the copy keeps what it holds).
      if (change.kind === 'profile' && !isIdList(change.issue_area_ids)) delete change.issue_area_ids;
      return change;
    }
  } catch {
    // A payload that is not JSON is not ours.
  }
  return undefined;
}
