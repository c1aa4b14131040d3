// Telemetry every service gets from the kit: one trace per request across the gRPC hop (the client's span, the
// server's span as its child, the handler's Postgres statements inside that) with the request id on each span;
// Prometheus counters and histograms per RPC and status (the guard's refusals too), and the pools' connections;
// and, through runService, /metrics on METRICS_PORT, with no listener when it is unset.
import { type ChildProcess, spawn } from 'node:child_process';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { NewsServiceClient, NewsServiceService } from '@rotunda/protos/news';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CALLER_TOKEN_METADATA,
  ConfigError,
  clientTelemetryInterceptor,
  connectReadDriver,
  createLogger,
  invalidArgument,
  loadConfig,
  type MetricsListener,
  NODE_FLAGS,
  type ReadDriver,
  type RunningGrpcServer,
  serveMetrics,
  startGrpcServer,
  startTracing,
  type Tracing,
  tracePgPool,
  tracingConfigSchema,
  unary,
} from '../src/index.ts';
import { createTestDatabase, freePort, listeningPorts, testCallers } from '../src/testing/index.ts';

const silent = createLogger('test', 'silent');
const NEWS = 'rotunda.news.v1.NewsService';

let databaseUrl: string;
let reads: ReadDriver;
let server: RunningGrpcServer;
let client: NewsServiceClient;
let metrics: MetricsListener;
const exporter = new InMemorySpanExporter();
let tracing: Tracing;

beforeAll(async () => {
  tracing = startTracing({
    serviceName: 'test',
    exporters: [],
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  databaseUrl = await createTestDatabase();
  reads = await connectReadDriver(databaseUrl, 2, 'test.read');
  server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: silent,
    callers: testCallers.verifier,
    services: [
      {
        name: NEWS,
        definition: NewsServiceService,
        implementation: {
          listHeadlines: unary(silent, 'ListHeadlines', async (request: { limit: number }) => {
            if (request.limit > 10) throw invalidArgument('At most 10 headlines.');
            await reads.queryRaw({ sql: 'SELECT $1::int AS asked', args: [request.limit], argTypes: [] });
            return { headlines: [] };
          }),
        },
      },
    ],
  });
  client = new NewsServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
    interceptors: [clientTelemetryInterceptor()],
  });
  metrics = await serveMetrics(0, '127.0.0.1');
});

afterAll(async () => {
  client.close();
  await server.shutdown();
  await reads.dispose();
  await metrics.close();
  await tracing.shutdown();
});

beforeEach(() => exporter.reset());

/** Calls ListHeadlines with `limit` and the request id, inside a span standing for the gateway's request. */
function listHeadlines(limit: number, requestId: string, extra: Record<string, string> = {}) {
  const metadata = new Metadata();
  metadata.set('x-request-id', requestId);
  for (const [key, value] of Object.entries(extra)) metadata.set(key, value);
  return trace
    .getTracer('test')
    .startActiveSpan('request', (span) =>
      new Promise<ServiceError | null>((resolve) =>
        client.listHeadlines({ limit }, metadata, (error) => resolve(error)),
      ).finally(() => span.end()),
    );
}

const spanNamed = (spans: ReadableSpan[], name: string) => {
  const found = spans.find((span) => span.name === name);
  if (!found) throw new Error(`no span ${name} among ${spans.map((span) => span.name).join(', ')}`);
  return found;
};

