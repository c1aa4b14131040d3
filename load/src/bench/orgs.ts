// `npm run bench -- orgs`: organization list search on 10,000 generated organizations through the gateway, next
// to the same query straight on the search index.
import { spawnSync } from 'node:child_process';
import { Agent } from 'node:http';
import { orgConfigSchema } from '@rotunda/org-service/config';
import { searchIndexFor } from '@rotunda/org-service/wiring';
import { loadConfig } from '@rotunda/service-kit';
import { getOk, percentile } from '../measure.ts';
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
  WARMUP_S,
} from './harness.ts';

export async function benchOrgs(): Promise<void> {
  const { child } = await startProduct();
  const databaseUrl = `postgresql://rotunda:rotunda@127.0.0.1:${POSTGRES_PORT}/rotunda`;
  // The Postgres index itself, for the "straight on the index" figure (the service searches its in-memory copy).
  const index = searchIndexFor(
    loadConfig(orgConfigSchema, { ...process.env, DATABASE_URL: databaseUrl, SEARCH_IN_MEMORY: 'false' }),
  );
  const present = (await index.search({ offset: 0, limit: 1 })).total;
  // The generated set stays in the bench's data between runs; only the first run makes it.
  if (present < 10_000) {
    const seeded = spawnSync(
      process.execPath,
      ['services/org/src/seed/scale.ts', '--count', String(10_000 - present)],
      {
        cwd: REPO,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      },
    );
    if (seeded.status !== 0) throw new Error(`seed:orgs failed:\n${seeded.stderr}`);
  }
  const total = (await index.search({ offset: 0, limit: 1 })).total;
  const base = `http://127.0.0.1:${PORT}`;
  const login = await signIn(base);
  const { token } = (await login.json()) as { token: string };
  // What members type: one or two words, sometimes with a group.
  const queries = [
    { search: 'sierra', group: '' },
    { search: 'capitol association', group: '' },
    { search: 'delta', group: 'Unions' },
    { search: 'golden state', group: 'Associations' },
    { search: 'water', group: 'Agencies' },
    { search: '', group: 'Lobbyists' },
    { search: 'pacific council', group: '' },
    { search: 'valley', group: 'Other' },
  ];
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  const viaGateway = await measuredLoop(10, async (i) => {
    const q = queries[i % queries.length] as (typeof queries)[number];
    const params = new URLSearchParams({ search: q.search, group: q.group, offset: '0', limit: '30' });
    await getOk(agent, `${base}/api/orgs/?${params}`, { 'x-auth-token': token });
  });
  agent.destroy();
  const direct = await measuredLoop(10, async (i) => {
    const q = queries[i % queries.length] as (typeof queries)[number];
    await index.search({
      text: q.search,
      filters: q.group ? { group: q.group } : {},
      exclude: { hidden: ['true'] },
      sort: [{ field: 'name', direction: 'asc' }],
      offset: 0,
      limit: 30,
    });
  });
  await index.close();
  await stopProduct(child);
  print(
    `\norganization list search, ${total} organizations, 10 concurrent, ${DURATION_S} s each after ${WARMUP_S} s of warm-up`,
  );
  print(
    `  through the gateway (REST → gRPC → index → rows)  p50 ${percentile(viaGateway, 50).toFixed(1)} ms, p95 ${percentile(viaGateway, 95).toFixed(1)} ms (${viaGateway.length} requests); target p95 ≤ 25 ms`,
  );
  print(
    `  straight on the Postgres search index             p50 ${percentile(direct, 50).toFixed(1)} ms, p95 ${percentile(direct, 95).toFixed(1)} ms (${direct.length} queries)`,
  );
  save('orgs', {
    gatewayMs: { p50: percentile(viaGateway, 50), p95: percentile(viaGateway, 95), n: viaGateway.length },
    indexMs: { p50: percentile(direct, 50), p95: percentile(direct, 95), n: direct.length },
    targetP95Ms: 25,
  });
}
