// `npm run bench -- directory`: people directory search on 100,000 generated profiles through the gateway (every
// search reaching the profile service's in-memory copy of the index, next to the same straight on the Postgres
// index), with the first 30 cards from one page next to the whole directory (as built) in time and bytes.
import { spawnSync } from 'node:child_process';
import { Agent } from 'node:http';
import { DIRECTORY_QUERIES } from '../../k6/journeys.js';
import { getOk, percentile } from '../measure.ts';
import {
  DURATION_S,
  measuredLoop,
  median,
  PORT,
  POSTGRES_PORT,
  print,
  REPO,
  save,
  signIn,
  startProduct,
  stopProduct,
  timedGet,
  WARMUP_S,
} from './harness.ts';

export async function benchDirectory(): Promise<void> {
  const PROFILES = 100_000;
  const concurrency = Number(process.env.BENCH_DIRECTORY_CONCURRENCY ?? 20);
  // Three busy processes on two cores take longer than 10 s to settle after a start (compiled hot paths, heaps
  // sized to the load; the figures: ADR 0033).
  const warmUpS = Math.max(WARMUP_S, 30);
  const { child } = await startProduct();
  const grpcBase = Number(process.env.GRPC_PORT_BASE ?? 20051);
  // The generated set stays in the bench's data between runs; seed:scale adds only what is missing.
  const seeded = spawnSync(
    process.execPath,
    ['load/src/seed-scale.ts', '--organizations', '10000', '--profiles', String(PROFILES)],
    {
      cwd: REPO,
      env: {
        ...process.env,
        DATABASE_URL: `postgresql://rotunda:rotunda@127.0.0.1:${POSTGRES_PORT}/rotunda`,
        ORG_SERVICE_ADDR: `127.0.0.1:${grpcBase + 2}`,
        LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
    },
  );
  if (seeded.status !== 0) throw new Error(`seed:scale failed:\n${seeded.stderr}`);
  const base = `http://127.0.0.1:${PORT}`;
  const login = await signIn(base);
  const { token } = (await login.json()) as { token: string };
  const auth = { 'x-auth-token': token };
  // What members do on the directory screen: open it, type a name or a title, pick a group or an issue.
  const queries: Record<string, string>[] = DIRECTORY_QUERIES;
  const searchLoop = async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const latencies = await measuredLoop(
      concurrency,
      async (i) => {
        const params = new URLSearchParams({ limit: '30', ...queries[i % queries.length] });
        await getOk(agent, `${base}/api/profiles/search?${params}`, auth);
      },
      warmUpS,
    );
    agent.destroy();
    return latencies.sort((a, b) => a - b);
  };
  const searches = await searchLoop();

  await stopProduct(child);
  // The same load with the gateway's page cache off: every search reaches the index and the database.
  process.env.DIRECTORY_CACHE_SECONDS = '0';
  const uncachedProduct = await startProduct();
  const uncached = await searchLoop();
  // The first 30 cards as Rotunda's screen asks for them: one page, from the index (no shared page to reuse).
  const paged = [];
  for (let run = 0; run < 5; run++) {
    const got = await timedGet(`${base}/api/profiles/search?offset=0&limit=30`, auth);
    if ((JSON.parse(got.body.toString()) as { profiles: unknown[] }).profiles.length !== 30)
      throw new Error('the paged search did not answer 30 cards');
    paged.push(got);
  }
  await stopProduct(uncachedProduct.child);
  // The baseline: the same uncached load with the profile service searching the Postgres index itself.
  process.env.SEARCH_IN_MEMORY = 'false';
  const onPostgresProduct = await startProduct();
  const onPostgres = await searchLoop();
  // The first 30 cards of the screen as it opens, as built: the whole directory, then the first 30. Last, so the
  // load generator's heap, grown by parsing a whole state's directory three times, slows no measured search.
  const whole = [];
  let listed = 0;
  for (let run = 0; run < 3; run++) {
    const got = await timedGet(`${base}/api/profiles/directory`, auth);
    const started = performance.now();
    // As built: the browser parses every profile, then filters and shows the first 30.
    const everyone = JSON.parse(got.body.toString()) as unknown[];
    listed = everyone.slice(0, 30).length === 30 ? everyone.length : 0;
    whole.push({ ms: got.ms + (performance.now() - started), bytes: got.bytes });
  }
  await stopProduct(onPostgresProduct.child);
  if (listed < PROFILES) throw new Error(`the whole directory listed ${listed} profiles`);
  delete process.env.SEARCH_IN_MEMORY;
  delete process.env.DIRECTORY_CACHE_SECONDS;

  const sorted = searches;
  const pagedMs = median(paged.map((r) => r.ms));
  const wholeMs = median(whole.map((r) => r.ms));
  const pagedBytes = median(paged.map((r) => r.bytes));
  const wholeBytes = median(whole.map((r) => r.bytes));
  print(`\npeople directory on ${listed} generated profiles (${seeded.stdout.trim().split('\n').at(-1)})`);
  print(
    `  search through the gateway, ${concurrency} concurrent, ${DURATION_S} s after ${warmUpS} s of warm-up, ${queries.length} members' queries:`,
  );
  print(
    `    pages shared for DIRECTORY_CACHE_SECONDS (default)  p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (${sorted.length} requests)`,
  );
  print(
    `    every search to the in-memory copy (cache off)    p50 ${percentile(uncached, 50).toFixed(1)} ms, p95 ${percentile(uncached, 95).toFixed(1)} ms (${uncached.length} requests); target p95 ≤ 25 ms`,
  );
  print(
    `    the same, straight on the Postgres index          p50 ${percentile(onPostgres, 50).toFixed(1)} ms, p95 ${percentile(onPostgres, 95).toFixed(1)} ms (${onPostgres.length} requests; SEARCH_IN_MEMORY=false)`,
  );
  print('  first 30 cards                                       time ms      bytes');
  print(
    `  paged search, cache off (GET /api/profiles/search) ${pagedMs.toFixed(1).padStart(8)} ${String(pagedBytes).padStart(10)}`,
  );
  print(
    `  whole directory, then the first 30 (as built)       ${wholeMs.toFixed(1).padStart(8)} ${String(wholeBytes).padStart(10)}`,
  );
  print(
    `  paged is ${(wholeMs / pagedMs).toFixed(0)}× faster (target ≥ 100×) and sends ${(wholeBytes / pagedBytes).toFixed(0)}× fewer bytes (target ≥ 1,000×)`,
  );
  save('directory', {
    profiles: listed,
    concurrency,
    searchMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length },
    uncachedSearchMs: { p50: percentile(uncached, 50), p95: percentile(uncached, 95), n: uncached.length },
    postgresIndexSearchMs: {
      p50: percentile(onPostgres, 50),
      p95: percentile(onPostgres, 95),
      n: onPostgres.length,
    },
    firstCards: { paged: { ms: pagedMs, bytes: pagedBytes }, whole: { ms: wholeMs, bytes: wholeBytes } },
    targets: { p95Ms: 25, faster: 100, fewerBytes: 1000 },
  });
}
