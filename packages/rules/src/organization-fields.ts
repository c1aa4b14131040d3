// The organization's and the division's fields besides their names, one row each (ADR 0060): the name the REST
// bodies, answers and gRPC messages use, the label refusals and the curation history show, the longest value, the
// kind of value (which says how it is cleaned), whether a form requires it and who may give it. The gateway's
// request shapes and answers, the org service's messages and cleaning, the Edit Organization form's values and
// the history's labels are derived from these tables, so a new field is one row plus the proto, the schema and
// its display.
import { type Camel, camelName } from './field-names.ts';
import { SOCIAL_FIELDS, type SocialField } from './social-networks.ts';
import { TEXT_LIMITS } from './text-fields.ts';

/**
 * address: title-cased text (street, suite, city); state: upper-cased; text: trimmed; phone: formatted once it
 * has ten digits; url: an http(s) link; filer-id: a Cal-Access filer number (docs/product.md#5-validation-rules).
 */
export type OrganizationFieldKind = 'address' | 'state' | 'text' | 'phone' | 'url' | 'filer-id';

export interface OrganizationFieldSpec {
  label: string;
  kind: OrganizationFieldKind;
  limit: number;
  /** 'edit': the Edit Organization form requires it; adding from the job form does not. */
  required: 'edit' | false;
  /** 'contributor': only a contributor gives it; any member may give the others when adding. */
  editor: 'member' | 'contributor';
  /** The Edit Organization form's label, where it is not the refusals' and the history's. */
  formLabel?: string;
  /** The browser's autofill hint (HTML autocomplete) wherever the field is an input. */
  autoComplete?: string;
  /** The keyboard a phone shows for the field's input. */
  inputMode?: 'numeric';
}

/**
 * A postal address, in the forms' order: the organization's, the division's and, with the job's own labels and
 * requirements (job-fields.ts), the job's.
 */
const ADDRESS_ROWS = {
  street_address: {
    label: 'Street Address',
    kind: 'address',
    limit: TEXT_LIMITS.text,
    required: 'edit',
    editor: 'member',
    formLabel: 'Street address',
    autoComplete: 'address-line1',
  },
  suite_number: {
    label: 'Suite',
    kind: 'address',
    limit: TEXT_LIMITS.text,
    required: false,
    editor: 'member',
    autoComplete: 'address-line2',
  },
  city: {
    label: 'City',
    kind: 'address',
    limit: TEXT_LIMITS.text,
    required: false,
    editor: 'member',
    autoComplete: 'address-level2',
  },
  state: {
    label: 'State',
    kind: 'state',
    limit: 32,
    required: false,
    editor: 'member',
    autoComplete: 'address-level1',
  },
  zip_code: {
    label: 'Zip Code',
    kind: 'text',
    limit: 16,
    required: false,
    editor: 'member',
    formLabel: 'ZIP code',
    autoComplete: 'postal-code',
    inputMode: 'numeric',
  },
} as const satisfies Record<string, OrganizationFieldSpec>;

/** The address's rows, which the organization, the division and the job share. */
export const ADDRESS_FIELDS: Readonly<Record<AddressFieldName, OrganizationFieldSpec>> = ADDRESS_ROWS;
/** An address field as the REST bodies, answers and gRPC messages name it: zip_code. */
export type AddressFieldName = keyof typeof ADDRESS_ROWS;
/** Every address field, in the forms' order. */
export const ADDRESS_FIELD_NAMES = Object.keys(ADDRESS_ROWS) as AddressFieldName[];

const WEBSITE_ROW = {
  label: 'Website',
  kind: 'url',
  limit: TEXT_LIMITS.url,
  required: false,
  editor: 'member',
} as const satisfies OrganizationFieldSpec;

const PHONE_ROW = {
  label: 'Phone',
  kind: 'phone',
  limit: 64,
  required: false,
  editor: 'member',
} as const satisfies OrganizationFieldSpec;

const SOCIAL_ROW = { kind: 'url', limit: TEXT_LIMITS.url, required: false, editor: 'member' } as const;

const SOCIAL_ROWS = Object.fromEntries(
  SOCIAL_FIELDS.map(({ field, label }) => [field, { ...SOCIAL_ROW, label }]),
) as Record<SocialField, typeof SOCIAL_ROW & { label: string }>;

/** In the messages' order, which is the order a refusal among several is named in. */
export const ORGANIZATION_FIELDS = {
  ...ADDRESS_ROWS,
  website: WEBSITE_ROW,
  main_phone: PHONE_ROW,
  lobby_filer_id: {
    label: 'Cal-Access ID',
    kind: 'filer-id',
    limit: 32,
    required: false,
    editor: 'contributor',
  },
  ...SOCIAL_ROWS,
} as const satisfies Record<string, OrganizationFieldSpec>;

/** A division's fields besides its name and type; members add divisions from the job form. */
export const DIVISION_FIELDS = {
  ...ADDRESS_ROWS,
  // No form edits a division: nothing is required of one but its name.
  street_address: { ...ADDRESS_ROWS.street_address, required: false },
  division_phone: PHONE_ROW,
  website: WEBSITE_ROW,
} as const satisfies Record<string, OrganizationFieldSpec>;

/** An organization field as the REST bodies, answers and gRPC messages name it: main_phone. */
export type OrganizationFieldName = keyof typeof ORGANIZATION_FIELDS;
/** An organization field as the org service and its schema name it: mainPhone. */
export type OrganizationFieldKey = Camel<OrganizationFieldName>;
export type OrganizationFieldKeyOf<N extends OrganizationFieldName | DivisionFieldName> = Camel<N>;
/** A division field as the REST bodies, answers and gRPC messages name it: division_phone. */
export type DivisionFieldName = keyof typeof DIVISION_FIELDS;
/** A division field as the org service and its schema name it: divisionPhone. */
export type DivisionFieldKey = Camel<DivisionFieldName>;

/** An organization's field values under the service's names: text, null where not given. */
export type OrganizationFieldValues = Record<OrganizationFieldKey, string | null>;
/** A division's field values under the service's names: text, null where not given. */
export type DivisionFieldValues = Record<DivisionFieldKey, string | null>;

/** Every organization field, in the table's order. */
export const ORGANIZATION_FIELD_NAMES = Object.keys(ORGANIZATION_FIELDS) as OrganizationFieldName[];
/** Every division field, in the table's order. */
export const DIVISION_FIELD_NAMES = Object.keys(DIVISION_FIELDS) as DivisionFieldName[];

/** main_phone → mainPhone; division_phone → divisionPhone. */
export const organizationFieldKey = <N extends OrganizationFieldName | DivisionFieldName>(
  name: N,
): Camel<N> => camelName(name);

/**
 * The labels by REST name, for pages that name changed fields: an organization's history holds its own
 * changes and its divisions' (a division's phone is its "Phone" as well).
 */
export const ORGANIZATION_FIELD_LABELS = Object.fromEntries(
  [...Object.entries(DIVISION_FIELDS), ...Object.entries(ORGANIZATION_FIELDS)].map(([name, spec]) => [
    name,
    spec.label,
  ]),
) as Record<OrganizationFieldName | DivisionFieldName, string>;
