// The database's outage as the service kit sees it (ADR 0047): the errors a real pg connection gives when the
// server refuses or terminates it, and Prisma's wrappers of them, are told apart from bugs and refusals; a handler
// failing on one answers UNAVAILABLE with words to try again shortly; the server's `dependency/database` health
// goes NOT_SERVING at once on such a failure (without waiting for its poll) while the server stays SERVING, and
// SERVING again within about a second of the database's return; the metrics follow.
import { type AddressInfo, createServer } from 'node:net';
import { credentials, Metadata, makeClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { NewsServiceClient, NewsServiceService } from '@rotunda/protos/news';
import { service as healthService } from 'grpc-health-check';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLogger,
  DEPENDENCY_MESSAGES,
  invalidArgument,
  isDatabaseUnavailable,
  metricsRegistry,
  prismaAdapter,
  type RunningGrpcServer,
  sendUnary,
  serviceClient,
  startGrpcServer,
  UNAVAILABLE_DEPENDENCY_TRAILER,
  unary,
  unavailableDependencyOf,
} from '../src/index.ts';
import { createTestDatabase } from '../src/testing/index.ts';

const silent = createLogger('test', 'silent');
const HealthClient = makeClientConstructor(healthService, 'grpc.health.v1.Health');

/** The error `work` fails with. */
async function failure(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('isDatabaseUnavailable', () => {
  it('knows a refused connection and a terminated one from real pg clients', async () => {
    const refused = new pg.Client({ connectionString: 'postgresql://x:y@127.0.0.1:1/none' });
    expect(isDatabaseUnavailable(await failure(() => refused.connect()))).toBe(true);

    const databaseUrl = await createTestDatabase();
    const victim = new pg.Client({ connectionString: databaseUrl });
    await victim.connect();
    victim.on('error', () => {});
    const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // What a PostgreSQL shutting down does to every session (57P01), then the closed socket.
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await admin.end();
    expect(isDatabaseUnavailable(await failure(() => victim.query('SELECT 1')))).toBe(true);
  });

  it('a pooled connection lost while checked out fails its holder, not the process, and the pool goes on', async () => {
    const databaseUrl = await createTestDatabase();
    const driver = await prismaAdapter(databaseUrl, 'public', 2).connect();
    const pool = driver.underlyingDriver() as pg.Pool;
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // What a PostgreSQL shutting down does to every session, a checked-out one too: an 'error' event on its client.
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isDatabaseUnavailable(await failure(() => held.query('SELECT 1')))).toBe(true);
    held.release(true);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await driver.dispose();
  });

  it('gives up on a database that takes the connection but never answers within 2.5 s, as unavailable', async () => {
    // What an address whose server froze, or a half-open network path, looks like to a new connection.
    const mute = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((resolve) => mute.once('listening', resolve));
    const { port } = mute.address() as AddressInfo;
    const driver = await prismaAdapter(`postgresql://x:y@127.0.0.1:${port}/none`, 'public', 2).connect();
    const started = performance.now();
    const error = await failure(() => driver.queryRaw({ sql: 'SELECT 1', args: [], argTypes: [] }));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await driver.dispose();
    mute.close();
  });

  it('takes an engine adapter’s own error for what it names, with its words, before any socket error under it', () => {
    class SearchUnavailableError extends Error {
      readonly dependency = 'search';
    }
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const away = new SearchUnavailableError('Search is unavailable right now. Please try again shortly.', {
      cause: refused,
    });
    expect(unavailableDependencyOf(new Error('search failed', { cause: away }))).toEqual({
      dependency: 'search',
      message: 'Search is unavailable right now. Please try again shortly.',
    });
    expect(unavailableDependencyOf(refused)).toEqual({
      dependency: 'database',
      message: DEPENDENCY_MESSAGES.database,
    });
    const unknown = Object.assign(new Error('away'), { dependency: 'mainframe' });
    expect(unavailableDependencyOf(unknown)).toBeUndefined();
  });

  it('looks through Prisma’s wrappers and causes, and leaves refusals and bugs alone', () => {
    const prisma = (code: string, meta?: object) => Object.assign(new Error('prisma'), { code, meta });
    for (const outage of [
      prisma('P1001'),
      prisma('P1017'),
      prisma('P2024'),
      prisma('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P01' } } }),
      prisma('P2010', { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } }),
      new Error('wrapped', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout expired'),
    ])
      expect(isDatabaseUnavailable(outage), String(outage)).toBe(true);
    for (const other of [
      prisma('P2002'),
      prisma('P2025'),
      prisma('P2010', { driverAdapterError: { cause: { kind: 'postgres', originalCode: '23505' } } }),
      invalidArgument('Title is required'),
      new TypeError('x is undefined'),
      'a string',
      null,
    ])
      expect(isDatabaseUnavailable(other), String(other)).toBe(false);
  });
});

