// The arithmetic of `npm run bench -- web` (web.ts), apart from the browser: which kind a response is, one page
// load's totals from the responses Chromium reported, the median of several loads and the targets they are judged
// against.

export const KINDS = ['javascript', 'css', 'font', 'image', 'json', 'html', 'other'] as const;
export type Kind = (typeof KINDS)[number];

/** One response as Chromium's DevTools protocol reported it (Network.responseReceived and loadingFinished). */
export interface LoadedResponse {
  url: string;
  /** CDP's resource type: Document, Script, Stylesheet, Font, Image, Fetch, XHR, Other… */
  resourceType: string;
  mimeType: string;
  /** The Content-Encoding header ('' when none). */
  contentEncoding: string;
  /** Bytes received for it, headers included, as sent (compressed when it was): loadingFinished.encodedDataLength. */
  encodedBytes: number;
  /** The body's bytes once decoded (the sum of its Network.dataReceived.dataLength). */
  decodedBytes: number;
}

/**
 * The kind a response counts under: its MIME type first (a module preloaded with <link rel="modulepreload">
 * is reported as resource type Other), the resource type when the type says nothing.
 */
export function kindOf(resourceType: string, mimeType: string): Kind {
  const mime = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (mime.includes('javascript') || mime === 'text/ecmascript') return 'javascript';
  if (mime === 'text/css') return 'css';
  if (mime.startsWith('font/') || mime.includes('font-') || mime.includes('woff')) return 'font';
  if (mime.startsWith('image/')) return 'image';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime === 'text/html') return 'html';
  switch (resourceType) {
    case 'Script':
      return 'javascript';
    case 'Stylesheet':
      return 'css';
    case 'Font':
      return 'font';
    case 'Image':
      return 'image';
    case 'Fetch':
    case 'XHR':
      return 'json';
    case 'Document':
      return 'html';
    default:
      return 'other';
  }
}

/** Kinds that compress well: a server that compresses anything compresses these. */
const TEXT_KINDS: ReadonlySet<Kind> = new Set(['javascript', 'css', 'json', 'html']);

export type ByKind = Record<Kind, number>;

export interface LoadTotals {
  requests: number;
  /** Bytes over the wire by kind (encodedBytes), and in all. */
  wireBytes: ByKind & { total: number };
  /** JavaScript once decoded: what the browser parses. */
  javascriptDecodedBytes: number;
  /** Text responses (JavaScript, CSS, JSON, HTML) with a body, and how many of them came compressed. */
  textResponses: number;
  compressedTextResponses: number;
  /** The Content-Encoding values seen, with how many responses carried each. */
  encodings: Record<string, number>;
}

const zeroByKind = (): ByKind => ({
  javascript: 0,
  css: 0,
  font: 0,
  image: 0,
  json: 0,
  html: 0,
  other: 0,
});

/** One page load's totals from every response it received. */
export function totals(responses: readonly LoadedResponse[]): LoadTotals {
  const wireBytes = { ...zeroByKind(), total: 0 };
  const encodings: Record<string, number> = {};
  let javascriptDecodedBytes = 0;
  let textResponses = 0;
  let compressedTextResponses = 0;
  for (const response of responses) {
    const kind = kindOf(response.resourceType, response.mimeType);
    wireBytes[kind] += response.encodedBytes;
    wireBytes.total += response.encodedBytes;
    if (kind === 'javascript') javascriptDecodedBytes += response.decodedBytes;
    const encoding = response.contentEncoding.trim().toLowerCase();
    if (encoding) encodings[encoding] = (encodings[encoding] ?? 0) + 1;
    if (TEXT_KINDS.has(kind) && response.decodedBytes > 0) {
      textResponses++;
      if (encoding && encoding !== 'identity') compressedTextResponses++;
    }
  }
  return {
    requests: responses.length,
    wireBytes,
    javascriptDecodedBytes,
    textResponses,
    compressedTextResponses,
    encodings,
  };
}

/** The middle value (the lower middle of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

/** What one load of a page measured. */
export interface Run extends LoadTotals {
  fcpMs: number;
  lcpMs: number;
}

/** Each figure's median over the runs, taken figure by figure. */
export function medianRun(runs: readonly Run[]): Run {
  const of = (pick: (run: Run) => number) => median(runs.map(pick));
  const wireBytes = { ...zeroByKind(), total: of((run) => run.wireBytes.total) };
  for (const kind of KINDS) wireBytes[kind] = of((run) => run.wireBytes[kind]);
  const encodings: Record<string, number> = {};
  for (const encoding of new Set(runs.flatMap((run) => Object.keys(run.encodings))))
    encodings[encoding] = of((run) => run.encodings[encoding] ?? 0);
  return {
    requests: of((run) => run.requests),
    wireBytes,
    javascriptDecodedBytes: of((run) => run.javascriptDecodedBytes),
    textResponses: of((run) => run.textResponses),
    compressedTextResponses: of((run) => run.compressedTextResponses),
    encodings,
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
  };
}

export type ProfileName = 'desktop' | 'phone';

/** ADR 0030's targets, and ADR 0053's ratio to the static page: 1 KB = 1,000 bytes. */
export const TARGETS = {
  /** JavaScript over the wire for a visitor's /public-square, and a post address. */
  publicSquareJavascriptBytes: 180_000,
  lcpMs: { desktop: 1000, phone: 2500 } satisfies Record<ProfileName, number>,
  /** The app's LCP over the same first screen's as static HTML (scripts removed), same run and profile. */
  lcpOverStatic: 1.3,
} as const;

/** The pages whose JavaScript is held to publicSquareJavascriptBytes: what a visitor opens first. */
const isVisitorsFirstPage = (path: string) =>
  path === '/public-square' || path.startsWith('/public-square/post/');

export interface Verdict {
  what: string;
  limit: number;
  value: number;
  pass: boolean;
}

/** The targets that apply to one page in one profile, judged on its median run. */
export function verdicts(path: string, profile: ProfileName, run: Run): Verdict[] {
  const judged: Verdict[] = [];
  const judge = (what: string, value: number, limit: number) =>
    judged.push({ what, limit, value, pass: Number.isFinite(value) && value <= limit });
  if (isVisitorsFirstPage(path))
    judge('javascriptBytes', run.wireBytes.javascript, TARGETS.publicSquareJavascriptBytes);
  judge('lcpMs', run.lcpMs, TARGETS.lcpMs[profile]);
  return judged;
}

/** The app's LCP over its static copy's (NaN when either is missing), judged against lcpOverStatic. */
export function staticRatioVerdict(app: Run, copy: Run): Verdict {
  const value = app.lcpMs / copy.lcpMs;
  return {
    what: 'lcpOverStatic',
    limit: TARGETS.lcpOverStatic,
    value,
    pass: Number.isFinite(value) && value <= TARGETS.lcpOverStatic,
  };
}

/**
 * A rendered page as static HTML: its scripts, and the preloads that would fetch scripts or data, removed; its
 * stylesheets, images and markup kept. What the app would show at best if no JavaScript stood in the way.
 */
export function staticCopyOf(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="(?:modulepreload|preload|prefetch)"[^>]*>/gi, '');
}
