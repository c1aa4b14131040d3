// The organization form's rules, enforced on the server whatever the browser did
// (docs/product.md#5-validation-rules): required fields, title case for address, suite and city, upper-case
// state, the phone format, web addresses that are really http(s) links, and sane lengths. Pure functions; the
// org service applies them.
import {
  cleanEmailDomains,
  DIVISION_FIELD_NAMES,
  DIVISION_FIELDS,
  type DivisionFieldName,
  type DivisionFieldValues,
  formatState,
  NAME_LABELS,
  ORGANIZATION_FIELD_NAMES,
  ORGANIZATION_FIELDS,
  type OrganizationFieldKind,
  type OrganizationFieldName,
  type OrganizationFieldSpec,
  type OrganizationFieldValues,
  organizationFieldKey,
  requiredFieldsMessage,
  textFieldRules,
  titleCase,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';

/** The longest organization or division name; the other fields' limits are their table rows'. */
export const LIMITS = { name: 200 } as const;

/** The labels of what the field tables do not hold: the name and the group. */
export const LABELS = {
  organizationName: NAME_LABELS.organization,
  groupType: 'Type of Organization',
} as const;

/** Trimmed text, blank as cleared, bounded lengths; http(s) links; phones; search words (@rotunda/rules). */
export const { cleanText, cleanUrl, cleanPhone, searchWords } = textFieldRules(invalidArgument);

type Cleaned = string | null | undefined;

/** Each kind's cleaning: a kind without one does not compile. Undefined (not sent) stays undefined. */
const CLEANERS: Record<OrganizationFieldKind, (value: Cleaned, spec: OrganizationFieldSpec) => Cleaned> = {
  address: (value, { label, limit }) => {
    const text = cleanText(value, label, limit);
    return text ? titleCase(text) : text;
  },
  state: (value, { label, limit }) => {
    const text = cleanText(value, label, limit);
    return text ? formatState(text) : text;
  },
  text: (value, { label, limit }) => cleanText(value, label, limit),
  'filer-id': (value, { label, limit }) => cleanText(value, label, limit),
  phone: (value, { label }) => cleanPhone(value, label),
  url: (value, { label }) => cleanUrl(value, label),
};

/** The fields of `names` as stored, under the service's names, in the table's order. */
function cleanFields<N extends OrganizationFieldName | DivisionFieldName>(
  table: Record<N, OrganizationFieldSpec>,
  names: readonly N[],
  fields: Partial<Record<string, Cleaned>>,
): Record<string, Cleaned> {
  return Object.fromEntries(
    names.map((name) => {
      const key = organizationFieldKey(name);
      return [key, CLEANERS[table[name].kind](fields[key], table[name])];
    }),
  );
}

/** Drops the keys whose value is undefined, so "not sent" never overwrites a stored value. */
function sent<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The organization fields as they are stored (docs/product.md#5-validation-rules organization form): title
 * case for address, suite and city, upper-case state, the phone format, web addresses that are really http(s)
 * links, bounded lengths, blank ones null. Keys that were not sent are left out.
 */
export function cleanOrganizationFields(
  fields: Partial<Record<keyof OrganizationFieldValues, string | null>>,
): Partial<OrganizationFieldValues> {
  return sent(
    cleanFields(ORGANIZATION_FIELDS, ORGANIZATION_FIELD_NAMES, fields),
  ) as Partial<OrganizationFieldValues>;
}

/** A new division's fields as stored, formatted as an organization's; those not sent are null. */
export function cleanDivisionFields(
  fields: Partial<Record<keyof DivisionFieldValues, string | null>>,
): DivisionFieldValues {
  const cleaned = cleanFields(DIVISION_FIELDS, DIVISION_FIELD_NAMES, fields);
  return Object.fromEntries(
    Object.entries(cleaned).map(([key, value]) => [key, value ?? null]),
  ) as DivisionFieldValues;
}

/**
 * The email domains a contributor lists (verified employer): absent keeps the stored ones; present, they are
 * stored normalized or the whole edit is refused with the rule's message.
 */
export function cleanListedEmailDomains(domains: readonly string[] | undefined): { emailDomains?: string[] } {
  if (domains === undefined) return {};
  const result = cleanEmailDomains(domains);
  if (result.problem !== undefined) throw invalidArgument(result.problem);
  return { emailDomains: result.domains };
}

/**
 * The edit form's rule: name and street address (docs/product.md#5-validation-rules), in its message format.
 */
export function requireNameAndAddress(
  name: string | null | undefined,
  streetAddress: string | null | undefined,
) {
  const message = requiredFieldsMessage({
    [LABELS.organizationName]: name,
    [ORGANIZATION_FIELDS.street_address.label]: streetAddress,
  });
  if (message) throw invalidArgument(message);
}
