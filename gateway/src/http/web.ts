// Serves the shell and each micro-frontend's build on the gateway's origin (the one-machine default):
// hashed assets (everything under a build's static/, the previous release's included) cached for a year,
// entry points (HTML, manifests, release-assets.json) revalidated every time, and the remotes config that
// lets the shell load each remote at run time. A file the build pre-compressed (packages/web-build) is sent as
// its brotli or gzip sibling to a client that accepts it, as nginx's gzip_static does in production.
// A post's address (/public-square/post/:id) is the shell's page with that post's head (post-head.ts): its
// preview tags and the square with the post's read dialog open over it drawn in #root (readable without
// JavaScript, ADR 0053) for a visible post, the 404 status for a hidden, removed or unknown one. The public square (/public-square) is the shell's page with its
// first page of cards drawn in #root and carried as data, and mf-feed's own stylesheet linked (ADR 0053); when the
// post service cannot answer, the shell's page as it is (the app shows its own error with a retry).
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { postJson } from '../routes/post-answers.ts';
import { type FeedPost, feedData, postData, squareFirstScreen, withFirstScreen } from './first-screen.ts';
import { pageCache } from './micro-cache.ts';
import { escapeHtml, missingPostHead, postHead, withHead } from './post-head.ts';
import { type PostPages, PUBLIC_SQUARE_PATH, postPath } from './post-pages.ts';

export const REMOTES = {
  mf_feed: 'feed',
  mf_directory: 'directory',
  mf_organizations: 'organizations',
  mf_profile: 'profile',
} as const;

/** The siblings a web build writes beside a text file, in the order the gateway prefers them. */
const SIBLINGS = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const;
type Sibling = (typeof SIBLINGS)[number];

/** Set on the response while one of its file's siblings is being sent in its place. */
const SENDING_SIBLING = 'sendingSibling';

const isFile = (file: string) =>
  stat(file).then(
    (found) => found.isFile(),
    () => false,
  );

/**
 * A build's files, each as the best pre-compressed sibling the client accepts (brotli, then gzip), else as it is.
 * Siblings are looked for on each request, so a build that lands while the gateway runs is served compressed at
 * once. A Range request is answered from the file as it is: its byte ranges are the file's, never a sibling's.
 */
