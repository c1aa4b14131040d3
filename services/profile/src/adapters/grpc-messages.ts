// The profile service's gRPC messages (rotunda.profile.v1): the rules' answers as messages, null fields becoming
// absent ones, and the requests' fields as the rules' inputs, absent ones left out.
import type {
  Author as AuthorMessage,
  Claimant as ClaimantMessage,
  Colleague as ColleagueMessage,
  DirectoryCard as DirectoryCardMessage,
  Division as DivisionMessage,
  IssueArea as IssueAreaMessage,
  JobFieldsMessage,
  Job as JobMessage,
  ListedProfile as ListedProfileMessage,
  ProfileFieldsMessage,
  Profile as ProfileMessage,
  UserIssue as UserIssueMessage,
} from '@rotunda/protos/profile';
import {
  DIVISION_FIELD_NAMES,
  type DivisionFieldName,
  fieldsByName,
  JOB_FIELD_NAMES,
  JOB_FIELDS,
  jobFieldKey,
  LISTED_PROFILE_FIELDS,
  type ListedProfileField,
  PERSONAL_PROFILE_FIELDS,
  type PersonalProfileField,
  PROFILE_FIELD_NAMES,
  type ProfileFieldKeyOf,
  type ProfileFieldName,
  profileFieldKey,
} from '@rotunda/rules';
import type { DirectoryCard } from '../domain/directory.ts';
import type {
  Author,
  Claimant,
  ClaimOnProfile,
  Colleague,
  DivisionRef,
  IssueArea,
  Job,
  JobFields,
  ListedProfile,
  ProfileFields,
  ProfileView,
  UserIssue,
} from '../domain/model.ts';
import type { JobInput, ProfileInput } from '../domain/rules.ts';

/** null (not given) becomes absent, which the REST answer shows as null. */
export const opt = <T>(value: T | null): T | undefined => value ?? undefined;

export function divisionMessage(division: DivisionRef): DivisionMessage {
  return {
    division_id: division.divisionId,
    division_name: division.divisionName,
    division_type: division.divisionType,
    active_division: division.activeDivision,
    organization_id: division.organizationId,
    // A row the proto lacks does not compile (Pick's keys).
    ...(fieldsByName(DIVISION_FIELD_NAMES, division) as Pick<DivisionMessage, DivisionFieldName>),
  };
}

/**
 * A job's fields under the message's names, optional ones absent when not given. Writing into the message by
 * the table's names makes a row the proto lacks a compile error.
 */
function jobFieldMessages(job: JobFields): JobFieldsMessage {
  const fields: Partial<Record<keyof JobFieldsMessage, unknown>> = {};
  for (const name of JOB_FIELD_NAMES) {
    const value = job[jobFieldKey(name)];
    fields[name] = JOB_FIELDS[name].required ? value : opt(value);
  }
  return fields as JobFieldsMessage;
}

export function jobMessage(job: Job): JobMessage {
  return {
    job_id: job.jobId,
    profile_id: job.profileId,
    ...jobFieldMessages(job),
    organization: {
      organization_id: job.organization.organizationId,
      organization_name: job.organization.organizationName,
      group_type: job.organization.groupType,
      logo: opt(job.organization.logo),
    },
    division: job.division ? divisionMessage(job.division) : undefined,
  };
}

export const issueAreaMessage = (issueArea: IssueArea): IssueAreaMessage => ({
  issue_id: issueArea.issueId,
  issue_name: issueArea.issueName,
});

export const userIssueMessage = (userIssue: UserIssue): UserIssueMessage => ({
  id: userIssue.id,
  profile_id: userIssue.profileId,
  issue_id: userIssue.issueId,
  issue_area: issueAreaMessage(userIssue.issueArea),
});

export const claimantMessage = (claimant: Claimant, claimedAt: Date): ClaimantMessage => ({
  user_id: claimant.userId,
  first_name: claimant.firstName,
  last_name: claimant.lastName,
  email: claimant.email,
  claimed_at: claimedAt,
});

