// The profile forms' rules, enforced on the server whatever the browser did (spec §5): required fields in the
// spec's message format, phones formatted, state upper-cased, address and city title-cased, emails and dates
// that are really emails and dates, pronouns from the form's list, links that are really http(s), pictures
// that were uploaded here, and sane lengths. Pure functions; the profile service applies them.
import { mediaKeyOf } from '@rotunda/images';
import { formatPhone, formatState, requiredFieldsMessage, titleCase } from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import {
  type JobFields,
  PROFILE_FIELD_NAMES,
  PRONOUNS,
  type ProfileFieldName,
  type ProfileFields,
  SOCIAL_FIELD_NAMES,
} from './model.ts';

export const LIMITS = {
  name: 100,
  email: 254,
  text: 256,
  url: 2048,
  bio: 5000,
  issueName: 100,
} as const;

export const RULE_MESSAGES = {
  endDateOrCurrent: 'Please give an end date or mark the position as current',
  endBeforeStart: 'The end date cannot be before the start date.',
  bioRequired:
    'Please provide a brief discription about who you are and your expertise to finalize your profile.',
  pronouns: `Pronouns must be one of ${PRONOUNS.join(', ')}.`,
  picture: 'Profile Picture must be an image uploaded to Rotunda.',
} as const;

export const PROFILE_LABELS: Record<ProfileFieldName, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  workEmail: 'Work Email',
  personalEmail: 'Personal Email',
  mobilePhone: 'Mobile Phone',
  otherPhone: 'Office Phone',
  birthday: 'Birthday',
  pronouns: 'Pronouns',
  profilePicture: 'Profile Picture',
  lobbyFilerId: 'Lobbyist Filer ID',
  linkedinUrl: 'LinkedIn',
  facebookUrl: 'Facebook',
  youtubeUrl: 'YouTube',
  threadsUrl: 'Threads',
  twitterUrl: 'Twitter/X',
  instagramUrl: 'Instagram',
  tiktokUrl: 'TikTok',
  blueskyUrl: 'Bluesky',
};

/** The fields create-profile step 1 and the edit form require, in the spec's order (spec §5). */
export const REQUIRED_PROFILE_FIELDS = [
  'profilePicture',
  'firstName',
  'lastName',
  'workEmail',
  'otherPhone',
] as const satisfies readonly ProfileFieldName[];

/** Raw profile input: undefined = not sent; null or blank = cleared. */
export type ProfileInput = Partial<Record<ProfileFieldName, string | null>>;

/**
 * Trims; blank becomes null (the field is cleared), undefined stays undefined (the field was not sent).
 * Refuses text longer than `max`, naming the field.
 */
export function cleanText(value: string | null | undefined, label: string, max: number = LIMITS.text) {
  if (value === undefined) return undefined;
  const trimmed = (value ?? '').trim();
  if (trimmed === '') return null;
  if (trimmed.length > max) throw invalidArgument(`${label} must be at most ${max} characters.`);
  return trimmed;
}

