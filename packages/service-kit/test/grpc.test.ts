// The gRPC server every service runs: standard health checking that follows readiness, domain errors as
// gRPC statuses, the request id from the metadata in every log line, and a graceful stop.
import { Writable } from 'node:stream';
import { credentials, Metadata, makeClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { NewsServiceClient, NewsServiceService } from '@rotunda/protos/news';
import { service as healthService } from 'grpc-health-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  invalidArgument,
  type RunningGrpcServer,
  runWithRequestContext,
  serverStream,
  startGrpcServer,
  unary,
} from '../src/index.ts';

const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');
const silent = createLogger('test', 'silent');

function healthOf(port: number, service = ''): Promise<string> {
  const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve, reject) =>
    (client.Check as (r: object, cb: (e: ServiceError | null, res: { status: string }) => void) => void).call(
      client,
      { service },
      (error, response) => {
        client.close();
        error ? reject(error) : resolve(response.status);
      },
    ),
  );
}

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger('test', 'debug', sink) };
}

describe('startGrpcServer', () => {
  let server: RunningGrpcServer | undefined;
  afterEach(async () => {
    await server?.shutdown();
    server = undefined;
  });

  it('reports SERVING for the server and each service while ready, NOT_SERVING when not', async () => {
    let ready = true;
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: silent,
      services: [{ name: 'rotunda.news.v1.NewsService', definition: NewsServiceService, implementation: {} }],
      readiness: async () => ready,
      readinessIntervalMs: 50,
    });
    expect(await healthOf(server.port)).toBe('SERVING');
    expect(await healthOf(server.port, 'rotunda.news.v1.NewsService')).toBe('SERVING');
    ready = false;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await healthOf(server.port)).toBe('NOT_SERVING');
  });

  it('maps a domain refusal to its gRPC status and hides unexpected errors', async () => {
    const { lines, logger } = capturedLogger();
    let fail: Error = invalidArgument('Title is required');
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: silent,
      services: [
        {
          name: 'rotunda.news.v1.NewsService',
          definition: NewsServiceService,
          implementation: {
            listHeadlines: unary(logger, 'ListHeadlines', async () => {
              throw fail;
            }),
          },
        },
      ],
    });
    const client = new NewsServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const callOnce = () =>
      new Promise<ServiceError>((resolve) =>
        client.listHeadlines({ limit: 1 }, (error) => resolve(error as ServiceError)),
      );

    const refused = await callOnce();
    expect(refused.code).toBe(status.INVALID_ARGUMENT);
    expect(refused.details).toBe('Title is required');

    fail = new Error('connection string with a password in it');
    const failed = await callOnce();
    expect(failed.code).toBe(status.INTERNAL);
    expect(failed.details).toBe('Internal error');
    expect(lines.find((line) => line.msg === 'grpc call failed')).toBeTruthy();
    client.close();
  });

  it('puts the request id from the metadata on the log lines of the call', async () => {
    const { lines, logger } = capturedLogger();
    let seenInHandler: string | undefined;
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: silent,
      services: [
        {
          name: 'rotunda.news.v1.NewsService',
          definition: NewsServiceService,
          implementation: {
            listHeadlines: unary(logger, 'ListHeadlines', async (_request, context) => {
              seenInHandler = context.requestId;
              logger.info('looking up headlines');
              return { headlines: [] };
            }),
          },
        },
      ],
    });
    const client = new NewsServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const metadata = new Metadata();
    metadata.set('x-request-id', 'req-42');
    await new Promise((resolve) => client.listHeadlines({ limit: 1 }, metadata, resolve));
    client.close();
    expect(seenInHandler).toBe('req-42');
    expect(lines.map((line) => [line.msg, line.request_id])).toEqual([
      ['looking up headlines', 'req-42'],
      ['grpc call ok', 'req-42'],
    ]);
  });

  it('finishes calls in flight before stopping, then runs the shutdown hook', async () => {
    const events: string[] = [];
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: silent,
      services: [
        {
          name: 'rotunda.news.v1.NewsService',
          definition: NewsServiceService,
          implementation: {
            listHeadlines: unary(silent, 'ListHeadlines', async () => {
              await new Promise((resolve) => setTimeout(resolve, 300));
              events.push('call finished');
              return { headlines: [] };
            }),
          },
        },
      ],
      onShutdown: async () => {
        events.push('resources closed');
      },
    });
    const client = new NewsServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const inFlight = new Promise<ServiceError | null>((resolve) =>
      client.listHeadlines({ limit: 1 }, resolve),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = server.shutdown();
    expect(await inFlight).toBeNull();
    await stopped;
    expect(events).toEqual(['call finished', 'resources closed']);
    client.close();
    server = undefined;
  });
});

describe('request context', () => {
  it('adds the request id to log lines written inside a call, and only there', () => {
    const { lines, logger } = capturedLogger();
    runWithRequestContext({ requestId: 'req-7' }, () => logger.info('inside'));
    logger.info('outside');
    expect(lines.map((line) => [line.msg, line.service, line.request_id])).toEqual([
      ['inside', 'test', 'req-7'],
      ['outside', 'test', undefined],
    ]);
  });
});

describe('server streams', () => {
  const json = {
    serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
    deserialize: (bytes: Buffer) => JSON.parse(String(bytes)),
  };
  const definition = {
    count: {
      path: '/test.Counter/Count',
      requestStream: false,
      responseStream: true,
      requestSerialize: json.serialize,
      requestDeserialize: json.deserialize,
      responseSerialize: json.serialize,
      responseDeserialize: json.deserialize,
    },
  };

  it('streams thousands of messages to a slow reader without piling listeners on the call', async () => {
    const MESSAGES = 3000;
    const padding = 'x'.repeat(2000);
    let mostListeners = 0;
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: silent,
      services: [
        {
          name: 'test.Counter',
          definition,
          implementation: {
            count: (call: Parameters<ReturnType<typeof serverStream>>[0]) => {
              const counted = serverStream(silent, 'Count', async function* () {
                for (let n = 0; n < MESSAGES; n++) {
                  mostListeners = Math.max(mostListeners, call.listenerCount('cancelled'));
                  yield { n, padding };
                }
              });
              counted(call);
            },
          },
        },
      ],
    });
    const Client = makeClientConstructor(definition, 'test.Counter');
    const client = new Client(`127.0.0.1:${server.port}`, credentials.createInsecure());
    const stream = (client.count as (request: object) => NodeJS.ReadableStream).call(client, {});
    let received = 0;
    for await (const message of stream as AsyncIterable<{ n: number }>) {
      expect(message.n).toBe(received);
      received++;
      // A reader slower than the writer, so the server waits for the stream to drain again and again.
      if (received % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    client.close();
    await server.shutdown();
    expect(received).toBe(MESSAGES);
    expect(mostListeners).toBeLessThanOrEqual(2);
  });
});
