// `npm run bench -- gateway|auth`: GET /api/news through the gateway next to a bare Express "hello" (the
// gateway's ceiling); login latency with the CPU one password check costs, and the gateway's throughput with a
// member's token next to the same call without one.
import { hashPassword, verifyPassword } from '@rotunda/auth-service/password-hashing';
import { DEMO_MEMBER } from '../../k6/journeys.js';
import {
  CONNECTIONS,
  DURATION_S,
  load,
  PORT,
  print,
  resultRow,
  save,
  signIn,
  startHello,
  startProduct,
  stopProduct,
} from './harness.ts';

export async function benchGateway(): Promise<void> {
  const hello = await startHello();
  const bare = await load(`http://127.0.0.1:${hello.port}/`);
  hello.child.kill('SIGTERM');
  const { child } = await startProduct();
  const newsUrl = `http://127.0.0.1:${PORT}/api/news`;
  await load(newsUrl);
  const news = await load(newsUrl);
  await stopProduct(child);
  const ratio = news.requestsPerSecond / bare.requestsPerSecond;
  print(
    `\n${CONNECTIONS} connections, ${DURATION_S} s each (autocannon, same machine; services log at warn)`,
  );
  print('  endpoint                        req/s      p50 ms   p99 ms');
  const row = resultRow(30);
  row('bare Express "hello"', bare);
  row('GET /api/news via gateway', news);
  print(`  news at ${(ratio * 100).toFixed(0)} % of the bare ceiling; target ≥ 40 %`);
  save('gateway', { bare, news, ratio, target: 0.4, connections: CONNECTIONS, durationSeconds: DURATION_S });
}

export async function benchAuth(): Promise<void> {
  const hash = await hashPassword(DEMO_MEMBER.password);
  const checks = 20;
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < checks; i++) await verifyPassword(hash, DEMO_MEMBER.password);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerCheck = (cpu.user + cpu.system) / 1000 / checks;

  const { child } = await startProduct();
  const base = `http://127.0.0.1:${PORT}`;
  const latencies: number[] = [];
  let token = '';
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    const res = await signIn(base);
    latencies.push(performance.now() - started);
    if (!res.ok) throw new Error(`login answered ${res.status}: ${await res.text()}`);
    token = ((await res.json()) as { token: string }).token;
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  const newsUrl = `${base}/api/news`;
  await load(newsUrl);
  const anonymous = await load(newsUrl);
  const verified = await load(newsUrl, { 'x-auth-token': token });
  await stopProduct(child);
  print('\nlogin (POST /auth/login, 30 in a row, argon2id 19 MiB × 2 passes)');
  print(
    `  p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms; one password check costs ${cpuMsPerCheck.toFixed(0)} ms of CPU; target ≤ 150 ms`,
  );
  print(
    `\ntoken verification at the gateway (GET /api/news, ${CONNECTIONS} connections, ${DURATION_S} s each)`,
  );
  print(
    `  without a token  ${anonymous.requestsPerSecond.toFixed(0).padStart(7)} req/s, p99 ${anonymous.p99Ms} ms`,
  );
  print(
    `  with a token     ${verified.requestsPerSecond.toFixed(0).padStart(7)} req/s, p99 ${verified.p99Ms} ms (RS256 verified once, then remembered until it expires)`,
  );
  save('auth', {
    loginMs: { p50: pct(50), p95: pct(95) },
    cpuMsPerPasswordCheck: cpuMsPerCheck,
    anonymous,
    verified,
  });
}
