// Each web build carries the previous release's hashed files, so a browser that loaded the previous release's
// manifest or page can still fetch its chunks after the app was replaced (a rolling update, a rebuild in
// place). The build records in release-assets.json which files are its own and which it carries; only its
// own are carried forward by the next build, so a build holds two releases, never an ever-growing pile. A file's
// pre-compressed siblings (precompress.ts) travel with it and are never listed: they are the file in other encodings.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RsbuildPlugin } from '@rsbuild/core';
import { isSibling, SIBLINGS } from './precompress.ts';

/** The asset manifest each build writes next to its index.html or mf-manifest.json. */
export const RELEASE_ASSETS = 'release-assets.json';

/** Names the folder the previous release is in when it is not the build's own output (a container build). */
export const PREVIOUS_RELEASE_VARIABLE = 'PREVIOUS_RELEASE_DIR';

export interface ReleaseAssets {
  /** Digest of the release's own hashed file names. */
  release: string;
  /** The release's own hashed files, relative to the build folder. */
  assets: string[];
  /** The previous release's files this build carries, or null for a first release. */
  carried: { release: string; assets: string[] } | null;
}

interface Files {
  release: string;
  /** The release's files and the pre-compressed siblings they have. */
  files: Map<string, Buffer>;
}

export interface PreviousRelease extends Files {
  /** What the previous build carried itself: kept when the new build is the same release (a rebuild). */
  carried: Files | null;
}

/** Files under static/, where the bundler writes every file whose name carries a content hash. */
function hashedFiles(folder: string): string[] {
  const root = join(folder, 'static');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !isSibling(entry.name))
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(folder.length + 1)
        .replaceAll('\\', '/'),
    )
    .sort();
}

function releaseId(assets: string[]): string {
  return createHash('sha256').update(assets.join('\n')).digest('hex').slice(0, 12);
}

function readFiles(folder: string, release: string | undefined, names: string[]): Files | null {
  const present = names.filter((file) => existsSync(join(folder, file)));
  if (present.length === 0) return null;
  const withSiblings = present.flatMap((file) => [
    file,
    ...SIBLINGS.map(({ extension }) => file + extension).filter((sibling) =>
      existsSync(join(folder, sibling)),
    ),
  ]);
  return {
    release: release ?? releaseId(present),
    files: new Map(withSiblings.map((file) => [file, readFileSync(join(folder, file))])),
  };
}

/**
 * The previous release's own hashed files, read into memory before the build empties its folder. A folder
 * without release-assets.json (built before releases were recorded) counts all its hashed files as its own.
 */
export function readPreviousRelease(folder: string): PreviousRelease | null {
  const manifestPath = join(folder, RELEASE_ASSETS);
  const recorded = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as ReleaseAssets)
    : null;
  const own = readFiles(folder, recorded?.release, recorded?.assets ?? hashedFiles(folder));
  if (!own) return null;
  const carried = recorded?.carried
    ? readFiles(folder, recorded.carried.release, recorded.carried.assets)
    : null;
  return { ...own, carried };
}

/** Writes the previous release's files the new build lacks into it, and the build's release-assets.json. */
export function carryRelease(folder: string, previous: PreviousRelease | null): ReleaseAssets {
  const assets = hashedFiles(folder);
  const release = releaseId(assets);
  const source = previous?.release === release ? previous.carried : previous;
  // A sibling goes with its file: the new build compresses its own files itself.
  const original = (file: string) => (isSibling(file) ? file.slice(0, file.lastIndexOf('.')) : file);
  const written = [...(source?.files.keys() ?? [])].filter((file) => !assets.includes(original(file)));
  for (const file of written) {
    const target = join(folder, file);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, source?.files.get(file) ?? '');
  }
  const carried = written.filter((file) => !isSibling(file));
  const manifest: ReleaseAssets = {
    release,
    assets,
    carried: source && carried.length > 0 ? { release: source.release, assets: carried } : null,
  };
  writeFileSync(join(folder, RELEASE_ASSETS), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Rsbuild plugin: on `rsbuild build`, reads the previous release (the folder PREVIOUS_RELEASE_DIR names,
 * else the build's own output) before Rsbuild empties the output folder, and carries it into the new build.
 */
export function pluginCarryPreviousRelease(): RsbuildPlugin {
  return {
    name: 'rotunda:carry-previous-release',
    setup(api) {
      let previous: PreviousRelease | null = null;
      api.onBeforeBuild({
        // Before Rsbuild's own hook that empties the output folder.
        order: 'pre',
        handler: ({ isFirstCompile }) => {
          if (!isFirstCompile) return;
          previous = readPreviousRelease(process.env[PREVIOUS_RELEASE_VARIABLE] || api.context.distPath);
        },
      });
      api.onAfterBuild(({ stats }) => {
        if (stats?.hasErrors()) return;
        const { release, carried } = carryRelease(api.context.distPath, previous);
        api.logger.info(
          carried
            ? `release ${release} carries ${carried.assets.length} files of release ${carried.release}`
            : `release ${release} carries no earlier release`,
        );
      });
    },
  };
}
