// The stand-in gateway of @rotunda/ui/testing (a handler per "METHOD path", every call recorded), and the records
// the directory reads (people, groups, issues) with sensible defaults.

import type { IssueArea } from '@rotunda/ui';
import { type Handler, json, type RecordedCall, stubFetch } from '@rotunda/ui/testing';
import type { PersonCard } from '../../src/api';

export { type Handler, json, type RecordedCall, refusal, stubFetch as stubApi } from '@rotunda/ui/testing';

export function person(overrides: Partial<PersonCard> = {}): PersonCard {
  const id = overrides.profile_id ?? 1;
  return {
    profile_id: id,
    first_name: 'Person',
    last_name: String(id),
    preferred_name: null,
    profile_picture: null,
    title: 'Policy Analyst',
    organization_name: 'Department of Finance',
    division_name: null,
    group_type: 'Agencies',
    city: 'Sacramento',
    state: 'CA',
    verified_employer: false,
    ...overrides,
  };
}

export const people = (count: number, from = 1): PersonCard[] =>
  Array.from({ length: count }, (_, i) => person({ profile_id: from + i }));

/**
 * The search endpoint over `all`, paged by offset and limit as the gateway does, counting up to `countUpTo` (or
 * one past the page asked for) as the profile service does.
 */
export function searchOf(all: PersonCard[], countUpTo = 1000): Handler {
  return (call) => {
    const offset = Number(call.url.searchParams.get('offset'));
    const limit = Number(call.url.searchParams.get('limit'));
    const bound = Math.max(countUpTo, offset + limit + 1);
    return json({
      profiles: all.slice(offset, offset + limit),
      total: Math.min(all.length, bound),
      total_is_lower_bound: all.length > bound,
      offset,
      limit,
    });
  };
}

export const GROUPS = [
  'Associations',
  'Agencies',
  "Governor's Office",
  'Legislature',
  'Lobbyists',
  'Unions',
  'Campaigns',
  'Other',
].map((group_name, i) => ({ group_id: i + 1, group_name }));

/** As the server might answer them: not in alphabetical order. */
export const ISSUES: IssueArea[] = [
  { issue_id: 3, issue_name: 'Water' },
  { issue_id: 1, issue_name: 'Housing' },
  { issue_id: 4, issue_name: 'agriculture' },
  { issue_id: 2, issue_name: 'Education' },
];

export const SEARCH_PATH = '/api/profiles/search';

/** The directory's three endpoints; `search` answers the people search. */
export function stubDirectory(search: Handler = searchOf(people(3))): RecordedCall[] {
  return stubFetch({
    [`GET ${SEARCH_PATH}`]: search,
    'GET /api/orgs/organization-groups': () => json(GROUPS),
    'GET /api/issues/': () => json(ISSUES),
  });
}

export const searchCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.pathname === SEARCH_PATH);
