// The job form's rules, shared by profile creation (step 2, the current job) and the Add Job and Edit Job
// dialogs (docs/product.md#4-states-and-transitions, #5-validation-rules): the organization and office
// autocompletes mark an existing record when a suggestion is chosen and forget it when the member types
// again; choosing one fills in its address and type; the required fields with the spec's labels; 'Current
// Position' clears the end date; a job is complete when nothing required is missing and it is current or has
// an end date.
import {
  ADDRESS_FIELD_NAMES,
  ADDRESS_FIELDS,
  type AddressFieldName,
  formatState,
  hasEndOrIsCurrent,
  JOB_FIELD_NAMES,
  JOB_FIELDS,
  JOB_LABELS,
  type JobFieldName,
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

/** The job's fields the form holds as typed text (JOB_FIELDS' text and date kinds): title, address, dates. */
type JobTextField = {
  [N in JobFieldName]: (typeof JOB_FIELDS)[N]['kind'] extends 'text' | 'date' ? N : never;
}[JobFieldName];

const isTextField = (name: string): name is JobTextField =>
  name in JOB_FIELDS && ['text', 'date'].includes(JOB_FIELDS[name as JobFieldName].kind);

const JOB_TEXT_FIELDS = JOB_FIELD_NAMES.filter(isTextField);

/** The address as the form holds it: the text of each of its inputs. */
export type AddressValues = Record<AddressFieldName, string>;

export interface JobDraft extends Record<JobTextField, string> {
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
  current_job: boolean;
}

/** The named fields' text as a record holds it, blank where not given. */
const textsOf = <F extends string>(fields: readonly F[], record: Partial<Record<F, string | null>>) =>
  Object.fromEntries(fields.map((field) => [field, record[field] ?? ''])) as Record<F, string>;

export function emptyJobDraft(current: boolean): JobDraft {
  return {
    ...textsOf(JOB_TEXT_FIELDS, {}),
    organizationName: '',
    organization: null,
    divisionName: '',
    division: null,
    groupType: '',
    current_job: current,
  };
}

/** The Edit Job form: the job as it is, its organization and division chosen. */
export function jobDraftFrom(job: Job): JobDraft {
  return {
    ...textsOf(JOB_TEXT_FIELDS, job),
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
    end_date: job.current_job ? '' : (job.end_date ?? ''),
    current_job: job.current_job,
  };
}

const hasAddress = (draft: JobDraft) => ADDRESS_FIELD_NAMES.some((field) => draft[field].trim() !== '');

/** The address of a chosen record, as the form holds it: the state upper-cased as if typed. */
function addressOf(record: Pick<Organization, AddressFieldName>): AddressValues {
  const address = textsOf(ADDRESS_FIELD_NAMES, record);
  return { ...address, state: formatState(address.state) };
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

export type TextJobField = 'groupType' | JobTextField;

/** How an address field's text is formatted as typed, by the kind its shared row gives it. */
const TYPED: Partial<Record<(typeof ADDRESS_FIELDS)[AddressFieldName]['kind'], (value: string) => string>> = {
  address: titleCase,
  state: formatState,
};

const isAddressField = (field: string): field is AddressFieldName => field in ADDRESS_FIELDS;

/**
 * docs/product.md#5-validation-rules Other formatting: address, suite and city title-cased, the state
 * upper-cased, as typed.
 */
export function setJobField(draft: JobDraft, field: TextJobField, value: string): JobDraft {
  const format = isAddressField(field) ? TYPED[ADDRESS_FIELDS[field].kind] : undefined;
  return { ...draft, [field]: format ? format(value) : value };
}

/**
 * The required fields by the spec's labels, in its order (docs/product.md#5-validation-rules, Create job
 * step): JOB_FIELDS' required rows in the table's order (Job Title, Company, Address, City, State, Zip Code,
 * Start Date; the Company is the organization's text, and 'Current Position' always has a value), then Type
 * of Organization (which a chosen organization brings along).
 */
function requiredJobFields(draft: JobDraft): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of JOB_FIELD_NAMES) {
    const { label, required } = JOB_FIELDS[name];
    if (!required) continue;
    if (isTextField(name)) given[label] = draft[name];
    else if (name === 'organization_id') given[label] = draft.organizationName;
  }
  given[JOB_LABELS.groupType] = draft.groupType;
  return given;
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
