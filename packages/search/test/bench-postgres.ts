// A local measurement, not a test: the Postgres adapter on 100,000 synthetic directory rows, printing latency
// percentiles per query shape. Run: node packages/search/test/bench-postgres.ts [rows] (embedded PostgreSQL).
import startTestPostgres, { createTestDatabase } from '@rotunda/service-kit/testing/global-setup';
import pg from 'pg';
import { createPostgresSearchIndex, type SearchDocument, type SearchQuery } from '../src/index.ts';

const ROWS = Number(process.argv[2] ?? 100_000);
const RUNS = 200;

// A deterministic generator, so two runs measure the same data.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const FIRST = [
  'Ana',
  'Maria',
  'José',
  'David',
  'Sarah',
  'Michael',
  'Linh',
  'Priya',
  'Kevin',
  'Emily',
  'Carlos',
  'Grace',
];
const LAST = [
  'Garcia',
  'Nguyen',
  'Smith',
  'Johnson',
  'Martinez',
  'Lee',
  'Brown',
  'Patel',
  'Kim',
  'Lopez',
  'Wilson',
];
const TITLES = [
  'Analyst',
  'Chief of Staff',
  'Legislative Director',
  'Policy Advisor',
  'Deputy Secretary',
  'Counsel',
];
const ORG_WORDS = [
  'California',
  'Water',
  'Health',
  'Energy',
  'Transportation',
  'Education',
  'Labor',
  'Housing',
];
const ORG_KINDS = ['Association', 'Department', 'Agency', 'Committee', 'Union', 'Coalition', 'Board'];
const DIVISIONS = [
  'Sacramento Office',
  'District Office',
  'Communications',
  'Budget',
  'Legal',
  'Field Operations',
];
const GROUPS = [
  'Associations',
  'Agencies',
  "Governor's Office",
  'Legislature',
  'Lobbyists',
  'Unions',
  'Other',
];
const ISSUES = [
  'Health',
  'Labor',
  'Water',
  'Energy',
  'Education',
  'Housing',
  'Transportation',
  'Budget',
  'Tax',
];

function person(n: number): SearchDocument {
  const first = pick(FIRST);
  const last = `${pick(LAST)}${n % 97 === 0 ? '-Quintero' : ''}`;
  const organization = `${pick(ORG_WORDS)} ${pick(ORG_WORDS)} ${pick(ORG_KINDS)} ${n % 500}`;
  return {
    id: `p${String(n).padStart(6, '0')}`,
    text: {
      first_name: first,
      last_name: last,
      title: pick(TITLES),
      organization,
      division: pick(DIVISIONS),
    },
    keywords: { group: [pick(GROUPS)], issue: [pick(ISSUES), pick(ISSUES)] },
    sort: { name: `${last} ${first}`.toLowerCase(), created_at: 1_700_000_000_000 + n * 60_000 },
  };
}

const SHAPES: Record<string, (n: number) => SearchQuery> = {
  'two words + group filter (name asc)': (n) => ({
    text: ['maria analyst', 'garcia water', 'linh director', 'smith health', 'priya counsel'][n % 5],
    filters: { group: GROUPS[n % GROUPS.length] as string },
    sort: [{ field: 'name', direction: 'asc' }],
    offset: 0,
    limit: 30,
  }),
  'two words + group filter (id order)': (n) => ({
    text: ['maria analyst', 'garcia water', 'linh director', 'smith health', 'priya counsel'][n % 5],
    filters: { group: GROUPS[n % GROUPS.length] as string },
    offset: 0,
    limit: 30,
  }),
  'rare word (quintero)': () => ({ text: 'quintero', offset: 0, limit: 30 }),
  'no text, first page by name': () => ({
    sort: [{ field: 'name', direction: 'asc' }],
    offset: 0,
    limit: 30,
  }),
  'no text, issue filter, newest first': (n) => ({
    filters: { issue: ISSUES[n % ISSUES.length] as string },
    sort: [{ field: 'created_at', direction: 'desc' }],
    offset: 0,
    limit: 30,
  }),
  'one short common word (an)': () => ({ text: 'an', offset: 0, limit: 30 }),
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

const stop = await startTestPostgres();
try {
  const databaseUrl = await createTestDatabase();
  const index = createPostgresSearchIndex({
    databaseUrl,
    schema: 'bench_search',
    index: 'people',
    textFields: ['first_name', 'last_name', 'title', 'organization', 'division'],
    keywordFields: ['group', 'issue'],
    sortFields: [
      { name: 'name', type: 'text' },
      { name: 'created_at', type: 'number' },
    ],
  });
  await index.ensure();
  const started = performance.now();
  for (let start = 0; start < ROWS; start += 5000) {
    await index.upsert(Array.from({ length: Math.min(5000, ROWS - start) }, (_, k) => person(start + k)));
  }
  console.log(`indexed ${ROWS} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query('VACUUM ANALYZE bench_search.people');

  for (const [shape, make] of Object.entries(SHAPES)) {
    for (let n = 0; n < 20; n++) await index.search(make(n)); // warm caches and plans
    const times: number[] = [];
    let total = 0;
    for (let n = 0; n < RUNS; n++) {
      const t0 = performance.now();
      const result = await index.search(make(n));
      times.push(performance.now() - t0);
      total += result.total;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${shape.padEnd(40)} p50 ${percentile(times, 0.5)?.toFixed(2)} ms  p95 ${percentile(times, 0.95)?.toFixed(2)} ms  ` +
        `mean total ${Math.round(total / RUNS)}`,
    );
  }
  const plan = await admin.query(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM bench_search.people
      WHERE search_text LIKE '%maria%' AND search_text LIKE '%analyst%' AND k_group && ARRAY['Agencies']`,
  );
  console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
  await admin.end();
  await index.close();
} finally {
  await stop();
}
