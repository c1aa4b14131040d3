// A post's own address and what the gateway tells about it outside the API: GET /api/posts/:id (validated here,
// the visibility rule the service's), the post address's HTML with its preview tags, canonical link and JSON-LD
// Event, escaped so that a member's text cannot reach the page as markup; the 404 status for a post the service
// does not show; the sitemap of visible posts and robots.txt; the public square's HTML holding its first page of
// posts, escaped, with that page's data and mf-feed's stylesheet. The post and org services are fakes on real gRPC.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../src/http/post-head.ts';
import {
  accessToken,
  type FakeAuth,
  get,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { type FakeOrg, ORGANIZATION, startFakeOrg } from './support/fake-org.ts';
import { EVENT_POST, type FakePost, PLAIN_POST, startFakePost } from './support/fake-post.ts';

const PUBLIC_URL = 'https://rotunda.example.org';
const HTML_ESCAPED = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
const SHELL_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rotunda</title>' +
  '<meta name="description" content="The directory and public square."></head>' +
  '<body><div id="root"></div><script src="/static/js/index.js"></script></body></html>';

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let orgs: FakeOrg;
let gateway: RunningGateway;
let webRoot: string;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'rotunda-web-'));
  for (const app of ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile']) {
    mkdirSync(join(webRoot, app, 'dist'), { recursive: true });
    writeFileSync(
      join(webRoot, app, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json'),
      SHELL_PAGE,
    );
  }
  // mf-feed's manifest names the square's stylesheet, which its first screen links.
  writeFileSync(
    join(webRoot, 'mf-feed', 'dist', 'mf-manifest.json'),
    JSON.stringify({
      exposes: [
        { name: 'PublicSquare', assets: { css: { sync: ['static/css/square.abc.css'], async: [] } } },
      ],
    }),
  );
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  posts = await startFakePost();
  orgs = await startFakeOrg();
  gateway = await startGateway({
    AUTH_SERVICE_ADDR: auth.address,
    POST_SERVICE_ADDR: posts.address,
    ORG_SERVICE_ADDR: orgs.address,
    SERVE_WEB: 'true',
    WEB_ROOT: webRoot,
    PUBLIC_URL,
  });
});
afterEach(() => {
  posts.reset();
  orgs.reset();
});
afterAll(async () => {
  await gateway.close();
  await posts.server.shutdown();
  await orgs.server.shutdown();
  await auth.server.shutdown();
  rmSync(webRoot, { recursive: true, force: true });
});

const notFound = async () => {
  throw new DomainError('not_found', 'Post not found');
};

/** The page at `path` as a browser asks for it. */
async function page(path: string) {
  const res = await fetch(`${gateway.base}${path}`, { headers: { accept: 'text/html' } });
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
}

/** The content of each <meta property|name=key content=...> in the page, unescaped as a browser reads it. */
function metaOf(html: string): Record<string, string> {
  const decoded = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return Object.fromEntries(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [
      m[1],
      decoded(m[2] ?? ''),
    ]),
  );
}

const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) =>
    JSON.parse(m[1] ?? ''),
  );

describe('GET /api/posts/:id', () => {
  it('answers the post as the feed does, to a visitor, asking the service as a visitor', async () => {
    posts.answer('getPost', async () => EVENT_POST);
    const answer = await get(`${gateway.base}/api/posts/7`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      post_id: 7,
      post_title: EVENT_POST.post_title,
      event_date: '2026-12-08',
    });
    expect(answer.body.PostComments).toHaveLength(1);
    expect(posts.callsTo('getPost')).toEqual([
      { method: 'getPost', request: { post_id: 7 }, caller: undefined },
    ]);
  });

  it('passes the member on, so their own hidden post reaches them', async () => {
    posts.answer('getPost', async () => ({ ...EVENT_POST, moderation: { state: 'hidden', reason: 'Spam' } }));
    const answer = await get(`${gateway.base}/api/posts/7`, { 'x-auth-token': await accessToken(key) });
    expect(answer.body.moderation).toMatchObject({ state: 'hidden', reason: 'Spam' });
    expect(posts.callsTo('getPost')[0]?.caller?.userId).toBeTruthy();
  });

  it('answers 404 for a post the service does not show, 400 for an id that is not one, asking nothing', async () => {
    posts.answer('getPost', notFound);
    expect(await get(`${gateway.base}/api/posts/8`)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Post not found' }] },
    });
    const callsBefore = posts.callsTo('getPost').length;
    expect((await get(`${gateway.base}/api/posts/seven`)).status).toBe(400);
    expect((await get(`${gateway.base}/api/posts/99999999999`)).status).toBe(404);
    expect(posts.callsTo('getPost')).toHaveLength(callsBefore);
  });
});

