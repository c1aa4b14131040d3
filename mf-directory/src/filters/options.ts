// What the directory's filters offer: the organization groups less 'Campaigns', then 'Elected Officials' (people
// whose current title is one of the spec's elected offices) and 'Other' (people at an organization of the group
// Other, or with no current organization), both matched on the server; and the issue areas in alphabetical
// order. Both lists come from the server; a failed call leaves only what needs no server ('All groups',
// 'Elected Officials', 'Other', 'All issues').
import {
  DIRECTORY_HIDDEN_GROUPS,
  ELECTED_OFFICIALS_GROUP as ELECTED_OFFICIALS,
  OTHER_GROUP as OTHER,
} from '@rotunda/rules';
import { fetchGroups, fetchIssues, type Group, type IssueArea } from '@rotunda/ui';
import { useEffect, useMemo, useState } from 'react';

export { ELECTED_OFFICIALS, OTHER };

/** Groups the directory does not offer (docs/product.md#2-screens-and-routes: 'Campaigns' is hidden). */
export const HIDDEN_GROUPS = DIRECTORY_HIDDEN_GROUPS;

/**
 * The group names to offer, in the server's order, then 'Elected Officials' and 'Other'
 * (docs/product.md#2-screens-and-routes: added).
 */
export function groupOptions(groups: readonly Group[]): string[] {
  const added = [ELECTED_OFFICIALS, OTHER];
  const offered = groups
    .map((g) => g.group_name)
    .filter((name) => !HIDDEN_GROUPS.includes(name) && !added.includes(name));
  return [...offered, ...added];
}

/** The issues by name, alphabetically, whatever order the server answered in. */
export function sortedIssues(issues: readonly IssueArea[]): IssueArea[] {
  return [...issues].sort((a, b) =>
    a.issue_name.localeCompare(b.issue_name, 'en', { sensitivity: 'base', numeric: true }),
  );
}

/** A list fetched once for the screen: null until it arrives, [] if it cannot be loaded. */
function useFetchedOnce<T>(fetchList: (signal: AbortSignal) => Promise<T[]>, what: string): T[] | null {
  const [list, setList] = useState<T[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchList(controller.signal).then(setList, (error: unknown) => {
      if (controller.signal.aborted) return;
      console.error(`${what} could not be loaded`, error);
      setList([]);
    });
    return () => controller.abort();
  }, [fetchList, what]);
  return list;
}

/** The group names the filter offers ('Elected Officials' and 'Other' even before, or without, the server's groups). */
export function useGroupOptions(): { names: string[]; loaded: boolean } {
  const groups = useFetchedOnce(fetchGroups, 'Organization groups');
  return { names: groupOptions(groups ?? []), loaded: groups !== null };
}

/** The issue areas the filter offers, alphabetically; null while they load. */
export function useIssueOptions(): IssueArea[] | null {
  const issues = useFetchedOnce(fetchIssues, 'Issue areas');
  return useMemo(() => issues && sortedIssues(issues), [issues]);
}
