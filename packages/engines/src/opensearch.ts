// The search engine: OpenSearch's minimal distribution from Maven Central, on loopback, single node, its data,
// logs and configuration in the instance's folder. ELASTICSEARCH_URL points at the proxy in search-proxy.ts,
// which lets the official Elasticsearch client talk to it.
//
// OpenSearch, like Elasticsearch, refuses to run as root: when we are root it runs as `nobody`, owning its
// instance folder.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type FetchContext, mavenDistribution } from './fetch.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';
import { OPENSEARCH } from './versions.ts';

const NOBODY = 65_534;

/** Fetches and unpacks the distribution into the build cache, once per version; answers its folder. */
export function fetchOpenSearch(context: FetchContext): Promise<string> {
  return mavenDistribution(context, OPENSEARCH.artifact, `opensearch-${OPENSEARCH.version}`);
}

function javaVersion(java: string): number {
  const { stderr } = spawnSync(java, ['-version'], { encoding: 'utf8' });
  return Number(/version "(\d+)/.exec(stderr ?? '')?.[1] ?? 0);
}

/**
 * A Java home new enough for OpenSearch (the minimal distribution bundles none): OPENSEARCH_JAVA_HOME when set,
 * else the `java` on the PATH, else the newest JDK under /usr/lib/jvm (where Debian and Temurin install).
 */
function openSearchJavaHome(): string {
  if (process.env.OPENSEARCH_JAVA_HOME) return process.env.OPENSEARCH_JAVA_HOME;
  const onPath = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  const candidates = [
    ...(onPath ? [dirname(dirname(realpathSync(onPath)))] : []),
    ...(existsSync('/usr/lib/jvm')
      ? readdirSync('/usr/lib/jvm').map((name) => join('/usr/lib/jvm', name))
      : []),
  ];
  const usable = candidates
    .filter((home) => existsSync(join(home, 'bin/java')))
    .map((home) => ({ home, version: javaVersion(join(home, 'bin/java')) }))
    .filter(({ version }) => version >= OPENSEARCH.minimumJava)
    .sort((a, b) => b.version - a.version);
  const found = usable[0];
  if (!found)
    throw new Error(
      `OpenSearch ${OPENSEARCH.version} needs Java ${OPENSEARCH.minimumJava} or newer and none was found ` +
        '(on the PATH or under /usr/lib/jvm): install one, or set OPENSEARCH_JAVA_HOME to its folder',
    );
  return found.home;
}

export interface OpenSearchOptions {
  distribution: string;
  folder: string;
  port: number;
  transportPort: number;
  logFile: string;
}

export function startOpenSearch(options: OpenSearchOptions): Supervised {
  const { folder } = options;
  // One configuration per distribution: another version's options may not start this one.
  const config = join(folder, 'config', basename(options.distribution));
  if (!existsSync(config)) {
    cpSync(join(options.distribution, 'config'), config, { recursive: true });
    // Its JVM options name logs/ and data/ relative to the distribution's folder (the start script changes to
    // it), which is the shared cache: point them into this instance's folder instead.
    const jvmOptions = join(config, 'jvm.options');
    writeFileSync(
      jvmOptions,
      readFileSync(jvmOptions, 'utf8')
        .replaceAll('logs/', `${join(folder, 'logs')}/`)
        .replace('-XX:HeapDumpPath=data', `-XX:HeapDumpPath=${join(folder, 'data')}`),
    );
  }
  for (const sub of ['data', 'logs']) mkdirSync(join(folder, sub), { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, folder]);
  const server = join(options.distribution, 'bin/opensearch');
  const settings = [
    'discovery.type=single-node',
    'network.host=127.0.0.1',
    `http.port=${options.port}`,
    `transport.port=${options.transportPort}`,
    `path.data=${join(folder, 'data')}`,
    `path.logs=${join(folder, 'logs')}`,
    // A test engine on a developer's disk: never turn indices read-only because the disk is fuller than 85 %.
    'cluster.routing.allocation.disk.threshold_enabled=false',
  ].flatMap((setting) => ['-E', setting]);
  return supervise({
    name: 'opensearch',
    command: asRoot ? 'setpriv' : server,
    args: asRoot
      ? [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', server, ...settings]
      : settings,
    cwd: folder,
    env: {
      ...process.env,
      HOME: folder,
      OPENSEARCH_PATH_CONF: config,
      OPENSEARCH_JAVA_HOME: openSearchJavaHome(),
      // The quick compiler only: the optimizing one spent most of a start's CPU on code a test engine's few
      // requests never repay. Measured here: a restart with its data 59 s → 21 s, a fresh start 35 s → 24 s.
      // A bench under load for minutes repays it and sets its own (directory-national: searches over 2.5 s
      // without it).
      OPENSEARCH_JAVA_OPTS: process.env.OPENSEARCH_JAVA_OPTS || '-Xms512m -Xmx512m -XX:TieredStopAtLevel=1',
    },
    logFile: options.logFile,
  });
}

export async function openSearchReady(engine: Supervised, port: number): Promise<number> {
  return waitHealthy(
    engine,
    `http://127.0.0.1:${port}/_cluster/health?wait_for_status=yellow&timeout=1s`,
    300_000,
  );
}
