// The Elasticsearch face of the search engine: what the proxy changes on the way (the versioned media types the
// official client sends, the product header it demands) and what it must leave alone, against a local fake engine.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { plainMediaTypes, type SearchProxy, startSearchProxy } from '../src/search-proxy.ts';

describe('plainMediaTypes', () => {
  it("turns Elasticsearch's versioned media types into the plain ones, leaving others alone", () => {
    expect(plainMediaTypes('application/vnd.elasticsearch+json; compatible-with=9')).toBe('application/json');
    expect(plainMediaTypes('application/vnd.elasticsearch+x-ndjson; compatible-with=9')).toBe(
      'application/x-ndjson',
    );
    expect(plainMediaTypes('application/vnd.elasticsearch+json; compatible-with=9,text/plain')).toBe(
      'application/json,text/plain',
    );
    expect(plainMediaTypes('application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
  });
});

describe('search proxy', () => {
  let engine: Server;
  let proxy: SearchProxy;
  let seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    engine = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const missing = request.url?.startsWith('/missing');
        response.writeHead(missing ? 404 : 200, { 'content-type': 'application/json', 'x-engine': 'fake' });
        response.end(
          JSON.stringify(missing ? { error: 'index_not_found_exception' } : { acknowledged: true }),
        );
      });
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    const { port } = engine.address() as AddressInfo;
    proxy = await startSearchProxy({ upstream: `http://127.0.0.1:${port}`, port: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => engine.close(resolve));
  });
  beforeEach(() => {
    seen = [];
  });

  it('forwards the request with plain media types and answers with the product header', async () => {
    const body = JSON.stringify({ mappings: { properties: { name: { type: 'wildcard' } } } });
    const answer = await fetch(`${proxy.url}/organizations?timeout=5s`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/vnd.elasticsearch+json; compatible-with=9',
        accept: 'application/vnd.elasticsearch+json; compatible-with=9,text/plain',
        'x-opaque-id': 'kept',
      },
      body,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(answer.headers.get('x-engine')).toBe('fake');
    expect(await answer.json()).toEqual({ acknowledged: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/organizations?timeout=5s', body });
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json,text/plain',
      'x-opaque-id': 'kept',
    });
  });

  it("passes the engine's refusals through unchanged", async () => {
    const answer = await fetch(`${proxy.url}/missing/_search`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.elasticsearch+x-ndjson; compatible-with=9' },
      body: '{}\n',
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: 'index_not_found_exception' });
    expect(seen[0]?.headers['content-type']).toBe('application/x-ndjson');
  });

  it('answers 502 naming the problem when the engine is not there', async () => {
    const lonely = await startSearchProxy({ upstream: 'http://127.0.0.1:1', port: 0 });
    try {
      const answer = await fetch(`${lonely.url}/_cluster/health`);
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as { error: string }).error).toMatch(/search engine unreachable/);
    } finally {
      await lonely.close();
    }
  });
});
