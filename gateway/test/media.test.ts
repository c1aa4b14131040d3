// GET /media/<key> against a real embedded S3 endpoint (s3rver): bytes and caching headers, 304 on a matching
// ETag, JSON 404s for missing objects and for any path outside the key shape, 503 when the store is down, and a
// browser that leaves before the store answers costing neither a warning nor a held store connection.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createObjectStore, type ObjectStore, objectKey } from '@rotunda/images';
import { startTestS3, type TestS3 } from '@rotunda/images/testing';
import { createLogger, type Logger, loadConfig } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { createServiceClients } from '../src/grpc/clients.ts';
import { MEDIA_CACHE_CONTROL, MEDIA_UNAVAILABLE } from '../src/routes/media.ts';
import { captureLog } from './support/captured-log.ts';

const silent = createLogger('test', 'silent');

/** The gateway with nothing but its object store wired to something real; the gRPC services are not needed. */
async function serve(objectStore: ObjectStore, logger: Logger = silent) {
  const config = loadConfig(gatewayConfigSchema, {
    ...testCallers.env,
    SERVE_WEB: 'false',
  });
  const clients = createServiceClients(config);
  const app = createApp({ config, clients, services: async () => ({}), logger, objectStore });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      clients.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A GET with the path sent exactly as written: fetch would resolve "..", which is the very thing tested. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const NOT_FOUND = { errors: [{ msg: 'Not found' }] };

describe('GET /media/*', () => {
  let s3: TestS3;
  let store: ObjectStore;
  let gateway: Awaited<ReturnType<typeof serve>>;
  const logo = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(2048, 7),
  ]);
  const logoKey = objectKey('logos', 'png');

  beforeAll(async () => {
    s3 = await startTestS3('rotunda-media');
    store = createObjectStore(s3.config);
    await store.put(logoKey, logo, 'image/png');
    gateway = await serve(store);
  });
  afterAll(async () => {
    await gateway?.close();
    await s3?.stop();
  });

  it('streams the object with its type, length, ETag and a year of caching', async () => {
    const res = await fetch(`${gateway.base}/media/${logoKey}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(logo);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(logo.length));
    expect(res.headers.get('etag')).toBe(`"${createHash('md5').update(logo).digest('hex')}"`);
    expect(res.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Date.parse(res.headers.get('last-modified') ?? '')).not.toBeNaN();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 304 without a body when If-None-Match holds the ETag', async () => {
    const first = await fetch(`${gateway.base}/media/${logoKey}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await fetch(`${gateway.base}/media/${logoKey}`, {
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe(MEDIA_CACHE_CONTROL);
    }
    const lastModified = first.headers.get('last-modified') ?? '';
    const since = await fetch(`${gateway.base}/media/${logoKey}`, {
      headers: { 'if-modified-since': lastModified },
    });
    expect(since.status).toBe(304);
    const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
    const before = await fetch(`${gateway.base}/media/${logoKey}`, {
      headers: { 'if-modified-since': earlier },
    });
    expect(before.status).toBe(200);
    await before.arrayBuffer();
    const changed = await fetch(`${gateway.base}/media/${logoKey}`, {
      headers: { 'if-none-match': '"stale"' },
    });
    expect(changed.status).toBe(200);
    expect(Buffer.from(await changed.arrayBuffer())).toEqual(logo);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await fetch(`${gateway.base}/media/${logoKey}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(logo.length));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await res.text()).toBe('');
  });

  it('takes the content type from the key, not from what was stored', async () => {
    const key = objectKey('pictures', 'jpg');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await store.put(key, jpeg, 'text/html');
    const res = await fetch(`${gateway.base}/media/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(jpeg);
  });

  it('answers a JSON 404 for a well-formed key that holds nothing', async () => {
    const res = await fetch(`${gateway.base}/media/${objectKey('pictures', 'jpg')}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_FOUND);
  });

  it('serves nothing outside the key shape, whatever the bucket holds', async () => {
    await store.put('notes.txt', Buffer.from('not an image'), 'text/plain');
    await store.put('logos/2026/01/readme.png', Buffer.from('also not served'), 'image/png');
    for (const path of [
      '/media/notes.txt',
      '/media/logos/2026/01/readme.png',
      '/media/',
      `/media/${logoKey.toUpperCase()}`,
      `/media/${logoKey}/`,
      `/media/${logoKey}.png`,
      `/media/${logoKey.replace('.png', '.gif')}`,
      `/media/x/../${logoKey}`,
      `/media/${logoKey.replace(/\//g, '%2F')}`,
      '/media/../package.json',
      '/media/%2e%2e/%2e%2e/package.json',
      '/media/logos/2026/01/..%2F..%2F..%2Fpackage.json',
    ]) {
      const res = await rawGet(gateway.port, path);
      expect(res.status, path).toBe(404);
      expect(res.type, path).toMatch(/^application\/json/);
      expect(JSON.parse(res.body), path).toEqual(NOT_FOUND);
    }
  });

  it('answers other methods with the JSON 404 of unknown endpoints', async () => {
    const res = await fetch(`${gateway.base}/media/${logoKey}`, { method: 'POST' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { errors: { msg: string }[] };
    expect(body.errors[0]?.msg).toMatch(/^No such endpoint/);
  });

  it('lets a browser leave before the store answers, releasing the object and logging no warning', async () => {
    // Browsers cancel image loads whenever a member moves on; the store's answer then has nobody to go to.
    const asked = Promise.withResolvers<void>();
    const answered = Promise.withResolvers<void>();
    let fetched: Awaited<ReturnType<ObjectStore['get']>> = null;
    const slowStore: ObjectStore = {
      ...store,
      get: async (key) => {
        asked.resolve();
        await answered.promise;
        fetched = await store.get(key);
        return fetched;
      },
    };
    const log = captureLog('debug');
    const slow = await serve(slowStore, log.logger);
    const aboutTheImage = () =>
      log.lines.filter((line) => (line.req as { url?: string } | undefined)?.url?.startsWith('/media/'));
    try {
      const leaving = request({ host: '127.0.0.1', port: slow.port, path: `/media/${logoKey}` });
      leaving.on('error', () => {});
      leaving.end();
      await asked.promise;
      leaving.destroy();
      await expect.poll(() => aboutTheImage().map((line) => line.msg)).toContain('request aborted');
      answered.resolve();
      await expect.poll(() => (fetched?.stream as { destroyed?: boolean } | undefined)?.destroyed).toBe(true);
      expect(aboutTheImage().filter((line) => line.level >= 40)).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('answers 503 with a clear message when the store is unreachable', async () => {
    const down = await startTestS3('rotunda-media');
    const downStore = createObjectStore(down.config);
    await down.stop();
    const cut = await serve(downStore);
    try {
      const res = await fetch(`${cut.base}/media/${logoKey}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ errors: [{ msg: MEDIA_UNAVAILABLE }] });
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('cache-control')).toBeNull();
    } finally {
      await cut.close();
    }
  });
});
