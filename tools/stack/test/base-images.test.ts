// The base images' pure parts: a recipe's digest follows its files, versions and parents; the builds run parents
// first; and every recipe starts from scratch or from another base image, as no registry is reachable.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BASE_IMAGES,
  type BaseImage,
  buildOrder,
  fromImages,
  MAILDEV,
  RECIPES,
  recipeDigest,
  recipeFiles,
} from '../src/base-images.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function recipe(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'recipe-test-'));
  folders.push(folder);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  return folder;
}

describe('recipeDigest', () => {
  const files = { Dockerfile: 'FROM debian:bookworm-slim\nRUN true\n', 'conf/site.conf': 'server {}\n' };

  it('is the same for the same files, versions and parents', () => {
    expect(recipeDigest(recipe(files), { A: '1' }, ['sha256:p'])).toBe(
      recipeDigest(recipe(files), { A: '1' }, ['sha256:p']),
    );
  });

  it('changes when a file of the recipe changes, is added or is renamed', () => {
    const folder = recipe(files);
    const before = recipeDigest(folder, {}, []);
    writeFileSync(join(folder, 'conf/site.conf'), 'server { listen 8080; }\n');
    const changed = recipeDigest(folder, {}, []);
    expect(changed).not.toBe(before);
    writeFileSync(join(folder, 'entrypoint.sh'), '#!/bin/sh\n');
    expect(recipeDigest(folder, {}, [])).not.toBe(changed);
    expect(recipeDigest(recipe({ ...files, 'conf/other.conf': 'server {}\n' }), {}, [])).not.toBe(
      recipeDigest(recipe({ ...files, 'conf/site.conf': 'server {}\n' }), {}, []),
    );
  });

  it('changes with the versions and the parents, not with the versions’ order', () => {
    const folder = recipe(files);
    const base = recipeDigest(folder, { A: '1', B: '2' }, ['sha256:p']);
    expect(recipeDigest(folder, { B: '2', A: '1' }, ['sha256:p'])).toBe(base);
    expect(recipeDigest(folder, { A: '1', B: '3' }, ['sha256:p'])).not.toBe(base);
    expect(recipeDigest(folder, { A: '1', B: '2' }, ['sha256:q'])).not.toBe(base);
  });

  it('reads every file in the folder, nested ones included, whatever their mode', () => {
    const folder = recipe(files);
    chmodSync(join(folder, 'conf/site.conf'), 0o755);
    expect(recipeFiles(folder)).toEqual(['Dockerfile', 'conf/site.conf']);
  });
});

describe('fromImages', () => {
  it('names the images a Dockerfile starts from, not its stages or scratch', () => {
    const dockerfile = [
      '# FROM comment:1',
      'FROM scratch AS empty',
      'FROM debian:bookworm-slim AS unpack',
      'FROM unpack AS more',
      'from node:24 as build',
      'FROM debian:bookworm-slim',
    ].join('\n');
    expect(fromImages(dockerfile)).toEqual(['debian:bookworm-slim', 'node:24']);
  });
});

describe('buildOrder', () => {
  const image = (name: string, from: string, also?: string[]): BaseImage => ({
    name,
    recipe: name,
    ...(also ? { also } : {}),
    versions: { FROM: from },
  });
  const images = [
    image('maildev', 'node'),
    image('node', 'debian:bookworm'),
    image('postgres', 'debian'),
    image('debian', 'scratch', ['debian:bookworm']),
  ];
  const dockerfile = (of: BaseImage) => `FROM ${of.versions?.FROM}\n`;

  it('puts every parent before its children', () => {
    expect(buildOrder(images, undefined, dockerfile).map((each) => each.name)).toEqual([
      'debian',
      'node',
      'maildev',
      'postgres',
    ]);
  });

  it('builds what was asked for and the images it starts from', () => {
    expect(buildOrder(images, ['maildev'], dockerfile).map((each) => each.name)).toEqual([
      'debian',
      'node',
      'maildev',
    ]);
  });

  it('refuses a recipe that starts from an image not built here', () => {
    expect(() => buildOrder([image('app', 'alpine:3')], undefined, dockerfile)).toThrow(/alpine:3/);
  });

  it('refuses recipes that start from each other', () => {
    expect(() => buildOrder([image('a', 'b'), image('b', 'a')], undefined, dockerfile)).toThrow(/each other/);
  });

  it('orders the real recipes: debian first, node before maildev', () => {
    const names = buildOrder(BASE_IMAGES).map((each) => each.name);
    expect(names[0]).toBe('debian:bookworm-slim');
    expect(names.indexOf('node:24.21.0-bookworm-slim')).toBeLessThan(
      names.indexOf(`maildev/maildev:${MAILDEV.version}`),
    );
    expect(names).toHaveLength(BASE_IMAGES.length);
  });
});

describe('the recipes', () => {
  it('run the MailDev `npm start` runs, whose REST API the browser suite reads (/api/email)', () => {
    const apphost = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../../packages/apphost/package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    expect(MAILDEV.version).toBe(apphost.dependencies.maildev);
  });

  it('each have a Dockerfile saying first what the image is', () => {
    for (const each of BASE_IMAGES) {
      const dockerfile = readFileSync(join(RECIPES, each.recipe, 'Dockerfile'), 'utf8');
      expect(dockerfile.startsWith(`# ${each.name}`)).toBe(true);
    }
  });
});
