// Postgres spans for the raw read drivers (Prisma Client's own queries are traced by Prisma's instrumentation):
// each statement a span named by its operation and the pool, with its parameterised text (never the values).
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_DB_NAMESPACE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import { currentRequestId } from '../request-context.ts';
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

async function inSpan<T>(pool: string, sql: string, run: () => Promise<T>): Promise<T> {
  const operation = operationOf(sql);
  const requestId = currentRequestId();
  return trace.getTracer(TRACER_NAME).startActiveSpan(
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
    async (span: Span) => {
      try {
        return await run();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
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
