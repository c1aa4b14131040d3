// The production stack (docker-compose.yml) on this machine. `up` makes sure a container engine runs, writes the
// stack's secrets once (.data/stack/.env), builds the base images from Debian and the registries (base-images.ts)
// and Rotunda's images from docker/ (images.ts), starts the stack with two replicas of each service and the
// gateway, and answers once the front door answers. `down` removes every container, network and volume the stack
// made. Demo data is seeded unless SEED_DEMO=false is given.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { buildBaseImages } from './base-images.ts';
import { composeBinary, PROJECT, projectArgs, runCompose } from './compose.ts';
import { DOCKER, dockerEnv, ensureEngine } from './engine.ts';
import { buildImages, composeConfig, imageBuilds } from './images.ts';
import { parseEnv, settingsOf, writeStackEnv } from './secrets.ts';

const REPO = join(import.meta.dirname, '../../..');
const FOLDER = join(REPO, '.data/stack');
export const ENV_FILE = join(FOLDER, '.env');
const COMPOSE_FILE = join(REPO, 'docker-compose.yml');
/** The front door's address, as docker-compose.yml publishes it. */
export const STACK_URL = 'http://localhost:8080';
export const MAIL_URL = 'http://localhost:1080';
/** A cold start (Keycloak's first realm import, every migration, the demo seed) takes a few minutes here. */
const READY_MS = 15 * 60_000;

const run = promisify(execFile);
export const say = (line: string) => console.log(`stack: ${line}`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

export async function compose(): Promise<{ binary: string; args: string[] }> {
  await ensureEngine({ logFile: join(FOLDER, 'dockerd.log'), say });
  const binary = await composeBinary({ logFile: join(FOLDER, 'compose-build.log'), say });
  return { binary, args: projectArgs({ composeFile: COMPOSE_FILE, envFile: ENV_FILE }) };
}

/**
 * Writes the stack's settings: an optional setting given in the environment applies (a try-out seeds the demo
 * data unless SEED_DEMO=false); the secrets are made once and kept.
 */
export function writeEnv(env: NodeJS.ProcessEnv = process.env) {
  const example = join(REPO, '.env.example');
  const optional = settingsOf(readFileSync(example, 'utf8')).filter((setting) => setting.optional);
  const given = optional.flatMap(({ name }) => {
    const value = env[name];
    return value === undefined ? [] : [[name, value] as const];
  });
  writeStackEnv({ example, file: ENV_FILE, overrides: { SEED_DEMO: 'true', ...Object.fromEntries(given) } });
}

/** One of the stack's settings as .data/stack/.env holds it (a secret included); empty when it has none. */
export function stackSetting(name: string): string {
  return parseEnv(readFileSync(ENV_FILE, 'utf8')).get(name) ?? '';
}

export async function images(binary: string, args: string[]) {
  const started = performance.now();
  const base = await buildBaseImages({ docker: DOCKER, say });
  say(`base images ready after ${seconds(started)}`);
  const ownStarted = performance.now();
  const own = await buildImages(imageBuilds(await composeConfig(binary, args, REPO)), say);
  say(`Rotunda's images built in ${seconds(ownStarted)}`);
  console.table([
    ...base.map((image) => ({
      image: image.name,
      built: image.built,
      seconds: Math.round(image.seconds),
      MB: image.sizeMB,
    })),
    ...own.map((image) => ({
      image: image.image,
      built: true,
      seconds: Math.round(image.seconds),
      MB: image.sizeMB,
    })),
  ]);
}

/** Waits until the front door serves the shell and the gateway answers behind it. */
async function waitReady(): Promise<void> {
  const until = performance.now() + READY_MS;
  while (performance.now() < until) {
    const healthy = await fetch(`${STACK_URL}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await sleep(2_000);
  }
  throw new Error(`the stack did not answer at ${STACK_URL}/healthz within ${READY_MS / 60_000} minutes`);
}

export async function up() {
  const started = performance.now();
  writeEnv();
  const { binary, args } = await compose();
  await images(binary, args);
  const upStarted = performance.now();
  await runCompose(binary, [...args, 'up', '--detach', '--no-build', '--remove-orphans'], REPO);
  await waitReady();
  say(`up after ${seconds(upStarted)} (${seconds(started)} in all)`);
  say(`Rotunda: ${STACK_URL}   mail: ${MAIL_URL}   settings and secrets: ${ENV_FILE}`);
}

/** What is left of the project: containers, networks and volumes carrying its label. */
export async function leftovers(): Promise<string[]> {
  const label = `label=com.docker.compose.project=${PROJECT}`;
  const left: string[] = [];
  for (const kind of ['container', 'network', 'volume'] as const) {
    const list = kind === 'container' ? ['container', 'ls', '--all'] : [kind, 'ls'];
    const { stdout } = await run(DOCKER, [...list, '--quiet', '--filter', label], { env: dockerEnv() });
    left.push(
      ...stdout
        .split('\n')
        .filter(Boolean)
        .map((id) => `${kind} ${id}`),
    );
  }
  return left;
}

export async function down() {
  writeEnv();
  const { binary, args } = await compose();
  await runCompose(binary, [...args, 'down', '--volumes', '--remove-orphans', '--timeout', '30'], REPO);
  const left = await leftovers();
  if (left.length > 0) throw new Error(`down left ${left.join(', ')}`);
  say('down: no container, network or volume of the stack is left');
}

export async function status() {
  writeEnv();
  const { binary, args } = await compose();
  await runCompose(binary, [...args, 'ps', '--all'], REPO);
}
