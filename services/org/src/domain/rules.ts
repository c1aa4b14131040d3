// The organization form's rules, enforced on the server whatever the browser did
// (docs/product.md#5-validation-rules): required fields, title case for address, suite and city, upper-case
// state, the phone format, web addresses that are really http(s) links, and sane lengths. Pure functions; the
// org service applies them.
import {
  cleanEmailDomains,
  formatState,
  NAME_LABELS,
  type PostalAddress,
  requiredFieldsMessage,
  SOCIAL_URL_FIELDS,
  SOCIAL_URL_LABELS,
  textFieldRules,
  titleCase,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import type { DivisionFields, OrganizationFields } from './organization.ts';

/** The longest organization or division name; other text and links as @rotunda/rules bounds them. */
export const LIMITS = { name: 200 } as const;

export const LABELS: Record<keyof OrganizationFields | 'organizationName' | 'groupType', string> = {
  organizationName: NAME_LABELS.organization,
  groupType: 'Type of Organization',
  streetAddress: 'Street Address',
  suiteNumber: 'Suite',
  city: 'City',
  state: 'State',
  zipCode: 'Zip Code',
  website: 'Website',
  mainPhone: 'Phone',
  lobbyFilerId: 'Cal-Access ID',
  ...SOCIAL_URL_LABELS,
};

export const URL_FIELDS = [
  'website',
  ...SOCIAL_URL_FIELDS,
] as const satisfies readonly (keyof OrganizationFields)[];

/** Trimmed text, blank as cleared, bounded lengths; http(s) links; phones; search words (@rotunda/rules). */
export const { cleanText, cleanUrl, cleanPhone, searchWords } = textFieldRules(invalidArgument);

/**
 * Address formatting shared by organizations and divisions (docs/product.md#5-validation-rules organization
 * form, other formatting).
 */
function cleanAddress<T extends Partial<Record<string, string | null>>>(
  fields: T,
  labels: Record<keyof PostalAddress, string>,
) {
  const street = cleanText(fields.streetAddress, labels.streetAddress);
  const suite = cleanText(fields.suiteNumber, labels.suiteNumber);
  const city = cleanText(fields.city, labels.city);
  const state = cleanText(fields.state, labels.state, 32);
  return {
    streetAddress: street ? titleCase(street) : street,
    suiteNumber: suite ? titleCase(suite) : suite,
    city: city ? titleCase(city) : city,
    state: state ? formatState(state) : state,
    zipCode: cleanText(fields.zipCode, labels.zipCode, 16),
  };
}

/** Drops the keys whose value is undefined, so "not sent" never overwrites a stored value. */
function sent<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The organization fields as they are stored: formatted, validated, blank ones null. Keys that were not sent
 * are left out.
 */
export function cleanOrganizationFields(
  fields: Partial<Record<keyof OrganizationFields, string | null>>,
): Partial<OrganizationFields> {
  const urls = Object.fromEntries(URL_FIELDS.map((key) => [key, cleanUrl(fields[key], LABELS[key])]));
  return sent({
    ...cleanAddress(fields, LABELS),
    mainPhone: cleanPhone(fields.mainPhone, LABELS.mainPhone),
    lobbyFilerId: cleanText(fields.lobbyFilerId, LABELS.lobbyFilerId, 32),
    ...urls,
  });
}

const DIVISION_LABELS = {
  streetAddress: 'Street Address',
  suiteNumber: 'Suite',
  city: 'City',
  state: 'State',
  zipCode: 'Zip Code',
  divisionPhone: 'Phone',
  website: 'Website',
};

export function cleanDivisionFields(
  fields: Partial<Record<keyof DivisionFields, string | null>>,
): DivisionFields {
  const address = cleanAddress(fields, DIVISION_LABELS);
  return {
    streetAddress: address.streetAddress ?? null,
    suiteNumber: address.suiteNumber ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    zipCode: address.zipCode ?? null,
    divisionPhone: cleanPhone(fields.divisionPhone, DIVISION_LABELS.divisionPhone) ?? null,
    website: cleanUrl(fields.website, DIVISION_LABELS.website) ?? null,
  };
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
    [LABELS.streetAddress]: streetAddress,
  });
  if (message) throw invalidArgument(message);
}
