// Index writes the search engine missed, kept in the owning service's own PostgreSQL (the `search_outbox` table
// its migration makes in its schema) rather than in a replica's memory, so that a replica stopped before the engine
// returns loses none (ADR 0055). Only the ids are kept: the drain reads each document as the owner's tables have
// it when it sends, so whichever replica drains, and however late, the engine ends with the latest copy.
import { OUTBOX_TABLE } from '@rotunda/service-kit';
import pg from 'pg';
import { isEngineUnreachable, SearchUnavailableError } from './elasticsearch/outage.ts';
import type { RebuildSource, SearchIndex } from './port.ts';

/** Between tries to drain while the engine is away or another replica drains. */
export const OUTBOX_RETRY_MS = 1_000;
/** Between looks for rows left by a replica that stopped and did not start again (a scale-down). */
export const OUTBOX_SWEEP_MS = 30_000;
/** Ids sent per drained batch: one bulk call of the engine's. */
const DRAIN_BATCH = 500;

export interface OutboxOptions {
  /** The owner's database, where its tables and the outbox are. */
  databaseUrl: string;
  /** The owner's schema, which holds the outbox table. */
  schema: string;
  /** The index's name, which tells its rows apart from another index's in the same outbox. */
  index: string;
  retryMs?: number;
  sweepMs?: number;
  logger?: {
    warn: (details: object, message: string) => void;
    info: (details: object, message: string) => void;
  };
}

const engineAway = (error: unknown) => error instanceof SearchUnavailableError || isEngineUnreachable(error);

/**
 * `engine` with its missed writes kept in the outbox. A write goes straight to the engine while nothing waits;
 * when the engine is away, or this replica knows writes still wait, its ids go to the outbox and the member's
 * write (committed in the tables) succeeds. The outbox is drained once a `source` to read the documents from is
 * given (resendFrom, which syncIndex calls at every start; then every `sweepMs` too, for rows a replica that is
 * gone left), in the order written, by one replica at a time (a
 * transaction-scoped advisory lock; the others try again later), each batch's rows deleted in the transaction
 * that sent it: a replica dying mid-drain leaves them for the next.
 */
export function withOutbox(engine: SearchIndex, options: OutboxOptions): SearchIndex {
  const table = `${pg.escapeIdentifier(options.schema)}.${pg.escapeIdentifier(OUTBOX_TABLE)}`;
  const lockName = `search outbox ${options.schema}.${options.index}`;
  const retryMs = options.retryMs ?? OUTBOX_RETRY_MS;
  const logger = options.logger ?? { warn: () => {}, info: () => {} };
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  // A connection lost while idle (PostgreSQL restarting); the next query fails and is tried again.
  pool.on('error', () => {});
  let source: RebuildSource | undefined;
  /** This replica wrote to the outbox, or found rows there, and has not yet seen it empty. */
  let waiting = false;
  let since: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  let closed = false;

  async function keep(ids: string[]): Promise<void> {
    await pool.query(`INSERT INTO ${table} (index_name, document_id) SELECT $1, unnest($2::text[])`, [
      options.index,
      ids,
    ]);
    if (!waiting)
      logger.warn({ index: options.index }, 'search engine away: index writes kept in the outbox');
    waiting = true;
    since ??= Date.now();
    drainLater();
  }

  /** Sends one batch; answers 'empty' when nothing waits, 'busy' when another replica drains. */
  async function drainBatch(from: RebuildSource): Promise<'sent' | 'empty' | 'busy'> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
        [lockName],
      );
      if (!lock[0]?.locked) {
        await client.query('ROLLBACK');
        return 'busy';
      }
      const { rows } = await client.query<{ seq: string; document_id: string }>(
        `SELECT seq, document_id FROM ${table} WHERE index_name = $1 ORDER BY seq LIMIT ${DRAIN_BATCH}`,
        [options.index],
      );
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 'empty';
      }
      waiting = true;
      const ids = [...new Set(rows.map((row) => row.document_id))];
      const current = await from.documents(ids);
      const present = new Set(current.map((document) => document.id));
      const gone = ids.filter((id) => !present.has(id));
      if (current.length > 0) await engine.upsert(current);
      if (gone.length > 0) await engine.remove(gone);
      // By seq, not by id: a row for the same id written while this batch was sent stays for the next.
      await client.query(`DELETE FROM ${table} WHERE seq = ANY($1::bigint[])`, [rows.map((row) => row.seq)]);
      await client.query('COMMIT');
      return 'sent';
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async function drain(from: RebuildSource): Promise<void> {
    for (;;) {
      const outcome = await drainBatch(from);
      if (outcome === 'busy') {
        drainLater();
        return;
      }
      if (outcome === 'empty') {
        if (waiting)
          logger.info(
            { index: options.index, awayMs: since === undefined ? undefined : Date.now() - since },
            'search engine back: index writes kept in the outbox sent',
          );
        waiting = false;
        since = undefined;
        return;
      }
    }
  }

  /** One drain at a time, in the background: nobody waits on it. */
  function drainNow(): void {
    if (closed || draining || !source) return;
    draining = drain(source)
      .catch((error: unknown) => {
        if (!engineAway(error))
          logger.warn(
            { err: error, index: options.index },
            'search outbox could not be drained; trying again',
          );
        drainLater();
      })
      .finally(() => {
        draining = undefined;
      });
  }

  function drainLater(): void {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      drainNow();
    }, retryMs);
    timer.unref();
  }

  async function write(ids: string[], direct: () => Promise<void>): Promise<void> {
    // While writes wait, a new one joins them: the drain then sends every write of this replica in one order.
    if (!waiting) {
      try {
        await direct();
        return;
      } catch (error) {
        if (!engineAway(error)) throw error;
      }
    }
    await keep(ids);
  }

  return {
    ...engine,
    upsert: (documents) =>
      write(
        documents.map((document) => document.id),
        () => engine.upsert(documents),
      ),
    remove: (ids) => write(ids, () => engine.remove(ids)),
    resendFrom(from) {
      source = from;
      drainNow();
      sweep ??= setInterval(drainNow, options.sweepMs ?? OUTBOX_SWEEP_MS);
      sweep.unref();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(sweep);
      await draining;
      await pool.end();
      await engine.close();
    },
  };
}
