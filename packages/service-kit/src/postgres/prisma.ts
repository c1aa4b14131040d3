// Prisma Client set-up per service: the pg driver adapter pinned to the service's own schema, and a driver of
// its own for hot reads with prepared statements. Both pools show in the metrics; each hot read is a span.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { observePool } from '../telemetry/metrics.ts';
import { traceStatements } from '../telemetry/postgres.ts';
import { assertSchemaName } from './migrate.ts';

/** A new connection not made by then fails: the database is unreachable (ADR 0047). */
const CONNECT_TIMEOUT_MS = 2000;

/**
 * A pg client that survives losing its connection, and gives up connecting after CONNECT_TIMEOUT_MS, inside the gateway's 3 s deadline, instead of
 * waiting on the operating system's connect timeout (minutes) when the database's address stops answering. Set
 * on the client, not the pool: pg-pool would time out calls waiting for a busy pool's connection too, turning a
 * burst of load into errors.
 */
class QuickConnectClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super({
      ...(typeof config === 'string' ? { connectionString: config } : config),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // A connection lost while checked out of its pool (PostgreSQL killed or restarted) fails the holder's next
    // query, which is how it learns; pg-pool listens for 'error' only while the client is idle, so without this
    // listener the event would end the process (the faults bench's post replicas died with PostgreSQL).
    this.on('error', () => {});
  }
}

/**
 * How every service pool connects. TCP keepalive from 10 s of idleness lets the operating system drop a pooled
 * connection whose server vanished without a word (a network cut), rather than leave it for the next query.
 */
export const DATABASE_CONNECTION = {
  Client: QuickConnectClient,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
} as const;

/** Prisma Client's pool: `poolSize` connections, named after the schema in pg_stat_activity's application_name. */
export function prismaAdapter(databaseUrl: string, schema: string, poolSize = 10): PrismaPg {
  // The pool is made here, not by the adapter, so its use shows in the metrics; $disconnect still ends it.
  const pool = new pg.Pool({
    ...DATABASE_CONNECTION,
    connectionString: databaseUrl,
    max: poolSize,
    application_name: schema,
  });
  observePool(schema, pool);
  return new PrismaPg(pool, { schema: assertSchemaName(schema), disposeExternalPool: true });
}

/** Prisma's pg driver adapter, connected: SQL on its own pool, without Prisma Client's engine in between. */
export type ReadDriver = Awaited<ReturnType<PrismaPg['connect']>>;

/**
 * A driver for a service's hot reads, `poolSize` connections of its own (application_name `prefix`). Each
 * statement text gets a name (`<prefix>.<n>`), so it is prepared once per connection and Postgres skips parsing
 * and planning it afterwards.
 */
export function connectReadDriver(
  databaseUrl: string,
  poolSize: number,
  prefix: string,
): Promise<ReadDriver> {
  const names = new Map<string, string>();
  return new PrismaPg(
    { ...DATABASE_CONNECTION, connectionString: databaseUrl, max: poolSize, application_name: prefix },
    {
      statementNameGenerator: ({ sql }) => {
        let name = names.get(sql);
        if (name === undefined) {
          name = `${prefix}.${names.size}`;
          names.set(sql, name);
        }
        return name;
      },
    },
  )
    .connect()
    .then((driver) => {
      observePool(prefix, driver.underlyingDriver());
      return traceStatements(driver, prefix);
    });
}
