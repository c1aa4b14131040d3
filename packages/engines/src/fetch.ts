// Fetching the engines with the registries' own clients into the cache, once: Maven for the Java servers'
// distributions, the Go toolchain (through the Go module proxy) for SeaweedFS. A step that finished before is
// skipped, so a second run fetches nothing; each result is written under a temporary name and renamed when
// complete, so an interrupted fetch is redone rather than half-used.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { runStep } from './supervise.ts';
import { MAVEN_DEPENDENCY_PLUGIN } from './versions.ts';

const run = promisify(execFile);

/** Fails with what to install when a tool the engines need is missing. */
export function requireTool(command: string, hint: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0)
    throw new Error(`${command} is not installed: ${hint}`);
}

export interface FetchContext {
  cache: string;
  logFile: string;
  say: (line: string) => void;
}

function mavenArgs(cache: string): string[] {
  // The cache's own local repository: a fresh clone fetches the same way everywhere, and nothing lands in ~/.m2.
  return ['-B', '-q', `-Dmaven.repo.local=${join(cache, 'maven')}`];
}

/** Downloads one artifact (`group:artifact:version:type`) into `directory`. */
export async function mavenCopy(context: FetchContext, artifact: string, directory: string): Promise<string> {
  const [, artifactId, version, type = 'jar'] = artifact.split(':');
  const file = join(directory, `${artifactId}-${version}.${type}`);
  if (existsSync(file)) return file;
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
  return file;
}

/** Unpacks a zip whose single top folder is `folder` into `parent`, once. */
export async function unpack(
  context: FetchContext,
  zip: string,
  parent: string,
  folder: string,
): Promise<string> {
  const target = join(parent, folder);
  if (existsSync(target)) return target;
  requireTool('unzip', 'it unpacks the engines (Debian: apt-get install unzip)');
  context.say(`unpacking ${basename(zip)}`);
  const partial = join(parent, `${folder}.partial`);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(parent, { recursive: true });
  await runStep({
    what: `unzip ${basename(zip)}`,
    command: 'unzip',
    args: ['-q', zip, '-d', partial],
    logFile: context.logFile,
  });
  const top = readdirSync(partial);
  if (top.length !== 1 || top[0] !== folder)
    throw new Error(`${basename(zip)} holds ${top.join(', ')}, not the one folder ${folder}`);
  renameSync(join(partial, folder), target);
  rmSync(partial, { recursive: true, force: true });
  return target;
}

/**
 * Builds a Go program from a module the Go module proxy serves, once, into `binary`. `go install` refuses modules
 * whose go.mod has replace directives (SeaweedFS has one), so the module is downloaded with `go mod download`
 * and built in place, where its own go.mod and go.sum apply.
 */
export async function goBuild(
  context: FetchContext,
  module: { path: string; version: string; package: string },
  binary: string,
): Promise<string> {
  if (existsSync(binary)) return binary;
  requireTool(
    'go',
    'Go builds the S3 server (https://go.dev/doc/install, or Debian: apt-get install golang)',
  );
  const env = {
    ...process.env,
    GOMODCACHE: join(context.cache, 'go/mod'),
    GOCACHE: join(context.cache, 'go/build'),
    // Module files writable, so the cache can be deleted like any folder.
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
  mkdirSync(join(binary, '..'), { recursive: true });
  const partial = `${binary}.partial`;
  await runStep({
    what: `go build ${module.package}`,
    command: 'go',
    args: ['build', '-C', directory, '-trimpath', '-ldflags=-s -w', '-o', partial, module.package],
    env,
    logFile: context.logFile,
  });
  renameSync(partial, binary);
  // The module and build caches (about 4 GB for SeaweedFS) served this one build; the binary is what is kept.
  rmSync(join(context.cache, 'go'), { recursive: true, force: true });
  return binary;
}
