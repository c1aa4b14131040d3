// `npm run bench -- directory-national [--people N] [--seed-only]`: the people directory at national scale on the
// search engine `npm run engines` starts (OpenSearch behind its Elasticsearch-speaking proxy). Seeds N people
// (default 1,000,000) at 50,000 organizations with the scale seed's generator, in batches, then measures in one
// run: directory searches through the gateway, 20 concurrent, a fixed mix, next to the same index queries sent
// straight to the engine; each profile replica's and the gateway's resident memory; a full rebuild into a new
// generation under the same search load (duration, documents per second next to the engine's raw `_bulk` rate
// for the same documents, failed searches, totals below the true count); the organization list the same way.
// Writes bench-results/directory-national.json.
//
// The seeded database and index are kept (.data/bench-national-v<seed version>, engines set national-v<seed
// version>) and only what is missing is added, so measuring again does not seed again; `--seed-only` seeds and stops, so the
// long seeding can run outside the bench lock, on other ports (BENCH_PORT, POSTGRES_PORT, ... as for any bench).
// ENGINES_PORT_BASE moves the engines (default 18600).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEngines } from '@rotunda/engines';
import { orgConfigSchema } from '@rotunda/org-service/config';
import { searchIndexFor } from '@rotunda/org-service/wiring';
import { PEOPLE_INDEX } from '@rotunda/profile-service/directory';
import { createElasticsearchIndex, type SearchIndex } from '@rotunda/search';
import { loadConfig } from '@rotunda/service-kit';
import {
  DURATION_S,
  measuredLoop,
  PORT,
  POSTGRES_PORT,
  print,
  REPO,
  save,
  signIn,
  startProduct,
  stopProduct,
} from './bench/harness.ts';
import {
  cpuSeconds,
  type DirectorySearch,
  indexQueryOf,
  NATIONAL_QUERIES,
  PAGE,
  pidsWhoseCommandHas,
  rawBulkRate,
  rssMiB,
} from './directory-national-engine.ts';
import { closedLoop, percentile, send } from './measure.ts';

/** Bumped when the generated set changes (generator, organizations), so a kept set of another make is not reused. */
const SEED_VERSION = 1;
const ORGANIZATIONS = 50_000;
/**
 * Every process's V8 heap ceiling (MiB): three quarters of the profile pod's 512 MiB limit
 * (k8s/base/services/profile.yaml). 256 held a replica near 310 MiB too, but its more frequent collections cost
 * each search more CPU on the two shared cores (ADR 0058).
 */
const HEAP_MIB = 384;
const CONCURRENCY = 20;
/** Three busy processes and the engine on two cores take a while to settle after a start (ADR 0033). */
const WARMUP_S = 30;
/** The raw rate's bulk requests as the rebuild sends them: the adapter's BULK_BATCH, SEARCH_REBUILD_CONCURRENCY at once. */
const BULK = { batch: 1000, concurrency: 2 };

const ORG_QUERIES = [
  { search: 'sierra', group: '' },
  { search: 'capitol association', group: '' },
  { search: 'delta', group: 'Unions' },
  { search: 'golden state', group: 'Associations' },
  { search: 'water', group: 'Agencies' },
  { search: '', group: 'Lobbyists' },
  { search: 'pacific council', group: '' },
  { search: 'valley', group: 'Other' },
];

