// The producer's side of recorded events (ADR 0042): a per-service outbox written in the transaction of the write
// it describes, so a rolled-back write records nothing and a committed one is never lost, and a wake-up on
// `rotunda_events` (delivered at commit) so consumers read it at once instead of at their next poll.
import type { Logger } from '@rotunda/service-kit';
import pg from 'pg';
import type { DomainEvent } from './events.ts';
import type { RawExecutor } from './publish.ts';

export const EVENTS_WAKE_CHANNEL = 'rotunda_events';

/** A service's events schema, which its own role owns: `post_events`. */
export const eventsSchemaOf = (service: string) => `${service}_events`;

/** Only names the bootstrap could have made: they are spliced into SQL. */
export function assertEventsSchema(schema: string): string {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Not an events schema name: ${schema}`);
  return schema;
}

const ident = (name: string) => pg.escapeIdentifier(assertEventsSchema(name));

/** The statements that make the schema's tables; each is idempotent. */
const tableStatements = (schema: string) => {
  const s = ident(schema);
  return [
    `CREATE TABLE IF NOT EXISTS ${s}.outbox (
       id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
       topic text NOT NULL,
       payload jsonb NOT NULL,
       recorded_at timestamptz NOT NULL DEFAULT now()
     )`,
    // Consumers read in (tx, id) order past their cursor; pruning reads by age.
    `CREATE INDEX IF NOT EXISTS outbox_tx_id ON ${s}.outbox (tx, id)`,
    `CREATE INDEX IF NOT EXISTS outbox_recorded_at ON ${s}.outbox (recorded_at)`,
    `CREATE TABLE IF NOT EXISTS ${s}.cursors (
       source text PRIMARY KEY,
       tx xid8 NOT NULL DEFAULT '0',
       id bigint NOT NULL DEFAULT 0
     )`,
  ];
};

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes `<schema>` (when missing and the role may) and its `outbox` and `cursors` tables. A service calls it at
 * start as its own role, which owns its events schema (the bootstrap made it); replicas starting together take
 * turns, since concurrent CREATE ... IF NOT EXISTS can still collide.
 */
export async function ensureEventTables(databaseUrl: string, schema: string): Promise<void> {
  const statements = tableStatements(schema);
  await withClient(databaseUrl, async (client) => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rotunda.events.${schema}`]);
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      // A service's role may not make schemas: it only gets here when the bootstrap did not run (tests as superuser).
      if (!exists.rowCount) await client.query(`CREATE SCHEMA ${ident(schema)}`);
      for (const statement of statements) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  });
}

/**
 * Records `event` in `<schema>.outbox` and wakes consumers. Call it inside the write's transaction (a Prisma
 * interactive transaction works): both the row and the wake-up take effect only when that transaction commits.
 */
export async function recordEvent(executor: RawExecutor, schema: string, event: DomainEvent): Promise<void> {
  const { topic, ...payload } = event;
  await executor.$executeRawUnsafe(
    `WITH recorded AS (INSERT INTO ${ident(schema)}.outbox (topic, payload) VALUES ($1, $2::jsonb) RETURNING id)
     SELECT pg_notify($3, $4) FROM recorded`,
    topic,
    JSON.stringify(payload),
    EVENTS_WAKE_CHANNEL,
    schema,
  );
}

/** Deletes events recorded more than `olderThanMs` ago (producers keep 14 days); answers how many went. */
export async function pruneOutbox(databaseUrl: string, schema: string, olderThanMs: number): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query(
      `DELETE FROM ${ident(schema)}.outbox WHERE recorded_at < now() - make_interval(secs => $1)`,
      [olderThanMs / 1000],
    );
    return result.rowCount ?? 0;
  });
}

const DAY_MS = 24 * 3600 * 1000;

export interface OutboxUpkeepOptions {
  databaseUrl: string;
  /** The producer's own events schema, e.g. `post_events`. */
  schema: string;
  logger: Logger;
  /** How long an event is kept: the longest a consumer may be down and still read it; default 14 days. */
  retentionMs?: number;
  /** Pause between prunes; default a day. */
  everyMs?: number;
}

/**
 * A producer's outbox upkeep at start (ADR 0042): makes its tables (a failure fails the start), prunes events past
 * the retention now and then every `everyMs`; answers the function that stops the pruning (at shutdown). A prune
 * that fails is logged and the next one tries again: an outbox kept a day longer harms nobody.
 */
export async function keepOutbox({
  databaseUrl,
  schema,
  logger,
  retentionMs = 14 * DAY_MS,
  everyMs = DAY_MS,
}: OutboxUpkeepOptions): Promise<() => void> {
  await ensureEventTables(databaseUrl, schema);
  const prune = () =>
    pruneOutbox(databaseUrl, schema, retentionMs).then(
      (pruned) => {
        if (pruned > 0) logger.info({ schema, pruned }, 'old recorded events pruned');
      },
      (error: unknown) =>
        logger.warn({ err: error, schema }, 'pruning the events outbox failed; trying again later'),
    );
  await prune();
  const timer = setInterval(prune, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
