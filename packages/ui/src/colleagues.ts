// The people with a current job at an organization (POST /api/profiles/organization-colleagues,
// docs/product.md#3-entities-and-their-fields Colleague entry), which the profile page's Colleagues panel and
// the organization's People tab both list.
import { asList, call } from './api';

/** One person at the organization; the profile service leaves out the caller's own profile. */
export interface Colleague {
  profile_id: number;
  title: string | null;
  city: string | null;
  state: string | null;
  Division: { division_id: number; division_name: string } | null;
  /** The person's names and work contact; null when the profile could not be read. */
  ProfileInfo: {
    profile_id: number;
    first_name: string;
    last_name: string;
    profile_picture: string | null;
    other_phone: string | null;
    work_email: string | null;
  } | null;
}

export async function fetchOrganizationColleagues(
  organizationId: number,
  signal?: AbortSignal,
): Promise<Colleague[]> {
  return asList(
    await call<unknown>('POST', '/api/profiles/organization-colleagues', {
      body: { organization_id: organizationId },
      signal,
    }),
    'organization-colleagues',
  );
}
