// A job's fields, one row each (ADR 0060): the name the REST bodies, answers and gRPC messages use, the label
// the form and the required-fields message show (job.ts's JOB_LABELS), the kind of value, the longest text and whether the form
// requires it. The gateway's job body and answer and the profile service's job messages are derived from it.
import { type Camel, camelName } from './field-names.ts';
import { JOB_LABELS } from './job.ts';

/** text: trimmed text; id: another record's id (0 or absent is none); date: YYYY-MM-DD; flag: a checkbox. */
export type JobFieldKind = 'text' | 'id' | 'date' | 'flag';

export interface JobFieldSpec {
  label: string;
  kind: JobFieldKind;
  /** The longest text (text and date kinds). */
  limit?: number;
  required: boolean;
}

/** In the form's order: the required-fields message names them in this order. */
export const JOB_FIELDS = {
  title: { label: JOB_LABELS.title, kind: 'text', limit: 200, required: true },
  organization_id: { label: JOB_LABELS.organization, kind: 'id', required: true },
  division_id: { label: 'Division', kind: 'id', required: false },
  street_address: { label: JOB_LABELS.streetAddress, kind: 'text', limit: 256, required: true },
  suite_number: { label: JOB_LABELS.suiteNumber, kind: 'text', limit: 256, required: false },
  city: { label: JOB_LABELS.city, kind: 'text', limit: 256, required: true },
  state: { label: JOB_LABELS.state, kind: 'text', limit: 32, required: true },
  zip_code: { label: JOB_LABELS.zipCode, kind: 'text', limit: 16, required: true },
  start_date: { label: JOB_LABELS.startDate, kind: 'date', limit: 10, required: true },
  end_date: { label: JOB_LABELS.endDate, kind: 'date', limit: 10, required: false },
  current_job: { label: 'Current Position', kind: 'flag', required: true },
} as const satisfies Record<string, JobFieldSpec>;

type Table = typeof JOB_FIELDS;

/** A job field as the REST bodies, answers and gRPC messages name it: zip_code. */
export type JobFieldName = keyof Table;
/** A job field as the profile service names it: zipCode. */
export type JobFieldKey = Camel<JobFieldName>;

type ValueOf<N extends JobFieldName> = Table[N]['kind'] extends 'id'
  ? number
  : Table[N]['kind'] extends 'flag'
    ? boolean
    : string;

/** A job's field values under the REST names: null where an optional one is not given. */
export type JobFieldMessageValues = {
  [N in JobFieldName]: Table[N]['required'] extends true ? ValueOf<N> : ValueOf<N> | null;
};

/** A job's field values under the service's names. */
export type JobFieldValues = {
  [N in JobFieldName as Camel<N>]: JobFieldMessageValues[N];
};

/** Every field, in the form's order. */
export const JOB_FIELD_NAMES = Object.keys(JOB_FIELDS) as JobFieldName[];

/** zip_code → zipCode. */
export const jobFieldKey = <N extends JobFieldName>(name: N): Camel<N> => camelName(name);
