// The gateway's traces and metrics: a directory search by a signed-in member is one trace (the gateway's HTTP
// span, its gRPC client span, the service's server span, the service's Postgres statement, each a child of the
// one before, with the request id), and its requests are counted and timed by the Express route pattern (never
// the raw URL) with their status, failures (5xx) and refusals before any route included; the gateway process
// serves them at /metrics on METRICS_PORT, and opens no such listener without it. Its polls of the auth service,
// outside any request, are not traced.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import {
  connectReadDriver,
  type MetricsListener,
  READ_AGAIN_AFTER_MS,
  type ReadDriver,
  serveMetrics,
  startTracing,
  type Tracing,
} from '@rotunda/service-kit';
import { createTestDatabase, freePort, listeningPorts } from '@rotunda/service-kit/testing';
import startTestPostgres from '@rotunda/service-kit/testing/global-setup';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  accessToken,
  type FakeAuth,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import { DIRECTORY_CARD, type FakeProfile, startFakeProfile } from './support/fake-profile.ts';
import { startGatewayProcess } from './support/gateway-process.ts';

const PROFILE_SERVICE = 'rotunda.profile.v1.ProfileService';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let stopPostgres: () => Promise<void>;
let reads: ReadDriver;
let key: SigningKey;
let auth: FakeAuth;
let profile: FakeProfile;
let gateway: RunningGateway;
let metrics: MetricsListener;
let member: Record<string, string>;

beforeAll(async () => {
  tracing = startTracing({
    serviceName: 'test',
    exporters: [],
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  stopPostgres = await startTestPostgres();
  reads = await connectReadDriver(await createTestDatabase(), 2, 'profile.read');
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  profile = await startFakeProfile();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, PROFILE_SERVICE_ADDR: profile.address });
  member = { 'x-auth-token': await accessToken(key) };
  metrics = await serveMetrics(0, '127.0.0.1');
}, 60_000);

afterAll(async () => {
  await metrics.close();
  await gateway.close();
  await profile.server.shutdown();
  await auth.server.shutdown();
  await reads.dispose();
  await tracing.shutdown();
  await stopPostgres();
});

beforeEach(() => {
  profile.reset();
  exporter.reset();
});

const url = (path: string) => `${gateway.base}${path}`;

