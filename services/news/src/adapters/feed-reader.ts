// Reads one RSS or Atom feed over HTTP and maps its items to headlines (the FeedReader port). It connects to
// public addresses only (public-address.ts) and follows at most MAX_REDIRECTS redirects, each one's target
// checked like the feed's own address.
import Parser from 'rss-parser';
import { type Response, fetch as undiciFetch } from 'undici';
import type { Headline } from '../domain/headline.ts';
import type { FeedReader } from '../domain/ports.ts';
import { publicOnlyDispatcher, type Resolve } from './public-address.ts';

export interface FeedReaderOptions {
  /** Bounds the whole exchange: connecting, redirects, headers and body. */
  timeoutMs: number;
  /** Stands in for the network in tests; it is handed the public-only dispatcher to use. */
  fetch?: typeof undiciFetch;
  now?: () => Date;
  /** A feed is a few hundred kB at most; anything far larger is refused rather than held in memory. */
  maxBytes?: number;
  /** Addresses or ranges reachable although not public (NEWS_ALLOW_PRIVATE_ADDRESSES); none by default. */
  allowedPrivateAddresses?: readonly string[];
  /** Resolves host names; the system resolver by default (tests name their local server). */
  resolve?: Resolve;
}

/** Enough for a feed that moved and moved again; a longer chain is a loop or a trap. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Atom names its picture <logo> (or <icon>); rss-parser only maps the RSS <image>.
interface FeedExtras {
  logo?: unknown;
  icon?: unknown;
}

const SNIPPET_MAX = 280;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

export function createFeedReader({
  timeoutMs,
  fetch = undiciFetch,
  now = () => new Date(),
  maxBytes = DEFAULT_MAX_BYTES,
  allowedPrivateAddresses = [],
  resolve,
}: FeedReaderOptions): FeedReader {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError('timeoutMs must be a positive number');
  }
  const dispatcher = publicOnlyDispatcher({
    allowedRanges: allowedPrivateAddresses,
    ...(resolve ? { resolve } : {}),
  });

  /**
   * The feed's answer, redirects followed by hand so each target is an http(s) address reached through the
   * public-only dispatcher, and no more than MAX_REDIRECTS of them.
   */
  async function fetchFollowing(feedUrl: string, signal: AbortSignal): Promise<Response> {
    let url = feedUrl;
    for (let redirects = 0; ; redirects++) {
      let response: Response;
      try {
        response = await get(url, signal);
      } catch (err) {
        throw new FetchFailed(url === feedUrl ? '' : ` (redirected to ${url})`, err);
      }
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response;
      await response.body?.cancel().catch(() => {});
      if (redirects === MAX_REDIRECTS)
        throw new Error(`${feedUrl} redirects more than ${MAX_REDIRECTS} times`);
      const next = parseUrl(location, url);
      if (next?.protocol !== 'http:' && next?.protocol !== 'https:')
        throw new Error(`${feedUrl} redirects to ${location}, which is not an http(s) address`);
      url = next.href;
    }
  }

  function get(url: string, signal: AbortSignal) {
    return fetch(url, {
      signal,
      redirect: 'manual',
      dispatcher,
      headers: {
        accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5',
        'user-agent': 'RotundaNews/0.1',
      },
    });
  }

  async function download(feedUrl: string): Promise<string> {
    const signal = AbortSignal.timeout(timeoutMs);
    const failed = (err: unknown, via = ''): Error =>
      signal.aborted
        ? new Error(`${feedUrl} did not answer within ${timeoutMs} ms`)
        : new Error(`${feedUrl} could not be fetched${via}: ${causeOf(err)}`);
    let response: Response;
    try {
      response = await fetchFollowing(feedUrl, signal);
    } catch (err) {
      if (err instanceof FetchFailed) throw failed(err.cause, err.via);
      throw signal.aborted ? failed(err) : err;
    }
    if (!response.ok) {
      // Release the connection instead of leaving an unread body behind.
      await response.body?.cancel().catch(() => {});
      const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      throw new Error(`${feedUrl} answered HTTP ${status}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(response, maxBytes, feedUrl);
    } catch (err) {
      if (err instanceof TooLarge) throw err;
      throw failed(err);
    }
    return decode(bytes, response.headers.get('content-type'));
  }

  return {
    async read(feedUrl) {
      const xml = await download(feedUrl);
      // A parser per read: the underlying xml2js parser keeps state between calls.
      const parser = new Parser<FeedExtras>({ customFields: { feed: ['logo', 'icon'] } });
      let feed: Awaited<ReturnType<typeof parser.parseString>>;
      try {
        feed = await parser.parseString(xml);
      } catch (err) {
        throw new Error(`${feedUrl} is not a readable RSS or Atom feed: ${causeOf(err)}`);
      }
      return toHeadlines(feed, feedUrl, now());
    },
  };
}

type ParsedFeed = FeedExtras & Parser.Output<Record<string, unknown>>;

function toHeadlines(feed: ParsedFeed, feedUrl: string, fetchedAt: Date): Headline[] {
  const publication = plainText(textOf(feed.title)) || parseUrl(feedUrl)?.hostname || feedUrl;
  const logo =
    [feed.image?.url, textOf(feed.logo), textOf(feed.icon), feed.itunes?.image]
      .map((raw) => (typeof raw === 'string' ? httpUrl(raw, feedUrl) : undefined))
      .find((url) => url !== undefined) ?? '';
  const byUrl = new Map<string, Headline>();
  for (const item of feed.items ?? []) {
    const title = plainText(textOf(item.title));
    const url = httpUrl(textOf(item.link), feedUrl);
    // Without both there is nothing to show or to open; the first of two items with one url wins.
    if (!title || !url || byUrl.has(url)) continue;
    const body = [item.summary, item.content, item.contentSnippet].find(
      (text) => typeof text === 'string' && text.trim() !== '',
    );
    byUrl.set(url, {
      title,
      snippet: truncate(plainText(body ?? ''), SNIPPET_MAX),
      url,
      logo,
      publication,
      createdAt: dateOf([item.isoDate, item.pubDate], fetchedAt),
    });
  }
  return [...byUrl.values()];
}

/** xml2js gives a string, or an object with the text under `_` when the element has attributes. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && '_' in value && typeof value._ === 'string') return value._;
  return '';
}

/** Only http(s) links are kept: the product opens them in a new tab, so `javascript:` and the like must not pass. */
function httpUrl(raw: string, base: string): string | undefined {
  if (raw.trim() === '') return undefined;
  // Relative links are resolved against the feed's url; an absolute one must not depend on that base parsing.
  const url = parseUrl(raw.trim()) ?? parseUrl(raw.trim(), base);
  return url?.protocol === 'http:' || url?.protocol === 'https:' ? url.href : undefined;
}

function parseUrl(raw: string, base?: string): URL | undefined {
  try {
    return new URL(raw, base);
  } catch {
    return undefined;
  }
}

function dateOf(candidates: readonly unknown[], fallback: Date): Date {
  for (const raw of candidates) {
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const date = new Date(raw.trim());
    if (Number.isNaN(date.getTime())) continue;
    // A date in the future would pin a headline to the top of "newest first"; publishers' clocks drift.
    return date.getTime() > fallback.getTime() ? fallback : date;
  }
  return fallback;
}

// Tags that separate words; inline ones (b, a, em…) are dropped without a space so "<b>Sacramento</b>," stays tight.
const BLOCK_TAG =
  /<\/?(?:p|div|br|hr|li|ul|ol|dl|dt|dd|h[1-6]|blockquote|pre|table|thead|tbody|tr|td|th|section|article|header|footer|aside|figure|figcaption|img|iframe|video|audio)\b[^>]*>/gi;

/** Markup to plain text: tags and comments removed, entities decoded, whitespace collapsed. */
export function plainText(html: string): string {
  const text = html
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, '');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  sect: '§',
  para: '¶',
  euro: '€',
  pound: '£',
  cent: '¢',
  yen: '¥',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  ntilde: 'ñ',
  Aacute: 'Á',
  Eacute: 'É',
  Iacute: 'Í',
  Oacute: 'Ó',
  Uacute: 'Ú',
  Ntilde: 'Ñ',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
  ccedil: 'ç',
  shy: '',
};

function decodeEntities(text: string): string {
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g,
    (whole, body: string) => {
      if (body.startsWith('#')) {
        const code =
          body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
        const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
        return valid ? String.fromCodePoint(code) : '\uFFFD';
      }
      return NAMED_ENTITIES[body] ?? whole;
    },
  );
}

/** Cuts on the last word boundary before `max` (ellipsis included), or mid-word when one word is that long. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  if (space >= max * 0.6) cut = cut.slice(0, space);
  else if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.replace(/[\s,;:–—-]+$/u, '')}…`;
}

class TooLarge extends Error {}

/** A request that failed to go out or come back, and which hop it was (empty for the feed's own address). */
class FetchFailed extends Error {
  readonly via: string;
  constructor(via: string, cause: unknown) {
    super('fetch failed', { cause });
    this.via = via;
  }
}

async function readCapped(response: Response, maxBytes: number, feedUrl: string): Promise<Uint8Array> {
  const tooLarge = () => new TooLarge(`${feedUrl} is larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Honours the charset of the Content-Type, else of the XML declaration; many older feeds are ISO-8859-1. */
function decode(bytes: Uint8Array, contentType: string | null): string {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const charset =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1] ??
    'utf-8';
  // The decoder drops a BOM; xml2js would otherwise refuse the document.
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown label: UTF-8 is the only sensible guess.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** fetch hides the reason (DNS, refused…) under `cause` of a generic "fetch failed". */
function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause: unknown = err.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return err.message;
}
