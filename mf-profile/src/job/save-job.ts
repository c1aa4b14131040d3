// Saves a job draft: an organization typed rather than chosen is made first (add-organization answers the
// existing one when the name is taken), likewise a typed office (add-division), then the job is added or
// updated. Trying again after a failure makes nothing twice: both adds answer the existing record by name.
import { ADDRESS_FIELD_NAMES, JOB_FIELDS } from '@rotunda/rules';
import {
  type AddressInput,
  addDivision,
  addJob,
  addOrganization,
  type Job,
  type JobInput,
  updateJob,
} from '../api';
import type { DivisionChoice, JobDraft, OrganizationChoice } from './job-form';

/** The type a division made from the job form gets: the field is labelled Office. */
export const NEW_DIVISION_TYPE = 'Office';

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The address as sent: trimmed, an optional field left blank sent as none (JOB_FIELDS' required). */
const addressOf = (draft: JobDraft) =>
  Object.fromEntries(
    ADDRESS_FIELD_NAMES.map((field) => [
      field,
      JOB_FIELDS[field].required ? draft[field].trim() : orNull(draft[field]),
    ]),
  ) as AddressInput;

/** Adds the job (no `jobId`) or updates it, making its organization and office first where needed. */
export async function saveJob(draft: JobDraft, profileId: number, jobId?: number): Promise<Job> {
  const address = addressOf(draft);
  const organization: OrganizationChoice =
    draft.organization ??
    (await addOrganization({
      organization_name: draft.organizationName.trim(),
      group_type: draft.groupType,
      ...address,
    }));
  const typedDivision = draft.divisionName.trim();
  const division: DivisionChoice | null =
    draft.division ??
    (typedDivision === ''
      ? null
      : await addDivision({
          organization_id: organization.organization_id,
          division_name: typedDivision,
          division_type: NEW_DIVISION_TYPE,
          ...address,
        }));
  const input: JobInput = {
    profile_id: profileId,
    title: draft.title.trim(),
    organization_id: organization.organization_id,
    division_id: division?.division_id ?? null,
    ...address,
    start_date: draft.start_date,
    end_date: draft.current_job ? null : orNull(draft.end_date),
    current_job: draft.current_job,
  };
  return jobId === undefined ? addJob(input) : updateJob({ ...input, job_id: jobId });
}
