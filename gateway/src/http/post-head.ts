// The <head> of a post's own address (/public-square/post/:id): the title, Open Graph and Twitter card tags a
// pasted link is previewed from, the canonical link, and for an event its JSON-LD `Event` (schema.org) that search
// engines read. A post's title, body and location are members' input: every value is escaped for where it goes
// (attribute text, or JSON inside a script element), so no post can end the tag or the script it sits in.
import type { Post } from '@rotunda/protos/post';

/** The post type whose posts are events (docs/product.md#4-states-and-transitions). */
const EVENT_TYPE_ID = 9;
/** Previews show about this much of the body (Open Graph descriptions are cut near 200 characters). */
const DESCRIPTION_MAX = 200;
/** California's: an event's date and times are the Capitol's local ones. */
const EVENT_TIME_ZONE = 'America/Los_Angeles';
export const SITE_NAME = 'Rotunda';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text safe inside an element or a quoted attribute. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * JSON safe inside <script type="application/ld+json">: no '<' (so no '</script>' or '<!--'), '>' or '&', and
 * no line or paragraph separator, each written as its \u escape, which JSON parsers read back as the same text.
 */
export const jsonForScript = (value: unknown) => scriptSafeJson(JSON.stringify(value));

/** JSON text already encoded (a kept page's), made safe inside a script element as jsonForScript does. */
export const scriptSafeJson = (json: string) =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** The visible text of a sanitized body, in one line, cut at a word near `max` characters. */
export function plainText(html: string, max = DESCRIPTION_MAX): string {
  const text = html
    .replace(/<\/(p|li|h\d|blockquote)>|<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The UTC offset (e.g. -08:00) California's clocks had on `day` at `time`. */
function pacificOffset(day: string, time: string): string {
  const asUtc = new Date(`${day}T${time}:00Z`);
  const name = new Intl.DateTimeFormat('en-US', { timeZone: EVENT_TIME_ZONE, timeZoneName: 'longOffset' })
    .formatToParts(asUtc)
    .find((part) => part.type === 'timeZoneName')?.value;
  const offset = name?.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/** An event's day and time as ISO 8601 with California's offset; the day alone when it has no time. */
const eventInstant = (day: string, time: string | undefined) =>
  time ? `${day}T${time}:00${pacificOffset(day, time)}` : day;

/** schema.org's Event for an event post; undefined for any other post or an event without its date. */
export function eventJsonLd(post: Post, url: string, image: string): Record<string, unknown> | undefined {
  if (post.posttype_id !== EVENT_TYPE_ID || !post.event_date) return undefined;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: post.post_title,
    description: plainText(post.post_body),
    startDate: eventInstant(post.event_date, post.event_start),
    ...(post.event_end ? { endDate: eventInstant(post.event_date, post.event_end) } : {}),
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    ...(post.event_location
      ? { location: { '@type': 'Place', name: post.event_location, address: post.event_location } }
      : {}),
    ...(post.organization_name
      ? { organizer: { '@type': 'Organization', name: post.organization_name } }
      : {}),
    image,
    url,
  };
}

export interface PostHead {
  /** The page's <title>. */
  title: string;
  /** Tags for the end of <head>. */
  tags: string;
}

/** The head of the post at `url`, previewed with `image` (absolute URLs both). */
export function postHead(post: Post, url: string, image: string): PostHead {
  const description = plainText(post.post_body) || `${post.post_type} in the Rotunda public square`;
  const byline = [
    post.author && `${post.author.first_name} ${post.author.last_name}`.trim(),
    post.organization_name,
  ]
    .filter(Boolean)
    .join(', ');
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const event = eventJsonLd(post, url, image);
  const tags = [
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta('name', 'description', description),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', 'article'),
    meta('property', 'og:title', post.post_title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:alt', post.organization_name ?? SITE_NAME),
    ...(byline ? [meta('name', 'author', byline)] : []),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', post.post_title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
    ...(event ? [`<script type="application/ld+json">${jsonForScript(event)}</script>`] : []),
  ];
  return { title: `${post.post_title} · ${SITE_NAME}`, tags: tags.join('\n    ') };
}

/** The head of an address that shows no post: the 404 page, kept out of search engines. */
export const missingPostHead: PostHead = {
  title: `Page not found · ${SITE_NAME}`,
  tags: '<meta name="robots" content="noindex">',
};

/** The shell's own description of the site, which a post's description replaces (one per page). */
const SITE_DESCRIPTION = /<meta name="description"[^>]*>/i;

/** The shell's page with `head`: its <title> replaced, the tags at the end of <head>. */
export function withHead(html: string, head: PostHead): string {
  const title = `<title>${escapeHtml(head.title)}</title>`;
  const page = head.tags.includes('<meta name="description"') ? html.replace(SITE_DESCRIPTION, '') : html;
  const titled = /<title>[^<]*<\/title>/i.test(page)
    ? page.replace(/<title>[^<]*<\/title>/i, () => title)
    : page.replace(/<\/head>/i, () => `${title}</head>`);
  return titled.replace(/<\/head>/i, () => `${head.tags}\n  </head>`);
}