/** Runs a node script to its end with the output shown (progress), rejecting unless it exits 0. */
function runScript(script: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited ${code}`))));
  });
}

/** Each process DATA_DIR/pids.json lists for `service`, and the children of each (the gateway's workers). */
function servicePids(dataDir: string, service: string): number[] {
  const listed = JSON.parse(readFileSync(join(dataDir, 'pids.json'), 'utf8')) as Record<
    string,
    { pid: number; service: string }
  >;
  const pids: number[] = [];
  for (const { pid, service: name } of Object.values(listed)) {
    if (name !== service) continue;
    pids.push(pid);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) pids.push(Number(child));
    }
  }
  return pids;
}

/** The load's own process: it shares the cores too. */
const cpuUsageSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const serviceRss = (dataDir: string, service: string) =>
  servicePids(dataDir, service).map((pid) => Math.round(rssMiB(pid)));

/** Rounds of each path, in turn: the engine's JIT and caches keep warming for minutes, so no path runs all later. */
const ROUNDS = 3;

/**
 * Warms both paths up, then runs them in turn, ROUNDS times DURATION_S each, and answers each one's latencies with
 * the CPU each group of processes spent per search meanwhile (milliseconds): where a search's time goes on the cores
 * everything shares.
 */
async function measuredInTurn<Path extends string>(
  groups: Record<string, () => number[]>,
  paths: Record<Path, (i: number) => Promise<void>>,
): Promise<Record<Path, { latencies: number[]; cpuMsPerSearch: Record<string, number> }>> {
  const entries = Object.entries(paths) as [Path, (i: number) => Promise<void>][];
  for (const [, run] of entries) await closedLoop(CONCURRENCY, WARMUP_S, run);
  const pids = Object.fromEntries(Object.entries(groups).map(([name, of]) => [name, of()]));
  const used = (): Record<string, number> => ({
    ...Object.fromEntries(
      Object.entries(pids).map(([name, list]) => [name, list.reduce((sum, pid) => sum + cpuSeconds(pid), 0)]),
    ),
    load: cpuUsageSeconds(),
  });
  const measured = new Map(
    entries.map(([path]) => [path, { latencies: [] as number[], cpu: {} as Record<string, number> }]),
  );
  for (let round = 0; round < ROUNDS; round++)
    for (const [path, run] of entries) {
      const into = measured.get(path) as { latencies: number[]; cpu: Record<string, number> };
      const before = used();
      into.latencies.push(...(await closedLoop(CONCURRENCY, DURATION_S, run)));
      for (const [name, seconds] of Object.entries(used()))
        into.cpu[name] = (into.cpu[name] ?? 0) + seconds - (before[name] ?? 0);
    }
  return Object.fromEntries(
    [...measured].map(([path, { latencies, cpu }]) => [
      path,
      {
        latencies: latencies.sort((x, y) => x - y),
        cpuMsPerSearch: Object.fromEntries(
          Object.entries(cpu).map(([name, seconds]) => [name, round((seconds * 1000) / latencies.length)]),
        ),
      },
    ]),
  ) as Record<Path, { latencies: number[]; cpuMsPerSearch: Record<string, number> }>;
}

const summary = (sorted: number[]) => ({
  p50Ms: round(percentile(sorted, 50)),
  p95Ms: round(percentile(sorted, 95)),
  n: sorted.length,
});
const round = (value: number) => Math.round(value * 10) / 10;

export async function benchDirectoryNational(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { people: { type: 'string', default: '1000000' }, 'seed-only': { type: 'boolean' } },
  });
  const people = Number(values.people);
  if (!Number.isSafeInteger(people) || people < 1000 || people > 2_000_000)
    throw new Error('directory-national: --people must be a whole number from 1000 to 2000000');
  // One kept set per seed version, grown to the largest N asked for: a run at 100,000 is the first tenth of one
  // at 1,000,000, and the JSON records the count measured.
  const set = `national-v${SEED_VERSION}`;
  const dataDir = join(REPO, '.data', `bench-${set}`);
  const databaseUrl = `postgresql://rotunda:rotunda@127.0.0.1:${POSTGRES_PORT}/rotunda`;

  print(`\npeople directory at national scale: ${people} people, ${ORGANIZATIONS} organizations (${set})`);
  // The engine as production runs it (the compose file's heap, both compilers): the test engines' quick compiler
  // alone answered these searches in over 2.5 s once warm.
  process.env.OPENSEARCH_JAVA_OPTS ||= '-Xms512m -Xmx512m';
  const engines = await startEngines({
    instance: set,
    portBase: Number(process.env.ENGINES_PORT_BASE || 18_600),
    say: (line) => print(`  engines: ${line}`),
  });
  const elasticsearchUrl = engines.env.ELASTICSEARCH_URL as string;
  const engineUrl = `http://127.0.0.1:${engines.ports.opensearch}`;
  const productEnv = {
    DATA_DIR: dataDir,
    ELASTICSEARCH_URL: elasticsearchUrl,
    // Every search reaches the index: the gateway's shared pages would hide the engine.
    DIRECTORY_CACHE_SECONDS: '0',
    // A heap ceiling, as a pod has from its memory limit: with none, V8 sizes it from this machine's 23 GB and
    // leaves the searches' garbage uncollected.
    NODE_MAX_OLD_SPACE_MIB: String(HEAP_MIB),
  };
  let product = (await startProduct(productEnv)).child;
  const indices: SearchIndex[] = [];
  try {
    const peopleIndex = createElasticsearchIndex({
      node: elasticsearchUrl,
      index: 'people',
      lockDatabaseUrl: databaseUrl,
      ...PEOPLE_INDEX,
    });
    indices.push(peopleIndex);
    const indexed = async () => (await peopleIndex.search({ offset: 0, limit: 0 })).total;
    const seeding = performance.now();
    // The kept set already indexed whole: nothing to seed (the seed would still copy every organization's name).
    const seeded = await indexed()
      .catch(indexed)
      .catch(() => 0);
    if (seeded < people) print('  seeding (kept between runs; only what is missing is added)');
    else print(`  the kept set holds ${seeded} people: nothing to seed`);
    const seed = () =>
      runScript(
        'load/src/seed-scale.ts',
        ['--organizations', String(ORGANIZATIONS), '--profiles', String(people)],
        {
          DATABASE_URL: databaseUrl,
          ELASTICSEARCH_URL: elasticsearchUrl,
          ORG_SERVICE_ADDR: `127.0.0.1:${Number(process.env.GRPC_PORT_BASE ?? 20051) + 2}`,
          LOG_LEVEL: 'info',
        },
      );
    // Once more when it fails: on a busy machine the org service may not list 50,000 names within its deadline,
    // and the seed adds only what is missing.
    if (seeded < people)
      await seed().catch((error: unknown) => {
        print(`  the seed failed (${(error as Error).message}); once more`);
        return seed();
      });
    print(`  seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
    if (values['seed-only']) return;
    if (seeded < people) {
      // A fresh start after seeding: the replicas' heaps hold what serving needs, not the seed's traffic.
      await stopProduct(product);
      product = (await startProduct(productEnv)).child;
    }

    const profiles = await indexed().catch(indexed);
    if (profiles < people) throw new Error(`the people index holds ${profiles} documents, not ${people}`);
    if (profiles > people)
      print(`  the kept set holds ${profiles} people (an earlier run asked for more): measured at that`);
    // Each query's true count (bounded as the directory counts), to compare what searches answer during the rebuild.
    // One at a time and tried again: a just-started engine may not answer within the adapter's 2.5 s.
    const trueTotals: number[] = [];
    for (const query of NATIONAL_QUERIES)
      trueTotals.push(
        (await peopleIndex.search(indexQueryOf(query)).catch(() => peopleIndex.search(indexQueryOf(query))))
          .total,
      );

    const base = `http://127.0.0.1:${PORT}`;
    // Signed in again before each phase: a member's token outlives no run of several minutes.
    const auth: Record<string, string> = {};
    const signInAgain = async () => {
      auth['x-auth-token'] = ((await (await signIn(base)).json()) as { token: string }).token;
    };
    await signInAgain();
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const seen = { failed: 0, belowTrue: 0, smallestTotal: Number.POSITIVE_INFINITY };
    const gatewaySearch = async (i: number) => {
      const at = i % NATIONAL_QUERIES.length;
      const query = NATIONAL_QUERIES[at] as DirectorySearch;
      const params = new URLSearchParams({ limit: String(PAGE), ...query });
      try {
        const answer = await send(agent, new URL(`${base}/api/profiles/search?${params}`), 'GET', auth);
        if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
        const { total } = JSON.parse(answer.text) as { total: number };
        seen.smallestTotal = Math.min(seen.smallestTotal, total);
        if (total < (trueTotals[at] ?? 0)) seen.belowTrue++;
      } catch {
        seen.failed++;
      }
    };
    print(
      `  directory searches, ${CONCURRENCY} concurrent, through the gateway and straight on the engine: ${WARMUP_S} s warm-up each, then ${ROUNDS} turns of ${DURATION_S} s each`,
    );
    // Where a search's time goes: the CPU each part spends per search, on the two cores they all share.
    const cpuGroups = {
      gateway: () => servicePids(dataDir, 'gateway'),
      profile: () => servicePids(dataDir, 'profile'),
      engine: () => pidsWhoseCommandHas(engines.folder),
    };
    let directFailed = 0;
    const directSearch = async (i: number) => {
      await peopleIndex
        .search(indexQueryOf(NATIONAL_QUERIES[i % NATIONAL_QUERIES.length] as DirectorySearch))
        .catch(() => directFailed++);
    };
    const inTurn = await measuredInTurn(cpuGroups, { gateway: gatewaySearch, direct: directSearch });
    const { latencies: viaGateway, cpuMsPerSearch: gatewayCpu } = inTurn.gateway;
    const { latencies: direct, cpuMsPerSearch: directCpu } = inTurn.direct;
    const failedBefore = seen.failed;
    // The same mix one search at a time: what the hop itself adds when no search waits for a core.
    const alone = {
      gateway: await closedLoop(1, DURATION_S, gatewaySearch),
      engine: await closedLoop(1, DURATION_S, directSearch),
    };
    const replicaRssAfterSearches = serviceRss(dataDir, 'profile');
    const gatewayRss = serviceRss(dataDir, 'gateway');

    // The rebuild, with the search load running all along.
    print('  full rebuild into a new generation under the search load');
    await signInAgain();
    Object.assign(seen, { failed: 0, belowTrue: 0, smallestTotal: Number.POSITIVE_INFINITY });
    let loading = true;
    const underLoad = Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        for (let i = worker; loading; i += CONCURRENCY) await gatewaySearch(i);
      }),
    );
    const rebuilding = performance.now();
    await runScript('services/profile/src/reindex.ts', [], {
      DATABASE_URL: databaseUrl,
      ELASTICSEARCH_URL: elasticsearchUrl,
      LOG_LEVEL: 'warn',
    });
    const rebuildSeconds = (performance.now() - rebuilding) / 1000;
    const rebuildSeen = { ...seen };
    const replicaRssAfterRebuild = serviceRss(dataDir, 'profile');
    // The engine's own rate for the same documents, under the same search load.
    print('  the engine’s raw _bulk rate for the same documents, under the same load');
    const raw = await rawBulkRate(engineUrl, 'people', BULK);
    loading = false;
    await underLoad;
    agent.destroy();

    // The organization list the same way.
    const orgIndex = searchIndexFor(
      loadConfig(orgConfigSchema, {
        ...process.env,
        DATABASE_URL: databaseUrl,
        ELASTICSEARCH_URL: elasticsearchUrl,
      }),
    );
    indices.push(orgIndex);
    const organizations = (await orgIndex.search({ offset: 0, limit: 0 })).total;
    await signInAgain();
    let orgsFailed = 0;
    const orgAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    print(`  organization list, ${organizations} organizations`);
    const orgsViaGateway = await measuredLoop(
      CONCURRENCY,
      async (i) => {
        const q = ORG_QUERIES[i % ORG_QUERIES.length] as (typeof ORG_QUERIES)[number];
        const params = new URLSearchParams({ ...q, offset: '0', limit: String(PAGE) });
        const answer = await send(orgAgent, new URL(`${base}/api/orgs/?${params}`), 'GET', auth).catch(
          () => ({ status: 0 }),
        );
        if (answer.status !== 200) orgsFailed++;
      },
      WARMUP_S,
    );
    orgAgent.destroy();
    const orgsDirect = await closedLoop(CONCURRENCY, DURATION_S, async (i) => {
      const q = ORG_QUERIES[i % ORG_QUERIES.length] as (typeof ORG_QUERIES)[number];
      await orgIndex
        .search({
          text: q.search,
          filters: q.group ? { group: q.group } : {},
          exclude: { hidden: ['true'] },
          sort: [{ field: 'name', direction: 'asc' }],
          offset: 0,
          limit: PAGE,
        })
        .catch(() => orgsFailed++);
    });

    const gateway = summary(viaGateway);
    const engineDirect = summary(direct);
    const result = {
      profiles,
      engine: `OpenSearch ${((await (await fetch(engineUrl)).json()) as { version: { number: string } }).version.number} (single node, behind the Elasticsearch-speaking proxy)`,
      concurrency: CONCURRENCY,
      gateway: { ...gateway, failedSearches: failedBefore, cpuMsPerSearch: gatewayCpu },
      engineDirect: { ...engineDirect, failedSearches: directFailed, cpuMsPerSearch: directCpu },
      overheadRatio: round(gateway.p95Ms / engineDirect.p95Ms),
      oneAtATime: { gateway: summary(alone.gateway), engineDirect: summary(alone.engine) },
      replicaRssMiB: Math.max(...replicaRssAfterSearches, ...replicaRssAfterRebuild),
      heapCeilingMiB: HEAP_MIB,
      gatewayRssMiB: gatewayRss,
      reindex: {
        seconds: round(rebuildSeconds),
        failedSearches: rebuildSeen.failed,
        smallestTotal: rebuildSeen.smallestTotal,
        totalsBelowTrue: rebuildSeen.belowTrue,
        docsPerSecond: Math.round(profiles / rebuildSeconds),
        bulkDocsPerSecond: Math.round(raw.docsPerSecond),
      },
      organizations: {
        count: organizations,
        failedSearches: orgsFailed,
        gateway: summary(orgsViaGateway),
        engineDirect: summary(orgsDirect),
      },
      targets: { overheadRatio: 1.5, failedSearches: 0, rebuildOfBulk: 0.5, replicaRssMiB: 512 },
    };
    save('directory-national', result);
    print(`  through the gateway   p50 ${gateway.p50Ms} ms, p95 ${gateway.p95Ms} ms (${gateway.n} searches)`);
    print(
      `  straight on the engine p50 ${engineDirect.p50Ms} ms, p95 ${engineDirect.p95Ms} ms (${engineDirect.n})`,
    );
    print(`  overhead ratio (p95)  ${result.overheadRatio} (target ≤ 1.5)`);
    print(
      `  one at a time         through the gateway p50 ${result.oneAtATime.gateway.p50Ms} ms, p95 ${result.oneAtATime.gateway.p95Ms} ms; straight p50 ${result.oneAtATime.engineDirect.p50Ms} ms, p95 ${result.oneAtATime.engineDirect.p95Ms} ms`,
    );
    const cpuLine = (cpu: Record<string, number>) =>
      Object.entries(cpu)
        .map(([part, ms]) => `${part} ${ms}`)
        .join(', ');
    print(
      `  CPU ms per search     through the gateway: ${cpuLine(gatewayCpu)}; straight: ${cpuLine(directCpu)}`,
    );
    print(
      `  profile replica RSS   ${result.replicaRssMiB} MiB (target ≤ 512); gateway ${gatewayRss.join(', ')} MiB`,
    );
    print(
      `  rebuild               ${result.reindex.seconds} s, ${result.reindex.docsPerSecond} docs/s next to raw _bulk ${result.reindex.bulkDocsPerSecond} docs/s (target ≥ 50 %); ${rebuildSeen.failed} failed searches, ${rebuildSeen.belowTrue} totals below the true count`,
    );
    print(
      `  organizations         gateway p95 ${result.organizations.gateway.p95Ms} ms, engine p95 ${result.organizations.engineDirect.p95Ms} ms`,
    );
  } finally {
    for (const index of indices) await index.close();
    await stopProduct(product);
    await engines.stop();
  }
}
