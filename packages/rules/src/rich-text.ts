// The markup a post body may hold: what the editor's toolbar makes (bold, italic, underline, ordered and bullet
// lists, links, clean) and nothing else. The post service sanitizes bodies with it before storing them, the
// feed again before showing them; both run DOMPurify with this one configuration.

/** Elements Quill 2 writes for the toolbar's formats (its lists are <ol> with data-list on each <li>). */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'ol',
  'ul',
  'li',
  'a',
  'span',
] as const;

/** Attributes kept: links and Quill's list kind. Event handlers and styles never survive. */
export const RICH_TEXT_ATTRIBUTES = ['href', 'target', 'rel', 'data-list', 'class'] as const;

/**
 * Links may point to web pages, mail and phone numbers only: no javascript:, data: or other schemes. DOMPurify
 * tests every kept attribute's value against this, not only href (so target="_blank" and data-list="bullet" must
 * pass too): as its own default does, it lets through values with no scheme at all (a first character that is no
 * letter, or letters not followed by ':') besides the listed schemes.
 */
export const RICH_TEXT_URL = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** DOMPurify's settings (its Config type; kept structural so this package needs no DOMPurify). */
export const RICH_TEXT_PURIFY_CONFIG = {
  ALLOWED_TAGS: [...RICH_TEXT_TAGS],
  ALLOWED_ATTR: [...RICH_TEXT_ATTRIBUTES],
  ALLOWED_URI_REGEXP: RICH_TEXT_URL,
  ALLOW_DATA_ATTR: false,
  KEEP_CONTENT: true,
} as const;

/** The visible characters of a sanitized body's text, for previews: whitespace runs count as one space. */
export function visibleText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