describe('a service whose database is away', () => {
  let server: RunningGrpcServer | undefined;
  afterEach(async () => {
    await server?.shutdown();
    server = undefined;
  });

  const healthOf = (port: number, service: string) => {
    const client = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
    return new Promise<string>((resolve, reject) =>
      (
        client.Check as (r: object, cb: (e: ServiceError | null, res: { status: string }) => void) => void
      ).call(client, { service }, (error, response) => {
        client.close();
        error ? reject(error) : resolve(response.status);
      }),
    );
  };
  const gauge = async () =>
    (await metricsRegistry.getSingleMetric('rotunda_dependency_up')?.get())?.values.find(
      (value) => value.labels.dependency === 'database',
    )?.value;

  it('answers UNAVAILABLE, says so in health at once, stays SERVING, and is back within a second', async () => {
    let up = true;
    let probes = 0;
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
              if (!up) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
              return { headlines: [] };
            }),
          },
        },
      ],
      dependencies: {
        database: async () => {
          probes += 1;
          return up;
        },
      },
      // A poll far away: only a failed call can make the health look again soon.
      readinessIntervalMs: 60_000,
    });
    const { port } = server;
    expect(await healthOf(port, 'dependency/database')).toBe('SERVING');
    expect(await gauge()).toBe(1);

    up = false;
    const client = new NewsServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
    const refused = await new Promise<ServiceError>((resolve) =>
      client.listHeadlines({ limit: 1 }, (error) => resolve(error as ServiceError)),
    );
    client.close();
    expect({ code: refused.code, details: refused.details }).toEqual({
      code: status.UNAVAILABLE,
      details: DEPENDENCY_MESSAGES.database,
    });
    // The caller learns which: the gateway words its answer by it.
    expect(refused.metadata.get(UNAVAILABLE_DEPENDENCY_TRAILER)).toEqual(['database']);
    await expect.poll(() => healthOf(port, 'dependency/database'), { timeout: 1000 }).toBe('NOT_SERVING');
    expect(await healthOf(port, '')).toBe('SERVING');
    expect(await healthOf(port, 'rotunda.news.v1.NewsService')).toBe('SERVING');
    expect(await gauge()).toBe(0);

    // While away it is asked every second, whatever the poll: its return shows within about one.
    const probesWhileAway = probes;
    up = true;
    await expect.poll(() => healthOf(port, 'dependency/database'), { timeout: 2500 }).toBe('SERVING');
    expect(probes).toBeGreaterThan(probesWhileAway);
    expect(await gauge()).toBe(1);
  });

  it('is refused to the kit’s client at once: a read refused for a shared dependency is not sent again', async () => {
    let calls = 0;
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
              calls += 1;
              throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
            }),
          },
        },
      ],
    });
    const client = serviceClient(NewsServiceClient, `127.0.0.1:${server.port}`);
    try {
      const refused = await sendUnary(
        client,
        client.listHeadlines,
        { limit: 1 },
        new Metadata(),
        new Date(Date.now() + 3000),
      ).catch((error: ServiceError) => error);
      expect((refused as ServiceError).code).toBe(status.UNAVAILABLE);
      // grpc-js's own attempts at most (its retry policy): not the kit's rounds after them, which spent the
      // gateway's whole deadline on a slow machine, so the feed answered 504 instead of its kept page.
      expect(calls).toBeGreaterThanOrEqual(1);
      expect(calls).toBeLessThanOrEqual(3);
    } finally {
      client.close();
    }
  });
});
