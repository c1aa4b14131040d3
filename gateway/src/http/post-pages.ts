// What the gateway knows of the public square for pages rather than the API: the post a post address shows (asked
// of the post service as a visitor, so a hidden or removed post is not found), the image its preview carries (the
// author's organization's logo, else the default card), and the sitemap and robots.txt. Kept like the feed's pages
// (feed-pages.ts): until the feed version moves — a hiding moves it — and at most KEPT_MS while it cannot be
// watched, so a hidden post leaves its address and the sitemap within seconds. A cache time of 0 keeps nothing.
// The square's first page for its server-drawn first screen (ADR 0053) is the visitor's kept feed page when there
// is one (the very answer POST /api/posts/all gives), else asked as a visitor and kept the same way.
import { status as grpcStatus } from '@grpc/grpc-js';
import type { Post } from '@rotunda/protos/post';
import express, { type Request, type Router } from 'express';
import { ServiceCallError, type ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { postJson } from '../routes/post-answers.ts';
import { feedPageKey, validFeedRequest } from '../routes/posts.ts';
import type { FeedPages } from './feed-pages.ts';
import { pageCache } from './micro-cache.ts';
import { escapeHtml } from './post-head.ts';

/** How long a page is trusted when the feed version is not moving it. */
export const KEPT_MS = 2000;
/** Post addresses kept at once. */
const KEPT_POSTS = 1000;
export const POST_CARD_PATH = '/post-card.png';
const POST_CARD_FILE = new URL('../../assets/post-card.png', import.meta.url).pathname;

/** The public square's own paths: the rest of the site is members-only and never indexed. */
export const PUBLIC_SQUARE_PATH = '/public-square';
export const postPath = (postId: number) => `${PUBLIC_SQUARE_PATH}/post/${postId}`;
/** The members-only screens (shell/src/remotes/screens.ts and the shell's routes) and the API. */
const MEMBERS_ONLY = [
  '/directory',
  '/organizations',
  '/organization/',
  '/profile/',
  '/notifications',
  '/settings',
  '/moderation',
  '/admin',
  '/api/',
  '/auth/',
  '/realms/',
];

/** The square's first page as mf-feed asks for it (Recent, nothing filtered), as the shell's early request does. */
export const FIRST_FEED_BODY = { offset: 0, limit: 20, sort: 'recent' } as const;

export interface ShownPost {
  post: Post;
  /** The absolute URL of its preview image. */
  image: string;
}

export interface PostPages {
  /** The post at its address as a visitor sees it; null when hidden, removed or unknown. */
  find(req: Request, postId: number): Promise<ShownPost | null>;
  /** The square's first page as a visitor gets it from POST /api/posts/all: its JSON text. */
  firstFeedPage(req: Request): Promise<string>;
  /** The sitemap: the square and every visible post's address. */
  router: Router;
}

const isNotFound = (error: unknown) =>
  error instanceof ServiceCallError && error.grpc.code === grpcStatus.NOT_FOUND;

export function postPages({
  clients,
  pages,
  publicUrl,
  cacheSeconds,
}: {
  clients: Pick<ServiceClients, 'post' | 'org' | 'deadlineMs'>;
  pages: Pick<FeedPages, 'onChange' | 'keptForVisitor'>;
  /** The configured origin, never the request's Host: a forged Host must not name another site. */
  publicUrl: string;
  /** PUBLIC_CACHE_SECONDS: 0 keeps nothing. */
  cacheSeconds: number;
}): PostPages {
  const keptMs = cacheSeconds === 0 ? 0 : KEPT_MS;
  const rpc = { post: serviceCaller(clients, 'post'), org: serviceCaller(clients, 'org') };
  const posts = pageCache<ShownPost | null>(KEPT_POSTS);
  const sitemaps = pageCache<string>(1);
  const firstPages = pageCache<string>(1);
  pages.onChange(() => {
    posts.invalidate();
    sitemaps.invalidate();
    firstPages.invalidate();
  });
  const firstFeedRequest = validFeedRequest(FIRST_FEED_BODY);
  if (!firstFeedRequest) throw new Error('The first feed page request is not a valid feed request');
  const firstFeed = firstFeedRequest;
  const firstFeedKey = feedPageKey(firstFeedRequest);
  const absolute = (path: string) => `${publicUrl}${path}`;

  /** The organization's logo, else the default card: a preview is never left without its picture. */
  async function imageOf(req: Request, post: Post): Promise<string> {
    if (post.organization_id) {
      try {
        const { organization } = await rpc.org(req, clients.org.getOrganization, {
          organization_id: post.organization_id,
        });
        if (organization?.logo) return absolute(organization.logo);
      } catch {
        // A preview without the logo beats no page: the card stands in.
      }
    }
    return absolute(POST_CARD_PATH);
  }

  async function loadPost(req: Request, postId: number): Promise<ShownPost | null> {
    try {
      const post = await rpc.post(req, clients.post.getPost, { post_id: postId });
      return { post, image: await imageOf(req, post) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function loadFirstFeedPage(req: Request): Promise<string> {
    const kept = pages.keptForVisitor(firstFeedKey);
    if (kept) return kept.body.toString('utf8');
    const { posts: page } = await rpc.post(req, clients.post.listPosts, firstFeed);
    return JSON.stringify(page.map(postJson));
  }

  async function sitemap(req: Request): Promise<string> {
    const { posts: addresses } = await rpc.post(req, clients.post.listPostAddresses, { limit: 0 });
    const url = (path: string, lastmod?: Date) =>
      `  <url><loc>${escapeHtml(absolute(path))}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      url(PUBLIC_SQUARE_PATH, addresses[0]?.updated_at),
      ...addresses.map((address) => url(postPath(address.post_id), address.updated_at)),
      '</urlset>',
      '',
    ].join('\n');
  }

  const robots = [
    'User-agent: *',
    `Allow: ${PUBLIC_SQUARE_PATH}`,
    ...MEMBERS_ONLY.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absolute('/sitemap.xml')}`,
    '',
  ].join('\n');

  const router = express.Router();
  router.get('/sitemap.xml', async (req, res) => {
    const xml = await sitemaps.get('sitemap', () => sitemap(req), keptMs);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/xml').send(xml);
  });
  router.get('/robots.txt', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(robots);
  });
  router.get(POST_CARD_PATH, (_req, res, next) => {
    res.sendFile(POST_CARD_FILE, { maxAge: '1d' }, (error) => error && next(error));
  });

  return {
    find: (req, postId) => posts.get(String(postId), () => loadPost(req, postId), keptMs),
    firstFeedPage: (req) => firstPages.get('first', () => loadFirstFeedPage(req), keptMs),
    router,
  };
}
