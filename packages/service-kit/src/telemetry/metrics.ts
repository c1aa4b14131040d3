// Prometheus metrics of every process (gateway and services): one registry with the names the operators' dashboards
// read (HTTP requests and gRPC calls by route, method and code, their latency, the connection pools' use, Node's
// own metrics), served as text at /metrics on METRICS_PORT by a small HTTP listener apart from the product's ports.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

/** Seconds, from a fast indexed read to a slow page near the gateway's deadline. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const grpcServerHandled = new Counter({
  name: 'rotunda_grpc_server_handled_total',
  help: 'gRPC calls this service answered, by method and status code.',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  registers: [metricsRegistry],
});

export const grpcServerHandling = new Histogram({
  name: 'rotunda_grpc_server_handling_seconds',
  help: 'Time from a gRPC call arriving to its status being sent, by method.',
  labelNames: ['grpc_service', 'grpc_method'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const grpcClientHandled = new Counter({
  name: 'rotunda_grpc_client_handled_total',
  help: 'gRPC calls this process made to other services, by method and the status code they ended with.',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'] as const,
  registers: [metricsRegistry],
});

export const grpcClientHandling = new Histogram({
  name: 'rotunda_grpc_client_handling_seconds',
  help: 'Time from starting a gRPC call to its status arriving, by method (the network hop included).',
  labelNames: ['grpc_service', 'grpc_method'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const httpRequests = new Counter({
  name: 'rotunda_http_requests_total',
  help: 'HTTP requests the gateway answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'rotunda_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being written, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const eventsHandled = new Counter({
  name: 'rotunda_events_handled_total',
  help: 'Recorded events a consumer handled (ADR 0042), by consumer, source and outcome (handled or failed).',
  labelNames: ['consumer', 'source', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const eventsLag = new Gauge({
  name: 'rotunda_events_lag_seconds',
  help: 'Age of the oldest recorded event a consumer read but had not handled at its last look; 0 when caught up.',
  labelNames: ['consumer', 'source'] as const,
  registers: [metricsRegistry],
});

/** The pools observed, by the name they are reported under; a pool that has ended is forgotten. */
const pools = new Map<pg.Pool, string>();

new Gauge({
  name: 'rotunda_db_pool_connections',
  help: 'Connections of each Postgres pool: total open, idle, and queries waiting for one.',
  labelNames: ['pool', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [pool, name] of pools) {
      if (pool.ended) {
        pools.delete(pool);
        continue;
      }
      this.set({ pool: name, state: 'total' }, pool.totalCount);
      this.set({ pool: name, state: 'idle' }, pool.idleCount);
      this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

/** Reports `pool` in rotunda_db_pool_connections under `name` until it ends. */
export function observePool(name: string, pool: pg.Pool): void {
  pools.set(pool, name);
}

export interface MetricsListener {
  port: number;
  close: () => Promise<void>;
}

/** Serves the registry, with Node's own metrics, at http://host:port/metrics. */
export async function serveMetrics(port: number, host: string): Promise<MetricsListener> {
  // Once per process: a second listener (tests) shares the first one's.
  if (!metricsRegistry.getSingleMetric('process_cpu_user_seconds_total'))
    collectDefaultMetrics({ register: metricsRegistry });
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    metricsRegistry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body),
      (error: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
