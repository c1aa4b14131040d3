// The carrying plugin in a real Rsbuild build: a rebuild in place keeps the previous release's chunks although
// Rsbuild empties its output folder first, and a container build carries from PREVIOUS_RELEASE_DIR.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createRsbuild } from '@rsbuild/core';
import { afterEach, expect, it, vi } from 'vitest';
import { PREVIOUS_RELEASE_VARIABLE, pluginCarryPreviousRelease, type ReleaseAssets } from '../src/carry.ts';
import { pluginPrecompress } from '../src/precompress.ts';

const folders: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function app(): string {
  const root = mkdtempSync(join(tmpdir(), 'carry-build-'));
  folders.push(root);
  mkdirSync(join(root, 'src'));
  return root;
}

/** Builds the app in `root` whose entry logs `text` (padded past 1 KB); answers its release-assets.json. */
async function buildApp(root: string, text: string): Promise<ReleaseAssets> {
  const lines = Array.from({ length: 40 }, (_, i) => `console.log(${JSON.stringify(`${text} line ${i}`)});`);
  writeFileSync(join(root, 'src', 'index.js'), `${lines.join('\n')}\n`);
  const rsbuild = await createRsbuild({
    cwd: root,
    rsbuildConfig: {
      mode: 'production',
      plugins: [pluginCarryPreviousRelease(), pluginPrecompress()],
      logLevel: 'error',
    },
  });
  const { close } = await rsbuild.build();
  await close();
  return JSON.parse(readFileSync(join(root, 'dist', 'release-assets.json'), 'utf8')) as ReleaseAssets;
}

const entryOf = (release: ReleaseAssets) =>
  release.assets.find((file) => /^static\/js\/index\..+\.js$/.test(file));

it('a rebuild in place keeps the previous release’s chunks beside the new ones', async () => {
  const root = app();
  const a = await buildApp(root, 'release A');
  const b = await buildApp(root, 'release B');
  expect(entryOf(b)).not.toBe(entryOf(a));
  expect(b.carried?.release).toBe(a.release);
  expect(b.carried?.assets).toContain(entryOf(a));
  expect(readFileSync(join(root, 'dist', entryOf(a) ?? ''), 'utf8')).toContain('release A');
  expect(readFileSync(join(root, 'dist', entryOf(b) ?? ''), 'utf8')).toContain('release B');
});

it('a rebuild in place carries the previous release’s compressed siblings and compresses its own', async () => {
  const root = app();
  const a = await buildApp(root, 'release A');
  const b = await buildApp(root, 'release B');
  expect(b.assets.some((file) => /\.(br|gz)$/.test(file))).toBe(false);
  expect(b.carried?.assets.some((file) => /\.(br|gz)$/.test(file))).toBe(false);
  for (const entry of [entryOf(a), entryOf(b)]) {
    const original = readFileSync(join(root, 'dist', entry ?? ''));
    expect(brotliDecompressSync(readFileSync(join(root, 'dist', `${entry}.br`)))).toEqual(original);
    expect(gunzipSync(readFileSync(join(root, 'dist', `${entry}.gz`)))).toEqual(original);
  }
});

it('carries from the folder PREVIOUS_RELEASE_DIR names (the running image copied in)', async () => {
  const running = app();
  const a = await buildApp(running, 'release A');
  const previousImage = join(app(), 'html', 'mf', 'feed');
  cpSync(join(running, 'dist'), previousImage, { recursive: true });
  vi.stubEnv(PREVIOUS_RELEASE_VARIABLE, previousImage);
  const fresh = app();
  const b = await buildApp(fresh, 'release B');
  expect(b.carried).toEqual({ release: a.release, assets: a.assets });
  expect(existsSync(join(fresh, 'dist', entryOf(a) ?? ''))).toBe(true);
});
