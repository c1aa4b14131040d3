// The production-like stack's front door (docker/nginx/edge.conf) sends the pages the gateway draws (ADR 0053) —
// the public square, each post's address, the sitemap, robots.txt and the preview card — to the gateway, and the
// gateway in docker-compose.yml is told where the shell's page and mf-feed's manifest are, on servers that exist.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readRepoFile } from './support/repo.ts';

interface Location {
  modifier: string;
  path: string;
  upstream: string;
}

/** Each `location [modifier] path { set $upstream host:port; … }` of edge.conf, with its upstream host. */
function locations(conf: string): Location[] {
  return [...conf.matchAll(/location\s+(=|\^~|~)?\s*(\S+)\s*\{([^}]*)\}/g)].map((match) => ({
    modifier: match[1] ?? '',
    path: match[2] ?? '',
    upstream: /set \$upstream ([\w$-]+):\d+;/.exec(match[3] ?? '')?.[1] ?? '',
  }));
}

/** Which upstream nginx picks for `uri`: exact, then the longest ^~ prefix, then the first regex, then the longest prefix. */
function upstreamOf(all: Location[], uri: string): string | undefined {
  const exact = all.find((l) => l.modifier === '=' && l.path === uri);
  if (exact) return exact.upstream;
  const prefixes = all
    .filter((l) => (l.modifier === '' || l.modifier === '^~') && uri.startsWith(l.path))
    .sort((a, b) => b.path.length - a.path.length);
  if (prefixes[0]?.modifier === '^~') return prefixes[0].upstream;
  const regex = all.find((l) => l.modifier === '~' && new RegExp(l.path).test(uri));
  if (regex) {
    const group = new RegExp(regex.path).exec(uri)?.[1] ?? '';
    return regex.upstream.replace('$1', group);
  }
  return prefixes[0]?.upstream;
}

describe('the edge nginx (docker/nginx/edge.conf)', () => {
  const edge = locations(readRepoFile('docker/nginx/edge.conf'));

  it('sends the pages the gateway draws to the gateway, and the rest of the site where it went before', () => {
    const routes = Object.fromEntries(
      [
        '/public-square',
        '/public-square/post/12',
        '/sitemap.xml',
        '/robots.txt',
        '/post-card.png',
        '/api/posts/all',
        '/directory',
        '/public-square-other',
        '/static/js/index.js',
        '/mf/feed/mf-manifest.json',
        '/mf/feed/static/js/x.js',
      ].map((uri) => [uri, upstreamOf(edge, uri)]),
    );
    expect(routes).toEqual({
      '/public-square': 'gateway',
      '/public-square/post/12': 'gateway',
      '/sitemap.xml': 'gateway',
      '/robots.txt': 'gateway',
      '/post-card.png': 'gateway',
      '/api/posts/all': 'gateway',
      '/directory': 'shell',
      '/public-square-other': 'shell',
      '/static/js/index.js': 'shell',
      '/mf/feed/mf-manifest.json': 'mf-feed',
      '/mf/feed/static/js/x.js': 'mf-feed',
    });
  });

  it('lets the gateway read the shell’s page and mf-feed’s manifest from their servers in the stack', () => {
    const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string> }>;
    };
    const env = compose.services.gateway?.environment ?? {};
    expect(env.SERVE_WEB).toBe('false');
    const shell = new URL(env.SHELL_PAGE_URL ?? '');
    const feed = new URL(env.FEED_MANIFEST_URL ?? '');
    expect([shell.hostname, shell.pathname]).toEqual(['shell', '/index.html']);
    expect([feed.hostname, feed.pathname]).toEqual(['mf-feed', '/mf/feed/mf-manifest.json']);
    // Served where the edge's own upstreams are: the same hosts and port.
    expect(compose.services.shell).toBeDefined();
    expect(compose.services['mf-feed']).toBeDefined();
    expect([shell.port, feed.port]).toEqual(['8080', '8080']);
  });
});
