// The profile service's ports: what its rules need from the outside world. Adapters implement them (Prisma on
// the profile schema, the org service over gRPC, the image pipeline and the S3 object store).
//
// Writes that check ownership first name the owner the check saw (`owner`); the write happens only while the
// profile still has that owner, else it answers null, so a claim landing between the check and the write never
// lets the earlier permission through. Every write to a profile announces a 'profile' change in its
// transaction (ADR 0012).
import type { Curation, HistoryEntry } from './history.ts';
import type {
  Author,
  Claimant,
  ClaimStatus,
  Colleague,
  DecidedClaim,
  DivisionRef,
  IssueArea,
  Job,
  JobFields,
  ListedProfile,
  OrganizationRef,
  OwnedProfile,
  PendingClaim,
  Profile,
  ProfileFields,
  ProfileOwnership,
  UserIssue,
} from './model.ts';

/** A profile's work email and when it last changed after the profile was created (null: never). */
export interface WorkEmailState {
  workEmail: string;
  workEmailChangedAt: Date | null;
}

export type ClaimOutcome =
  | { kind: 'claimed'; profile: Profile }
  | { kind: 'not_found' }
  /** Owned, or another member's claim waits on it. */
  | { kind: 'taken' }
  /** The member owns a profile, or has a claim pending. */
  | { kind: 'owner_has_one' };

export type CreateOutcome =
  | { kind: 'created'; profile: Profile }
  | { kind: 'owns_one' }
  | { kind: 'claim_waiting' };

export type ClaimDecisionOutcome =
  | { kind: 'decided'; claim: DecidedClaim }
  | { kind: 'not_found' }
  | { kind: 'decided_before' };

/**
 * Writes that take a `curation` record it in the change's transaction, only when the change is made (a lost race
 * or a refusal records nothing).
 */
export interface ProfileRepository {
  /** The profile with every job and issue. */
  findProfile(profileId: number): Promise<Profile | null>;
  findOwnership(profileId: number): Promise<ProfileOwnership | null>;
  /** The profile the member owns, or else the one their pending claim waits on. */
  ownedOrClaimedBy(userId: string): Promise<OwnedProfile | null>;
  /**
   * Records the domain of the owner's account email on the profile `userId` owns; false when it does not own it
   * or the domain was already that one.
   */
  recordOwnerEmailDomain(profileId: number, userId: string, emailDomain: string | null): Promise<boolean>;
  /**
   * Profiles with only their current jobs, by last name, first name and id: the next `limit` after the profile
   * `after` (from the first when null). Personal contact details are never read.
   */
  listDirectoryPage(after: number | null, limit: number): Promise<ListedProfile[]>;
  /**
   * Unclaimed profiles no claim waits on whose names equal these (any case) and whose work email equals
   * `email`, without personal contact details.
   */
  findUnclaimedMatches(firstName: string, lastName: string, email: string): Promise<ListedProfile[]>;
  /**
   * The member's own profile, unless they own one already or have a claim pending (one per account; checked
   * under a lock on the member that claiming takes too).
   */
  createProfile(userId: string, fields: ProfileFields): Promise<CreateOutcome>;
  /** `editorId`: the work email changed, by them; recorded with the time. */
  updateProfile(
    profileId: number,
    owner: string | null,
    changes: Partial<ProfileFields>,
    curation?: Curation,
    editorId?: string,
  ): Promise<Profile | null>;
  setBio(profileId: number, owner: string | null, bio: string, curation?: Curation): Promise<Profile | null>;
  /** Points the picture at `url`; answers the replaced one. */
  setPicture(
    profileId: number,
    owner: string | null,
    url: string,
    curation?: Curation,
  ): Promise<{ previous: string | null } | null>;
  /**
   * Records the member's claim of a profile nobody owns and no claim waits on, atomically: pending, or with
   * `confirmNow` confirmed at once and the profile theirs (the change announced). One claim or profile per member.
   */
  /**
   * Makes the claim, confirmed at once (the claimant owns the profile, and `confirmed` is recorded) when
   * `confirmsAtOnce` says so of the profile's work email as it is under the claim's lock, else pending.
   */
  claimProfile(
    profileId: number,
    claimant: Claimant,
    confirmsAtOnce: (target: WorkEmailState) => boolean,
    confirmed: Curation,
  ): Promise<ClaimOutcome>;
  /** The claim's member and who last changed its profile's work email, or null when there is no such claim. */
  findClaimant(claimId: number): Promise<{ userId: string; workEmailChangedBy: string | null } | null>;
  /** Pending claims, oldest first. */
  listPendingClaims(): Promise<PendingClaim[]>;
  /**
   * Gives a pending claim its status, decided now; with `giveOwnership`, in the same transaction, the claimant
   * becomes the profile's owner (and the change is announced). Nothing else about the profile changes.
   */
  decideClaim(
    claimId: number,
    decision: { status: ClaimStatus; giveOwnership: boolean },
    /** The decision's history entry, given the claimant's names. */
    curation?: (claimant: { firstName: string; lastName: string }) => Curation,
  ): Promise<ClaimDecisionOutcome>;
  /** Does any profile show this picture? */
  isPictureInUse(url: string): Promise<boolean>;
  /** Of these picture URLs, the ones some profile shows. */
  picturesInUse(urls: readonly string[]): Promise<string[]>;
  /** People with a current job at the organization or division, one per profile. */
  colleagues(at: { organizationId: number } | { divisionId: number }): Promise<Colleague[]>;
  authorByUser(userId: string): Promise<Author | null>;
  authorsByIds(profileIds: readonly number[]): Promise<Author[]>;
  /** Owned profiles after `afterProfileId`, by id. */
  listAuthors(afterProfileId: number, limit: number): Promise<Author[]>;
  /** The profiles these members own. */
  authorsByUsers(userIds: readonly string[]): Promise<Author[]>;
  /** The profile's curation history older than `beforeId` (all when null), newest first, at most `limit`. */
  historyOf(profileId: number, beforeId: number | null, limit: number): Promise<HistoryEntry[]>;
}

