// Post bodies on screen: sanitized again in the browser with the one configuration and class rule the server uses
// (@rotunda/rules RICH_TEXT_PURIFY_CONFIG, keepOnlyQuillClasses), and the card's preview cut at 300 visible
// characters without breaking the markup (docs/product.md#2-screens-and-routes,
// #9-business-constants-and-limits).
import { keepOnlyQuillClasses, RICH_TEXT_PURIFY_CONFIG, visibleText } from '@rotunda/rules';
import DOMPurify, { type Config } from 'dompurify';

/** Visible characters a card's preview shows (docs/product.md#9-business-constants-and-limits). */
export const PREVIEW_LENGTH = 300;

const CONFIG: Config = {
  ...RICH_TEXT_PURIFY_CONFIG,
  ALLOWED_TAGS: [...RICH_TEXT_PURIFY_CONFIG.ALLOWED_TAGS],
  ALLOWED_ATTR: [...RICH_TEXT_PURIFY_CONFIG.ALLOWED_ATTR],
};

/** Post bodies' own instance: its hooks apply to them alone, not to whatever else uses DOMPurify on the page. */
const purify = DOMPurify(window);

purify.addHook('uponSanitizeAttribute', keepOnlyQuillClasses);
// Every kept link opens in a new tab without giving the opened page a handle on this one.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  } else if (node.nodeName === 'A') {
    node.removeAttribute('target');
    node.removeAttribute('rel');
  }
});

/** The body as markup safe to put in the page. */
export function sanitizeBody(html: string): string {
  return purify.sanitize(html, CONFIG);
}

/** The body's visible text (whitespace runs as one space), e.g. for a calendar entry's description. */
export function bodyText(html: string): string {
  const fragment = purify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  return visibleText(fragment.textContent ?? '');
}

export interface Preview {
  html: string;
  /** Whether text was cut (the preview then ends with an ellipsis). */
  truncated: boolean;
}

/**
 * The sanitized body cut after `limit` visible characters, counted as visibleText counts them. The cut
 * happens inside a text node and every element after it is removed, so open tags stay closed.
 */
export function previewOf(html: string, limit = PREVIEW_LENGTH): Preview {
  const fragment = purify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  let counted = 0;
  // Leading whitespace does not count, and a whitespace run counts once.
  let lastWasSpace = true;
  let cutAt: { node: Text; offset: number } | null = null;
  for (let node = walker.nextNode() as Text | null; node && !cutAt; node = walker.nextNode() as Text | null) {
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const isSpace = /\s/.test(text[i] as string);
      if (isSpace && lastWasSpace) continue;
      lastWasSpace = isSpace;
      if (counted === limit) {
        cutAt = { node, offset: i };
        break;
      }
      counted++;
    }
  }
  if (!cutAt) return { html: sanitizeBody(html), truncated: false };
  // What follows is only whitespace: nothing visible is lost, so nothing is cut.
  const rest = cutAt.node.data.slice(cutAt.offset) + textAfter(cutAt.node, fragment);
  if (visibleText(rest) === '') return { html: sanitizeBody(html), truncated: false };
  cutAt.node.data = `${cutAt.node.data.slice(0, cutAt.offset).trimEnd()}…`;
  removeEverythingAfter(cutAt.node, fragment);
  const holder = document.createElement('div');
  holder.append(fragment);
  return { html: holder.innerHTML, truncated: true };
}

function textAfter(node: Node, root: Node): string {
  let text = '';
  for (let current = nextInDocument(node, root); current; current = nextInDocument(current, root)) {
    if (current.nodeType === Node.TEXT_NODE) text += (current as Text).data;
  }
  return text;
}

/** The next node in document order after `node`'s whole subtree, staying inside `root`. */
function nextInDocument(node: Node, root: Node): Node | null {
  if (node.firstChild && node.nodeType !== Node.TEXT_NODE) return node.firstChild;
  for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
    if (current.nextSibling) return current.nextSibling;
  }
  return null;
}

/** Removes every sibling after `node` and after each of its ancestors up to `root`. */
function removeEverythingAfter(node: Node, root: Node): void {
  for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
    while (current.nextSibling) current.nextSibling.remove();
  }
}
