// The Edit Organization form's rules (docs/product.md#5-validation-rules Organization form): live formatting
// (title case for address and city, upper-case state, the phone once it has 10 digits), Save only with a name
// and a street address, a name with letters, the Cal-Access ID only for its groups, a filer number, locked
// once set until the contributor chooses to correct it, and the update the form sends.
import {
  CAL_ACCESS_MESSAGES,
  cleanEmailDomains,
  formatPhone,
  formatState,
  hasCalAccessId,
  isCalAccessId,
  isMissing,
  NAME_LABELS,
  nameProblem,
  ORGANIZATION_FIELD_NAMES,
  type OrganizationFieldName,
  splitEmailDomains,
  titleCase,
} from '@rotunda/rules';
import type { Organization, OrganizationUpdate } from '../api';

/** The form's inputs: the name, every row of ORGANIZATION_FIELDS and the email domains. */
export type FormField = 'organization_name' | OrganizationFieldName | 'email_domains';
export type FormValues = Record<FormField, string>;

export function initialValues(organization: Organization): FormValues {
  const values = { organization_name: organization.organization_name } as FormValues;
  for (const field of ORGANIZATION_FIELD_NAMES) values[field] = organization[field] ?? '';
  values.email_domains = (organization.email_domains ?? []).join(', ');
  return values;
}

const LIVE_FORMAT: Partial<Record<FormField, (value: string) => string>> = {
  street_address: titleCase,
  city: titleCase,
  state: formatState,
  main_phone: formatPhone,
};

/** The value as the member types it: address and city title-cased, state upper-cased, a 10-digit phone formatted. */
export function formatWhileTyping(field: FormField, value: string): string {
  return LIVE_FORMAT[field]?.(value) ?? value;
}

/** The value once the member leaves the field: trimmed, then formatted as above. */
export function formatOnLeave(field: FormField, value: string): string {
  return formatWhileTyping(field, value.trim());
}

/**
 * Save is enabled only when the name and the street address are entered
 * (docs/product.md#2-screens-and-routes, #5-validation-rules).
 */
export function canSave(values: Pick<FormValues, 'organization_name' | 'street_address'>): boolean {
  return !isMissing(values.organization_name) && !isMissing(values.street_address);
}

/** The Cal-Access ID field shows only for Lobbyists, Associations and Unions. */
export const showsCalAccessField = (organization: Pick<Organization, 'group_type'>): boolean =>
  hasCalAccessId(organization.group_type);

/**
 * A stored Cal-Access ID shows locked (docs/product.md#5-validation-rules), so it changes only when the
 * contributor chooses to correct it.
 */
export const calAccessLocked = (organization: Pick<Organization, 'lobby_filer_id'>): boolean =>
  !isMissing(organization.lobby_filer_id);

/** What stops a save besides the required fields, by field: the server's words, said before it is asked. */
export function fieldProblems(
  organization: Pick<Organization, 'group_type'>,
  values: Pick<FormValues, 'organization_name' | 'lobby_filer_id'> &
    Partial<Pick<FormValues, 'email_domains'>>,
): Partial<Record<FormField, string>> {
  const problems: Partial<Record<FormField, string>> = {};
  const domains = cleanEmailDomains(splitEmailDomains(values.email_domains ?? ''));
  if (domains.problem !== undefined) problems.email_domains = domains.problem;
  const name = nameProblem(NAME_LABELS.organization, values.organization_name);
  if (name) problems.organization_name = name;
  const filerId = values.lobby_filer_id.trim();
  if (showsCalAccessField(organization) && filerId && !isCalAccessId(filerId))
    problems.lobby_filer_id = CAL_ACCESS_MESSAGES.shape;
  return problems;
}

/**
 * The update-organization body: every field, trimmed and formatted (a blank one clears it on the server),
 * except the Cal-Access ID, sent only for its groups and only when it changed (given, corrected or removed).
 */
export function updateFrom(organization: Organization, values: FormValues): OrganizationUpdate {
  const update: OrganizationUpdate = {
    organization_id: organization.organization_id,
    organization_name: values.organization_name.trim(),
  };
  for (const field of ORGANIZATION_FIELD_NAMES) {
    if (field === 'lobby_filer_id') continue;
    update[field] = formatOnLeave(field, values[field]);
  }
  const filerId = values.lobby_filer_id.trim();
  if (showsCalAccessField(organization) && filerId !== (organization.lobby_filer_id ?? '').trim())
    update.lobby_filer_id = filerId;
  // The email domains go only when the list changed; the server stores them as the rule normalizes them.
  const domains = cleanEmailDomains(splitEmailDomains(values.email_domains ?? ''));
  if (domains.problem === undefined && domains.domains.join() !== (organization.email_domains ?? []).join())
    update.email_domains = domains.domains;
  return update;
}
