// The personal-information form shared by profile creation (step 1) and the Edit Profile dialog: its values,
// the required fields with the product's labels (docs/product.md#5-validation-rules: Profile Picture, First
// Name, Last Name, Work Email, Office Phone), live formatting (phones as (xxx) xxx-xxxx) and the fields the
// form sends. Every field is a row of @rotunda/rules' PROFILE_FIELDS.
import {
  formatPhone,
  MEMBER_PROFILE_FIELDS,
  missingFields,
  PROFILE_FIELD_NAMES,
  PROFILE_FIELDS,
  PRONOUNS,
  type ProfileFieldName,
  REQUIRED_PROFILE_FIELDS,
  requiredFieldsMessage,
} from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import type { Profile, ProfileFieldsBody } from '../api';

export type ProfileFormField = ProfileFieldName;

/** Every field as the inputs hold it: text, '' for nothing. */
export type ProfileFormValues = Record<ProfileFormField, string>;

const EMPTY = Object.fromEntries(PROFILE_FIELD_NAMES.map((name) => [name, ''])) as ProfileFormValues;

/** A new profile's form: the member's name and work email from the session, the rest empty. */
export function newProfileValues(user: AuthUser | null): ProfileFormValues {
  return {
    ...EMPTY,
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    work_email: user?.email ?? '',
  };
}

/** The form filled in with a profile as it is. */
export function profileValues(profile: Profile): ProfileFormValues {
  const values = { ...EMPTY };
  for (const field of PROFILE_FIELD_NAMES) {
    const value = profile[field];
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** Phones take the (xxx) xxx-xxxx format as soon as they hold 10 digits. */
export function formatWhileTyping(field: ProfileFormField, value: string): string {
  return PROFILE_FIELDS[field].kind === 'phone' ? formatPhone(value) : value;
}

/**
 * docs/product.md#5-validation-rules: 'Please provide entries for the following required fields: …' naming
 * the missing ones, or null.
 */
export function missingProfileFieldsMessage(values: ProfileFormValues): string | null {
  return requiredFieldsMessage(requiredProfileFields(values));
}

/** The labels of the required fields left empty, which that message names (their fields are marked invalid). */
export function missingProfileFields(values: ProfileFormValues): string[] {
  return missingFields(requiredProfileFields(values));
}

const requiredProfileFields = (values: ProfileFormValues) =>
  Object.fromEntries(REQUIRED_PROFILE_FIELDS.map((name) => [PROFILE_FIELDS[name].label, values[name]]));

/** An input's text as sent: trimmed, phones formatted, pronouns one of the list; null for nothing. */
function sentValue(field: ProfileFormField, value: string): string | null {
  const { kind, required } = PROFILE_FIELDS[field];
  const text = (kind === 'phone' ? formatPhone(value.trim()) : value).trim();
  if (kind === 'pronouns') return (PRONOUNS as readonly string[]).includes(value) ? value : null;
  return text === '' && required !== 'always' ? null : text;
}

/** What create-profile and update-profile receive: trimmed text, null for an empty optional field. */
export function profileFieldsFrom(values: ProfileFormValues): ProfileFieldsBody {
  return Object.fromEntries(
    MEMBER_PROFILE_FIELDS.map((field) => [field, sentValue(field, values[field])]),
  ) as ProfileFieldsBody;
}
