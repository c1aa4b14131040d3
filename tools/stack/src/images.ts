// Rotunda's own images, built with the Dockerfiles under docker/ exactly as docker-compose.yml's `build:` sections
// say (read from `docker compose config`, so the file stays the one place they are named), one after another on
// the daemon's BuildKit, whose layer cache makes a rebuild of unchanged sources take seconds.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { DOCKER, dockerEnv } from './engine.ts';

const run = promisify(execFile);

/** A machine whose TLS is inspected trusts the inspector's CA: builds get the host's bundle as a build secret. */
export const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

export interface ImageBuild {
  image: string;
  context: string;
  dockerfile: string;
  target?: string;
  args: Record<string, string>;
}

interface ComposeConfig {
  services: Record<
    string,
    {
      image?: string;
      build?: { context: string; dockerfile?: string; target?: string; args?: Record<string, string | null> };
    }
  >;
}

/** The images compose's `build:` sections name, each once, in the file's order. */
export function imageBuilds(config: ComposeConfig): ImageBuild[] {
  const builds = new Map<string, ImageBuild>();
  for (const [name, service] of Object.entries(config.services)) {
    if (!service.build) continue;
    const image = service.image ?? `rotunda-${name}`;
    if (builds.has(image)) continue;
    const { context, dockerfile = 'Dockerfile', target, args = {} } = service.build;
    builds.set(image, {
      image,
      context,
      dockerfile: isAbsolute(dockerfile) ? dockerfile : join(context, dockerfile),
      ...(target ? { target } : {}),
      args: Object.fromEntries(Object.entries(args).map(([key, value]) => [key, value ?? ''])),
    });
  }
  return [...builds.values()];
}

/** docker build's arguments for one image. */
export function buildArgs(build: ImageBuild, caBundle: string | null): string[] {
  return [
    'build',
    '--file',
    build.dockerfile,
    ...(build.target ? ['--target', build.target] : []),
    ...Object.entries(build.args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
    ...(caBundle ? ['--secret', `id=ca,src=${caBundle}`] : []),
    '--tag',
    build.image,
    build.context,
  ];
}

/** The resolved compose file, as compose itself reads it. */
export async function composeConfig(
  binary: string,
  projectArgs: string[],
  cwd: string,
): Promise<ComposeConfig> {
  const { stdout } = await run(binary, [...projectArgs, 'config', '--format', 'json'], {
    cwd,
    env: dockerEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as ComposeConfig;
}

/** Builds every Rotunda image, answering each one's build time and size. */
export async function buildImages(
  builds: readonly ImageBuild[],
  say: (line: string) => void,
): Promise<{ image: string; seconds: number; sizeMB: number }[]> {
  const caBundle = existsSync(HOST_CA_BUNDLE) ? HOST_CA_BUNDLE : null;
  const built = [];
  for (const build of builds) {
    const started = performance.now();
    say(`building ${build.image}`);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(DOCKER, buildArgs(build, caBundle), { env: dockerEnv(), stdio: 'inherit' });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`building ${build.image} failed (exit code ${code})`)),
      );
    });
    built.push({
      image: build.image,
      seconds: (performance.now() - started) / 1000,
      sizeMB: await imageSizeMB(build.image),
    });
  }
  return built;
}

/** An image's size as `docker images` counts it (1 MB = 10^6 bytes). */
export async function imageSizeMB(image: string, docker = DOCKER): Promise<number> {
  const { stdout } = await run(docker, ['image', 'inspect', '--format', '{{.Size}}', image], {
    env: dockerEnv(),
  });
  return Math.round(Number(stdout.trim()) / 1e6);
}
