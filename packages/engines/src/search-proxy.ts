// The Elasticsearch face of the search engine: a small HTTP proxy in front of OpenSearch that speaks the two
// things the official `@elastic/elasticsearch` client insists on and OpenSearch does not. The client sends
// Elasticsearch's versioned media types (`application/vnd.elasticsearch+json; compatible-with=9`), which
// OpenSearch answers with 406, and it refuses any answer without `x-elastic-product: Elasticsearch`. Nothing
// else is touched: paths, bodies, statuses and every other header pass through as they are.
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const VERSIONED_MEDIA_TYPE = /application\/vnd\.elasticsearch\+([\w.-]+)(\s*;\s*compatible-with=\d+)?/gi;

/** `application/vnd.elasticsearch+json; compatible-with=9` → `application/json` (likewise x-ndjson). */
export function plainMediaTypes(value: string): string {
  return value.replace(VERSIONED_MEDIA_TYPE, 'application/$1');
}

function forwardedHeaders(headers: IncomingHttpHeaders, upstreamHost: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers, host: upstreamHost };
  for (const name of ['content-type', 'accept'] as const) {
    const value = out[name];
    if (typeof value === 'string') out[name] = plainMediaTypes(value);
  }
  return out;
}

export interface SearchProxy {
  /** e.g. http://127.0.0.1:9200 */
  url: string;
  close(): Promise<void>;
}

/** Listens on `host` (127.0.0.1 unless given):`port` (0: any free port) and forwards to `upstream` (e.g. http://127.0.0.1:9201). */
export async function startSearchProxy(options: {
  upstream: string;
  port: number;
  /** The address it listens on: loopback unless a container's network should reach it. */
  host?: string;
}): Promise<SearchProxy> {
  const upstream = new URL(options.upstream);
  const server: Server = createServer((incoming, outgoing) => {
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: forwardedHeaders(incoming.headers, upstream.host),
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          'x-elastic-product': 'Elasticsearch',
        });
        answer.pipe(outgoing);
      },
    );
    forward.on('error', (error) => {
      if (outgoing.headersSent) {
        outgoing.destroy(error);
        return;
      }
      outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify({ error: `search engine unreachable: ${error.message}`, status: 502 }));
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
