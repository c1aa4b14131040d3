// The job form's rules (docs/product.md#5-validation-rules create job, add-job and edit-job modals): its
// labels in the required-fields message, in the form's order, and the refusals of a job without an end date
// or ending before it starts.

export const JOB_LABELS = {
  title: 'Job Title',
  organization: 'Company',
  streetAddress: 'Address',
  suiteNumber: 'Suite',
  city: 'City',
  state: 'State',
  zipCode: 'Zip Code',
  startDate: 'Start Date',
  endDate: 'End Date',
  groupType: 'Type of Organization',
} as const;

export const JOB_MESSAGES = {
  endDateOrCurrent: 'Please give an end date or mark the position as current',
  endBeforeStart: 'The end date cannot be before the start date.',
} as const;

/** A job is finished or current: it has an end date, or the Current Position box is checked. */
export const hasEndOrIsCurrent = (job: {
  currentJob: boolean;
  endDate: string | null | undefined;
}): boolean => job.currentJob || (job.endDate ?? '').trim() !== '';
