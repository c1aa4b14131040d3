// Fetching the engines with the registries' own clients into the build cache (cache.ts), once per pinned version:
// Maven for the Java servers' distributions, the Go toolchain (through the Go module proxy) for SeaweedFS. Each
// entry is built in a folder of its own and renamed into place when complete, so a second run (or a fresh clone
// on the same machine) fetches nothing, and an interrupted fetch is redone rather than half-used.
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { cachedEntry } from './cache.ts';
import { runStep } from './supervise.ts';
import { MAVEN_DEPENDENCY_PLUGIN } from './versions.ts';

const run = promisify(execFile);

/** Fails with what to install when a tool the engines need is missing. */
export function requireTool(command: string, hint: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0)
    throw new Error(`${command} is not installed: ${hint}`);
}

export interface FetchContext {
  /** The build cache's folder (cache.ts). */
  cache: string;
  logFile: string;
  say: (line: string) => void;
}

function mavenArgs(cache: string): string[] {
  // The cache's own local repository: a fresh clone fetches the same way everywhere, and nothing lands in ~/.m2.
  // Maven's repository is keyed by version already, so every entry shares it.
  return ['-B', '-q', `-Dmaven.repo.local=${join(cache, 'maven')}`];
}

/** Downloads one artifact (`group:artifact:version:type`) into `directory`; answers the file. */
async function mavenCopy(context: FetchContext, artifact: string, directory: string): Promise<string> {
  const [, artifactId, version, type = 'jar'] = artifact.split(':');
  requireTool('mvn', 'Maven fetches Keycloak and the search engine (Debian: apt-get install maven)');
  context.say(`fetching ${artifact} with Maven`);
  await runStep({
    what: `mvn copy ${artifact}`,
    command: 'mvn',
    args: [
      ...mavenArgs(context.cache),
      `${MAVEN_DEPENDENCY_PLUGIN}:copy`,
      `-Dartifact=${artifact}`,
      `-DoutputDirectory=${directory}`,
    ],
    logFile: context.logFile,
  });
  return join(directory, `${artifactId}-${version}.${type}`);
}

/**
 * The distribution of a Maven artifact whose zip holds the single top folder `key` (as `keycloak-26.7.3/`),
 * unpacked as the cache entry `key`; answers the entry, the distribution's own folder.
 */
export function mavenDistribution(context: FetchContext, artifact: string, key: string): Promise<string> {
  return cachedEntry(context.cache, key, async (entry) => {
    const zip = await mavenCopy(context, artifact, join(entry, '.download'));
    requireTool('unzip', 'it unpacks the engines (Debian: apt-get install unzip)');
    context.say(`unpacking ${basename(zip)}`);
    const unpacked = join(entry, '.unpacked');
    await runStep({
      what: `unzip ${basename(zip)}`,
      command: 'unzip',
      args: ['-q', zip, '-d', unpacked],
      logFile: context.logFile,
    });
    const top = readdirSync(unpacked);
    if (top.length !== 1 || top[0] !== key)
      throw new Error(`${basename(zip)} holds ${top.join(', ')}, not the one folder ${key}`);
    for (const name of readdirSync(join(unpacked, key)))
      renameSync(join(unpacked, key, name), join(entry, name));
    rmSync(join(entry, '.download'), { recursive: true, force: true });
    rmSync(unpacked, { recursive: true, force: true });
  });
}

/**
 * Builds a Go program from a module the Go module proxy serves, as the cache entry `key` holding the one file
 * `binary`; answers the binary's path. `go install` refuses modules whose go.mod has replace directives
 * (SeaweedFS has one), so the module is downloaded with `go mod download` and built in place, where its own
 * go.mod and go.sum apply.
 */
export async function goBuild(
  context: FetchContext,
  module: { path: string; version: string; package: string },
  key: string,
  binary: string,
): Promise<string> {
  const entry = await cachedEntry(context.cache, key, async (folder) => {
    requireTool(
      'go',
      'Go builds the S3 server (https://go.dev/doc/install, or Debian: apt-get install golang)',
    );
    // The module and build caches (about 4 GB for SeaweedFS) serve this one build and go with its folder: the
    // binary is what is kept, and two builds at once never share a cache one of them removes.
    const goCaches = join(folder, '.go');
    const env = {
      ...process.env,
      GOMODCACHE: join(goCaches, 'mod'),
      GOCACHE: join(goCaches, 'build'),
      // Module files writable, so the folder can be deleted like any other.
      GOFLAGS: '-modcacherw',
      // Build with the installed toolchain; never download another.
      GOTOOLCHAIN: 'local',
    };
    context.say(`fetching ${module.path}@${module.version} through the Go module proxy`);
    const download = await run('go', ['mod', 'download', '-json', `${module.path}@${module.version}`], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`go mod download ${module.path} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    const { Dir: directory } = JSON.parse(download.stdout) as { Dir: string };
    context.say(`building ${module.package} (the first time takes several minutes)`);
    await runStep({
      what: `go build ${module.package}`,
      command: 'go',
      args: [
        'build',
        '-C',
        directory,
        '-trimpath',
        '-ldflags=-s -w',
        '-o',
        join(folder, binary),
        module.package,
      ],
      env,
      logFile: context.logFile,
    });
    rmSync(goCaches, { recursive: true, force: true });
  });
  return join(entry, binary);
}
