// The profile's editable fields, one row each (ADR 0060): the name the REST bodies, answers and gRPC messages
// use, the label forms and refusals show, the longest value, the kind of value (which says how it is cleaned and
// which input takes it), whether it is required, whether it is personal (on the profile page's answer only,
// cleared when the profile returns to unclaimed) and who may edit it. The gateway's request shapes and answers,
// the profile service's messages and cleaning, the forms' values and inputs and the curation history's labels
// are derived from this table, so a new field is one row here plus the proto, the schema and its display.
import { type Camel, camelName } from './field-names.ts';
import { SOCIAL_FIELDS, type SocialField } from './social-networks.ts';
import { TEXT_LIMITS } from './text-fields.ts';

/** How a field's value is cleaned and typed in (docs/product.md#5-validation-rules). */
export type ProfileFieldKind = 'name' | 'text' | 'email' | 'phone' | 'date' | 'url' | 'picture' | 'pronouns';

/**
 * 'always': no profile is without it; 'forms': the forms ask for it, though a profile curated or imported may
 * lack it; false: optional.
 */
export type ProfileFieldRequirement = 'always' | 'forms' | false;

/** The profile form's sections a field's input sits in. */
export type ProfileFormSection = 'picture' | 'about' | 'contact' | 'social';

export interface ProfileFieldSpec {
  label: string;
  kind: ProfileFieldKind;
  limit: number;
  required: ProfileFieldRequirement;
  /** Personal contact details: only the profile page's answer and the member's own export hold them. */
  personal: boolean;
  /** 'contributor': only a contributor changes it (the lobbyist filer id), and creating a profile ignores it. */
  editor: 'editor' | 'contributor';
  section: ProfileFormSection;
  /** The browser's autofill hint (HTML autocomplete). */
  autoComplete?: string;
}

/** Pronouns the profile form offers (docs/product.md#3-entities-and-their-fields). */
export const PRONOUNS = ['They/Them', 'She/Her', 'He/Him'] as const;
export type Pronouns = (typeof PRONOUNS)[number];

/** docs/product.md#5-validation-rules Bio step, word for word (its spelling included). */
export const BIO_REQUIRED_MESSAGE =
  'Please provide a brief discription about who you are and your expertise to finalize your profile.';

/**
 * The bio's name in the REST bodies, answers and gRPC messages: not a row of the table, since it has its own
 * call (SetBio) and creation step, but named here once like the rows.
 */
export const BIO_FIELD = 'user_bio';

/** The longest bio a profile page shows. */
export const BIO_LIMIT = 5000;

export const bioTooLongMessage = `Your bio must be at most ${BIO_LIMIT} characters.`;

export const pronounsMessage = `Pronouns must be one of ${PRONOUNS.join(', ')}.`;

/** The longest person's name. */
const NAME_LIMIT = 100;

const SOCIAL_ROW = {
  kind: 'url',
  limit: TEXT_LIMITS.url,
  required: false,
  personal: false,
  editor: 'editor',
  section: 'social',
  autoComplete: 'url',
} as const;

const SOCIAL_ROWS = Object.fromEntries(
  SOCIAL_FIELDS.map(({ field, label }) => [field, { ...SOCIAL_ROW, label }]),
) as Record<SocialField, typeof SOCIAL_ROW & { label: string }>;

/** In the form's order: the required fields' message names them in this order. */
export const PROFILE_FIELDS = {
  profile_picture: {
    label: 'Profile Picture',
    kind: 'picture',
    limit: TEXT_LIMITS.url,
    required: 'forms',
    personal: false,
    editor: 'editor',
    section: 'picture',
  },
  first_name: {
    label: 'First Name',
    kind: 'name',
    limit: NAME_LIMIT,
    required: 'always',
    personal: false,
    editor: 'editor',
    section: 'about',
    autoComplete: 'given-name',
  },
  last_name: {
    label: 'Last Name',
    kind: 'name',
    limit: NAME_LIMIT,
    required: 'always',
    personal: false,
    editor: 'editor',
    section: 'about',
    autoComplete: 'family-name',
  },
  preferred_name: {
    label: 'Preferred Name',
    kind: 'name',
    limit: NAME_LIMIT,
    required: false,
    personal: false,
    editor: 'editor',
    section: 'about',
    autoComplete: 'nickname',
  },
  pronouns: {
    label: 'Pronouns',
    kind: 'pronouns',
    limit: 32,
    required: false,
    personal: false,
    editor: 'editor',
    section: 'about',
  },
  birthday: {
    label: 'Birthday',
    kind: 'date',
    limit: 10,
    required: false,
    personal: true,
    editor: 'editor',
    section: 'about',
    autoComplete: 'bday',
  },
  work_email: {
    label: 'Work Email',
    kind: 'email',
    limit: 254,
    required: 'always',
    personal: false,
    editor: 'editor',
    section: 'contact',
    autoComplete: 'work email',
  },
  personal_email: {
    label: 'Personal Email',
    kind: 'email',
    limit: 254,
    required: false,
    personal: true,
    editor: 'editor',
    section: 'contact',
    autoComplete: 'home email',
  },
  other_phone: {
    label: 'Office Phone',
    kind: 'phone',
    limit: 64,
    required: 'forms',
    personal: false,
    editor: 'editor',
    section: 'contact',
    autoComplete: 'work tel',
  },
  mobile_phone: {
    label: 'Mobile Phone',
    kind: 'phone',
    limit: 64,
    required: false,
    personal: true,
    editor: 'editor',
    section: 'contact',
    autoComplete: 'mobile tel',
  },
  lobby_filer_id: {
    label: 'Lobbyist Filer ID',
    kind: 'text',
    limit: 32,
    required: false,
    personal: false,
    editor: 'contributor',
    section: 'contact',
  },
  ...SOCIAL_ROWS,
} as const satisfies Record<string, ProfileFieldSpec>;

