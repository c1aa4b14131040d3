// Mentions in a post's sanitized body: each "@First Last" of the post's `mentions` found inside one text node
// becomes a link to that person's profile. Only text nodes are split and only elements made here are added,
// their text set as text, so nothing the author wrote is ever read as markup.
import { type Mentioned, mentionSegments } from './mentions';

/** Marks the links made here, so a click can go through the app's router rather than reload the page. */
export const MENTION_PROFILE_ATTRIBUTE = 'data-mention-profile';

/** Links the mentions inside `root` in place; `profileHref` gives a profile's address. */
export function linkMentions(
  root: Node,
  mentions: readonly Mentioned[],
  profileHref: (profileId: number) => string,
): void {
  if (mentions.length === 0) return;
  const walker = (root.ownerDocument ?? document).createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A mention inside an author's own link stays that link's text.
    if (!node.parentElement?.closest('a')) texts.push(node as Text);
  }
  for (const node of texts) {
    const segments = mentionSegments(node.data, mentions);
    if (segments.length === 1 && typeof segments[0] === 'string') continue;
    const document = node.ownerDocument;
    node.replaceWith(
      ...segments.map((segment) => {
        if (typeof segment === 'string') return document.createTextNode(segment);
        const link = document.createElement('a');
        link.className = 'mention';
        link.setAttribute('href', profileHref(segment.person.profile_id));
        link.setAttribute(MENTION_PROFILE_ATTRIBUTE, String(segment.person.profile_id));
        link.textContent = segment.text;
        return link;
      }),
    );
  }
}
