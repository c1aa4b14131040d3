// The profile service's curation history (ADR 0031): what contributors changed on a profile nobody owned (its
// fields, bio, picture, jobs and issue areas) and every claim decision, with who, when and each field's value
// before and after as the page shows it. An owner's edits of their own profile are theirs, not curation, and are
// not recorded. The domain says what to record; the repository writes it in the change's transaction, so the
// history never tells of a change that did not happen. Only contributors read it.
import {
  type Caller,
  type FieldChange,
  fieldChanges,
  type Curation as KitCuration,
  type HistoryEntry as KitHistoryEntry,
} from '@rotunda/service-kit';
import type { DivisionRef, Job, JobFields, OrganizationRef, ProfileOwnership } from './model.ts';

/** What a history entry records. Stable keys: the pages name them. */
export type HistoryAction =
  | 'profile_edited'
  | 'bio_edited'
  | 'picture_changed'
  | 'job_added'
  | 'job_edited'
  | 'job_deleted'
  | 'issue_added'
  | 'issue_removed'
  | 'claim_confirmed'
  | 'claim_rejected';

/** A change to the profile to record. */
export type Curation = KitCuration<HistoryAction>;
export type HistoryEntry = KitHistoryEntry<HistoryAction>;

/**
 * The change as curation: recorded when a contributor changes a profile nobody owns (the only other editor is
 * its owner, whose own edits are not curation) and it changes something.
 */
export function curationOf(
  caller: Caller,
  owner: ProfileOwnership,
  action: HistoryAction,
  changes: FieldChange[],
): Curation | undefined {
  if (owner.userId !== null || changes.length === 0) return undefined;
  return { actorUserId: caller.userId, action, changes };
}

/** A job as its history shows it: the organization and division by name. */
export function shownJob(
  job: JobFields,
  place: { organization: OrganizationRef; division: DivisionRef | null },
): Record<string, unknown> {
  return {
    title: job.title,
    organization: place.organization.organizationName,
    division: place.division?.divisionName ?? null,
    street_address: job.streetAddress,
    suite_number: job.suiteNumber,
    city: job.city,
    state: job.state,
    zip_code: job.zipCode,
    start_date: job.startDate,
    end_date: job.endDate,
    current_job: job.currentJob,
  };
}

export const shownSavedJob = (job: Job) => shownJob(job, job);

/** A claimant as the history names them. */
export const claimantName = (names: { firstName: string; lastName: string }) =>
  `${names.firstName} ${names.lastName}`.trim();

/** Every field of `before` emptied: what removing it (a job) changed. */
export const removedFields = (before: object) =>
  fieldChanges(before, Object.fromEntries(Object.keys(before).map((field) => [field, null])));
