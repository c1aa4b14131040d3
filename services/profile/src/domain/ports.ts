// The profile service's ports: what its rules need from the outside world. Adapters implement them (Prisma on
// the profile schema, the org service over gRPC, the image pipeline and the S3 object store).
//
// Writes that check ownership first name the owner the check saw (`owner`); the write happens only while the
// profile still has that owner, else it answers null, so a claim landing between the check and the write never
// lets the earlier permission through. Every write to a profile announces a 'profile' change in its
// transaction (ADR 0012).
import type {
  Author,
  ClaimStatus,
  Colleague,
  DecidedClaim,
  DivisionRef,
  IssueArea,
  Job,
  JobFields,
  OrganizationRef,
  PendingClaim,
  Profile,
  ProfileFields,
  ProfileOwnership,
  UserIssue,
} from './model.ts';

export type ClaimOutcome =
  | { kind: 'claimed'; profile: Profile }
  | { kind: 'not_found' }
  | { kind: 'taken' }
  | { kind: 'owner_has_one' };

export type ClaimDecisionOutcome =
  | { kind: 'decided'; claim: DecidedClaim }
  | { kind: 'not_found' }
  | { kind: 'decided_before' };

export interface ProfileRepository {
  /** The profile with every job and issue. */
  findProfile(profileId: number): Promise<Profile | null>;
  findOwnership(profileId: number): Promise<ProfileOwnership | null>;
  profileIdOfUser(userId: string): Promise<number | null>;
  /**
   * Profiles with only their current jobs, by last name, first name and id: the next `limit` after the profile
   * `after` (from the first when null).
   */
  listDirectoryPage(after: number | null, limit: number): Promise<Profile[]>;
  /** Unclaimed profiles whose names equal these (any case) and whose work email equals `email`. */
  findUnclaimedMatches(firstName: string, lastName: string, email: string): Promise<Profile[]>;
  /** Null when the account already owns a profile (one per account, enforced by the database). */
  createProfile(userId: string, fields: ProfileFields): Promise<Profile | null>;
  updateProfile(
    profileId: number,
    owner: string | null,
    changes: Partial<ProfileFields>,
  ): Promise<Profile | null>;
  setBio(profileId: number, owner: string | null, bio: string): Promise<Profile | null>;
  /** Points the picture at `url`; answers the replaced one. */
  setPicture(
    profileId: number,
    owner: string | null,
    url: string,
  ): Promise<{ previous: string | null } | null>;
  /** Makes the profile the member's and records a pending claim, atomically. */
  claimProfile(profileId: number, userId: string): Promise<ClaimOutcome>;
  /** Pending claims, oldest first. */
  listPendingClaims(): Promise<PendingClaim[]>;
  /**
   * Gives a pending claim its status, decided now; with `unclaim`, in the same transaction, the claimant stops
   * owning the profile (and the change is announced, as for a claim).
   */
  decideClaim(
    claimId: number,
    decision: { status: ClaimStatus; unclaim: boolean },
  ): Promise<ClaimDecisionOutcome>;
  /** Does any profile show this picture? */
  isPictureInUse(url: string): Promise<boolean>;
  /** People with a current job at the organization or division, one per profile. */
  colleagues(at: { organizationId: number } | { divisionId: number }): Promise<Colleague[]>;
  authorByUser(userId: string): Promise<Author | null>;
  authorsByIds(profileIds: readonly number[]): Promise<Author[]>;
  /** Owned profiles after `afterProfileId`, by id. */
  listAuthors(afterProfileId: number, limit: number): Promise<Author[]>;
}

export interface JobRepository {
  /** The job with its profile's owner. */
  findJob(jobId: number): Promise<{ job: Job; owner: ProfileOwnership } | null>;
  addJob(profileId: number, owner: string | null, fields: JobFields): Promise<Job | null>;
  updateJob(jobId: number, owner: string | null, fields: JobFields): Promise<Job | null>;
  /**
   * Deletes the job unless `guard` (given the job and how many jobs its profile has, with the profile locked)
   * throws; false when the job is gone or its profile changed owner.
   */
  deleteJob(
    jobId: number,
    owner: string | null,
    guard: (job: Job, jobsOnProfile: number) => void,
  ): Promise<boolean>;
}

export interface IssueRepository {
  /** By name, any case. */
  listIssueAreas(): Promise<IssueArea[]>;
  findIssueArea(issueId: number): Promise<IssueArea | null>;
  /** Creates the issue area unless one with the same key exists, which is answered instead; atomic. */
  addIssueAreaUnlessKeyed(name: string, key: string): Promise<{ issueArea: IssueArea; created: boolean }>;
  /** Null when the profile covers the issue already. */
  addUserIssue(profileId: number, issueId: number): Promise<UserIssue | null>;
  findUserIssue(id: number): Promise<{ id: number; profileId: number; issueId: number } | null>;
  deleteUserIssue(id: number): Promise<boolean>;
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
