// Post bodies sanitized on the server before storage (DOMPurify on jsdom; ADR 0020), with the one
// configuration and class rule the browser uses too (@rotunda/rules RICH_TEXT_PURIFY_CONFIG,
// keepOnlyQuillClasses): scripts, event handlers, styles, classes other than Quill's and links other than
// web, mail and phone are removed. Also answers the body's visible text, which the search index holds.
import { keepOnlyQuillClasses, RICH_TEXT_PURIFY_CONFIG, visibleText } from '@rotunda/rules';
import createDOMPurify, { type Config, type WindowLike } from 'dompurify';
import { type DomNode, JSDOM } from 'jsdom';
import type { BodySanitizer } from '../domain/ports.ts';

const TEXT_NODE = 3;
/** Elements that end a line on screen: their text must not run into the next element's in search. */
const BLOCKS = new Set(['P', 'LI', 'OL', 'UL', 'BR']);

const CONFIG: Config = {
  ...RICH_TEXT_PURIFY_CONFIG,
  ALLOWED_TAGS: [...RICH_TEXT_PURIFY_CONFIG.ALLOWED_TAGS],
  ALLOWED_ATTR: [...RICH_TEXT_PURIFY_CONFIG.ALLOWED_ATTR],
};

function collectText(node: DomNode, parts: string[]): void {
  if (node.nodeType === TEXT_NODE) {
    parts.push(node.nodeValue ?? '');
    return;
  }
  const block = BLOCKS.has(node.nodeName);
  if (block) parts.push(' ');
  for (let i = 0; i < node.childNodes.length; i++) collectText(node.childNodes[i] as DomNode, parts);
  if (block) parts.push(' ');
}

/** One jsdom window for the process: DOMPurify needs a DOM, and a window costs ~100 ms to make. */
export function createBodySanitizer(): BodySanitizer & { close: () => void } {
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as WindowLike);
  purify.addHook('uponSanitizeAttribute', keepOnlyQuillClasses);
  return {
    sanitize(html) {
      const clean = purify.sanitize(html, CONFIG);
      // The stored HTML parsed once more, inert (a template's content runs nothing), to read its text.
      const template = window.document.createElement('template');
      template.innerHTML = clean;
      const parts: string[] = [];
      collectText(template.content, parts);
      return { html: clean, text: visibleText(parts.join('')) };
    },
    close: () => window.close(),
  };
}
