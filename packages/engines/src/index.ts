// startEngines(): fetches (once) and starts Keycloak, the search engine and the S3 server on loopback, waits
// until each is healthy and answers the environment that points Rotunda and its contract suites at them;
// stop() ends them all. Used by `npm run engines` (main.ts) and `npm run test:engines` (test-engines.ts).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FetchContext } from './fetch.ts';
import { fetchKeycloak, keycloakEnvironment, keycloakReady, startKeycloak } from './keycloak.ts';
import { busyPorts, DEFAULT_PORT_BASE, freePortBase, layout, type Ports, portsFrom } from './layout.ts';
import { fetchOpenSearch, openSearchReady, startOpenSearch } from './opensearch.ts';
import { type SearchProxy, startSearchProxy } from './search-proxy.ts';
import { fetchSeaweedFs, s3Environment, seaweedFsReady, startSeaweedFs } from './seaweedfs.ts';
import type { Supervised } from './supervise.ts';
import { KEYCLOAK, OPENSEARCH, SEAWEEDFS } from './versions.ts';

// For the stack's base images (tools/stack): the same cached fetches and builds, reused rather than redone.
export { defaultCacheFolder } from './cache.ts';
export { type FetchContext, goBuild } from './fetch.ts';
export { fetchKeycloak } from './keycloak.ts';
export { fetchOpenSearch } from './opensearch.ts';
export { fetchSeaweedFs } from './seaweedfs.ts';
export { KEYCLOAK, KEYCLOAK_FEATURES, KEYCLOAK_SETTINGS, OPENSEARCH, SEAWEEDFS } from './versions.ts';

export interface StartOptions {
  /** Which set of engines under .data/engines/ (default `run`); each has its own data, logs and secrets. */
  instance?: string;
  /** Empty the set's folder first: a new realm import, an empty store and index. */
  fresh?: boolean;
  /** The first of the engines' ports (default ENGINES_PORT_BASE or 7100); `free`: any free block. */
  portBase?: number | 'free';
  /** Progress lines (default: none). */
  say?: (line: string) => void;
  /** The product's public address Keycloak sends people back to (default PUBLIC_URL or http://localhost:8080). */
  publicUrl?: string;
  /** The realm's access-token lifespan in seconds (default 300). */
  accessTokenSeconds?: number;
}

export interface EngineTiming {
  /** Fetching and unpacking or building, 0-ish when the cache had it. */
  fetchMs: number;
  /** From start to healthy. */
  startMs: number;
}

export type EngineName = 'keycloak' | 'search' | 's3';

export interface Engines {
  /** The variables that point Rotunda, its contract suites and its gateway at these engines. */
  env: Record<string, string>;
  /** What a person may open, with how to sign in. */
  urls: { what: string; url: string; note?: string }[];
  ports: Ports;
  timings: Record<'keycloak' | 'search' | 's3', EngineTiming>;
  /** The folder holding this set's data and logs. */
  folder: string;
  /**
   * One engine taken away and brought back, its data kept, for the outage suites (outage-control.ts): `stop` ends
   * its process (the search engine's, behind the proxy that stays); `start` starts it again on the same ports and
   * answers the milliseconds until it was healthy.
   */
  outage: { stop(name: EngineName): Promise<void>; start(name: EngineName): Promise<number> };
  stop(): Promise<void>;
}

interface Secrets {
  keycloakClientSecret: string;
  keycloakAdminPassword: string;
  s3AccessKey: string;
  s3SecretKey: string;
}

