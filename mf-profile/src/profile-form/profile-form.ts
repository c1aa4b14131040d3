// The personal-information form shared by profile creation (step 1) and the Edit Profile dialog: its values,
// the required fields with the product's labels (docs/product.md#5-validation-rules: Profile Picture, First
// Name, Last Name, Work Email, Office Phone), live formatting (phones as (xxx) xxx-xxxx) and the fields the
// form sends.
import {
  formatPhone,
  missingFields,
  requiredFieldsMessage,
  SOCIAL_FIELDS as SOCIAL_NETWORKS,
  type SocialField,
} from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import type { Profile, ProfileFields, Pronouns } from '../api';
import { PRONOUNS } from '../profile-rules';

export type ProfileFormField = keyof ProfileFields | 'lobby_filer_id';

/** Every field as the inputs hold it: text, '' for nothing. */
export type ProfileFormValues = Record<ProfileFormField, string>;

const SOCIAL_FIELDS: readonly SocialField[] = SOCIAL_NETWORKS.map(({ field }) => field);

const EMPTY: ProfileFormValues = {
  profile_picture: '',
  first_name: '',
  last_name: '',
  work_email: '',
  personal_email: '',
  mobile_phone: '',
  other_phone: '',
  birthday: '',
  pronouns: '',
  lobby_filer_id: '',
  linkedin_url: '',
  facebook_url: '',
  youtube_url: '',
  threads_url: '',
  twitter_url: '',
  instagram_url: '',
  tiktok_url: '',
  bluesky_url: '',
};

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
  for (const field of Object.keys(EMPTY) as ProfileFormField[]) {
    const value = profile[field];
    values[field] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** Phones take the (xxx) xxx-xxxx format as soon as they hold 10 digits. */
export function formatWhileTyping(field: ProfileFormField, value: string): string {
  return field === 'mobile_phone' || field === 'other_phone' ? formatPhone(value) : value;
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

const requiredProfileFields = (values: ProfileFormValues) => ({
  'Profile Picture': values.profile_picture,
  'First Name': values.first_name,
  'Last Name': values.last_name,
  'Work Email': values.work_email,
  'Office Phone': values.other_phone,
});

const textOrNull = (value: string): string | null => {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

const pronounsOf = (value: string): Pronouns | null =>
  (PRONOUNS as readonly string[]).includes(value) ? (value as Pronouns) : null;

/** What create-profile and update-profile receive: trimmed text, null for an empty optional field. */
export function profileFieldsFrom(values: ProfileFormValues): ProfileFields {
  const socials = Object.fromEntries(
    SOCIAL_FIELDS.map((field) => [field, textOrNull(values[field])]),
  ) as Record<SocialField, string | null>;
  return {
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    work_email: values.work_email.trim(),
    personal_email: textOrNull(values.personal_email),
    mobile_phone: textOrNull(formatPhone(values.mobile_phone.trim())),
    other_phone: textOrNull(formatPhone(values.other_phone.trim())),
    birthday: textOrNull(values.birthday),
    pronouns: pronounsOf(values.pronouns),
    profile_picture: textOrNull(values.profile_picture),
    ...socials,
  };
}
