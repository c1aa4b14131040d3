// What the replicas benchmark reads from the running product: the replicas DATA_DIR/pids.json lists, and the
// counters of each process's /metrics (a service replica's handled gRPC calls, a gateway worker's HTTP requests).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A replica as DATA_DIR/pids.json names it. */
export interface Listed {
  pid: number;
  service: string;
  replica?: number;
  metricsPorts: number[];
}

/**
 * A counter summed over its series from one process's /metrics (`skip`: series left out); undefined when the
 * process does not answer.
 */
async function counterTotal(
  metricsPort: number,
  metric: string,
  { tries = 2, skip = '\u0000' }: { tries?: number; skip?: string } = {},
): Promise<number | undefined> {
  let text: string | undefined;
  // A replica busy on two shared cores may take a while to answer; a second try before calling it silent.
  for (let attempt = 0; attempt < tries && text === undefined; attempt++)
    text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(4000) })
      .then((res) => (res.ok ? res.text() : undefined))
      .catch(() => undefined);
  if (text === undefined) return undefined;
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`) || line.includes(skip)) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
  }
  return total;
}

/** rotunda_grpc_server_handled_total summed over the service's own methods (not the health checks). */
export const handledCalls = (metricsPort: number, tries = 2) =>
  counterTotal(metricsPort, 'rotunda_grpc_server_handled_total', { tries, skip: 'grpc.health.' });

/** Each gateway worker's HTTP requests (rotunda_http_requests_total), by its /metrics port. */
export const gatewayRequests = (ports: number[]) =>
  Promise.all(ports.map((port) => counterTotal(port, 'rotunda_http_requests_total')));

export function readPids(dataDir: string): Record<string, Listed> {
  return JSON.parse(readFileSync(join(dataDir, 'pids.json'), 'utf8')) as Record<string, Listed>;
}

/** Every service replica's handled calls now (undefined: its /metrics did not answer). */
export async function sample(replicas: [string, Listed][]): Promise<Map<string, number | undefined>> {
  const counts = await Promise.all(
    replicas.map(async ([name, listed]) => [name, await handledCalls(listed.metricsPorts[0] ?? 0)] as const),
  );
  return new Map(counts);
}