type Table = typeof PROFILE_FIELDS;

/** A profile field as the REST bodies, answers and gRPC messages name it: first_name. */
export type ProfileFieldName = keyof Table;

/** A profile field as the profile service and its schema name it: firstName. */
export type ProfileFieldKey = Camel<ProfileFieldName>;
export type ProfileFieldKeyOf<N extends ProfileFieldName> = Camel<N>;

type NamesWhere<Condition> = {
  [N in ProfileFieldName]: Table[N] extends Condition ? N : never;
}[ProfileFieldName];

/** The personal contact details (birthday, personal email, mobile phone). */
export type PersonalProfileField = NamesWhere<{ personal: true }>;
/** What lists and bulk answers carry of a profile's fields: all but the personal ones. */
export type ListedProfileField = Exclude<ProfileFieldName, PersonalProfileField>;
/** What every member may set on their own profile (all but the contributors' lobbyist filer id). */
export type MemberProfileField = NamesWhere<{ editor: 'editor' }>;
/** Fields no profile is without. */
export type AlwaysGivenProfileField = NamesWhere<{ required: 'always' }>;

/** A profile's field values under the service's names: text, null where not given. */
export type ProfileFieldValues = {
  [N in ProfileFieldName as Camel<N>]: N extends AlwaysGivenProfileField ? string : string | null;
};

/** Every field, in the table's (the form's) order. */
export const PROFILE_FIELD_NAMES = Object.keys(PROFILE_FIELDS) as ProfileFieldName[];

const namesWhere = <N extends ProfileFieldName>(test: (spec: ProfileFieldSpec) => boolean) =>
  PROFILE_FIELD_NAMES.filter((name) => test(PROFILE_FIELDS[name])) as N[];

export const PERSONAL_PROFILE_FIELDS = namesWhere<PersonalProfileField>((spec) => spec.personal);
export const LISTED_PROFILE_FIELDS = namesWhere<ListedProfileField>((spec) => !spec.personal);
export const MEMBER_PROFILE_FIELDS = namesWhere<MemberProfileField>((spec) => spec.editor === 'editor');
/** The fields create-profile step 1 and the edit form require, in the form's order. */
export const REQUIRED_PROFILE_FIELDS = namesWhere((spec) => spec.required !== false);

/** first_name → firstName. */
export const profileFieldKey = <N extends ProfileFieldName>(name: N): Camel<N> => camelName(name);

/** The table's rows by the service's names: firstName → its row. */
export const PROFILE_FIELDS_BY_KEY = Object.fromEntries(
  PROFILE_FIELD_NAMES.map((name) => [profileFieldKey(name), { name, ...PROFILE_FIELDS[name] }]),
) as { [N in ProfileFieldName as Camel<N>]: Table[N] & { name: N } };

/**
 * The first name a person is shown by: their preferred name when they gave one ("Liz" for Elizabeth), else
 * their first name (docs/product.md#3-entities-and-their-fields Profile).
 */
export const shownFirstName = (person: {
  first_name: string;
  preferred_name?: string | null | undefined;
}): string => person.preferred_name?.trim() || person.first_name;

/** The labels by REST name, for pages that name changed fields (the curation history). */
export const PROFILE_FIELD_LABELS = Object.fromEntries(
  PROFILE_FIELD_NAMES.map((name) => [name, PROFILE_FIELDS[name].label]),
) as Record<ProfileFieldName, string>;