/** A host name followed by an optional path: what people type when they leave out "https://". */
const BARE_HOST =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d+)?(?:[/?#]\S*)?$/i;

/**
 * A link the profile page puts in an href: http or https only (never javascript:, data: and the like).
 * 'www.example.org' gets 'https://' in front, as a browser's address bar would.
 */
export function cleanUrl(value: string | null | undefined, label: string): string | null | undefined {
  const text = cleanText(value, label, LIMITS.url);
  if (!text) return text;
  const refused = () => invalidArgument(`${label} must be a web address starting with http:// or https://.`);
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(text)
    ? text
    : BARE_HOST.test(text)
      ? `https://${text}`
      : text;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw refused();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || /\s/.test(candidate))
    throw refused();
  return candidate;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address, stored lower-case so it compares the way mail servers treat it. */
export function cleanEmail(value: string | null | undefined, label: string): string | null | undefined {
  const text = cleanText(value, label, LIMITS.email);
  if (!text) return text;
  if (!EMAIL.test(text)) throw invalidArgument(`${label} must be a valid email address.`);
  return text.toLowerCase();
}

/** A calendar date as 'YYYY-MM-DD' (what a date input sends); '2024-02-30' is refused. */
export function cleanDate(value: string | null | undefined, label: string): string | null | undefined {
  const text = cleanText(value, label, 10);
  if (!text) return text;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = match ? new Date(`${text}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text)
    throw invalidArgument(`${label} must be a date written YYYY-MM-DD.`);
  return text;
}

function cleanPhone(value: string | null | undefined, label: string) {
  const phone = cleanText(value, label, 64);
  return phone ? formatPhone(phone) : phone;
}

function cleanPronouns(value: string | null | undefined) {
  const text = cleanText(value, PROFILE_LABELS.pronouns, 32);
  if (!text) return text;
  const pronouns = PRONOUNS.find((option) => option.toLowerCase() === text.toLowerCase());
  if (!pronouns) throw invalidArgument(RULE_MESSAGES.pronouns);
  return pronouns;
}

/** Only pictures this service stored (the upload's answer): no outside trackers or other schemes. */
export function cleanPicture(value: string | null | undefined): string | null | undefined {
  const text = cleanText(value, PROFILE_LABELS.profilePicture, LIMITS.url);
  if (!text) return text;
  if (!mediaKeyOf(text)?.startsWith('pictures/')) throw invalidArgument(RULE_MESSAGES.picture);
  return text;
}

/** Drops the keys whose value is undefined, so "not sent" never overwrites a stored value. */
function sent<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The profile fields as they are stored: formatted, validated, blank ones null. Keys that were not sent are
 * left out. Required fields are checked apart (requireProfileFields), before this.
 */
export function cleanProfileFields(input: ProfileInput): Partial<ProfileFields> {
  const urls = Object.fromEntries(
    SOCIAL_FIELD_NAMES.map((key) => [key, cleanUrl(input[key], PROFILE_LABELS[key])]),
  );
  const fields = sent({
    firstName: cleanText(input.firstName, PROFILE_LABELS.firstName, LIMITS.name),
    lastName: cleanText(input.lastName, PROFILE_LABELS.lastName, LIMITS.name),
    workEmail: cleanEmail(input.workEmail, PROFILE_LABELS.workEmail),
    personalEmail: cleanEmail(input.personalEmail, PROFILE_LABELS.personalEmail),
    mobilePhone: cleanPhone(input.mobilePhone, PROFILE_LABELS.mobilePhone),
    otherPhone: cleanPhone(input.otherPhone, PROFILE_LABELS.otherPhone),
    birthday: cleanDate(input.birthday, PROFILE_LABELS.birthday),
    pronouns: cleanPronouns(input.pronouns),
    profilePicture: cleanPicture(input.profilePicture),
    lobbyFilerId: cleanText(input.lobbyFilerId, PROFILE_LABELS.lobbyFilerId, 32),
    ...urls,
  });
  return fields as Partial<ProfileFields>;
}

/** Every profile field null: what a new profile starts from. */
export function emptyProfileFields(): Record<ProfileFieldName, null> {
  return Object.fromEntries(PROFILE_FIELD_NAMES.map((name) => [name, null])) as Record<
    ProfileFieldName,
    null
  >;
}

/** 'Please provide entries for the following required fields: …' for the blank ones, in the form's order. */
export function requireProfileFields(values: Partial<Record<ProfileFieldName, string | null | undefined>>) {
  const message = requiredFieldsMessage(
    Object.fromEntries(REQUIRED_PROFILE_FIELDS.map((name) => [PROFILE_LABELS[name], values[name]])),
  );
  if (message) throw invalidArgument(message);
}

/** Raw job input: 0, null and blank mean not given. */
export interface JobInput {
  title?: string | null | undefined;
  organizationId?: number | null | undefined;
  divisionId?: number | null | undefined;
  streetAddress?: string | null | undefined;
  suiteNumber?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  zipCode?: string | null | undefined;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  currentJob?: boolean | undefined;
}

const JOB_LABELS = {
  title: 'Job Title',
  organizationId: 'Company',
  streetAddress: 'Address',
  suiteNumber: 'Suite',
  city: 'City',
  state: 'State',
  zipCode: 'Zip Code',
  startDate: 'Start Date',
  endDate: 'End Date',
} as const;

const positiveId = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;

/**
 * A job as it is stored (spec §5 create job, add-job and edit-job modals): the required fields in the form's
 * order, then an end date or the current box, a current job without an end date, no end before the start,
 * address, suite and city title-cased, state upper-cased.
 */
export function cleanJobFields(input: JobInput): JobFields {
  const organizationId = positiveId(input.organizationId);
  const missing = requiredFieldsMessage({
    [JOB_LABELS.title]: input.title,
    [JOB_LABELS.organizationId]: organizationId,
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
  if (!currentJob && !endDate) throw invalidArgument(RULE_MESSAGES.endDateOrCurrent);
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

/** The bio step's rule (spec §5): required, with a length a profile page can show. */
export function cleanBio(value: string | null | undefined): string {
  const bio = (value ?? '').trim();
  if (bio === '') throw invalidArgument(RULE_MESSAGES.bioRequired);
  if (bio.length > LIMITS.bio) throw invalidArgument(`Your bio must be at most ${LIMITS.bio} characters.`);
  return bio;
}

/** An issue area's name as shown, and the key two spellings of one name share. */
export function cleanIssueName(value: string | null | undefined): { name: string; key: string } {
  const name = (value ?? '').trim().replace(/\s+/g, ' ');
  const missing = requiredFieldsMessage({ 'Issue Name': name });
  if (missing) throw invalidArgument(missing);
  if (name.length > LIMITS.issueName)
    throw invalidArgument(`Issue Name must be at most ${LIMITS.issueName} characters.`);
  return { name, key: name.toLowerCase() };
}