function staticFolder(folder: string): RequestHandler {
  const root = resolve(folder);
  const hashed = join(root, 'static', sep);
  const serve = express.static(root, {
    index: false,
    setHeaders(res, file, stats) {
      const sibling = res.locals[SENDING_SIBLING] as Sibling | undefined;
      if (sibling) {
        res.setHeader('Content-Encoding', sibling.encoding);
        res.type(extname(file.slice(0, -sibling.extension.length)));
        // Each encoding is its own representation, with its own validator.
        res.setHeader(
          'ETag',
          `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}-${sibling.encoding}"`,
        );
      }
      res.setHeader(
        'Cache-Control',
        file.startsWith(hashed) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return serve(req, res, next);
    let file: string;
    try {
      file = resolve(root, `.${decodeURIComponent(req.path)}`);
    } catch {
      return serve(req, res, next);
    }
    if (!file.startsWith(root + sep)) return serve(req, res, next);
    const present = await Promise.all(SIBLINGS.map(({ extension }) => isFile(file + extension)));
    if (!present.some(Boolean)) return serve(req, res, next);
    res.vary('Accept-Encoding');
    const sibling = req.headers.range
      ? undefined
      : SIBLINGS.find(({ encoding }, index) => present[index] && req.acceptsEncodings(encoding));
    if (!sibling) return serve(req, res, next);
    const url = req.url;
    const query = url.indexOf('?');
    req.url =
      query === -1
        ? url + sibling.extension
        : `${url.slice(0, query)}${sibling.extension}${url.slice(query)}`;
    res.locals[SENDING_SIBLING] = sibling;
    serve(req, res, (error?: unknown) => {
      req.url = url;
      delete res.locals[SENDING_SIBLING];
      if (error) return next(error);
      // The sibling vanished under a rebuild: the file as it is, if it is still there.
      serve(req, res, next);
    });
  };
}

export function remotesConfig(remotesConfigPath?: string): Record<string, string> {
  if (remotesConfigPath) return JSON.parse(readFileSync(remotesConfigPath, 'utf8'));
  return Object.fromEntries(
    Object.entries(REMOTES).map(([name, folder]) => [name, `/mf/${folder}/mf-manifest.json`]),
  );
}

export function webBuildsPresent(webRoot: string): boolean {
  return ['shell', ...Object.values(REMOTES).map((folder) => `mf-${folder}`)].every((app) =>
    existsSync(join(webRoot, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json')),
  );
}

/** The exposed module whose stylesheets the square's first screen links. */
const SQUARE_MODULE = 'PublicSquare';

/** Where the pages the gateway fills come from: files of the builds it serves, or the web servers' own URLs. */
export interface PageSources {
  /** The shell's index.html; undefined when there is none (yet). */
  shellPage(): Promise<string | undefined>;
  /** mf-feed's mf-manifest.json; undefined when there is none. */
  feedManifest(): Promise<string | undefined>;
}

/** The builds on this machine's disk, read on each page so a new build is drawn at once. */
export const filePageSources = (webRoot: string): PageSources => ({
  shellPage: () => readFile(join(webRoot, 'shell', 'dist', 'index.html'), 'utf8').catch(() => undefined),
  feedManifest: () =>
    readFile(join(webRoot, 'mf-feed', 'dist', 'mf-manifest.json'), 'utf8').catch(() => undefined),
});

/** How long a page read from a web server is used: a release reaches the pages within seconds. */
const FETCHED_PAGE_MS = 5000;

/** The shell's and mf-feed's servers (nginx, in production), each answer used for FETCHED_PAGE_MS. */
export function urlPageSources(shellPageUrl: string, feedManifestUrl: string): PageSources {
  const kept = pageCache<string | undefined>(2);
  const read = (url: string) =>
    kept
      .get(
        url,
        async () => {
          const response = await fetch(url, { signal: AbortSignal.timeout(FETCHED_PAGE_MS) });
          return response.ok ? await response.text() : undefined;
        },
        FETCHED_PAGE_MS,
      )
      .catch(() => undefined);
  return { shellPage: () => read(shellPageUrl), feedManifest: () => read(feedManifestUrl) };
}

/** <link>s to the stylesheets mf-feed's square loads with its code (its manifest's), or '' without one. */
async function squareStylesheets(sources: PageSources): Promise<string> {
  try {
    const manifest = JSON.parse((await sources.feedManifest()) ?? '{}') as {
      exposes?: { name: string; assets?: { css?: { sync?: string[] } } }[];
    };
    const sync = manifest.exposes?.find((expose) => expose.name === SQUARE_MODULE)?.assets?.css?.sync ?? [];
    return sync
      .map((file) => `<link rel="stylesheet" href="${escapeHtml(`/mf/${REMOTES.mf_feed}/${file}`)}">`)
      .join('\n    ');
  } catch {
    return '';
  }
}

/** `html` with mf-feed's square stylesheets linked at the end of its head. */
async function withSquareStyles(sources: PageSources, html: string): Promise<string> {
  const styles = await squareStylesheets(sources);
  return styles ? html.replace(/<\/head>/i, () => `${styles}\n  </head>`) : html;
}

export interface SquarePages {
  pages: Pick<PostPages, 'find' | 'firstFeedPage'>;
  publicUrl: string;
}

/**
 * The pages the gateway fills (ADR 0053): each post address, and the public square. Mounted with the web builds
 * when the gateway serves them, alone when nginx does (it sends these paths here).
 */
export function pagesRouter(sources: PageSources, { pages, publicUrl }: SquarePages): Router {
  const router = express.Router();
  router.get('/public-square/post/:id', async (req, res, next) => {
    if (!req.accepts('html')) return next();
    const html = await sources.shellPage();
    if (html === undefined) return next();
    const postId = /^\d{1,9}$/.test(req.params.id) ? Number(req.params.id) : 0;
    const shown = postId > 0 ? await pages.find(req, postId) : null;
    res.setHeader('Cache-Control', 'no-cache');
    if (!shown) return res.status(404).type('html').send(withHead(html, missingPostHead));
    const url = `${publicUrl}${postPath(shown.post.post_id)}`;
    const page = await withSquareStyles(sources, withHead(html, postHead(shown.post, url, shown.image)));
    // The square behind the dialog, as the app draws it; without its first page (the feed away) the dialog
    // stands over an empty square, which the app fills or says it cannot.
    const feed = await pages.firstFeedPage(req).catch(() => null);
    const post = postJson(shown.post);
    const screen = squareFirstScreen(feed === null ? [] : (JSON.parse(feed) as FeedPost[]), post);
    res
      .type('html')
      .send(withFirstScreen(page, screen, `${feed === null ? '' : feedData(feed)}${postData(post)}`));
  });
  router.get(PUBLIC_SQUARE_PATH, async (req, res, next) => {
    if (!req.accepts('html')) return next();
    const html = await sources.shellPage();
    if (html === undefined) return next();
    res.setHeader('Cache-Control', 'no-cache');
    let json: string;
    try {
      json = await pages.firstFeedPage(req);
    } catch {
      // The feed is away: the app's own start shows it and offers to try again.
      return res.type('html').send(html);
    }
    const page = await withSquareStyles(sources, html);
    const screen = squareFirstScreen(JSON.parse(json) as FeedPost[]);
    res.type('html').send(withFirstScreen(page, screen, feedData(json)));
  });
  return router;
}

export function webRouter(webRoot: string, remotesConfigPath?: string, posts?: SquarePages): Router {
  const router = express.Router();
  const remotes = remotesConfig(remotesConfigPath);
  router.get('/remotes.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(remotes);
  });
  for (const folder of Object.values(REMOTES)) {
    router.use(`/mf/${folder}`, staticFolder(join(webRoot, `mf-${folder}`, 'dist')));
  }
  if (posts) router.use(pagesRouter(filePageSources(webRoot), posts));
  const shell = staticFolder(join(webRoot, 'shell', 'dist'));
  router.use(shell);
  // Every other page is the shell's: its router shows the screen, or the 404 page.
  router.get(/.*/, (req, res, next) => {
    if (!req.accepts('html')) return next();
    const url = req.url;
    req.url = '/index.html';
    shell(req, res, (error?: unknown) => {
      req.url = url;
      next(error);
    });
  });
  return router;
}
