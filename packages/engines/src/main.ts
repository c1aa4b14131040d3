// `npm run engines`: starts the real engines (Keycloak, the search engine, the S3 server) on loopback, prints
// their URLs and the environment to run Rotunda or a contract suite against them, and stops them all on Ctrl-C
// or SIGTERM. The first run fetches and builds them into the build cache outside the clone (cache.ts; minutes,
// once per machine and version); later runs, in this clone or a fresh one, start in seconds. `--fetch-only`
// fills the cache and exits. ENGINES_PORT_BASE moves the ports (default 7100–7112); ENGINES_DIR moves
// .data/engines.
import { fetchEngines, startEngines } from './index.ts';

const say = (line: string) => console.log(`  ${line}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let stopping: Promise<void> | undefined;
let stopEngines: (() => Promise<void>) | undefined;
function shutDown(signal: NodeJS.Signals) {
  if (stopping) return;
  console.log(`\n${signal}: stopping the engines`);
  // Not started yet (still fetching or starting): exiting is enough, the watchdogs end whatever was started.
  stopping = (stopEngines?.() ?? Promise.resolve()).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutDown(signal));

if (process.argv.includes('--fetch-only')) {
  const fetched = await fetchEngines(say);
  for (const [name, { folder, fetchMs }] of Object.entries(fetched))
    console.log(`  ${name}: ${folder} (${seconds(fetchMs)})`);
  process.exit(0);
}

console.log('Starting the real engines (the first run fetches and builds them: several minutes)');
try {
  const engines = await startEngines({ say });
  stopEngines = engines.stop;
  console.log('\nEngines running:');
  for (const { what, url, note } of engines.urls)
    console.log(`  ${what}: ${url}${note ? `  (${note})` : ''}`);
  console.log('\nTimes (fetch / start):');
  for (const [name, { fetchMs, startMs }] of Object.entries(engines.timings))
    console.log(`  ${name}: ${seconds(fetchMs)} / ${seconds(startMs)}`);
  console.log(`\nData and logs: ${engines.folder}`);
  console.log(
    `\nEnvironment (also in ${engines.folder}/env: \`set -a; . ${engines.folder}/env; set +a\`):\n`,
  );
  for (const [name, value] of Object.entries(engines.env)) console.log(`${name}=${value}`);
  console.log('\nCtrl-C stops them.');
} catch (error) {
  console.error(`\nThe engines did not start: ${(error as Error).message}`);
  process.exit(1);
}