async function scrape(port = metrics.port): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of one sample in Prometheus text, 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (candidate) => candidate.startsWith(`${name}{`) && wanted.every((pair) => candidate.includes(pair)),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('traces', () => {
  it('puts the client span, the server span and the call’s statements in one trace, with the request id', async () => {
    expect(await listHeadlines(3, 'req-trace-1')).toBeNull();

    const spans = exporter.getFinishedSpans();
    const request = spanNamed(spans, 'request');
    const clientSpan = spans.find(
      (span) => span.kind === SpanKind.CLIENT && span.name.endsWith('ListHeadlines'),
    );
    const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER);
    const statement = spanNamed(spans, 'SELECT test.read');
    expect(clientSpan?.name).toBe(`${NEWS}/ListHeadlines`);
    expect(serverSpan?.name).toBe(`${NEWS}/ListHeadlines`);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(
      new Set([request.spanContext().traceId]),
    );
    expect(clientSpan?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(statement.parentSpanContext?.spanId).toBe(serverSpan?.spanContext().spanId);
    for (const span of [clientSpan, serverSpan, statement])
      expect(span?.attributes['rotunda.request_id']).toBe('req-trace-1');
    expect(serverSpan?.attributes).toMatchObject({
      'rpc.system.name': 'grpc',
      'rpc.method': `${NEWS}/ListHeadlines`,
      'rpc.status_code': 'OK',
    });
    expect(statement.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.query.text': 'SELECT $1::int AS asked',
    });
    expect(statement.attributes['db.query.text']).not.toContain('3');
  });

  it('ends both spans of a refused call as errors with its gRPC code, and runs no statement', async () => {
    expect((await listHeadlines(11, 'req-trace-2'))?.code).toBe(status.INVALID_ARGUMENT);

    const spans = exporter.getFinishedSpans();
    const ends = spans.filter((span) => span.name === `${NEWS}/ListHeadlines`);
    expect(ends.map((span) => span.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
    for (const span of ends) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['rpc.status_code']).toBe('INVALID_ARGUMENT');
    }
    expect(spans.some((span) => span.name.startsWith('SELECT'))).toBe(false);
  });

  it('records a failed statement as an error on its span', async () => {
    await trace.getTracer('test').startActiveSpan('request', async (span) => {
      await reads.queryRaw({ sql: 'SELECT * FROM missing_table', args: [], argTypes: [] }).catch(() => {});
      span.end();
    });
    const statement = spanNamed(exporter.getFinishedSpans(), 'SELECT test.read');
    expect(statement.status.code).toBe(SpanStatusCode.ERROR);
    expect(statement.events.map((event) => event.name)).toContain('exception');
  });

  it('traces a plain pg pool’s queries, pool.query’s and a held client’s, under the span that made them', async () => {
    const pool = tracePgPool(new pg.Pool({ connectionString: databaseUrl, max: 2 }), 'test.pg');
    try {
      const request = await trace.getTracer('test').startActiveSpan('request', async (span) => {
        await pool.query('SELECT 1 AS one');
        const client = await pool.connect();
        try {
          await client.query('SELECT $1::int AS two', [2]);
          await client.query('SELECT * FROM missing_table').catch(() => {});
        } finally {
          client.release();
        }
        span.end();
        return span;
      });
      const statements = exporter.getFinishedSpans().filter((span) => span.name === 'SELECT test.pg');
      expect(statements.map((span) => span.attributes['db.query.text'])).toEqual([
        'SELECT 1 AS one',
        'SELECT $1::int AS two',
        'SELECT * FROM missing_table',
      ]);
      for (const span of statements)
        expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(statements.map((span) => span.status.code)).toEqual([
        SpanStatusCode.UNSET,
        SpanStatusCode.UNSET,
        SpanStatusCode.ERROR,
      ]);
      expect(sample(await scrape(), 'rotunda_db_pool_connections', { pool: 'test.pg', state: 'idle' })).toBe(
        1,
      );
    } finally {
      await pool.end();
    }
  });

  it('records nothing without an exporter, and refuses an exporter it does not know', () => {
    const exportersOf = (env: Record<string, string>) => loadConfig(tracingConfigSchema, env).exporters;
    expect(exportersOf({})).toEqual([]);
    expect(exportersOf({ OTEL_TRACES_EXPORTER: 'none' })).toEqual([]);
    expect(exportersOf({ OTEL_TRACES_EXPORTER: 'otlp, console' })).toEqual(['otlp', 'console']);
    expect(exportersOf({ OTEL_TRACES_EXPORTER: 'console', OTEL_SDK_DISABLED: 'true' })).toEqual([]);
    expect(startTracing({ serviceName: 'quiet', exporters: [] }).enabled).toBe(false);
    expect(() => exportersOf({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(ConfigError);
    expect(() => exportersOf({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(
      /OTEL_TRACES_EXPORTER: must be none, otlp, console or a comma-separated list of them \(got "jaeger"\)/,
    );
  });
});

describe('metrics', () => {
  const ok = { grpc_service: NEWS, grpc_method: 'ListHeadlines', grpc_code: 'OK' };
  const refused = { ...ok, grpc_code: 'INVALID_ARGUMENT' };
  const unverified = { ...ok, grpc_code: 'UNAUTHENTICATED' };

  it('counts calls by method and code on both ends, the guard’s refusals too, and times them', async () => {
    const before = await scrape();
    await listHeadlines(2, 'req-m-1');
    await listHeadlines(2, 'req-m-2');
    await listHeadlines(12, 'req-m-3');
    expect((await listHeadlines(2, 'req-m-4', { [CALLER_TOKEN_METADATA]: 'forged' }))?.code).toBe(
      status.UNAUTHENTICATED,
    );
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('rotunda_grpc_server_handled_total', ok)).toBe(2);
    expect(moved('rotunda_grpc_server_handled_total', refused)).toBe(1);
    expect(moved('rotunda_grpc_server_handled_total', unverified)).toBe(1);
    expect(moved('rotunda_grpc_client_handled_total', ok)).toBe(2);
    expect(moved('rotunda_grpc_client_handled_total', refused)).toBe(1);
    const method = { grpc_service: NEWS, grpc_method: 'ListHeadlines' };
    expect(moved('rotunda_grpc_server_handling_seconds_count', method)).toBe(4);
    expect(moved('rotunda_grpc_server_handling_seconds_bucket', { ...method, le: '+Inf' })).toBe(4);
    expect(after).toContain('# TYPE rotunda_grpc_server_handling_seconds histogram');
  });

  it('reports each pool’s connections, busy, idle and waited for, and forgets a pool once it ends', async () => {
    const pool = await connectReadDriver(databaseUrl, 1, 'test.gauge');
    const gauge = (text: string, state: string) =>
      sample(text, 'rotunda_db_pool_connections', { pool: 'test.gauge', state });
    const slow = () => pool.queryRaw({ sql: 'SELECT 1 AS one FROM pg_sleep(0.3)', args: [], argTypes: [] });
    const both = Promise.all([slow(), slow()]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const busy = await scrape();
    expect([gauge(busy, 'total'), gauge(busy, 'idle'), gauge(busy, 'waiting')]).toEqual([1, 0, 1]);
    await both;
    const calm = await scrape();
    expect([gauge(calm, 'total'), gauge(calm, 'idle'), gauge(calm, 'waiting')]).toEqual([1, 1, 0]);
    await pool.dispose();
    expect(await scrape()).not.toContain('pool="test.gauge"');
  });

  it('answers only /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics?x=1`)).status).toBe(200);
  });
});

describe('a service run by runService', () => {
  async function startService(env: Record<string, string>) {
    // A free port can be taken by another test's process between the look and the bind: another one, then.
    for (let attempt = 1; ; attempt++) {
      try {
        return await startOnce(env);
      } catch (error) {
        if (attempt === 3 || !(error as Error).message.includes('EADDRINUSE')) throw error;
      }
    }
  }

  async function startOnce(env: Record<string, string>) {
    const grpcPort = await freePort();
    const child: ChildProcess = spawn(
      process.execPath,
      [...NODE_FLAGS, 'test/fixtures/observed-service.ts'],
      {
        cwd: new URL('..', import.meta.url).pathname,
        env: {
          ...process.env,
          ...testCallers.env,
          DATABASE_URL: databaseUrl,
          GRPC_PORT: String(grpcPort),
          LOG_LEVEL: 'info',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const deadline = Date.now() + 20_000;
    while (!output.includes('grpc server listening')) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the service did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const service = new NewsServiceClient(`127.0.0.1:${grpcPort}`, credentials.createInsecure());
    const call = (limit: number) =>
      new Promise<ServiceError | null>((resolve) =>
        service.listHeadlines({ limit }, (error) => resolve(error)),
      );
    return {
      grpcPort,
      pid: child.pid as number,
      output: () => output,
      call,
      stop: async () => {
        service.close();
        child.kill('SIGTERM');
        await exited;
      },
    };
  }

  it('serves its metrics on METRICS_PORT: its calls, its pools and Node’s own', async () => {
    const metricsPort = await freePort();
    const service = await startService({ METRICS_PORT: String(metricsPort) });
    try {
      expect(await service.call(1)).toBeNull();
      expect((await service.call(50))?.code).toBe(status.INVALID_ARGUMENT);
      const text = await scrape(metricsPort);
      const labels = { grpc_service: NEWS, grpc_method: 'ListHeadlines' };
      expect(sample(text, 'rotunda_grpc_server_handled_total', { ...labels, grpc_code: 'OK' })).toBe(1);
      expect(
        sample(text, 'rotunda_grpc_server_handled_total', { ...labels, grpc_code: 'INVALID_ARGUMENT' }),
      ).toBe(1);
      expect(sample(text, 'rotunda_grpc_server_handling_seconds_count', labels)).toBe(2);
      expect(sample(text, 'rotunda_db_pool_connections', { pool: 'observed.read', state: 'total' })).toBe(1);
      expect(text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
      expect(service.output()).toContain(`"metricsUrl":"http://127.0.0.1:${metricsPort}/metrics"`);
    } finally {
      await service.stop();
    }
  });

  it('opens no metrics listener when METRICS_PORT is unset: its gRPC port is all it listens on', async () => {
    const service = await startService({});
    try {
      expect(await service.call(1)).toBeNull();
      expect(await listeningPorts(service.pid)).toEqual([service.grpcPort]);
      expect(service.output()).not.toContain('metricsUrl');
    } finally {
      await service.stop();
    }
  });

  it('refuses to start with a METRICS_PORT that is not a port', async () => {
    await expect(startService({ METRICS_PORT: 'ninety' })).rejects.toThrow(/METRICS_PORT/);
  });
});
