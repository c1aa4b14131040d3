// `npm run bench -- posts`: the public square's first page on 200,000 generated posts for visitors through the
// gateway next to the bare Express "hello", with members on the same change-driven page cache, and members' pages
// not kept alongside.
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import {
  DURATION_S,
  load,
  PORT,
  POSTGRES_PORT,
  print,
  REPO,
  resultRow,
  save,
  signIn,
  startHello,
  startProduct,
  stopProduct,
} from './harness.ts';

export async function benchPosts(): Promise<void> {
  const POSTS = 200_000;
  const connections = Number(process.env.BENCH_POSTS_CONNECTIONS ?? 50);
  const hello = await startHello();
  await load(`http://127.0.0.1:${hello.port}/`, {}, { connections });
  const bare = await load(`http://127.0.0.1:${hello.port}/`, {}, { connections });
  hello.child.kill('SIGTERM');
  const { child } = await startProduct();
  const grpcBase = Number(process.env.GRPC_PORT_BASE ?? 20051);
  // The generated set stays in the bench's data between runs; --total adds only what is missing.
  const seeded = spawnSync(process.execPath, ['services/post/src/seed/scale.ts', '--total', String(POSTS)], {
    cwd: REPO,
    env: {
      ...process.env,
      DATABASE_URL: `postgresql://rotunda:rotunda@127.0.0.1:${POSTGRES_PORT}/rotunda`,
      PROFILE_SERVICE_ADDR: `127.0.0.1:${grpcBase + 1}`,
      ORG_SERVICE_ADDR: `127.0.0.1:${grpcBase + 2}`,
      LOG_LEVEL: 'warn',
    },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seed:posts failed:\n${seeded.stderr}`);
  const seedLine = seeded.stdout.trim().split('\n').at(-1) ?? '';
  const base = `http://127.0.0.1:${PORT}`;
  const feedUrl = `${base}/api/posts/all`;
  const json = { 'content-type': 'application/json' };
  const firstPage = {
    method: 'POST' as const,
    body: JSON.stringify({ offset: 0, limit: 20, sort: 'recent' }),
  };
  const check = await fetch(feedUrl, { method: 'POST', headers: json, body: firstPage.body });
  const page = (await check.json()) as unknown[];
  if (!check.ok || page.length !== 20)
    throw new Error(`the feed answered ${check.status} with ${page.length} posts`);
  await load(feedUrl, json, { connections, ...firstPage });
  const visitors = await load(feedUrl, json, { connections, ...firstPage });
  // Members get the same kept page as visitors until the feed version moves (or they write): ADR on the feed cache.
  const login = await signIn(base);
  const token = login.ok ? ((await login.json()) as { token: string }).token : undefined;
  const memberHeaders = { ...json, 'x-auth-token': token ?? '' };
  // Warmed like the visitors' run: a visitor's kept page no longer runs the pipeline a member's read goes through.
  if (token) await load(feedUrl, memberHeaders, { connections, ...firstPage });
  const members = token ? await load(feedUrl, memberHeaders, { connections, ...firstPage }) : undefined;
  // The miss path: recent pages at 2,000 offsets in turn, twice what a gateway keeps (1,000 pages, the oldest going
  // first), so every request reaches the post service (what every member's read cost before the page cache).
  let missedPage = 0;
  const missed = token
    ? await autocannon({
        url: feedUrl,
        connections,
        duration: DURATION_S,
        requests: [
          {
            method: 'POST',
            headers: memberHeaders,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ offset: missedPage++ % 2000, limit: 20, sort: 'recent' }),
            }),
          },
        ],
      }).then((result) => {
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(
            `members' missed pages: ${result.non2xx} non-2xx answers and ${result.errors} errors`,
          );
        return {
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
        };
      })
    : undefined;
  await stopProduct(child);
  const ratio = visitors.requestsPerSecond / bare.requestsPerSecond;
  const membersRatio = members ? members.requestsPerSecond / bare.requestsPerSecond : null;
  print(`\npublic square first page (POST /api/posts/all, recent, 20 posts) on ${POSTS} posts`);
  print(`  ${seedLine}`);
  print(
    `  ${connections} connections, ${DURATION_S} s each (autocannon, same machine; services log at warn)`,
  );
  print('  endpoint                                       req/s      p50 ms   p99 ms');
  const row = resultRow(44);
  row('bare Express "hello"', bare);
  row('visitors via gateway (change-driven cache)', visitors);
  if (members) row('members via gateway (change-driven cache)', members);
  else print(`  members: not measured (login answered ${login.status})`);
  if (missed) row('members, pages not kept (offsets 0–1,999)', missed);
  print(
    `  visitors at ${(ratio * 100).toFixed(0)} % of the bare ceiling (target ≥ 40 %), p99 ${visitors.p99Ms} ms (target ≤ 50 ms)`,
  );
  if (members && membersRatio !== null)
    print(
      `  members at ${(membersRatio * 100).toFixed(0)} % of the bare ceiling (target ≥ 20 %), p99 ${members.p99Ms} ms (target ≤ 50 ms)`,
    );
  save('posts', {
    posts: POSTS,
    bare,
    visitors,
    members: members ?? null,
    membersMissed: missed ?? null,
    ratio,
    membersRatio,
    targets: { ratio: 0.4, p99Ms: 50, membersRatio: 0.2, membersP99Ms: 50 },
    connections,
    durationSeconds: DURATION_S,
  });
}
