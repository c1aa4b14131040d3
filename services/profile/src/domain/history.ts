// The profile service's curation history (ADR 0031): what contributors changed on a profile nobody owned (its
// fields, bio, picture, jobs and issue areas) and every claim decision, with who, when and each field's value
// before and after as the page shows it. An owner's edits of their own profile are theirs, not curation, and are
// not recorded. The domain says what to record; the repository writes it in the change's transaction, so the
// history never tells of a change that did not happen. Only contributors read it.
import { JOB_FIELD_NAMES, jobFieldKey } from '@rotunda/rules';
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

/** A job as its history shows it: every field of the job table, the organization and division by name. */
export function shownJob(
  job: JobFields,
  place: { organization: OrganizationRef; division: DivisionRef | null },
): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const name of JOB_FIELD_NAMES) {
    if (name === 'organization_id') shown.organization = place.organization.organizationName;
    else if (name === 'division_id') shown.division = place.division?.divisionName ?? null;
    else shown[name] = job[jobFieldKey(name)];
  }
  return shown;
}

export const shownSavedJob = (job: Job) => shownJob(job, job);

/** A claimant as the history names them. */
export const claimantName = (names: { firstName: string; lastName: string }) =>
  `${names.firstName} ${names.lastName}`.trim();

/** Every field of `before` emptied: what removing it (a job) changed. */
export const removedFields = (before: object) =>
  fieldChanges(before, Object.fromEntries(Object.keys(before).map((field) => [field, null])));
