// Text a member types into a form, as the services store it (docs/product.md#5-validation-rules): trimmed,
// blank meaning cleared, lengths bounded, phones formatted, web links that are really http(s) links, and
// searches split into a bounded number of words. The rules are pure; each caller says how a refusal is raised
// (a service throws its domain error), so the words the member reads are written once.
import { formatPhone } from './phone.ts';

/** The longest text field and web address a form may store. */
export const TEXT_LIMITS = { text: 256, url: 2048 } as const;

/** Search words: enough for any name or title, few enough that a query stays cheap. */
export const SEARCH_LIMITS = { words: 10, wordLength: 100 } as const;

export const tooLongMessage = (label: string, max: number): string =>
  `${label} must be at most ${max} characters.`;

export const webAddressMessage = (label: string): string =>
  `${label} must be a web address starting with http:// or https://.`;

/** Text as searches and names compare it: trimmed, every run of spaces one space. */
export const singleSpaced = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** A host name followed by an optional path: what people type when they leave out "https://". */
const BARE_HOST =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d+)?(?:[/?#]\S*)?$/i;

/** The text-field rules, refusing with the errors `refuse` makes. */
export function textFieldRules(refuse: (message: string) => Error) {
  /**
   * Trims; blank becomes null (the field is cleared), undefined stays undefined (the field was not sent).
   * Refuses text longer than `max`, naming the field.
   */
  function cleanText(value: string | null | undefined, label: string, max: number = TEXT_LIMITS.text) {
    if (value === undefined) return undefined;
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return null;
    if (trimmed.length > max) throw refuse(tooLongMessage(label, max));
    return trimmed;
  }

  /**
   * A link a page may put in an href: http or https only (never javascript:, data: and the like).
   * 'www.example.org' gets 'https://' in front, as a browser's address bar would.
   */
  function cleanUrl(value: string | null | undefined, label: string): string | null | undefined {
    const text = cleanText(value, label, TEXT_LIMITS.url);
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
      throw refuse(webAddressMessage(label));
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || /\s/.test(candidate))
      throw refuse(webAddressMessage(label));
    return candidate;
  }

  /** A phone as typed, formatted (xxx) xxx-xxxx when it has ten digits. */
  function cleanPhone(value: string | null | undefined, label: string) {
    const phone = cleanText(value, label, 64);
    return phone ? formatPhone(phone) : phone;
  }

  /** Split on spaces, as the spec's searches do; blank words dropped, count and length bounded. */
  function searchWords(text: string): string[] {
    const words = text
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '');
    if (words.length > SEARCH_LIMITS.words) throw refuse(`Search with at most ${SEARCH_LIMITS.words} words.`);
    if (words.some((word) => word.length > SEARCH_LIMITS.wordLength))
      throw refuse(`Search words must be at most ${SEARCH_LIMITS.wordLength} characters.`);
    return words;
  }

  return { cleanText, cleanUrl, cleanPhone, searchWords };
}

/** A calendar date written YYYY-MM-DD (what a date input sends): '2024-02-30' is not one. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  // new Date accepts 2026-02-30 and rolls it over: the round trip catches it.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}