describe('the post address page', () => {
  it('carries the preview tags, canonical link and the organization’s logo', async () => {
    posts.answer('getPost', async () => PLAIN_POST);
    posts.answer('listPosts', async () => ({ posts: [EVENT_POST, PLAIN_POST] }));
    const { status, type, html } = await page(`/public-square/post/${PLAIN_POST.post_id}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    const url = `${PUBLIC_URL}/public-square/post/${PLAIN_POST.post_id}`;
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(html).toContain(`<title>${PLAIN_POST.post_title} · Rotunda</title>`);
    expect(metaOf(html)).toMatchObject({
      'og:type': 'article',
      'og:title': PLAIN_POST.post_title,
      'og:description': plainText(PLAIN_POST.post_body),
      'og:url': url,
      'og:image': `${PUBLIC_URL}${ORGANIZATION.logo}`,
      'twitter:card': 'summary_large_image',
      'twitter:title': PLAIN_POST.post_title,
    });
    expect(jsonLdOf(html)).toEqual([]);
    // One description, the post's: the site's own gives way.
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    // The post is on the page before any script runs, in its read dialog drawn open over the square: title,
    // byline, body, comments (ADR 0053), with a way back to the square.
    const root = /<div id="root">(.*)<\/div>/s.exec(html)?.[1] ?? '';
    expect(root).toContain(
      '<dialog class="dialog dialog--wide dialog--drawn" open aria-labelledby="first-screen-title">',
    );
    expect(root).toContain(`<h2 id="first-screen-title" class="dialog__title">${PLAIN_POST.post_title}</h2>`);
    expect(root).toContain('<a class="button button--secondary" href="/public-square">Close</a>');
    // Inside the shell's frame as a visitor sees it, marked for the shell to keep until the remote has drawn.
    expect(root).toMatch(/^<div class="app" data-first-screen><a class="skip-link" href="#main">/);
    expect(root).toContain('<header class="topbar">');
    expect(root).toContain(
      '<main id="main" class="app__main" tabindex="-1"><div class="first-screen page square">',
    );
    for (const text of [
      plainText(PLAIN_POST.post_body),
      `${PLAIN_POST.author?.first_name} ${PLAIN_POST.author?.last_name}`,
    ])
      expect(root).toContain(text);
    // The post's REST answer rides along, outside #root (the app's start empties it), for the app to start from.
    const data =
      /<\/div><script type="application\/json" id="rotunda-first-feed">[^<]*<\/script><script type="application\/json" id="rotunda-first-post">([^<]*)<\/script>/.exec(
        html,
      )?.[1];
    expect(JSON.parse(data ?? '')).toEqual(
      (await get(`${gateway.base}/api/posts/${PLAIN_POST.post_id}`)).body,
    );
    // Behind the dialog, the square's first page as the app draws it, styled by mf-feed's stylesheet, and its
    // data, so the app asks for neither.
    const cards = [...root.matchAll(/<h3 id="first-card-(\d+)" class="post-card__title">/g)];
    expect(cards.map((m) => Number(m[1]))).toEqual([EVENT_POST.post_id, PLAIN_POST.post_id]);
    expect(html).toContain('<link rel="stylesheet" href="/mf/feed/static/css/square.abc.css">');
    const feed = /<script type="application\/json" id="rotunda-first-feed">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(feed ?? '').map((post: { post_id: number }) => post.post_id)).toEqual([
      EVENT_POST.post_id,
      PLAIN_POST.post_id,
    ]);
    // The shell's page stays whole: its script still starts the app.
    expect(html).toContain('<script src="/static/js/index.js"></script>');
  });

  it('draws the dialog over an empty square while the feed cannot be read, and carries no feed', async () => {
    posts.answer('getPost', async () => PLAIN_POST);
    posts.answer('listPosts', async () => {
      throw new Error('the feed is away');
    });
    const { status, html } = await page(`/public-square/post/${PLAIN_POST.post_id}`);
    expect(status).toBe(200);
    expect(html).toContain(`<h2 id="first-screen-title" class="dialog__title">${PLAIN_POST.post_title}</h2>`);
    expect(html).toContain('<ul class="card-grid feed-list"></ul>');
    expect(html).not.toContain('rotunda-first-feed');
  });

  it('describes an event in JSON-LD with California’s times, and falls back to the card without a logo', async () => {
    posts.answer('getPost', async () => EVENT_POST);
    orgs.answer('getOrganization', async () => ({ organization: { ...ORGANIZATION, logo: undefined } }));
    const { html } = await page(`/public-square/post/${EVENT_POST.post_id}`);
    expect(metaOf(html)['og:image']).toBe(`${PUBLIC_URL}/post-card.png`);
    expect(jsonLdOf(html)).toEqual([
      expect.objectContaining({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: EVENT_POST.post_title,
        startDate: '2026-12-08T09:30:00-08:00',
        endDate: '2026-12-08T12:00:00-08:00',
        location: { '@type': 'Place', name: EVENT_POST.event_location, address: EVENT_POST.event_location },
      }),
    ]);
    const card = await fetch(`${gateway.base}/post-card.png`);
    expect(card.headers.get('content-type')).toBe('image/png');
    expect((await card.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('keeps a member’s text out of the markup: no tag, attribute or script can be closed by it', async () => {
    const attack = '"><script>alert(1)</script></title><!-- </script><img src=x onerror=alert(2)> $& \u2028';
    posts.answer('getPost', async () => ({
      ...EVENT_POST,
      post_title: attack,
      post_body: `<p>${attack.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`,
      event_location: attack,
    }));
    const { html } = await page(`/public-square/post/${EVENT_POST.post_id}`);
    // The page has exactly the scripts it had plus the JSON-LD, the feed's and the post's data: none came from
    // the post.
    expect(html.match(/<script/g)).toHaveLength(4);
    expect(html.match(/<\/script>/g)).toHaveLength(4);
    const data = /<script type="application\/json" id="rotunda-first-post">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(data ?? '')).toMatchObject({ post_title: attack, event_location: attack });
    expect(html).not.toContain('<img');
    expect(html).toContain(`<h2 id="first-screen-title" class="dialog__title">${HTML_ESCAPED(attack)}</h2>`);
    expect(html).not.toContain('<!--');
    expect(html.match(/<title>/g)).toHaveLength(1);
    // And what a reader sees is the post's text, as it was written.
    expect(metaOf(html)['og:title']).toBe(attack);
    const [event] = jsonLdOf(html);
    expect(event.name).toBe(attack);
    expect(event.location.name).toBe(attack);
  });

  it('answers the 404 page with status 404 for a hidden, removed or unknown post, and for a malformed id', async () => {
    posts.answer('getPost', notFound);
    for (const path of ['/public-square/post/41', '/public-square/post/abc', '/public-square/post/0']) {
      const { status, html } = await page(path);
      expect(status, path).toBe(404);
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).toContain('<div id="root"></div>');
      expect(metaOf(html)['og:title']).toBeUndefined();
    }
    // The service was asked as a visitor: a hidden post's author sees it through the app, never in the page.
    expect(posts.callsTo('getPost').map((call) => call.caller)).toEqual([undefined]);
  });
});

describe('sitemap and robots', () => {
  const address = (post_id: number, at: string) => ({ post_id, updated_at: new Date(at) });

  it('lists the square and every post the service lists as visible, with their last change', async () => {
    posts.answer('listPostAddresses', async () => ({
      posts: [address(9, '2026-11-22T10:00:00.000Z'), address(7, '2026-11-20T16:00:00.000Z')],
    }));
    const res = await fetch(`${gateway.base}/sitemap.xml`);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(
      [...xml.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1], m[2]]),
    ).toEqual([
      [`${PUBLIC_URL}/public-square`, '2026-11-22T10:00:00.000Z'],
      [`${PUBLIC_URL}/public-square/post/9`, '2026-11-22T10:00:00.000Z'],
      [`${PUBLIC_URL}/public-square/post/7`, '2026-11-20T16:00:00.000Z'],
    ]);
    // A post the service stops listing (hidden) leaves it.
    posts.answer('listPostAddresses', async () => ({ posts: [address(7, '2026-11-20T16:00:00.000Z')] }));
    expect(await (await fetch(`${gateway.base}/sitemap.xml`)).text()).not.toContain('/post/9<');
  });

  it('robots.txt allows the public square, disallows every members-only path and names the sitemap', async () => {
    const text = await (await fetch(`${gateway.base}/robots.txt`)).text();
    const lines = text.split('\n');
    expect(lines).toContain('Allow: /public-square');
    for (const path of ['/directory', '/organizations', '/profile/', '/notifications', '/settings', '/api/'])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).not.toContain('Disallow: /public-square');
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });
});

describe('the public square page', () => {
  it('holds the first page of posts, escaped, with its data and the square’s stylesheet', async () => {
    const attack = '"><script>alert(1)</script><!-- <img src=x onerror=alert(2)> $& \u2028';
    posts.answer('listPosts', async () => ({
      posts: [
        { ...PLAIN_POST, post_title: attack, post_body: `<p>${attack.replace(/</g, '&lt;')}</p>` },
        EVENT_POST,
      ],
    }));
    const { status, html } = await page('/public-square');
    expect(status).toBe(200);
    // Asked as a visitor, for exactly the page mf-feed asks for first.
    expect(posts.callsTo('listPosts').map((call) => [call.caller, call.request])).toEqual([
      [
        undefined,
        expect.objectContaining({ offset: 0, limit: 20, sort: 'recent', posttype_id: 0, search: '' }),
      ],
    ]);
    const cards = [...html.matchAll(/<h3 id="first-card-(\d+)" class="post-card__title">([^<]*)<\/h3>/g)];
    expect(cards.map((m) => [Number(m[1]), m[2]])).toEqual([
      [PLAIN_POST.post_id, HTML_ESCAPED(attack)],
      [EVENT_POST.post_id, HTML_ESCAPED(EVENT_POST.post_title)],
    ]);
    expect(html).toContain(`href="/public-square/post/${EVENT_POST.post_id}"`);
    // No post added a script or an image: the page's own script and the feed's data only.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    const data = /<script type="application\/json" id="rotunda-first-feed">([^<]*)<\/script>/.exec(html)?.[1];
    const feed = JSON.parse(data ?? '');
    expect(feed.map((post: { post_title: string }) => post.post_title)).toEqual([
      attack,
      EVENT_POST.post_title,
    ]);
    // The same answer POST /api/posts/all gives a visitor.
    const api = await fetch(`${gateway.base}/api/posts/all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offset: 0, limit: 20, sort: 'recent' }),
    });
    expect(feed).toEqual(await api.json());
    expect(html).toContain('<link rel="stylesheet" href="/mf/feed/static/css/square.abc.css">');
  });

  it('is the shell’s page as it is while the post service cannot answer', async () => {
    posts.answer('listPosts', async () => {
      throw new Error('the post service is away');
    });
    const { status, html } = await page('/public-square');
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('rotunda-first-feed');
  });
});