/** What a listed profile's message is made of (a profile view has it all, and more). */
type ListedFields = Omit<ListedProfile, 'pendingClaim'> & {
  pendingClaim: Pick<ClaimOnProfile, 'claimId'> | null;
};

/**
 * These fields of a profile under the message's names, null becoming absent. Indexing the message by the
 * table's names makes a row the proto lacks a compile error.
 */
function fieldMessages<N extends ProfileFieldName>(
  profile: Pick<ProfileFields, ProfileFieldKeyOf<N>>,
  names: readonly N[],
): Pick<ProfileMessage, N> {
  const message: Partial<Record<ProfileFieldName, string>> = {};
  for (const name of names) message[name] = opt(profile[profileFieldKey(name)] as string | null);
  return message as Pick<ProfileMessage, N>;
}

/** A profile in a list: every field but the personal contact details, which its type does not have. */
export function listedProfileMessage(profile: ListedFields): ListedProfileMessage {
  return {
    profile_id: profile.profileId,
    user_id: opt(profile.userId),
    ...fieldMessages<ListedProfileField>(profile, LISTED_PROFILE_FIELDS),
    user_bio: opt(profile.userBio),
    claim_pending: profile.pendingClaim !== null,
    job_experiences: profile.jobs.map(jobMessage),
    user_issues: profile.issues.map(userIssueMessage),
    claim_id: profile.pendingClaim?.claimId,
  };
}

/** The profile page's answer, as one member sees it. */
export function profileMessage(profile: ProfileView): ProfileMessage {
  const claim = profile.pendingClaim;
  return {
    ...listedProfileMessage(profile),
    ...fieldMessages<PersonalProfileField>(profile, PERSONAL_PROFILE_FIELDS),
    claimed_by_caller: profile.claimedByCaller,
    verified_employer: profile.verifiedEmployer,
    claimant: claim?.claimant ? claimantMessage(claim.claimant, claim.createdAt) : undefined,
  };
}

export const colleagueMessage = (colleague: Colleague): ColleagueMessage => ({
  profile_id: colleague.profileId,
  title: colleague.title,
  city: colleague.city,
  state: colleague.state,
  division: colleague.division ? divisionMessage(colleague.division) : undefined,
  profile_info: {
    profile_id: colleague.profileId,
    first_name: colleague.firstName,
    last_name: colleague.lastName,
    profile_picture: opt(colleague.profilePicture),
    other_phone: opt(colleague.otherPhone),
    work_email: colleague.workEmail,
  },
});

export const authorMessage = (author: Author): AuthorMessage => ({
  profile_id: author.profileId,
  user_id: author.userId ?? '',
  first_name: author.firstName,
  last_name: author.lastName,
  profile_picture: opt(author.profilePicture),
  organization_id: opt(author.organizationId),
  division_id: opt(author.divisionId),
  issue_areas: author.issueAreaIds ? { issue_area_ids: author.issueAreaIds } : undefined,
});

/** Absent stays absent (keep the stored value); present, even empty, is passed on (empty clears). */
export function profileInputOf(message: ProfileFieldsMessage | undefined): ProfileInput {
  const fields: ProfileInput = {};
  for (const name of PROFILE_FIELD_NAMES) {
    const value = message?.[name];
    if (value !== undefined) fields[profileFieldKey(name)] = value;
  }
  return fields;
}

export function jobInputOf(message: JobFieldsMessage | undefined): JobInput {
  const input: Partial<Record<keyof JobInput, unknown>> = {};
  for (const name of JOB_FIELD_NAMES) input[jobFieldKey(name)] = message?.[name];
  return input as JobInput;
}

/** A card as the proto has it: absent where not given. */
export function cardMessage(card: DirectoryCard): DirectoryCardMessage {
  return {
    profile_id: card.profileId,
    first_name: card.firstName,
    last_name: card.lastName,
    preferred_name: opt(card.preferredName),
    profile_picture: opt(card.profilePicture),
    title: opt(card.title),
    organization_name: opt(card.organizationName),
    division_name: opt(card.divisionName),
    group_type: opt(card.groupType),
    city: opt(card.city),
    state: opt(card.state),
    verified_employer: card.verifiedEmployer,
  };
}
