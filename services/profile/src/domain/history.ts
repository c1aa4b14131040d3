// The profile service's curation history (issue 20): what contributors changed on a profile nobody owned (its
// fields, bio, picture, jobs and issue areas) and every claim decision, with who, when and each field's value
// before and after as the page shows it. An owner's edits of their own profile are theirs, not curation, and are
// not recorded. The domain says what to record; the repository writes it in the change's transaction, so the
// history never tells of a change that did not happen. Only contributors read it.
import type { Caller } from '@rotunda/service-kit';
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

/** One field a change touched, named as the REST API names it; null: empty before (or after). */
export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** A change to record: the member who made it, what they did and the fields it touched. */
export interface Curation {
  actorUserId: string;
  action: HistoryAction;
  changes: FieldChange[];
}

export interface HistoryEntry extends Curation {
  id: number;
  at: Date;
}

/** The longest page of history one call answers. */
export const HISTORY_PAGE = 100;

/** The REST API's name of a field of the domain ('firstName' → 'first_name'). */
export const apiFieldName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A value as the page shows it: empty text is no value; yes/no for flags. */
const shown = (value: unknown): string | null => {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
};

/** The fields whose value differs between `before` and `after`, among those `after` names. */
export function fieldChanges(before: object, after: object): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const from = shown((before as Record<string, unknown>)[field]);
    const to = shown(value);
    if (from !== to) changes.push({ field: apiFieldName(field), from, to });
  }
  return changes;
}

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
