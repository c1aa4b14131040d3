// Pre-compression of a build: a brotli and a gzip sibling beside each text file of at least 1 KB that each
// decompress to the file, written only when smaller, never for images or small files, and left alone when present.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { MIN_PRECOMPRESS_BYTES, precompressFolder } from '../src/precompress.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function build(files: Record<string, string | Buffer>): string {
  const folder = mkdtempSync(join(tmpdir(), 'precompress-'));
  folders.push(folder);
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), bytes);
  }
  return folder;
}

const script = `${'export const greeting = "hello from the public square";\n'.repeat(200)}`;
/** Random bytes: no encoding makes them smaller. */
const noise = randomBytes(4096);

it('writes a brotli and a gzip sibling of every text file of at least 1 KB, each decompressing to the file', async () => {
  const folder = build({
    'index.html': `<!doctype html><title>Rotunda</title>${'<div class="card"></div>'.repeat(100)}`,
    'mf-manifest.json': JSON.stringify({
      exposes: Array.from({ length: 60 }, (_, i) => ({ name: `./Screen${i}` })),
    }),
    'static/js/index.3f2a1b.js': script,
    'static/css/index.9c8d7e.css': `.card { margin: 0 auto; padding: 1rem; }\n`.repeat(60),
    'static/svg/logo.5a4b3c.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0h10v10H0z"/>'.repeat(60)}</svg>`,
    'static/js/index.3f2a1b.js.LICENSE.txt': '/*! MIT License, see the package for details */\n'.repeat(40),
  });
  const result = await precompressFolder(folder);
  expect(result).toEqual({ files: 6, siblings: 12 });
  for (const file of [
    'index.html',
    'mf-manifest.json',
    'static/js/index.3f2a1b.js',
    'static/css/index.9c8d7e.css',
    'static/svg/logo.5a4b3c.svg',
    'static/js/index.3f2a1b.js.LICENSE.txt',
  ]) {
    const original = readFileSync(join(folder, file));
    const br = readFileSync(join(folder, `${file}.br`));
    const gz = readFileSync(join(folder, `${file}.gz`));
    expect(br.length, file).toBeLessThan(original.length);
    expect(gz.length, file).toBeLessThan(original.length);
    expect(brotliDecompressSync(br).equals(original), file).toBe(true);
    expect(gunzipSync(gz).equals(original), file).toBe(true);
  }
});

it('compresses brotli at its best quality and gzip at level 9', async () => {
  const folder = build({ 'static/js/index.3f2a1b.js': script });
  await precompressFolder(folder);
  const { brotliCompressSync, constants, gzipSync } = await import('node:zlib');
  const best = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  expect(readFileSync(join(folder, 'static/js/index.3f2a1b.js.br')).length).toBeLessThanOrEqual(best.length);
  expect(readFileSync(join(folder, 'static/js/index.3f2a1b.js.gz')).length).toBe(
    gzipSync(script, { level: 9 }).length,
  );
});

it('writes no sibling for images, fonts, files under 1 KB, or text that compression would not shrink', async () => {
  const folder = build({
    'static/image/photo.1a2b3c.png': Buffer.concat([
      Buffer.from('89504e470d0a1a0a', 'hex'),
      Buffer.alloc(8000),
    ]),
    'static/font/inter.4d5e6f.woff2': Buffer.alloc(8000, 1),
    'static/js/tiny.7a8b9c.js': 'x'.repeat(MIN_PRECOMPRESS_BYTES - 1),
    'static/js/noise.0a1b2c.js': noise,
  });
  expect(await precompressFolder(folder)).toEqual({ files: 1, siblings: 0 });
  for (const file of [
    'static/image/photo.1a2b3c.png',
    'static/font/inter.4d5e6f.woff2',
    'static/js/tiny.7a8b9c.js',
    'static/js/noise.0a1b2c.js',
  ])
    for (const extension of ['.br', '.gz'])
      expect(existsSync(join(folder, file + extension)), file + extension).toBe(false);
});

it('leaves a file that already has a sibling as it is (a carried file, compressed by its own build)', async () => {
  const folder = build({ 'static/js/old.aaa111.js': script, 'static/js/old.aaa111.js.gz': 'carried' });
  expect(await precompressFolder(folder)).toEqual({ files: 0, siblings: 0 });
  expect(readFileSync(join(folder, 'static/js/old.aaa111.js.gz'), 'utf8')).toBe('carried');
  expect(existsSync(join(folder, 'static/js/old.aaa111.js.br'))).toBe(false);
});
