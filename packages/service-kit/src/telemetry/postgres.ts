// Postgres spans: each statement a span named by its operation and its pool, with its parameterised text (never
// the values). Prisma Client's own queries are traced by Prisma's instrumentation; these cover the hot-read
// drivers (traceStatements) and the plain pg pools a package opens itself (tracePgPool).
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type pg from 'pg';
import { currentRequestId } from '../request-context.ts';
import { observePool } from './metrics.ts';
import { REQUEST_ID_ATTRIBUTE, TRACER_NAME } from './tracing.ts';

interface Statement {
  sql: string;
}

/** The driver's two statement methods; its other members pass through untouched. */
interface Queryable<Result> {
  queryRaw(params: Statement): Promise<Result>;
  executeRaw(params: Statement): Promise<number>;
}

/** The first word of the statement (SELECT, WITH, INSERT…), as the span's operation. */
const operationOf = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';

function startStatement(pool: string, sql: string): Span {
  const operation = operationOf(sql);
  const requestId = currentRequestId();
  return trace.getTracer(TRACER_NAME).startSpan(
    `${operation} ${pool}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL,
        [ATTR_DB_NAMESPACE]: pool,
        [ATTR_DB_OPERATION_NAME]: operation,
        [ATTR_DB_QUERY_TEXT]: sql,
        ...(requestId ? { [REQUEST_ID_ATTRIBUTE]: requestId } : {}),
      },
    },
    context.active(),
  );
}

function endStatement(span: Span, error?: unknown): void {
  if (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
  }
  span.end();
}

async function inSpan<T>(pool: string, sql: string, run: () => Promise<T>): Promise<T> {
  const span = startStatement(pool, sql);
  try {
    const result = await run();
    endStatement(span);
    return result;
  } catch (error) {
    endStatement(span, error);
    throw error;
  }
}

/** `driver` with a span around each of its statements, reported under `pool`. */
export function traceStatements<Result, Driver extends Queryable<Result>>(
  driver: Driver,
  pool: string,
): Driver {
  const queryRaw = driver.queryRaw.bind(driver);
  const executeRaw = driver.executeRaw.bind(driver);
  driver.queryRaw = (params) => inSpan(pool, params.sql, () => queryRaw(params));
  driver.executeRaw = (params) => inSpan(pool, params.sql, () => executeRaw(params));
  return driver;
}

/** Wraps one pool client's query: the promise form and the callback form (which pool.query uses) alike. */
function traceQueries(client: pg.PoolClient, pool: string): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [config] = args;
    const sql = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    // A Submittable (a cursor, a stream) is followed by its caller; it passes untouched.
    if (typeof sql !== 'string' || typeof (config as { submit?: unknown }).submit === 'function')
      return query(...args);
    const span = startStatement(pool, sql);
    const callback = args.at(-1);
    if (typeof callback === 'function')
      return query(...args.slice(0, -1), (error: unknown, result: unknown) => {
        endStatement(span, error);
        callback(error, result);
      });
    const answer = query(...args) as Promise<unknown>;
    answer.then(
      () => endStatement(span),
      (error: unknown) => endStatement(span, error),
    );
    return answer;
  }) as typeof client.query;
}

/**
 * A plain pg pool (one a package opens itself) with a span around each query of its clients, reported under
 * `name` in the pool metrics too. Call it before the pool's first query.
 */
export function tracePgPool(pool: pg.Pool, name: string): pg.Pool {
  observePool(name, pool);
  pool.on('connect', (client) => traceQueries(client, name));
  return pool;
}
