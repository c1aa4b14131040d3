// What every benchmark section shares: the settings (BENCH_* variables), the product started and stopped as
// `npm start` does on the bench's own data, autocannon runs, the bare Express "hello" (the gateway's ceiling),
// closed loops after a warm-up, and bench-results/<name>.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { DEMO_MEMBER } from '../../k6/journeys.js';
import { closedLoop, healthy } from '../measure.ts';

export const REPO = new URL('../../..', import.meta.url).pathname;
export const PORT = Number(process.env.BENCH_PORT ?? 8080);
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * Closed loops run this long unmeasured first: a just-started product spends its first seconds compiling hot code,
 * opening pooled connections and preparing statements on each, which is not the steady state a latency target is
 * about (the figures: ADR 0033).
 */
export const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// Its own data, so a benchmark's generated rows never land in the developer's demo database.
export const DATA_DIR = process.env.DATA_DIR ?? join(REPO, '.data', 'bench');
export const POSTGRES_PORT = Number(process.env.POSTGRES_PORT ?? 54329);

export const print = (text = '') => process.stdout.write(`${text}\n`);

/**
 * Starts the product as `npm start` does, with `env` on top of the bench's; answers the process and the seconds
 * until /healthz said 200.
 */
export async function startProduct(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['packages/apphost/src/main.ts'], {
    cwd: REPO,
    env: { ...process.env, PORT: String(PORT), LOG_LEVEL: 'warn', DATA_DIR: DATA_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  while (!(await healthy(`http://127.0.0.1:${PORT}/healthz`))) {
    if (child.exitCode !== null || performance.now() - started > 180_000) {
      await exited;
      throw new Error(`the product did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, seconds: (performance.now() - started) / 1000 };
}

export async function stopProduct(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

export async function load(
  url: string,
  headers: Record<string, string> = {},
  {
    connections = CONNECTIONS,
    method = 'GET',
    body,
  }: { connections?: number; method?: 'GET' | 'POST'; body?: string } = {},
) {
  const result = await autocannon({
    url,
    headers,
    connections,
    duration: DURATION_S,
    pipelining: 1,
    method,
    ...(body === undefined ? {} : { body }),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** Signs the load journeys' demo member in through the gateway on `base`. */
export const signIn = (base: string) =>
  fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_MEMBER),
  });

/** Prints one autocannon result as a table row, its name padded to `width`. */
export const resultRow = (width: number) => (name: string, r: Awaited<ReturnType<typeof load>>) =>
  print(
    `  ${name.padEnd(width)} ${r.requestsPerSecond.toFixed(0).padStart(7)} ${String(r.p50Ms).padStart(9)} ${String(r.p99Ms).padStart(8)}`,
  );

export async function startHello(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [join(REPO, 'load/src/hello-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await createInterface({ input: child.stdout as NodeJS.ReadableStream })
    [Symbol.asyncIterator]()
    .next()
    .then((next) => [next.value as string]);
  return { child, port: Number(line) };
}

export function save(name: string, data: unknown) {
  mkdirSync(join(REPO, 'bench-results'), { recursive: true });
  writeFileSync(join(REPO, 'bench-results', `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
}

/** closedLoop for DURATION_S after `warmUpS` (WARMUP_S) of the same loops left unmeasured. */
export async function measuredLoop(
  concurrency: number,
  run: (i: number) => Promise<void>,
  warmUpS = WARMUP_S,
): Promise<number[]> {
  await closedLoop(concurrency, warmUpS, run);
  return closedLoop(concurrency, DURATION_S, run);
}

/** GETs `url` once and reads it whole; answers the milliseconds to the last byte, the bytes and the body. */
export async function timedGet(url: string, headers: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return { ms: performance.now() - started, bytes: body.length, body };
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
