// Who may do what to organizations (docs/product.md#6-roles-and-permissions) and the refusal texts the org
// service answers with: the Cal-Access ID is a contributor's to give, only for its groups and only as a filer
// number; names must be names; a group is one of the fixed ones. Every change is curation, recorded under
// whoever made it.
import { CAL_ACCESS_MESSAGES, hasCalAccessId, isCalAccessId, nameProblem } from '@rotunda/rules';
import {
  ACCESS_MESSAGES,
  type Caller,
  invalidArgument,
  isContributor,
  permissionDenied,
} from '@rotunda/service-kit';
import type { Curation } from './history.ts';
import { GROUPS, type Group } from './organization.ts';

export const MESSAGES = {
  ...ACCESS_MESSAGES,
  organizationNotFound: 'Organization not found',
  calAccessGroups: CAL_ACCESS_MESSAGES.groups,
  calAccessShape: CAL_ACCESS_MESSAGES.shape,
  calAccessContributorsOnly: CAL_ACCESS_MESSAGES.contributorsOnly,
  unknownGroup: (name: string) =>
    `Unknown type of organization "${name}". Choose one of: ${GROUPS.map((g) => g.groupName).join(', ')}.`,
  noImage: 'Please select an image to upload.',
  exportLimit: (max: number) => `A page of names holds 1 to ${max} rows (0: every one).`,
} as const;

/** The group by name, ignoring case and outer spaces. */
export function groupNamed(name: string): Group | undefined {
  const wanted = name.trim().toLowerCase();
  return GROUPS.find((group) => group.groupName.toLowerCase() === wanted);
}

/**
 * A name that is not one ('0', '1e+308', '----') or that holds a control, format or replacement character is
 * refused; a blank one is the required-fields rule's.
 */
export function checkName(label: string, name: string | null | undefined) {
  const problem = nameProblem(label, name);
  if (problem) throw invalidArgument(problem);
}

/**
 * A Cal-Access ID is given only by a contributor (docs/product.md#6-roles-and-permissions: the lobbying filer
 * id is theirs to see and edit), only for its groups, and only as a filer number. Blank (clearing it, or
 * nothing to set) needs no check.
 */
export function checkCalAccessId(caller: Caller, groupName: string, lobbyFilerId: string | null | undefined) {
  if (!lobbyFilerId) return;
  if (!isContributor(caller)) throw permissionDenied(MESSAGES.calAccessContributorsOnly);
  if (!hasCalAccessId(groupName)) throw invalidArgument(MESSAGES.calAccessGroups);
  if (!isCalAccessId(lobbyFilerId)) throw invalidArgument(MESSAGES.calAccessShape);
}

/**
 * Every change to an organization is curation: nobody owns one, so its history names whoever made each change
 * (contributors' edits and logos; members adding an organization or a division from the job form).
 */
export function curation(caller: Caller, action: Curation['action'], changes: Curation['changes']): Curation {
  return { actorUserId: caller.userId, action, changes };
}
