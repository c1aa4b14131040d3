// The REST calls of the directory screen (the paged people search and its CSV export; the organization groups
// and issue areas are @rotunda/ui's lookups) and their answers' shapes, sent with @rotunda/ui's client: every call
// is member-only, so each one carries the member's fresh access token (x-auth-token), and a refusal is an
// ApiError with the server's own message.
import { call, fetchFile } from '@rotunda/ui';

/** One person of the directory, from their current job (GET /api/profiles/search); null where not given. */
export interface PersonCard {
  profile_id: number;
  first_name: string;
  last_name: string;
  /** The name they go by, shown in place of the first name; null when not given. */
  preferred_name: string | null;
  profile_picture: string | null;
  title: string | null;
  organization_name: string | null;
  division_name: string | null;
  group_type: string | null;
  city: string | null;
  state: string | null;
  /** Their confirmed account email is at a domain of their current organization. */
  verified_employer: boolean;
}

export interface PeoplePage {
  profiles: PersonCard[];
  /** Every match, or when `total_is_lower_bound`, the count the server stopped at ("1,000+"). */
  total: number;
  total_is_lower_bound: boolean;
  offset: number;
  limit: number;
}

/**
 * Page size of the directory (docs/product.md#9-business-constants-and-limits: 30 at first, growing by 30).
 */
export const PAGE_SIZE = 30;

export interface PeopleQuery {
  /** Every space-separated word must match a name, the current title, organization or division. */
  search: string;
  /** An organization group name, 'Elected Officials' or 'Other'; '' for everyone. */
  group: string;
  /** An issue_id; '' for every issue. */
  issue: string;
  offset: number;
  limit: number;
}

/** The filters as the search's query parameters; empty ones left out. */
function filterParams(query: Pick<PeopleQuery, 'search' | 'group' | 'issue'>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.group) params.set('group', query.group);
  if (query.issue) params.set('issue', query.issue);
  return params;
}

/** One page of the directory, searched and filtered on the server. Empty filters are left out of the URL. */
export function fetchPeoplePage(query: PeopleQuery, signal?: AbortSignal): Promise<PeoplePage> {
  const params = filterParams(query);
  params.set('offset', String(query.offset));
  params.set('limit', String(query.limit));
  return call<PeoplePage>('GET', `/api/profiles/search?${params}`, { signal });
}

/** The search's people as a CSV file (up to 5,000, work contacts only) and the name the server gave it. */
export function fetchPeopleCsv(
  query: Pick<PeopleQuery, 'search' | 'group' | 'issue'>,
): Promise<{ blob: Blob; fileName: string | null }> {
  const params = filterParams(query);
  return fetchFile(`/api/profiles/search/export.csv${params.size ? `?${params}` : ''}`, {
    accept: 'text/csv',
  });
}
