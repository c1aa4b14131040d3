// The markup a post body may hold: what Quill 2 writes for the editor's toolbar (bold, italic, underline, ordered
// and bullet lists, links, clean) and nothing else. The post service sanitizes bodies with it before storing them,
// the feed again before showing them; both run DOMPurify with this one configuration and this one class rule.

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

/**
 * Attributes kept: links, Quill's list kind, and classes (only Quill's, see RICH_TEXT_CLASS). No `style`: Quill 2
 * writes classes, not styles, for its formats, and the editor enables none that would need one; an inline style is
 * how a body would draw over the page.
 */
export const RICH_TEXT_ATTRIBUTES = ['href', 'target', 'rel', 'data-list', 'class'] as const;

/**
 * A class a body may keep: one Quill 2 writes into content, with the values its formats allow — the list item's
 * marker (ql-ui), alignment, direction, indent, size and font. Not the editor's own chrome (ql-editor,
 * ql-tooltip, ql-clipboard, ql-hidden…), whose styles position and hide things, nor any class of the app's.
 */
export const RICH_TEXT_CLASS =
  /^ql-(?:ui|align-(?:right|center|justify)|direction-rtl|indent-[1-8]|size-(?:small|large|huge)|font-(?:serif|monospace))$/;

/** The classes of a `class` value that RICH_TEXT_CLASS allows, space-separated ('' when none is). */
export function richTextClasses(value: string): string {
  return value
    .split(/\s+/)
    .filter((name) => RICH_TEXT_CLASS.test(name))
    .join(' ');
}

/** What DOMPurify's uponSanitizeAttribute hook receives of an attribute (kept structural, no DOMPurify here). */
export interface SanitizedAttribute {
  attrName: string;
  attrValue: string;
  keepAttr: boolean;
}

/**
 * The class rule as a DOMPurify uponSanitizeAttribute hook: a `class` keeps only Quill's classes, and goes
 * when none is left. Both sanitizers add it to their DOMPurify instance.
 */
export function keepOnlyQuillClasses(_node: unknown, attribute: SanitizedAttribute): void {
  if (attribute.attrName !== 'class') return;
  const kept = richTextClasses(attribute.attrValue);
  if (kept === '') attribute.keepAttr = false;
  else attribute.attrValue = kept;
}

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
