// The REST calls of the profile screens (the profiles/issues contract, docs/product.md#7-the-calls-it-makes)
// and their answers' shapes. Every call is member-only: @rotunda/ui's client sends the session's fresh access
// token with each one, and throws its ApiError (the status and the server's own message) for anything but
// 2xx.
import type {
  AddressFieldName,
  AlwaysGivenProfileField,
  JobFieldMessageValues,
  MemberProfileField,
  PersonalProfileField,
  Pronouns,
} from '@rotunda/rules';
import {
  asList,
  call,
  type Division,
  fetchFile,
  type HistoryEntry,
  type IssueArea,
  type StoredAddress,
} from '@rotunda/ui';

export type { Division, IssueArea, Pronouns, StoredAddress };

export interface OrganizationRef {
  organization_id: number;
  organization_name: string;
  group_type: string;
  logo: string | null;
}

/** An organization as the name lookup answers it (the fields the job form uses). */
export interface Organization extends OrganizationRef, StoredAddress {}

/** A position in a profile's job history, with its organization and office as the server answers them. */
export type Job = JobInput & {
  job_id: number;
  Organization: OrganizationRef;
  Division: Division | null;
};

export interface UserIssue {
  id: number;
  profile_id: number;
  issue_id: number;
  IssueArea: IssueArea;
}

/**
 * The profile fields a member fills in (create-profile, update-profile), one per row of @rotunda/rules'
 * PROFILE_FIELDS: text, null where not given.
 */
export type ProfileFieldsBody = {
  [N in MemberProfileField]: N extends AlwaysGivenProfileField
    ? string
    : N extends 'pronouns'
      ? Pronouns | null
      : string | null;
};

export interface Profile extends ProfileFieldsBody {
  profile_id: number;
  user_id: string | null;
  user_bio: string | null;
  lobby_filer_id: string | null;
  /** A member's claim waits for a contributor to confirm it (nobody owns the profile meanwhile). */
  claim_pending: boolean;
  /** The pending claim's id, which a contributor confirms or rejects; null when none is pending. */
  claim_id: number | null;
  /** The pending claim is the signed-in member's: the page says it waits for review. */
  claimed_by_you: boolean;
  /** Who claims it, for a contributor deciding the claim; null for anyone else. */
  claimant: Claimant | null;
  /** The owner's confirmed account email is at a domain of their current organization. */
  verified_employer: boolean;
  /** Current first, then newest start first. */
  JobExperiences: Job[];
  /** By issue name. */
  UserIssues: UserIssue[];
}

/** A member claiming a profile: their account's names and confirmed email when they claimed. */
export interface Claimant {
  user_id: string;
  first_name: string;
  last_name: string;
  email: string;
  claimed_at: string;
}

/** A profile in a list (the create flow's matches): no personal contact details, nothing about the caller. */
export type ListedProfile = Omit<Profile, PersonalProfileField | 'claimed_by_you' | 'claimant'>;

export type ClaimDecision = 'confirm' | 'reject';

export interface ClaimDecided {
  claim_id: number;
  profile_id: number;
  status: 'confirmed' | 'rejected';
  decided_at: string;
}

/** What add-job and update-job receive: the profile and a row of @rotunda/rules' JOB_FIELDS each. */
export type JobInput = { profile_id: number } & JobFieldMessageValues;

/** A job's address, as an organization or division gives it to the form. */
export type AddressInput = Pick<JobInput, AddressFieldName>;

const postJson = <T>(path: string, body: unknown, signal?: AbortSignal) =>
  call<T>('POST', path, { body, ...(signal && { signal }) });

const deleteJson = (path: string, body: unknown) => call<undefined>('DELETE', path, { body });

const getJson = <T>(path: string, signal?: AbortSignal) => call<T>('GET', path, signal ? { signal } : {});

// ------------------------------------------------------------------------------------------------ profiles

/** The person's work contact as a vCard 4.0 file ('First-Last.vcf'). */
export const fetchContactCard = (profileId: number) => fetchFile(`/api/profiles/profile/${profileId}/vcard`);

/** Contributors only: the curation history of the profile, newest first. */
export const fetchProfileHistory = async (profileId: number, signal: AbortSignal) =>
  asList<HistoryEntry>(await getJson<unknown>(`/api/history/profile/${profileId}`, signal), 'history');

/** Unclaimed profiles whose first name, last name and work email are the member's. */
export async function findMatchingProfiles(
  person: { first_name: string; last_name: string; email: string },
  signal?: AbortSignal,
): Promise<ListedProfile[]> {
  return asList(await postJson<unknown>('/api/profiles/new-user-check', person, signal), 'new-user-check');
}

