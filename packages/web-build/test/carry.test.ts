// A build carries the previous release's hashed files and records it in release-assets.json: releases A, B,
// C in turn leave C with B's files and not A's; a rebuild of the same release keeps what it carried.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { carryRelease, RELEASE_ASSETS, type ReleaseAssets, readPreviousRelease } from '../src/carry.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Empties the build folder (as Rsbuild does) and writes a build's files into it. */
function build(folder: string, files: Record<string, string>): void {
  rmSync(folder, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
}

/** One release in place: read the previous one, build, carry. */
function release(folder: string, files: Record<string, string>): ReleaseAssets {
  const previous = readPreviousRelease(folder);
  build(folder, files);
  return carryRelease(folder, previous);
}

function dist(): string {
  const folder = mkdtempSync(join(tmpdir(), 'carry-'));
  folders.push(folder);
  return join(folder, 'dist');
}

const A = {
  'mf-manifest.json': 'A',
  'static/js/mf_feed.aaa.js': 'entry A',
  'static/js/async/q.aaa.js': 'quill A',
};
const B = {
  'mf-manifest.json': 'B',
  'static/js/mf_feed.bbb.js': 'entry B',
  'static/js/async/q.aaa.js': 'quill A',
};
const C = {
  'mf-manifest.json': 'C',
  'static/js/mf_feed.ccc.js': 'entry C',
  'static/js/async/q.ccc.js': 'quill C',
};

describe('carrying the previous release', () => {
  it('a first release carries nothing and records its own hashed files', () => {
    const folder = dist();
    const manifest = release(folder, A);
    expect(manifest.assets).toEqual(['static/js/async/q.aaa.js', 'static/js/mf_feed.aaa.js']);
    expect(manifest.carried).toBeNull();
    expect(JSON.parse(readFileSync(join(folder, RELEASE_ASSETS), 'utf8'))).toEqual(manifest);
  });

  it('the next release serves the previous one’s chunks beside its own, the manifest being its own', () => {
    const folder = dist();
    const a = release(folder, A);
    const b = release(folder, B);
    expect(b.release).not.toBe(a.release);
    expect(b.carried).toEqual({ release: a.release, assets: ['static/js/mf_feed.aaa.js'] });
    expect(readFileSync(join(folder, 'static/js/mf_feed.aaa.js'), 'utf8')).toBe('entry A');
    expect(readFileSync(join(folder, 'static/js/mf_feed.bbb.js'), 'utf8')).toBe('entry B');
    expect(readFileSync(join(folder, 'mf-manifest.json'), 'utf8')).toBe('B');
    expect(b.assets).toEqual(['static/js/async/q.aaa.js', 'static/js/mf_feed.bbb.js']);
  });

  it('carries one release back only: the release before the previous one is dropped', () => {
    const folder = dist();
    release(folder, A);
    const b = release(folder, B);
    const c = release(folder, C);
    expect(c.carried).toEqual({
      release: b.release,
      assets: ['static/js/async/q.aaa.js', 'static/js/mf_feed.bbb.js'],
    });
    expect(existsSync(join(folder, 'static/js/mf_feed.aaa.js'))).toBe(false);
    expect(existsSync(join(folder, 'static/js/mf_feed.bbb.js'))).toBe(true);
  });

  it('a rebuild of the same release keeps carrying what the previous build carried', () => {
    const folder = dist();
    const a = release(folder, A);
    release(folder, B);
    const again = release(folder, B);
    expect(again.carried).toEqual({ release: a.release, assets: ['static/js/mf_feed.aaa.js'] });
    expect(readFileSync(join(folder, 'static/js/mf_feed.aaa.js'), 'utf8')).toBe('entry A');
  });

  it('reads a previous release from another folder (a container build copies the running image in)', () => {
    const previousImage = dist();
    const folder = dist();
    const a = release(previousImage, A);
    const previous = readPreviousRelease(previousImage);
    build(folder, B);
    expect(carryRelease(folder, previous).carried).toEqual({
      release: a.release,
      assets: ['static/js/mf_feed.aaa.js'],
    });
  });

  it('carries a file’s pre-compressed siblings with it, never listing them as files of a release', () => {
    const folder = dist();
    const a = release(folder, {
      ...A,
      'static/js/mf_feed.aaa.js.br': 'entry A in brotli',
      'static/js/mf_feed.aaa.js.gz': 'entry A in gzip',
      'static/js/async/q.aaa.js.gz': 'quill A in gzip',
    });
    expect(a.assets).toEqual(['static/js/async/q.aaa.js', 'static/js/mf_feed.aaa.js']);
    const b = release(folder, B);
    expect(b.carried).toEqual({ release: a.release, assets: ['static/js/mf_feed.aaa.js'] });
    expect(readFileSync(join(folder, 'static/js/mf_feed.aaa.js.br'), 'utf8')).toBe('entry A in brotli');
    expect(readFileSync(join(folder, 'static/js/mf_feed.aaa.js.gz'), 'utf8')).toBe('entry A in gzip');
    // B's own copy of the shared chunk gets its siblings from B's own build, not A's.
    expect(existsSync(join(folder, 'static/js/async/q.aaa.js.gz'))).toBe(false);
    const c = release(folder, C);
    expect(c.carried?.assets).toEqual(['static/js/async/q.aaa.js', 'static/js/mf_feed.bbb.js']);
    expect(existsSync(join(folder, 'static/js/mf_feed.aaa.js.br'))).toBe(false);
  });

  it('counts every hashed file of a build made before releases were recorded as its own', () => {
    const folder = dist();
    build(folder, A);
    const b = release(folder, B);
    expect(b.carried?.assets).toEqual(['static/js/mf_feed.aaa.js']);
  });

  it('an empty folder or one without hashed files is no previous release', () => {
    const folder = dist();
    expect(readPreviousRelease(folder)).toBeNull();
    build(folder, { 'index.html': 'nginx welcome page' });
    expect(readPreviousRelease(folder)).toBeNull();
  });
});