async function scrape(port = metrics.port): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one sample in Prometheus text whose labels are exactly `labels`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = `${name}{${Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .join(',')}}`;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${wanted} `));
  return line ? Number(line.slice(wanted.length + 1)) : 0;
}

/** Spans end as the answer is written; the HTTP span last, just after the client has its answer. */
async function finishedSpans(count: number): Promise<ReadableSpan[]> {
  for (let tries = 0; exporter.getFinishedSpans().length < count && tries < 100; tries++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return exporter.getFinishedSpans();
}

describe('traces', () => {
  it('makes a member’s directory search one trace: HTTP → gRPC client → gRPC server → Postgres', async () => {
    profile.answer('searchDirectory', async () => {
      await reads.queryRaw({
        sql: 'SELECT $1::text AS search',
        args: ['marquez'],
        argTypes: [{ scalarType: 'string', arity: 'scalar' }],
      });
      return { profiles: [DIRECTORY_CARD], total: 1, total_is_lower_bound: false };
    });
    const res = await fetch(url('/api/profiles/search?search=marquez&limit=12'), {
      headers: { ...member, 'x-request-id': 'req-directory-1' },
    });
    expect(res.status).toBe(200);

    const spans = await finishedSpans(4);
    const http = spans.find((span) => span.kind === SpanKind.SERVER && span.name.startsWith('GET'));
    const client = spans.find(
      (span) => span.kind === SpanKind.CLIENT && span.name.includes('SearchDirectory'),
    );
    const server = spans.find(
      (span) => span.kind === SpanKind.SERVER && span.name.includes('SearchDirectory'),
    );
    const statement = spans.find((span) => span.name === 'SELECT profile.read');
    expect(http?.name).toBe('GET /api/profiles/search');
    expect(client?.name).toBe(`${PROFILE_SERVICE}/SearchDirectory`);
    expect(server?.name).toBe(`${PROFILE_SERVICE}/SearchDirectory`);
    expect(statement).toBeDefined();

    const traceId = http?.spanContext().traceId;
    expect(spans.map((span) => span.spanContext().traceId)).toEqual(spans.map(() => traceId));
    expect(http?.parentSpanContext).toBeUndefined();
    expect(client?.parentSpanContext?.spanId).toBe(http?.spanContext().spanId);
    expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
    expect(statement?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    for (const span of [http, client, server, statement])
      expect(span?.attributes['rotunda.request_id']).toBe('req-directory-1');
    expect(http?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/profiles/search',
      'http.response.status_code': 200,
    });
  });

  it('continues the trace of a caller that sent W3C trace context', async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(url('/api/profiles/search?search=chen'), {
      headers: { ...member, traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    const spans = await finishedSpans(3);
    const http = spans.find((span) => span.name === 'GET /api/profiles/search');
    expect(http?.spanContext().traceId).toBe(callerTrace);
    expect(http?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([callerTrace]));
  });

  it('traces nothing the gateway does outside a request: its polls of the auth service', async () => {
    const polls = async () =>
      sample(await scrape(), 'rotunda_grpc_server_handled_total', {
        grpc_service: 'rotunda.auth.v1.AuthService',
        grpc_method: 'ListEndedSessions',
        grpc_code: 'OK',
      });
    const before = await polls();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await polls()) - before).toBeGreaterThanOrEqual(2);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('marks the spans of a request the service failed as errors', async () => {
    profile.answer('getProfile', async () => {
      throw new Error('the disk is on fire');
    });
    expect((await fetch(url('/api/profiles/profile/7'), { headers: member })).status).toBe(500);
    const spans = await finishedSpans(3);
    const http = spans.find((span) => span.name === 'GET /api/profiles/profile/:id');
    expect(http?.status.code).toBe(SpanStatusCode.ERROR);
    expect(http?.attributes['http.response.status_code']).toBe(500);
    const server = spans.find((span) => span.kind === SpanKind.SERVER && span.name.endsWith('GetProfile'));
    expect(server?.attributes['rpc.status_code']).toBe('INTERNAL');
  });
});

describe('metrics', () => {
  it('counts and times requests by route pattern and status, failures and refusals included', async () => {
    const before = await scrape();
    await fetch(url('/api/profiles/profile/7'), { headers: member });
    await fetch(url('/api/profiles/profile/8'), { headers: member });
    profile.answer('getProfile', async () => {
      throw new Error('the disk is on fire');
    });
    await fetch(url('/api/profiles/profile/9'), { headers: member });
    await fetch(url('/api/profiles/profile/9?again=1'));
    await fetch(url('/api/no-such-thing/42'));
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    const route = '/api/profiles/profile/:id';
    expect(moved('rotunda_http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(moved('rotunda_http_requests_total', { method: 'GET', route, status: '500' })).toBe(1);
    // Refused by the router's member check before any route matched, and matched by no route at all: labelled
    // with the deepest router each entered.
    const refused = { method: 'GET', route: '/api/profiles/*', status: '401' };
    expect(moved('rotunda_http_requests_total', refused)).toBe(1);
    expect(moved('rotunda_http_requests_total', { method: 'GET', route: '/api/*', status: '404' })).toBe(1);
    expect(after).not.toMatch(/route="\/api\/profiles\/profile\/\d/);
    expect(after).not.toContain('no-such-thing');
    expect(
      moved('rotunda_http_request_duration_seconds_count', { method: 'GET', route, status: '200' }),
    ).toBe(2);
    const getProfile = { grpc_service: PROFILE_SERVICE, grpc_method: 'GetProfile' };
    expect(moved('rotunda_grpc_client_handled_total', { ...getProfile, grpc_code: 'OK' })).toBe(2);
    expect(moved('rotunda_grpc_client_handled_total', { ...getProfile, grpc_code: 'INTERNAL' })).toBe(1);
  });
});

describe('the gateway process', () => {
  it('serves its metrics on METRICS_PORT, a service it cannot reach counted as 503 and UNAVAILABLE', async () => {
    const metricsPort = await freePort();
    const process = await startGatewayProcess({ METRICS_PORT: String(metricsPort) });
    try {
      expect((await fetch(`${process.base}/api/news`)).status).toBe(503);
      const text = await scrape(metricsPort);
      expect(
        sample(text, 'rotunda_http_requests_total', { method: 'GET', route: '/api/news', status: '503' }),
      ).toBe(1);
      // The read was sent again after each of the kit's pauses (ADR 0046): each call is counted.
      expect(text).toMatch(
        new RegExp(
          `^rotunda_grpc_client_handled_total\\{grpc_service="rotunda\\.news\\.v1\\.NewsService",grpc_method="\\w+",grpc_code="UNAVAILABLE"\\} ${1 + READ_AGAIN_AFTER_MS.length}$`,
          'm',
        ),
      );
      expect(text).toMatch(/^process_resident_memory_bytes /m);
      // Paths no router of the app matches (a deep link, a stray probe) are answered and counted, and the process
      // stays up: the app's own router leaves them with no base URL at all.
      for (const path of ['/reset-password/abc', '/no/such/page'])
        expect((await fetch(`${process.base}${path}`)).status).toBe(404);
      expect(process.alive()).toBe(true);
      expect(
        sample(await scrape(metricsPort), 'rotunda_http_requests_total', {
          method: 'GET',
          route: '(unmatched)',
          status: '404',
        }),
      ).toBe(2);
    } finally {
      await process.stop();
    }
  });

  it('opens no metrics listener without METRICS_PORT: its HTTP port is all it listens on', async () => {
    const process = await startGatewayProcess({});
    try {
      expect(await listeningPorts(process.process.pid as number)).toEqual([process.port]);
      expect(process.output()).not.toContain('metricsUrl');
    } finally {
      await process.stop();
    }
  });
});
