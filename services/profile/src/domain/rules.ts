// The profile forms' rules, enforced on the server whatever the browser did
// (docs/product.md#5-validation-rules): required fields in the spec's message format, phones formatted, state
// upper-cased, address and city title-cased, emails and dates that are really emails and dates, pronouns from
// the form's list, links that are really http(s), pictures that were uploaded here, and sane lengths. Pure
// functions; the profile service applies them.
import { mediaKeyOf } from '@rotunda/images';
import {
  BIO_LIMIT,
  BIO_REQUIRED_MESSAGE,
  bioTooLongMessage,
  composedName,
  formatState,
  hasEndOrIsCurrent,
  isCalendarDate,
  JOB_LABELS,
  JOB_MESSAGES,
  PROFILE_FIELDS_BY_KEY,
  PRONOUNS,
  type ProfileFieldKind,
  pronounsMessage,
  REQUIRED_PROFILE_FIELDS as REQUIRED_PROFILE_FIELD_NAMES,
  requiredFieldsMessage,
  singleSpaced,
  TEXT_LIMITS,
  textFieldRules,
  titleCase,
  unseenCharactersProblem,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import { type JobFields, PROFILE_FIELD_KEYS, type ProfileFieldKey, type ProfileFields } from './model.ts';

export const LIMITS = {
  name: 100,
  email: 254,
  bio: BIO_LIMIT,
  issueName: 100,
} as const;

export const RULE_MESSAGES = {
  ...JOB_MESSAGES,
  bioRequired: BIO_REQUIRED_MESSAGE,
  pronouns: pronounsMessage,
  picture: 'Profile Picture must be an image uploaded to Rotunda.',
} as const;

/** Each field's label, by the service's name (the table's). */
export const PROFILE_LABELS = Object.fromEntries(
  PROFILE_FIELD_KEYS.map((key) => [key, PROFILE_FIELDS_BY_KEY[key].label]),
) as Record<ProfileFieldKey, string>;

/**
 * The fields create-profile step 1 and the edit form require, in the form's order
 * (docs/product.md#5-validation-rules).
 */
export const REQUIRED_PROFILE_FIELDS: readonly ProfileFieldKey[] = PROFILE_FIELD_KEYS.filter((key) =>
  REQUIRED_PROFILE_FIELD_NAMES.includes(PROFILE_FIELDS_BY_KEY[key].name),
);

/** Raw profile input: undefined = not sent; null or blank = cleared. */
export type ProfileInput = Partial<Record<ProfileFieldKey, string | null>>;

/** Trimmed text, blank as cleared, bounded lengths; http(s) links; phones (@rotunda/rules). */
export const { cleanText, cleanUrl, cleanPhone, searchWords } = textFieldRules(invalidArgument);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const ISSUE_NAME_LABEL = 'Issue Name';

/** A name with a control, format (zero-width, bidi) or replacement character is refused, naming the field. */
function refuseUnseen(label: string, value: string | null | undefined) {
  const problem = unseenCharactersProblem(label, value);
  if (problem) throw invalidArgument(problem);
}

/** A person's name: as cleanText, composed (NFC), nothing unseen in it. */
function cleanName(
  value: string | null | undefined,
  label: string,
  max: number = LIMITS.name,
): string | null | undefined {
  refuseUnseen(label, value?.trim());
  const name = cleanText(value, label, max);
  return name ? composedName(name) : name;
}

/** An email address, stored lower-case so it compares the way mail servers treat it. */
export function cleanEmail(
  value: string | null | undefined,
  label: string,
  max: number = LIMITS.email,
): string | null | undefined {
  const text = cleanText(value, label, max);
  if (!text) return text;
  if (!EMAIL.test(text)) throw invalidArgument(`${label} must be a valid email address.`);
  return text.toLowerCase();
}

/** A calendar date as 'YYYY-MM-DD' (what a date input sends); '2024-02-30' is refused. */
export function cleanDate(value: string | null | undefined, label: string): string | null | undefined {
  const text = cleanText(value, label, 10);
  if (!text) return text;
  if (!isCalendarDate(text)) throw invalidArgument(`${label} must be a date written YYYY-MM-DD.`);
  return text;
}

function cleanPronouns(value: string | null | undefined, label: string, max: number) {
  const text = cleanText(value, label, max);
  if (!text) return text;
  const pronouns = PRONOUNS.find((option) => option.toLowerCase() === text.toLowerCase());
  if (!pronouns) throw invalidArgument(RULE_MESSAGES.pronouns);
  return pronouns;
}

/** Only pictures this service stored (the upload's answer): no outside trackers or other schemes. */
export function cleanPicture(
  value: string | null | undefined,
  label: string = PROFILE_LABELS.profilePicture,
  max: number = TEXT_LIMITS.url,
): string | null | undefined {
  const text = cleanText(value, label, max);
  if (!text) return text;
  if (!mediaKeyOf(text)?.startsWith('pictures/')) throw invalidArgument(RULE_MESSAGES.picture);
  return text;
}

/** How each kind of field is cleaned: trimmed, blank as null, undefined (not sent) kept undefined. */
const CLEANERS = {
  name: (value, label, max) => cleanName(value, label, max),
  text: (value, label, max) => cleanText(value, label, max),
  email: (value, label, max) => cleanEmail(value, label, max),
  phone: (value, label) => cleanPhone(value, label),
  date: (value, label) => cleanDate(value, label),
  url: (value, label) => cleanUrl(value, label),
  picture: (value, label, max) => cleanPicture(value, label, max),
  pronouns: (value, label, max) => cleanPronouns(value, label, max),
} satisfies Record<
  ProfileFieldKind,
  (value: string | null | undefined, label: string, max: number) => string | null | undefined
>;

/**
 * The profile fields as they are stored: formatted, validated, blank ones null. Keys that were not sent are
 * left out. Required fields are checked apart (requireProfileFields), before this.
 */
export function cleanProfileFields(input: ProfileInput): Partial<ProfileFields> {
  const fields: Partial<Record<ProfileFieldKey, string | null>> = {};
  for (const key of PROFILE_FIELD_KEYS) {
    const { kind, label, limit } = PROFILE_FIELDS_BY_KEY[key];
    const value = CLEANERS[kind](input[key], label, limit);
    if (value !== undefined) fields[key] = value;
  }
  return fields as Partial<ProfileFields>;
}

/** Every profile field null: what a new profile starts from. */
export function emptyProfileFields(): Record<ProfileFieldKey, null> {
  return Object.fromEntries(PROFILE_FIELD_KEYS.map((key) => [key, null])) as Record<ProfileFieldKey, null>;
}

/** 'Please provide entries for the following required fields: …' for the blank ones, in the form's order. */
export function requireProfileFields(values: Partial<Record<ProfileFieldKey, string | null | undefined>>) {
  const message = requiredFieldsMessage(
    Object.fromEntries(REQUIRED_PROFILE_FIELDS.map((name) => [PROFILE_LABELS[name], values[name]])),
  );
  if (message) throw invalidArgument(message);
}

/** Raw job input: 0, null and blank mean not given. */
export type JobInput = { [K in keyof JobFields]?: JobFields[K] | null | undefined };

const positiveId = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;

/**
 * A job as it is stored (docs/product.md#5-validation-rules create job, add-job and edit-job modals): the
 * required fields in the form's order, then an end date or the current box, a current job without an end
 * date, no end before the start, address, suite and city title-cased, state upper-cased.
 */
export function cleanJobFields(input: JobInput): JobFields {
  const organizationId = positiveId(input.organizationId);
  const missing = requiredFieldsMessage({
    [JOB_LABELS.title]: input.title,
    [JOB_LABELS.organization]: organizationId,
    [JOB_LABELS.streetAddress]: input.streetAddress,
    [JOB_LABELS.city]: input.city,
    [JOB_LABELS.state]: input.state,
    [JOB_LABELS.zipCode]: input.zipCode,
    [JOB_LABELS.startDate]: input.startDate,
  });
  if (missing) throw invalidArgument(missing);
  const currentJob = input.currentJob === true;
  const startDate = cleanDate(input.startDate, JOB_LABELS.startDate) as string;
  const endDate = currentJob ? null : (cleanDate(input.endDate, JOB_LABELS.endDate) ?? null);
  if (!hasEndOrIsCurrent({ currentJob, endDate })) throw invalidArgument(RULE_MESSAGES.endDateOrCurrent);
  if (endDate && endDate < startDate) throw invalidArgument(RULE_MESSAGES.endBeforeStart);
  const suite = cleanText(input.suiteNumber, JOB_LABELS.suiteNumber);
  return {
    title: cleanText(input.title, JOB_LABELS.title, 200) as string,
    organizationId: organizationId as number,
    divisionId: positiveId(input.divisionId),
    streetAddress: titleCase(cleanText(input.streetAddress, JOB_LABELS.streetAddress) as string),
    suiteNumber: suite ? titleCase(suite) : null,
    city: titleCase(cleanText(input.city, JOB_LABELS.city) as string),
    state: formatState(cleanText(input.state, JOB_LABELS.state, 32) as string),
    zipCode: cleanText(input.zipCode, JOB_LABELS.zipCode, 16) as string,
    startDate,
    endDate,
    currentJob,
  };
}

/**
 * The bio step's rule (docs/product.md#5-validation-rules): required, with a length a profile page can show.
 */
export function cleanBio(value: string | null | undefined): string {
  const bio = (value ?? '').trim();
  if (bio === '') throw invalidArgument(RULE_MESSAGES.bioRequired);
  if (bio.length > LIMITS.bio) throw invalidArgument(bioTooLongMessage);
  return bio;
}

/** An issue area's name as shown, and the key two spellings of one name share. */
export function cleanIssueName(value: string | null | undefined): { name: string; key: string } {
  refuseUnseen(ISSUE_NAME_LABEL, value);
  const name = composedName(singleSpaced(value ?? ''));
  const missing = requiredFieldsMessage({ [ISSUE_NAME_LABEL]: name });
  if (missing) throw invalidArgument(missing);
  if (name.length > LIMITS.issueName)
    throw invalidArgument(`Issue Name must be at most ${LIMITS.issueName} characters.`);
  return { name, key: name.toLowerCase() };
}
