// The organization form's rules, enforced on the server whatever the browser did (spec §5): required fields,
// title case for address, suite and city, upper-case state, the phone format, web addresses that are really
// http(s) links, and sane lengths. Pure functions; the org service applies them.
import {
  cleanEmailDomains,
  formatPhone,
  formatState,
  NAME_LABELS,
  requiredFieldsMessage,
  titleCase,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import type { DivisionFields, OrganizationFields } from './organization.ts';

export const LIMITS = {
  name: 200,
  text: 256,
  url: 2048,
  /** Search and lookup words: enough for any name, few enough that a query stays cheap. */
  words: 10,
  wordLength: 100,
} as const;

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
  linkedinUrl: 'LinkedIn',
  facebookUrl: 'Facebook',
  youtubeUrl: 'YouTube',
  threadsUrl: 'Threads',
  twitterUrl: 'Twitter/X',
  instagramUrl: 'Instagram',
  tiktokUrl: 'TikTok',
  blueskyUrl: 'Bluesky',
};

export const URL_FIELDS = [
  'website',
  'linkedinUrl',
  'facebookUrl',
  'youtubeUrl',
  'threadsUrl',
  'twitterUrl',
  'instagramUrl',
  'tiktokUrl',
  'blueskyUrl',
] as const satisfies readonly (keyof OrganizationFields)[];

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
 * A link the profile page may put in an href: http or https only (never javascript:, data: and the like).
 * 'www.example.org' gets 'https://' in front, as a browser's address bar would.
 */
export function cleanUrl(value: string | null | undefined, label: string): string | null | undefined {
  const text = cleanText(value, label, LIMITS.url);
  if (!text) return text;
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(text)
    ? text
    : BARE_HOST.test(text)
      ? `https://${text}`
      : text;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw invalidArgument(`${label} must be a web address starting with http:// or https://.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || /\s/.test(candidate))
    throw invalidArgument(`${label} must be a web address starting with http:// or https://.`);
  return candidate;
}

/** Address formatting shared by organizations and divisions (spec §5 organization form, other formatting). */
function cleanAddress<T extends Partial<Record<string, string | null>>>(
  fields: T,
  labels: { streetAddress: string; suiteNumber: string; city: string; state: string; zipCode: string },
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

function cleanPhone(value: string | null | undefined, label: string) {
  const phone = cleanText(value, label, 64);
  return phone ? formatPhone(phone) : phone;
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

/** The edit form's rule: name and street address (spec §5), in its message format. */
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

/** Split on spaces, as the spec's searches do; blank words dropped, count and length bounded. */
export function searchWords(text: string): string[] {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length > LIMITS.words) throw invalidArgument(`Search with at most ${LIMITS.words} words.`);
  if (words.some((word) => word.length > LIMITS.wordLength))
    throw invalidArgument(`Search words must be at most ${LIMITS.wordLength} characters.`);
  return words;
}