/** Made once per set of engines and kept: Keycloak keeps the client secret it imported first. */
function secretsOf(folder: string): Secrets {
  const file = join(folder, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = {
    keycloakClientSecret: randomBytes(24).toString('hex'),
    keycloakAdminPassword: randomBytes(12).toString('hex'),
    s3AccessKey: `rotunda${randomBytes(6).toString('hex')}`,
    s3SecretKey: randomBytes(24).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function resolvePortBase(portBase: StartOptions['portBase']): Promise<Ports> {
  if (portBase === 'free') return portsFrom(await freePortBase());
  const base = portBase ?? Number(process.env.ENGINES_PORT_BASE || DEFAULT_PORT_BASE);
  const ports = portsFrom(base);
  const busy = await busyPorts(ports);
  if (busy.length > 0)
    throw new Error(
      `the engines need loopback ports ${base}–${base + Object.keys(ports).length - 1}, and ${busy.join(', ')} ` +
        'already in use: stop what uses them (engines already running?) or set ENGINES_PORT_BASE to another base',
    );
  return ports;
}

const since = (started: number) => performance.now() - started;

/**
 * Fills the build cache with every engine (fetching and building only what it lacks) and answers where each
 * is and how long it took: `npm run engines -- --fetch-only`.
 */
export async function fetchEngines(
  say: (line: string) => void = () => {},
): Promise<Record<'keycloak' | 'search' | 's3', { folder: string; fetchMs: number }>> {
  const paths = layout('fetch');
  mkdirSync(paths.logs, { recursive: true });
  const timed = async (name: string, fetch: (context: FetchContext) => Promise<string>) => {
    const started = performance.now();
    const folder = await fetch({ cache: paths.cache, logFile: join(paths.logs, `${name}-fetch.log`), say });
    return { folder, fetchMs: since(started) };
  };
  const [keycloak, search, s3] = await Promise.all([
    timed('keycloak', fetchKeycloak),
    timed('opensearch', fetchOpenSearch),
    timed('seaweedfs', fetchSeaweedFs),
  ]);
  return { keycloak, search, s3 };
}

export async function startEngines(options: StartOptions = {}): Promise<Engines> {
  const say = options.say ?? (() => {});
  const paths = layout(options.instance ?? 'run');
  if (options.fresh) rmSync(paths.instance, { recursive: true, force: true });
  for (const folder of [paths.cache, paths.instance, paths.logs]) mkdirSync(folder, { recursive: true });
  const ports = await resolvePortBase(options.portBase);
  const publicUrl = options.publicUrl ?? process.env.PUBLIC_URL ?? 'http://localhost:8080';
  const secrets = secretsOf(paths.instance);
  const context = (name: string) => ({
    cache: paths.cache,
    logFile: join(paths.logs, `${name}-fetch.log`),
    say,
  });
  const logOf = (name: string) => join(paths.logs, `${name}.log`);

  const running: Partial<Record<EngineName, Supervised>> = {};
  /** Each engine's start on its ports and data, resolving with the milliseconds until it was healthy. */
  const launchers: Partial<Record<EngineName, () => Promise<number>>> = {};
  let proxy: SearchProxy | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(Object.values(running).map((engine) => engine.stop()));
  };

  const keycloak = async (): Promise<EngineTiming> => {
    const fetching = performance.now();
    const distribution = await fetchKeycloak(context('keycloak'));
    const fetchMs = since(fetching);
    say(`starting Keycloak ${KEYCLOAK.version}`);
    launchers.keycloak = () => {
      const engine = startKeycloak({
        distribution,
        folder: join(paths.instance, 'keycloak'),
        port: ports.keycloak,
        managementPort: ports.keycloakManagement,
        clientSecret: secrets.keycloakClientSecret,
        adminPassword: secrets.keycloakAdminPassword,
        publicUrl,
        accessTokenSeconds: options.accessTokenSeconds ?? 300,
        logFile: logOf('keycloak'),
      });
      running.keycloak = engine;
      return keycloakReady(engine, ports.keycloakManagement);
    };
    const startMs = await launchers.keycloak();
    say(`Keycloak ready in ${(startMs / 1000).toFixed(1)} s`);
    return { fetchMs, startMs };
  };
  const search = async (): Promise<EngineTiming> => {
    const fetching = performance.now();
    const distribution = await fetchOpenSearch(context('opensearch'));
    const fetchMs = since(fetching);
    say(`starting OpenSearch ${OPENSEARCH.version}`);
    launchers.search = () => {
      const engine = startOpenSearch({
        distribution,
        folder: join(paths.instance, 'opensearch'),
        port: ports.opensearch,
        transportPort: ports.opensearchTransport,
        logFile: logOf('opensearch'),
      });
      running.search = engine;
      return openSearchReady(engine, ports.opensearch);
    };
    const startMs = await launchers.search();
    proxy = await startSearchProxy({
      upstream: `http://127.0.0.1:${ports.opensearch}`,
      port: ports.elasticsearch,
    });
    say(`OpenSearch ready in ${(startMs / 1000).toFixed(1)} s`);
    return { fetchMs, startMs };
  };
  const s3 = async (): Promise<EngineTiming> => {
    const fetching = performance.now();
    const binary = await fetchSeaweedFs(context('seaweedfs'));
    const fetchMs = since(fetching);
    say(`starting SeaweedFS ${SEAWEEDFS.release}`);
    launchers.s3 = () => {
      const engine = startSeaweedFs({
        binary,
        folder: join(paths.instance, 'seaweedfs'),
        ports,
        credentials: { accessKey: secrets.s3AccessKey, secretKey: secrets.s3SecretKey },
        logFile: logOf('seaweedfs'),
      });
      running.s3 = engine;
      return seaweedFsReady(engine, ports);
    };
    const startMs = await launchers.s3();
    say(`SeaweedFS ready in ${(startMs / 1000).toFixed(1)} s`);
    return { fetchMs, startMs };
  };

  const results = await Promise.allSettled([keycloak(), search(), s3()]);
  const failures = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failures.length > 0) {
    await stop();
    throw new Error(
      failures.map((failure) => String(failure.reason?.message ?? failure.reason)).join('\n\n'),
    );
  }
  const [keycloakTiming, searchTiming, s3Timing] = (results as PromiseFulfilledResult<EngineTiming>[]).map(
    (result) => result.value,
  ) as [EngineTiming, EngineTiming, EngineTiming];

  const keycloakUrl = `http://127.0.0.1:${ports.keycloak}`;
  const env = {
    ...keycloakEnvironment(ports.keycloak, secrets.keycloakClientSecret),
    // For suites and journeys that act as an agency's IT office on the agency realms (not read by the product).
    KEYCLOAK_ADMIN_PASSWORD: secrets.keycloakAdminPassword,
    // The product's address the realm sends agency sign-ins back to: the product and the suites use the same.
    PUBLIC_URL: publicUrl,
    ELASTICSEARCH_URL: `http://127.0.0.1:${ports.elasticsearch}`,
    ...s3Environment(ports.s3, { accessKey: secrets.s3AccessKey, secretKey: secrets.s3SecretKey }),
  };
  // The same lines as printed, for `set -a; . <folder>/env; set +a` in another shell.
  writeFileSync(
    join(paths.instance, 'env'),
    Object.entries(env)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
    { mode: 0o600 },
  );
  return {
    env,
    urls: [
      {
        what: `Keycloak ${KEYCLOAK.version} console`,
        url: `${keycloakUrl}/admin/`,
        note: `admin / ${secrets.keycloakAdminPassword}`,
      },
      {
        what: `Search (OpenSearch ${OPENSEARCH.version} behind the Elasticsearch proxy)`,
        url: `http://127.0.0.1:${ports.elasticsearch}`,
      },
      { what: `S3 (SeaweedFS ${SEAWEEDFS.release})`, url: `http://127.0.0.1:${ports.s3}` },
    ],
    ports,
    timings: { keycloak: keycloakTiming, search: searchTiming, s3: s3Timing },
    folder: paths.instance,
    outage: {
      async stop(name) {
        await running[name]?.stop();
        delete running[name];
      },
      async start(name) {
        const launch = launchers[name];
        if (!launch) throw new Error(`no engine named ${name}`);
        if (running[name]) throw new Error(`${name} is running`);
        return launch();
      },
    },
    stop,
  };
}
