// The web builds on the gateway's origin: a file the build pre-compressed is sent as its brotli sibling to a client
// that accepts brotli, as its gzip sibling to a gzip-only client and as it is to any other, each with the file's
// type, its own length and validator, Vary: Accept-Encoding and the file's caching rule; HEAD, conditional and
// Range requests follow; files without siblings (images) are sent as they are.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative as relativePath } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './support/fake-auth.ts';

const APPS = ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'];
const SCRIPT = Buffer.from('export const square = () => "the public square";\n'.repeat(300));
const PAGE = Buffer.from(
  `<!doctype html><title>Rotunda</title>${'<link rel="preload" href="/x.js">'.repeat(60)}`,
);
const MANIFEST = Buffer.from(
  JSON.stringify({ exposes: Array.from({ length: 80 }, (_, i) => `./Screen${i}`) }),
);
const PICTURE = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4096, 7)]);
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CHROME = 'gzip, deflate, br, zstd';

let webRoot: string;
let gateway: RunningGateway;

/** Writes a build's file and, as packages/web-build does, its brotli and gzip siblings. */
function built(path: string, bytes: Buffer, siblings = true): void {
  const file = join(webRoot, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  if (!siblings) return;
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'rotunda-web-'));
  for (const app of APPS) {
    built(`${app}/dist/index.html`, PAGE);
    built(`${app}/dist/mf-manifest.json`, MANIFEST);
  }
  built('mf-feed/dist/static/js/async/square.3f2a1b.js', SCRIPT);
  built('shell/dist/static/js/index.9c8d7e.js', SCRIPT);
  built('mf-profile/dist/static/image/portrait.5a4b3c.png', PICTURE, false);
  gateway = await startGateway({ SERVE_WEB: 'true', WEB_ROOT: webRoot });
});
afterAll(async () => {
  await gateway.close();
  rmSync(webRoot, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

/** A request whose answer is read as sent (fetch would decode it and ask for compression itself). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  const { port } = new URL(gateway.base);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (bytes) => bytes,
};

const ASSET = '/mf/feed/static/js/async/square.3f2a1b.js';

describe('a pre-compressed build file', () => {
  it.each([
    ['a browser (br among others)', 'br', CHROME],
    ['a client accepting gzip and br alike', 'br', 'gzip;q=1, br;q=1'],
    ['a gzip-only client', 'gzip', 'gzip'],
    ['a client that refuses br', 'gzip', 'br;q=0, gzip'],
    ['a client accepting neither', 'identity', 'identity'],
    ['a client that sends no Accept-Encoding', 'identity', ''],
  ])('is sent to %s as %s, decompressing to the file byte for byte', async (_who, encoding, accept) => {
    const res = await raw(ASSET, accept ? { 'accept-encoding': accept } : {});
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(res.body.length));
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    if (encoding !== 'identity') expect(res.body.length).toBeLessThan(SCRIPT.length / 5);
    expect(decoders[encoding]?.(res.body).equals(SCRIPT)).toBe(true);
  });

  it('has a validator of its own per encoding, and answers 304 to the one the client holds', async () => {
    const br = await raw(ASSET, { 'accept-encoding': 'br' });
    const gzip = await raw(ASSET, { 'accept-encoding': 'gzip' });
    const identity = await raw(ASSET);
    const tags = [br, gzip, identity].map((res) => res.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await raw(ASSET, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    // The brotli validator does not stand for the gzip bytes.
    const other = await raw(ASSET, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    expect(other.status).toBe(200);
    expect(gunzipSync(other.body).equals(SCRIPT)).toBe(true);
    const plain = await raw(ASSET, { 'if-none-match': String(identity.headers.etag) });
    expect(plain.status).toBe(304);
  });

  it('answers HEAD with the headers GET sends for the same encoding, and no body', async () => {
    const get = await raw(ASSET, { 'accept-encoding': CHROME });
    const head = await raw(ASSET, { 'accept-encoding': CHROME }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-encoding',
      'content-length',
      'content-type',
      'etag',
      'vary',
      'cache-control',
    ])
      expect(head.headers[name], name).toEqual(get.headers[name]);
  });

  it('answers a Range request from the file as it is: the range is of the script’s own bytes', async () => {
    const res = await raw(ASSET, { 'accept-encoding': CHROME, range: 'bytes=7-26' });
    expect(res.status).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 7-26/${SCRIPT.length}`);
    expect(res.body.equals(SCRIPT.subarray(7, 27))).toBe(true);
  });

  it('is found when WEB_ROOT is given relative to the gateway’s working folder', async () => {
    const relative = await startGateway({
      SERVE_WEB: 'true',
      WEB_ROOT: relativePath(process.cwd(), webRoot),
    });
    try {
      const res = await fetch(`${relative.base}${ASSET}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(Buffer.from(await res.arrayBuffer()).equals(SCRIPT)).toBe(true);
    } finally {
      await relative.close();
    }
  });

  it('is found when the build lands while the gateway runs', async () => {
    const late = Buffer.from('export const late = "a rebuild in place";\n'.repeat(100));
    built('mf-directory/dist/static/js/late.1a2b3c.js', late);
    const res = await raw('/mf/directory/static/js/late.1a2b3c.js', { 'accept-encoding': CHROME });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.body).equals(late)).toBe(true);
  });
});

describe('entry points and other files', () => {
  it('sends the shell’s page for a deep link compressed, revalidated on every load', async () => {
    for (const path of ['/organization/42', '/']) {
      const res = await raw(path, { accept: 'text/html', 'accept-encoding': CHROME });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.body).equals(PAGE)).toBe(true);
    }
  });

  it('sends a remote’s manifest compressed, revalidated on every load', async () => {
    const res = await raw('/mf/organizations/mf-manifest.json', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(res.body).equals(MANIFEST)).toBe(true);
  });

  it('sends an image as it is, even to a client that accepts brotli', async () => {
    const res = await raw('/mf/profile/static/image/portrait.5a4b3c.png', { 'accept-encoding': CHROME });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.equals(PICTURE)).toBe(true);
  });
});
