// The lists the filters and forms pick from: the organization groups (GET /api/orgs/organization-groups; the
// directory's and the organization list's group filters) and the issue areas (GET /api/issues/; the directory's
// issue filter and the profile's issue areas).
import { asList, call } from './api';

export interface Group {
  group_id: number;
  group_name: string;
}

export interface IssueArea {
  issue_id: number;
  issue_name: string;
}

export async function fetchGroups(signal?: AbortSignal): Promise<Group[]> {
  return asList(
    await call<unknown>('GET', '/api/orgs/organization-groups', { signal }),
    'organization-groups',
  );
}

export async function fetchIssues(signal?: AbortSignal): Promise<IssueArea[]> {
  return asList(await call<unknown>('GET', '/api/issues/', { signal }), 'issues');
}
