// Organizations, groups and divisions as the org service's rules see them
// (docs/product.md#3-entities-and-their-fields), and the fixed list of organization groups.
import type { DivisionFieldValues, OrganizationFieldValues } from '@rotunda/rules';

/**
 * The organization groups (docs/product.md#3-entities-and-their-fields Group, #5-validation-rules
 * organization types), with ids that never change.
 */
export const GROUPS = [
  { groupId: 1, groupName: 'Associations' },
  { groupId: 2, groupName: 'Agencies' },
  { groupId: 3, groupName: "Governor's Office" },
  { groupId: 4, groupName: 'Legislature' },
  { groupId: 5, groupName: 'Lobbyists' },
  { groupId: 6, groupName: 'Unions' },
  { groupId: 7, groupName: 'Campaigns' },
  { groupId: 8, groupName: 'Other' },
] as const satisfies readonly Group[];

export type GroupName = (typeof GROUPS)[number]['groupName'];

export interface Group {
  groupId: number;
  groupName: string;
}

/**
 * An organization: its name, group and logo, the fields of @rotunda/rules' ORGANIZATION_FIELDS that the form
 * edits (docs/product.md#7-the-calls-it-makes update-organization), and what the verified employer badge reads.
 */
export interface Organization extends OrganizationFieldValues {
  organizationId: number;
  organizationName: string;
  groupId: number;
  groupName: string;
  logo: string | null;
  /** The product's own organization: reachable by id and by name lookups, never listed. */
  hidden: boolean;
  /** Email domains a contributor listed (lower-case host names without "www."), in the order given. */
  emailDomains: string[];
  /** Who set or confirmed the website (a contributor, or 'seed'); null while nobody has. */
  websiteConfirmedBy: string | null;
}

export interface NewOrganization extends OrganizationFieldValues {
  organizationName: string;
  groupId: number;
  logo?: string | null;
  hidden?: boolean;
  emailDomains?: string[];
  websiteConfirmedBy?: string | null;
}

/** What the Verified employer badge reads: the website only once confirmed, and the listed domains. */
export const employerDomainSources = (organization: Organization) => ({
  confirmedWebsite: organization.websiteConfirmedBy ? organization.website : null,
  listed: organization.emailDomains ?? [],
});

export interface Division extends DivisionFieldValues {
  divisionId: number;
  divisionName: string;
  divisionType: string;
  activeDivision: boolean;
  organizationId: number;
  organizationName: string;
}

export interface NewDivision extends DivisionFieldValues {
  organizationId: number;
  divisionName: string;
  divisionType: string;
  activeDivision?: boolean;
}

/** A page of the organization list. */
export interface OrganizationPage {
  organizations: Organization[];
  total: number;
}
