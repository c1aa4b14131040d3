// Serves the shell and each micro-frontend's build on the gateway's origin (the one-machine default):
// hashed assets (everything under a build's static/, the previous release's included) cached for a year,
// entry points (HTML, manifests, release-assets.json) revalidated every time, and the remotes config that
// lets the shell load each remote at run time. A file the build pre-compressed (packages/web-build) is sent as
// its brotli or gzip sibling to a client that accepts it, as nginx's gzip_static does in production.
// A post's address (/public-square/post/:id) is the shell's page with that post's head (post-head.ts): its
// preview tags and the post itself drawn in #root (readable without JavaScript, ADR 0053) for a visible post, the
// 404 status for a hidden, removed or unknown one. The public square (/public-square) is the shell's page with its
// first page of cards drawn in #root and carried as data, and mf-feed's own stylesheet linked (ADR 0053); when the
// post service cannot answer, the shell's page as it is (the app shows its own error with a retry).
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import {
  type FeedPost,
  feedData,
  postData,
  postFirstScreen,
  squareFirstScreen,
  withFirstScreen,
} from './first-screen.ts';
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

/** <link>s to the stylesheets mf-feed's square loads with its code (its manifest's), or '' without a build. */
async function squareStylesheets(webRoot: string): Promise<string> {
  try {
    const manifest = JSON.parse(
      await readFile(join(webRoot, 'mf-feed', 'dist', 'mf-manifest.json'), 'utf8'),
    ) as {
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

export function webRouter(
  webRoot: string,
  remotesConfigPath?: string,
  posts?: { pages: Pick<PostPages, 'find' | 'firstFeedPage'>; publicUrl: string },
): Router {
  const router = express.Router();
  const remotes = remotesConfig(remotesConfigPath);
  router.get('/remotes.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(remotes);
  });
  for (const folder of Object.values(REMOTES)) {
    router.use(`/mf/${folder}`, staticFolder(join(webRoot, `mf-${folder}`, 'dist')));
  }
  const shellPage = join(webRoot, 'shell', 'dist', 'index.html');
  if (posts) {
    router.get('/public-square/post/:id', async (req, res, next) => {
      if (!req.accepts('html')) return next();
      const html = await readFile(shellPage, 'utf8').catch(() => undefined);
      if (html === undefined) return next();
      const postId = /^\d{1,9}$/.test(req.params.id) ? Number(req.params.id) : 0;
      const shown = postId > 0 ? await posts.pages.find(req, postId) : null;
      res.setHeader('Cache-Control', 'no-cache');
      if (!shown) return res.status(404).type('html').send(withHead(html, missingPostHead));
      const url = `${posts.publicUrl}${postPath(shown.post.post_id)}`;
      const page = withHead(html, postHead(shown.post, url, shown.image));
      res.type('html').send(withFirstScreen(page, postFirstScreen(shown.post), postData(shown.post)));
    });
    router.get(PUBLIC_SQUARE_PATH, async (req, res, next) => {
      if (!req.accepts('html')) return next();
      const html = await readFile(shellPage, 'utf8').catch(() => undefined);
      if (html === undefined) return next();
      res.setHeader('Cache-Control', 'no-cache');
      let json: string;
      try {
        json = await posts.pages.firstFeedPage(req);
      } catch {
        // The feed is away: the app's own start shows it and offers to try again.
        return res.type('html').send(html);
      }
      const styles = await squareStylesheets(webRoot);
      const page = styles ? html.replace(/<\/head>/i, () => `${styles}\n  </head>`) : html;
      const screen = squareFirstScreen(JSON.parse(json) as FeedPost[]);
      res.type('html').send(withFirstScreen(page, screen, feedData(json)));
    });
  }
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
