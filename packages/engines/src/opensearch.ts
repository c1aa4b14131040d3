// The search engine: OpenSearch's minimal distribution from Maven Central with its reindex module added, on
// loopback, single node, its data, logs and configuration in the instance's folder. ELASTICSEARCH_URL points at
// the proxy in search-proxy.ts, which lets the official Elasticsearch client talk to it.
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
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { type FetchContext, mavenCopy, mavenCopyWithDependencies, requireTool, unpack } from './fetch.ts';
import { type Supervised, supervise, waitHealthy } from './supervise.ts';
import { OPENSEARCH } from './versions.ts';

const NOBODY = 65_534;

/** Fetches the distribution and adds the reindex module to it, once; answers its folder. */
export async function fetchOpenSearch(context: FetchContext): Promise<string> {
  const zip = await mavenCopy(context, OPENSEARCH.artifact, join(context.cache, 'downloads'));
  const distribution = await unpack(
    context,
    zip,
    join(context.cache, 'dist'),
    `opensearch-${OPENSEARCH.version}`,
  );
  const module = join(distribution, 'modules/reindex');
  if (existsSync(module)) return distribution;
  const jars = join(context.cache, 'downloads', `opensearch-reindex-${OPENSEARCH.version}`);
  await mavenCopyWithDependencies(context, OPENSEARCH.reindex, jars);
  // A module's own jars may not repeat the server's (OpenSearch refuses to start on a duplicate class).
  const serverJars = new Set(readdirSync(join(distribution, 'lib')));
  const partial = `${module}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  for (const jar of readdirSync(jars)) if (!serverJars.has(jar)) cpSync(join(jars, jar), join(partial, jar));
  // What the distribution's own build writes next to every module.
  writeFileSync(
    join(partial, 'plugin-descriptor.properties'),
    [
      'description=Reindex, update by query and delete by query',
      `version=${OPENSEARCH.version}`,
      'name=reindex',
      `classname=${OPENSEARCH.reindexPluginClass}`,
      'java.version=11',
      `opensearch.version=${OPENSEARCH.version}`,
      'custom.foldername=',
      'extended.plugins=',
      'has.native.controller=false',
      '',
    ].join('\n'),
  );
  renameSync(partial, module);
  return distribution;
}

/** The Java home of the `java` on the PATH (the minimal distribution bundles none). */
function javaHome(): string {
  if (process.env.OPENSEARCH_JAVA_HOME) return process.env.OPENSEARCH_JAVA_HOME;
  const which = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  return dirname(dirname(realpathSync(which)));
}

export interface OpenSearchOptions {
  distribution: string;
  folder: string;
  port: number;
  transportPort: number;
  logFile: string;
}

export function startOpenSearch(options: OpenSearchOptions): Supervised {
  requireTool(
    'java',
    'OpenSearch 2.19 runs on Java 17 or newer (Debian: apt-get install openjdk-17-jre-headless)',
  );
  const { folder } = options;
  const config = join(folder, 'config');
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
      OPENSEARCH_JAVA_HOME: javaHome(),
      OPENSEARCH_JAVA_OPTS: '-Xms512m -Xmx512m',
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
