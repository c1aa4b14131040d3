// Profiles, jobs, issue areas, colleagues and authors as the profile service's rules see them
// (docs/product.md#3-entities-and-their-fields), and the read copies of the org service's names. Dates are
// 'YYYY-MM-DD' strings; null means not given.
import {
  type JobFieldValues,
  PERSONAL_PROFILE_FIELDS,
  type PersonalProfileField,
  type PostalAddress,
  PROFILE_FIELD_NAMES,
  type ProfileFieldKey,
  type ProfileFieldKeyOf,
  type ProfileFieldValues,
  profileFieldKey,
} from '@rotunda/rules';

/** What a job shows of its organization (read copy of the org service's record). */
export interface OrganizationRef {
  organizationId: number;
  organizationName: string;
  groupType: string;
  logo: string | null;
  /** The domains that count for a verified employer: the website's host and the listed email domains. */
  emailDomains: string[];
}

/** Where an organization is, as the org service has it (jobs there default to it). */
export type OrganizationAddress = PostalAddress;

/** A division or office (read copy of the org service's record). */
export interface DivisionRef extends PostalAddress {
  divisionId: number;
  divisionName: string;
  divisionType: string;
  activeDivision: boolean;
  organizationId: number;
  divisionPhone: string | null;
  website: string | null;
}

/**
 * The fields of a job a member fills in (docs/product.md#7-the-calls-it-makes add-job), one per row of
 * @rotunda/rules' JOB_FIELDS.
 */
export type JobFields = JobFieldValues;

export interface Job extends JobFields {
  jobId: number;
  profileId: number;
  organization: OrganizationRef;
  division: DivisionRef | null;
}

export interface IssueArea {
  issueId: number;
  issueName: string;
}

export interface UserIssue {
  id: number;
  profileId: number;
  issueId: number;
  issueArea: IssueArea;
}

/**
 * The fields of a profile a member edits (docs/product.md#7-the-calls-it-makes create-profile and
 * update-profile), one per row of @rotunda/rules' PROFILE_FIELDS.
 */
export type ProfileFields = ProfileFieldValues;

export type { ProfileFieldKey };

export const PROFILE_FIELD_KEYS: readonly ProfileFieldKey[] = PROFILE_FIELD_NAMES.map(profileFieldKey);

/** What a profile's owner and editors need to know before a write. */
export interface ProfileOwnership {
  profileId: number;
  /** The owner; null while unclaimed, and while a claim waits for a contributor. */
  userId: string | null;
  /** The member whose claim on the profile waits for a contributor; null when none waits. */
  claimantId: string | null;
}

/** A member claiming a profile: their account's names and confirmed email when they claimed. */
export interface Claimant {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** A claim waiting for a contributor on a profile. */
export interface ClaimOnProfile {
  claimId: number;
  claimant: Claimant;
  createdAt: Date;
}

export interface Profile extends ProfileFields, ProfileOwnership {
  userBio: string | null;
  /** The domain of the owner's confirmed account email; null while nobody owns it or before it was learnt. */
  ownerEmailDomain: string | null;
  /** The claim waiting for a contributor, if one does. */
  pendingClaim: ClaimOnProfile | null;
  /** Current jobs first, then by start date, newest first. */
  jobs: Job[];
  /** By issue name. */
  issues: UserIssue[];
}

/** The personal contact details: on the profile page's answer only, never in a list or bulk answer. */
export type PersonalFieldKey = ProfileFieldKeyOf<PersonalProfileField>;
export const PERSONAL_FIELD_KEYS: readonly PersonalFieldKey[] = PERSONAL_PROFILE_FIELDS.map(profileFieldKey);

/** A profile as lists and bulk answers carry it: without the personal contact details. */
export type ListedProfile = Omit<Profile, PersonalFieldKey>;

/**
 * A profile as one member sees it: whether the pending claim is theirs; who claims it only for a contributor
 * (the claimant's account email is not for every member's eyes).
 */
export interface ProfileView extends Omit<Profile, 'pendingClaim'> {
  pendingClaim: (Omit<ClaimOnProfile, 'claimant'> & { claimant: Claimant | null }) | null;
  claimedByCaller: boolean;
  /** The "Verified employer" badge (verified-employer.ts). */
  verifiedEmployer: boolean;
}

/** How a contributor decides a pending claim. */
export type ClaimDecision = 'confirm' | 'reject';
export type ClaimStatus = 'confirmed' | 'rejected';

/** A member's claim waiting for a contributor, with what the claimed profile shows of the person. */
export interface PendingClaim {
  claimId: number;
  profileId: number;
  /** The claiming member (the profile has no owner while the claim waits). */
  userId: string;
  firstName: string;
  lastName: string;
  workEmail: string;
  createdAt: Date;
  claimant: Claimant;
}

/** A member's own profile, or the one their claim waits on. */
export interface OwnedProfile {
  userId: string;
  profileId: number;
  claimPending: boolean;
}

export interface DecidedClaim {
  claimId: number;
  profileId: number;
  status: ClaimStatus;
  decidedAt: Date;
}

/**
 * A person with a current job at an organization or division (docs/product.md#3-entities-and-their-fields
 * Colleague entry).
 */
export interface Colleague {
  profileId: number;
  title: string;
  city: string;
  state: string;
  division: DivisionRef | null;
  firstName: string;
  lastName: string;
  profilePicture: string | null;
  otherPhone: string | null;
  workEmail: string;
}

/** A profile as a post's author: the names, the picture and where the person works now. */
export interface Author {
  profileId: number;
  userId: string | null;
  firstName: string;
  lastName: string;
  profilePicture: string | null;
  organizationId: number | null;
  divisionId: number | null;
  /**
   * The issue areas the profile covers, ascending ("My issue areas" on the public square); absent where they are
   * not read (GetAuthorsByUsers, which names people only).
   */
  issueAreaIds?: number[];
}
