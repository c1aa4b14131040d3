// Where the engines live on disk and which loopback ports they take.
//
//   the build cache        outside the clone, one per machine or user (cache.ts): keycloak-<version>/,
//                          opensearch-<version>/, seaweedfs-<version>/weed, maven/; ENGINES_CACHE moves it
//   .data/engines/<name>/  one set of running engines: keycloak/, opensearch/, seaweedfs/, logs/, secrets.json
//
// `npm run engines` uses the set `run` (kept, so a second start reuses the realm and the data); the contract
// run (`npm run test:engines`) uses `test`, emptied at every start.
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { defaultCacheFolder } from './cache.ts';

const REPO = resolve(import.meta.dirname, '../../..');

export interface Layout {
  /** The build cache, shared by every clone on the machine. */
  cache: string;
  /** The folder of this set of engines (data, logs, secrets). */
  instance: string;
  logs: string;
}

export function layout(instanceName: string, root = process.env.ENGINES_DIR || join(REPO, '.data/engines')) {
  const instance = join(root, instanceName);
  return { cache: defaultCacheFolder(), instance, logs: join(instance, 'logs') } satisfies Layout;
}

/** Every port the engines listen on, each one a fixed offset from a base. */
export interface Ports {
  keycloak: number;
  keycloakManagement: number;
  /** The Elasticsearch-speaking proxy (ELASTICSEARCH_URL). */
  elasticsearch: number;
  opensearch: number;
  opensearchTransport: number;
  s3: number;
  s3Grpc: number;
  seaweedMaster: number;
  seaweedMasterGrpc: number;
  seaweedVolume: number;
  seaweedVolumeGrpc: number;
  seaweedFiler: number;
  seaweedFilerGrpc: number;
}

const OFFSETS: Record<keyof Ports, number> = {
  keycloak: 0,
  keycloakManagement: 1,
  elasticsearch: 2,
  opensearch: 3,
  opensearchTransport: 4,
  s3: 5,
  s3Grpc: 6,
  seaweedMaster: 7,
  seaweedMasterGrpc: 8,
  seaweedVolume: 9,
  seaweedVolumeGrpc: 10,
  seaweedFiler: 11,
  seaweedFilerGrpc: 12,
};
const PORT_COUNT = Object.keys(OFFSETS).length;

/** Clear of the product's own defaults (8080, 9000, 1025, 1080, 20051–20056, 54329). */
export const DEFAULT_PORT_BASE = 7100;

export function portsFrom(base: number): Ports {
  return Object.fromEntries(
    Object.entries(OFFSETS).map(([name, offset]) => [name, base + offset]),
  ) as unknown as Ports;
}

/** Whether nothing listens on this loopback port yet. */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolvePort(true)));
  });
}

/** The ports among these that something already listens on. */
export async function busyPorts(ports: Ports): Promise<number[]> {
  const all = Object.values(ports);
  const free = await Promise.all(all.map(isFree));
  return all.filter((_, index) => !free[index]);
}

/** A base whose whole block is free, for runs that must not collide with anything (the contract run). */
export async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 2000) * PORT_COUNT;
    if ((await busyPorts(portsFrom(base))).length === 0) return base;
  }
  throw new Error('no free block of loopback ports found for the engines');
}