describe('the pages drawn behind nginx (SERVE_WEB=false)', () => {
  it('draws the square and a post address from the shell’s and mf-feed’s own servers', async () => {
    posts.answer('getPost', async () => EVENT_POST);
    const web = createServer((req, res) => {
      if (req.url === '/index.html') return res.end(SHELL_PAGE);
      if (req.url === '/mf/feed/mf-manifest.json')
        return res.end(
          JSON.stringify({
            exposes: [{ name: 'PublicSquare', assets: { css: { sync: ['static/css/q.css'] } } }],
          }),
        );
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    const behindNginx = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      POST_SERVICE_ADDR: posts.address,
      ORG_SERVICE_ADDR: orgs.address,
      SHELL_PAGE_URL: `${origin}/index.html`,
      FEED_MANIFEST_URL: `${origin}/mf/feed/mf-manifest.json`,
      PUBLIC_URL,
    });
    try {
      const ask = async (path: string) =>
        (await fetch(`${behindNginx.base}${path}`, { headers: { accept: 'text/html' } })).text();
      const square = await ask('/public-square');
      expect(square).toContain(`<h3 id="first-card-${EVENT_POST.post_id}" class="post-card__title">`);
      expect(square).toContain('<link rel="stylesheet" href="/mf/feed/static/css/q.css">');
      const address = await ask(`/public-square/post/${EVENT_POST.post_id}`);
      expect(metaOf(address)['og:url']).toBe(`${PUBLIC_URL}/public-square/post/${EVENT_POST.post_id}`);
    } finally {
      await behindNginx.close();
      web.close();
    }
  });
});
