// The /api/profiles/* answers (docs/product.md#7-the-calls-it-makes, docs/api.md Profiles): the profile
// service's messages shaped with the spec's names, null for fields not given. Lists carry no personal contact
// details: only the profile page's answer has them; the directory's export rows hold only work contact
// details.
import type {
  Claimant,
  ClaimDecision,
  Colleague,
  DirectoryCard,
  DirectoryContact,
  Job,
  ListedProfile,
  PendingClaim,
  Profile,
} from '@rotunda/protos/profile';
import {
  BIO_FIELD,
  JOB_FIELD_NAMES,
  JOB_FIELDS,
  type JobFieldMessageValues,
  type JobFieldName,
  LISTED_PROFILE_FIELDS,
  PERSONAL_PROFILE_FIELDS,
} from '@rotunda/rules';
import { divisionJson, fieldsJson, instant, orNull } from '../http/answers.ts';
import { userIssueJson } from './issues.ts';

/** A job's fields under their REST names, null where an optional one is not given. */
function jobFieldsJson(job: Job): JobFieldMessageValues {
  const fields: Partial<Record<JobFieldName, unknown>> = {};
  for (const name of JOB_FIELD_NAMES)
    fields[name] = JOB_FIELDS[name].required ? job[name] : orNull(job[name]);
  return fields as JobFieldMessageValues;
}

export function jobJson(job: Job) {
  return {
    job_id: job.job_id,
    profile_id: job.profile_id,
    ...jobFieldsJson(job),
    Organization: {
      organization_id: job.organization?.organization_id ?? job.organization_id,
      organization_name: job.organization?.organization_name ?? '',
      group_type: job.organization?.group_type ?? '',
      logo: orNull(job.organization?.logo),
    },
    Division: job.division ? divisionJson(job.division) : null,
  };
}

function claimantJson(claimant: Claimant) {
  return {
    user_id: claimant.user_id,
    first_name: claimant.first_name,
    last_name: claimant.last_name,
    email: claimant.email,
    claimed_at: instant(claimant.claimed_at),
  };
}

/** A profile in a list (the whole directory, the create flow's matches): no personal contact details. */
export function listedProfileJson(profile: ListedProfile) {
  return {
    profile_id: profile.profile_id,
    user_id: orNull(profile.user_id),
    ...fieldsJson(profile, LISTED_PROFILE_FIELDS),
    [BIO_FIELD]: orNull(profile[BIO_FIELD]),
    claim_pending: profile.claim_pending,
    claim_id: orNull(profile.claim_id),
    JobExperiences: profile.job_experiences.map(jobJson),
    UserIssues: profile.user_issues.map(userIssueJson),
  };
}

/**
 * The profile page's answer: every field, whether the pending claim is the caller's (they are shown a
 * pending-review notice), and who claims it for a contributor deciding.
 */
export function profileJson(profile: Profile) {
  return {
    ...listedProfileJson(profile),
    ...fieldsJson(profile, PERSONAL_PROFILE_FIELDS),
    claimed_by_you: profile.claimed_by_caller,
    claimant: profile.claimant ? claimantJson(profile.claimant) : null,
    verified_employer: profile.verified_employer,
  };
}

export function pendingClaimJson(claim: PendingClaim) {
  return {
    claim_id: claim.claim_id,
    profile_id: claim.profile_id,
    first_name: claim.first_name,
    last_name: claim.last_name,
    work_email: claim.work_email,
    user_id: claim.user_id,
    created_at: instant(claim.created_at),
    claimant: claim.claimant ? claimantJson(claim.claimant) : null,
  };
}

export function claimDecisionJson(claim: ClaimDecision) {
  return {
    claim_id: claim.claim_id,
    profile_id: claim.profile_id,
    status: claim.status,
    decided_at: instant(claim.decided_at),
  };
}

export function colleagueJson(colleague: Colleague) {
  return {
    profile_id: colleague.profile_id,
    title: colleague.title,
    city: colleague.city,
    state: colleague.state,
    Division: colleague.division ? divisionJson(colleague.division) : null,
    ProfileInfo: {
      profile_id: colleague.profile_info?.profile_id ?? colleague.profile_id,
      first_name: colleague.profile_info?.first_name ?? '',
      last_name: colleague.profile_info?.last_name ?? '',
      profile_picture: orNull(colleague.profile_info?.profile_picture),
      other_phone: orNull(colleague.profile_info?.other_phone),
      work_email: colleague.profile_info?.work_email ?? '',
    },
  };
}

/** A directory card with the spec's snake_case names; null where not given. */
export function directoryCardJson(card: DirectoryCard) {
  return {
    profile_id: card.profile_id,
    first_name: card.first_name,
    last_name: card.last_name,
    preferred_name: card.preferred_name ?? null,
    profile_picture: card.profile_picture ?? null,
    title: card.title ?? null,
    organization_name: card.organization_name ?? null,
    division_name: card.division_name ?? null,
    group_type: card.group_type ?? null,
    city: card.city ?? null,
    state: card.state ?? null,
    verified_employer: card.verified_employer,
  };
}

/** The export's columns, in order (the service sends nothing else: no personal contact detail). */
export const EXPORT_COLUMNS = [
  'first_name',
  'last_name',
  'title',
  'organization',
  'division',
  'work_email',
  'office_phone',
] as const;

/** One row of the export, in EXPORT_COLUMNS' order; empty where not given. */
export function exportRow(contact: DirectoryContact): string[] {
  return [
    contact.first_name,
    contact.last_name,
    contact.title ?? '',
    contact.organization_name ?? '',
    contact.division_name ?? '',
    contact.work_email,
    contact.office_phone ?? '',
  ];
}