/** How often each member downloaded the whole directory, shared by every replica. */
export interface DirectoryQuota {
  /**
   * Counts one download by the member; answers 0 when it is within `limit` downloads per window, else the
   * seconds until their window ends.
   */
  take(userId: string, limit: { downloads: number; windowSeconds: number }): Promise<number>;
}

export interface JobRepository {
  /** The job with its profile's owner. */
  findJob(jobId: number): Promise<{ job: Job; owner: ProfileOwnership } | null>;
  addJob(
    profileId: number,
    owner: string | null,
    fields: JobFields,
    curation?: Curation,
  ): Promise<Job | null>;
  updateJob(jobId: number, owner: string | null, fields: JobFields, curation?: Curation): Promise<Job | null>;
  /**
   * Deletes the job unless `guard` (given the job and how many jobs its profile has, with the profile locked)
   * throws; false when the job is gone or its profile changed owner.
   */
  deleteJob(
    jobId: number,
    owner: string | null,
    guard: (job: Job, jobsOnProfile: number) => void,
    curation?: Curation,
  ): Promise<boolean>;
}

export interface IssueRepository {
  /** By name, any case. */
  listIssueAreas(): Promise<IssueArea[]>;
  findIssueArea(issueId: number): Promise<IssueArea | null>;
  /** Creates the issue area unless one with the same key exists, which is answered instead; atomic. */
  addIssueAreaUnlessKeyed(name: string, key: string): Promise<{ issueArea: IssueArea; created: boolean }>;
  /** Null when the profile covers the issue already. */
  addUserIssue(profileId: number, issueId: number, curation?: Curation): Promise<UserIssue | null>;
  findUserIssue(id: number): Promise<{ id: number; profileId: number; issueId: number } | null>;
  deleteUserIssue(id: number, curation?: Curation): Promise<boolean>;
}

/** The read copies of the org service's organizations and divisions in this service's schema. */
export interface OrgCopyRepository {
  /** Answers the ids of organizations the copy held under another name or group. */
  upsertOrganizations(organizations: readonly OrganizationRef[]): Promise<number[]>;
  /** Answers the ids of divisions the copy held under another name. */
  upsertDivisions(divisions: readonly DivisionRef[]): Promise<number[]>;
  findOrganization(organizationId: number): Promise<OrganizationRef | null>;
  findDivision(divisionId: number): Promise<DivisionRef | null>;
}

/** The org service itself, for the whole copy and for what the copy does not hold yet. */
export interface OrgDirectory {
  exportNames(): Promise<{ organizations: OrganizationRef[]; divisions: DivisionRef[] }>;
  /** Null when the org service does not know the organization. */
  organizationWithDivisions(
    organizationId: number,
  ): Promise<{ organization: OrganizationRef; divisions: DivisionRef[] } | null>;
}

/** The document "Download my data" gives a member of what this service holds about them (snake_case, as JSON). */
export interface MemberExport {
  /** The profile they own with every field, the personal ones included; null when they own none. */
  profile: Record<string, unknown> | null;
  jobs: Record<string, unknown>[];
  issue_areas: { issue_id: number; issue_name: string }[];
  /** Every claim they made, whatever became of it. */
  claims: {
    claim_id: number;
    profile_id: number;
    status: string;
    claimant_first_name: string;
    claimant_last_name: string;
    claimant_email: string;
    created_at: string;
    decided_at: string | null;
  }[];
}

/** An owned profile and the issue areas it covers, ascending. */
export interface MemberIssueAreas {
  userId: string;
  profileId: number;
  issueAreaIds: number[];
}

export interface MemberDataRepository {
  exportOf(userId: string): Promise<MemberExport>;
  /** Owners whose user id sorts after `afterUserId` ('' for the first), in user id order, at most `limit`. */
  memberIssueAreasAfter(afterUserId: string, limit: number): Promise<MemberIssueAreas[]>;
  /**
   * In one transaction: the profile the member created goes (jobs, issue areas, history with it); one they
   * claimed (a confirmed claim of theirs names it) becomes unowned, its personal email, mobile phone and birthday
   * cleared; the changed profile is announced (ADR 0012); every claim they made goes. Answers the profiles that
   * went or changed (none when nothing was left of the member).
   */
  forgetMember(userId: string): Promise<number[]>;
}