/** The member's own profile id, or the one their pending claim waits on; null when neither. */
export async function findOwnProfileId(signal?: AbortSignal): Promise<number | null> {
  const entries = asList<{ profile_id: number }>(
    await getJson<unknown>('/api/profiles/user-check', signal),
    'user-check',
  );
  return entries[0]?.profile_id ?? null;
}

export async function createProfile(fields: ProfileFieldsBody): Promise<Profile> {
  const answer = await call<{ createdProfileResult: Profile }>('POST', '/api/profiles/create-profile', {
    body: fields,
    idempotent: true,
  });
  return answer.createdProfileResult;
}

/**
 * Stores a picture (multipart: profile_picture, image_type, and profile_id when the profile exists, which sets
 * its picture at once); answers the stored picture's URL.
 */
export async function uploadProfilePicture(
  file: Blob,
  fileName: string,
  profileId: number | null,
): Promise<string> {
  const form = new FormData();
  if (profileId !== null) form.set('profile_id', String(profileId));
  form.set('image_type', file.type);
  form.set('profile_picture', file, fileName);
  const answer = await call<{ url: string }>('POST', '/api/profiles/upload-profile-picture', { body: form });
  return answer.url;
}

export function fetchProfile(id: string, signal?: AbortSignal): Promise<Profile> {
  return getJson<Profile>(`/api/profiles/profile/${encodeURIComponent(id)}`, signal);
}

export type ProfileUpdate = { profile_id: number } & ProfileFieldsBody & { lobby_filer_id?: string | null };

export function updateProfile(update: ProfileUpdate): Promise<Profile> {
  return postJson<Profile>('/api/profiles/update-profile', update);
}

export function claimProfile(profileId: number): Promise<Profile> {
  return postJson<Profile>(`/api/profiles/claim/${profileId}`, { profile_id: profileId });
}

/** A contributor confirms a pending claim, or rejects it, which leaves the profile unclaimed again. */
export function decideClaim(claimId: number, decision: ClaimDecision): Promise<ClaimDecided> {
  return postJson<ClaimDecided>(`/api/profiles/claims/${claimId}`, { decision });
}

export function saveBio(profileId: number, userBio: string): Promise<Profile> {
  return postJson<Profile>(`/api/profiles/bio/${profileId}`, { profile_id: profileId, user_bio: userBio });
}

export function addJob(job: JobInput): Promise<Job> {
  return call<Job>('POST', '/api/profiles/add-job/', { body: job, idempotent: true });
}

export function updateJob(job: JobInput & { job_id: number }): Promise<Job> {
  return postJson<Job>('/api/profiles/update-job/', job);
}

export function deleteJob(jobId: number): Promise<void> {
  return deleteJson('/api/profiles/delete-job', { job_id: jobId });
}

// -------------------------------------------------------------------------------------------------- issues

/** Makes an issue area, or answers the existing one of that name (any case). */
export function addIssueArea(issueName: string): Promise<IssueArea> {
  return postJson<IssueArea>('/api/issues/add-issue-area', { issue_name: issueName });
}

export function addUserIssue(profileId: number, issueId: number): Promise<UserIssue> {
  return postJson<UserIssue>('/api/issues/add-user-issue', { profile_id: profileId, issue_id: issueId });
}

export function deleteUserIssue(id: number): Promise<void> {
  return deleteJson('/api/issues/delete-user-issue', { id });
}

// ------------------------------------------------------------------------------------ organizations lookup

/** At most 5 organizations whose name holds every word of `name`. */
export async function findOrganizations(name: string, signal?: AbortSignal): Promise<Organization[]> {
  return asList(
    await getJson<unknown>(`/api/orgs/organization-name/${encodeURIComponent(name)}`, signal),
    'organization-name',
  );
}

/** At most 5 active divisions whose name holds every word of `name`. */
export async function findDivisions(name: string, signal?: AbortSignal): Promise<Division[]> {
  return asList(
    await getJson<unknown>(`/api/orgs/division-name/${encodeURIComponent(name)}`, signal),
    'division-name',
  );
}

/** Makes an organization, or answers the existing one of that name (any case). */
export function addOrganization(
  organization: { organization_name: string; group_type: string } & AddressInput,
): Promise<Organization> {
  return postJson<Organization>('/api/orgs/add-organization', organization);
}

/** Makes a division of an organization, or answers its existing one of that name (any case). */
export function addDivision(
  division: { organization_id: number; division_name: string; division_type: string } & AddressInput,
): Promise<Division> {
  return postJson<Division>('/api/orgs/add-division', division);
}

// ---------------------------------------------------------------------------------------------------- auth

export function updatePassword(currentPassword: string, newPassword: string): Promise<unknown> {
  return postJson<unknown>('/auth/update-password/', { currentPassword, newPassword });
}
