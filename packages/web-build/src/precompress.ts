// Each web build compresses its text files once, at build time, at the best ratio: a brotli (.br) and a gzip (.gz)
// sibling beside each file, which the gateway and nginx (gzip_static) send as they are to a browser that accepts
// them, instead of compressing the same bytes again on every request.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { RsbuildPlugin } from '@rsbuild/core';

/** The pre-compressed siblings of a file: its name plus the extension, sent with the Content-Encoding. */
export const SIBLINGS = [
  { encoding: 'br', extension: '.br' },
  { encoding: 'gzip', extension: '.gz' },
] as const;

/** Files below this size gain too little: the headers weigh as much as the bytes saved. */
export const MIN_PRECOMPRESS_BYTES = 1024;

/** Text the bundler writes; images and fonts are compressed in their own format already. */
const TEXT = /\.(?:js|mjs|cjs|css|html|json|svg|txt|map|xml|webmanifest)$/;

const compressors = {
  br: (bytes: Buffer) =>
    promisify(brotliCompress)(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gzip: (bytes: Buffer) => promisify(gzip)(bytes, { level: constants.Z_BEST_COMPRESSION }),
};

/** Whether `file` is a pre-compressed sibling rather than a file of the build. */
export function isSibling(file: string): boolean {
  return SIBLINGS.some(({ extension }) => file.endsWith(extension));
}

export interface Precompressed {
  /** Text files of at least MIN_PRECOMPRESS_BYTES that had no sibling yet. */
  files: number;
  /** Siblings written (each one smaller than its file). */
  siblings: number;
}

/**
 * Writes the siblings of every text file under `folder` that has none yet, each only when smaller than the file.
 * A file that already has one was compressed by the build that made it: a carried file of the previous release.
 */
export async function precompressFolder(folder: string): Promise<Precompressed> {
  const candidates = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEXT.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(
      (file) =>
        statSync(file).size >= MIN_PRECOMPRESS_BYTES &&
        !SIBLINGS.some(({ extension }) => existsSync(file + extension)),
    );
  const written = await Promise.all(
    candidates.map(async (file) => {
      const bytes = await readFile(file);
      let count = 0;
      for (const { encoding, extension } of SIBLINGS) {
        const compressed = await compressors[encoding](bytes);
        if (compressed.length >= bytes.length) continue;
        await writeFile(file + extension, compressed);
        count += 1;
      }
      return count;
    }),
  );
  return { files: candidates.length, siblings: written.reduce((sum, count) => sum + count, 0) };
}

/**
 * Rsbuild plugin: after `rsbuild build`, pre-compresses the build's text files, the carried previous release's
 * included (its siblings come with it; a release built before this step gets them now).
 */
export function pluginPrecompress(): RsbuildPlugin {
  return {
    name: 'rotunda:precompress',
    setup(api) {
      api.onAfterBuild({
        // After the previous release is carried in.
        order: 'post',
        handler: async ({ stats }) => {
          if (stats?.hasErrors()) return;
          const { files, siblings } = await precompressFolder(api.context.distPath);
          api.logger.info(`pre-compressed ${files} files into ${siblings} brotli and gzip siblings`);
        },
      });
    },
  };
}
