// Measuring helpers shared by the benchmarks (bench.ts) and the load journeys (load.ts): a health probe, closed
// loops of concurrent callers, percentiles, and HTTP calls on kept-alive node:http connections.
import { Agent, get, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export async function healthy(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(1000) })
    .then((res) => res.ok)
    .catch(() => false);
}

/** Runs `run` from `concurrency` loops for `seconds`; answers the latencies in ms. */
export async function closedLoop(
  concurrency: number,
  seconds: number,
  run: (i: number) => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await run(n++);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

/**
 * GETs `url` on a kept-alive connection of `agent` and reads the whole answer; rejects unless it is 200. node:http
 * rather than fetch: the load generator shares the machine's cores with the product under test, and fetch
 * (undici) spends more CPU per request (the figures: ADR 0033), CPU the product's latency would otherwise pay for.
 */
export function getOk(agent: Agent, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET ${url} answered ${res.statusCode}`));
        return;
      }
      res.on('data', () => {});
      res.on('end', resolve);
      res.on('error', reject);
    }).on('error', reject);
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Kept-alive connections for http: or https: URLs, at most `maxSockets` open at once. */
export function keepAliveAgent(url: URL, maxSockets: number): Agent {
  const options = { keepAlive: true, maxSockets };
  return url.protocol === 'https:' ? new HttpsAgent(options) : new Agent(options);
}

/** A request unanswered this long is given up: a member would have left, and a bench must not wait forever. */
export const ANSWER_TIMEOUT_MS = 30_000;

/**
 * Sends a request with an optional JSON body on `agent` (node:http, as getOk) and reads the whole answer as text;
 * answers its status, or rejects when no answer came (within ANSWER_TIMEOUT_MS of silence).
 */
export function send(
  agent: Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // Sized, since node:http would send a DELETE's body without a length (not chunked by default) and it be lost.
    const sized =
      body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { agent, method, headers: sized }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(ANSWER_TIMEOUT_MS, () =>
      req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)),
    );
    req.end(body);
  });
}
