// The job form's rules, shared by profile creation (step 2, the current job) and the Add Job and Edit Job
// dialogs (docs/product.md#4-states-and-transitions, #5-validation-rules): the organization and office
// autocompletes mark an existing record when a suggestion is chosen and forget it when the member types
// again; choosing one fills in its address and type; the required fields with the spec's labels; 'Current
// Position' clears the end date; a job is complete when nothing required is missing and it is current or has
// an end date.
import {
  formatState,
  hasEndOrIsCurrent,
  JOB_LABELS,
  missingFields,
  requiredFieldsMessage,
  titleCase,
} from '@rotunda/rules';
import type { Division, Job, Organization } from '../api';

export interface OrganizationChoice {
  organization_id: number;
  organization_name: string;
  group_type: string;
}

export interface DivisionChoice {
  division_id: number;
  division_name: string;
}

export interface JobDraft {
  title: string;
  /** The Company field's text. */
  organizationName: string;
  /** The existing organization chosen from the suggestions; null for a new one (made on save). */
  organization: OrganizationChoice | null;
  /** The optional office or division field's text. */
  divisionName: string;
  /** The existing division chosen from the suggestions; null for none or a new one. */
  division: DivisionChoice | null;
  /** Type of Organization: the chosen organization's group, or what the member picks for a new one. */
  groupType: string;
  street_address: string;
  suite_number: string;
  city: string;
  state: string;
  zip_code: string;
  start_date: string;
  end_date: string;
  current_job: boolean;
}

export type AddressField = 'street_address' | 'suite_number' | 'city' | 'state' | 'zip_code';
const ADDRESS_FIELDS: readonly AddressField[] = [
  'street_address',
  'suite_number',
  'city',
  'state',
  'zip_code',
];

export function emptyJobDraft(current: boolean): JobDraft {
  return {
    title: '',
    organizationName: '',
    organization: null,
    divisionName: '',
    division: null,
    groupType: '',
    street_address: '',
    suite_number: '',
    city: '',
    state: '',
    zip_code: '',
    start_date: '',
    end_date: '',
    current_job: current,
  };
}

/** The Edit Job form: the job as it is, its organization and division chosen. */
export function jobDraftFrom(job: Job): JobDraft {
  return {
    title: job.title,
    organizationName: job.Organization.organization_name,
    organization: {
      organization_id: job.organization_id,
      organization_name: job.Organization.organization_name,
      group_type: job.Organization.group_type,
    },
    divisionName: job.Division?.division_name ?? '',
    division: job.Division
      ? { division_id: job.Division.division_id, division_name: job.Division.division_name }
      : null,
    groupType: job.Organization.group_type,
    street_address: job.street_address ?? '',
    suite_number: job.suite_number ?? '',
    city: job.city ?? '',
    state: job.state ?? '',
    zip_code: job.zip_code ?? '',
    start_date: job.start_date ?? '',
    end_date: job.current_job ? '' : (job.end_date ?? ''),
    current_job: job.current_job,
  };
}

const hasAddress = (draft: JobDraft) => ADDRESS_FIELDS.some((field) => draft[field].trim() !== '');

/** The address of a record, as the form holds it. */
function addressOf(record: Pick<Organization, AddressField>): Pick<JobDraft, AddressField> {
  return {
    street_address: record.street_address ?? '',
    suite_number: record.suite_number ?? '',
    city: record.city ?? '',
    state: formatState(record.state ?? ''),
    zip_code: record.zip_code ?? '',
  };
}

/** An existing organization chosen: its name and type, and its address when none is entered yet. */
export function chooseOrganization(draft: JobDraft, organization: Organization): JobDraft {
  const sameAsBefore = draft.organization?.organization_id === organization.organization_id;
  return {
    ...draft,
    organizationName: organization.organization_name,
    organization: {
      organization_id: organization.organization_id,
      organization_name: organization.organization_name,
      group_type: organization.group_type,
    },
    groupType: organization.group_type,
    // An office chosen under another organization does not belong to this one.
    ...(!sameAsBefore && { division: null }),
    ...(!hasAddress(draft) && addressOf(organization)),
  };
}

/** Typing in Company: a new name, so no organization is chosen any more (nor an office of it). */
export function typeOrganization(draft: JobDraft, text: string): JobDraft {
  return { ...draft, organizationName: text, organization: null, division: null };
}

/**
 * An existing office chosen: the job is at the office's own address when it has one
 * (docs/product.md#5-validation-rules Add-job modal).
 */
export function chooseDivision(draft: JobDraft, division: Division): JobDraft {
  return {
    ...draft,
    divisionName: division.division_name,
    division: { division_id: division.division_id, division_name: division.division_name },
    ...(division.street_address?.trim() && addressOf(division)),
  };
}

export function typeDivision(draft: JobDraft, text: string): JobDraft {
  return { ...draft, divisionName: titleCase(text), division: null };
}

/** 'Current Position' checked clears the end date (and the date field is disabled while it is). */
export function setCurrentJob(draft: JobDraft, current: boolean): JobDraft {
  return { ...draft, current_job: current, end_date: current ? '' : draft.end_date };
}

export type TextJobField = 'title' | 'groupType' | AddressField | 'start_date' | 'end_date';

/**
 * docs/product.md#5-validation-rules Other formatting: address, suite and city title-cased, the state
 * upper-cased, as typed.
 */
export function setJobField(draft: JobDraft, field: TextJobField, value: string): JobDraft {
  const formatted =
    field === 'state'
      ? formatState(value)
      : field === 'street_address' || field === 'suite_number' || field === 'city'
        ? titleCase(value)
        : value;
  return { ...draft, [field]: formatted };
}

/**
 * The required fields by the spec's labels, in its order (docs/product.md#5-validation-rules, Create job
 * step): Job Title, Company, Address, City, State, Zip Code, Start Date, Type of Organization (which a chosen
 * organization brings along).
 */
function requiredJobFields(draft: JobDraft): Record<string, string> {
  return {
    [JOB_LABELS.title]: draft.title,
    [JOB_LABELS.organization]: draft.organizationName,
    [JOB_LABELS.streetAddress]: draft.street_address,
    [JOB_LABELS.city]: draft.city,
    [JOB_LABELS.state]: draft.state,
    [JOB_LABELS.zipCode]: draft.zip_code,
    [JOB_LABELS.startDate]: draft.start_date,
    [JOB_LABELS.groupType]: draft.groupType,
  };
}

export const missingJobFields = (draft: JobDraft): string[] => missingFields(requiredJobFields(draft));

/** 'Please provide entries for the following required fields: …' naming what is missing, or null. */
export const missingJobFieldsMessage = (draft: JobDraft): string | null =>
  requiredFieldsMessage(requiredJobFields(draft));

/**
 * docs/product.md#5-validation-rules Add-job and Edit-job modals: Save only with every required field and
 * either current or an end date.
 */
export function isJobComplete(draft: JobDraft): boolean {
  return (
    missingJobFields(draft).length === 0 &&
    hasEndOrIsCurrent({ currentJob: draft.current_job, endDate: draft.end_date })
  );
}
