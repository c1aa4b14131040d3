// The consumer's side of recorded events (ADR 0042). A cursor per source in the consumer's own events schema says
// how far it has handled that producer's outbox; rows are read in (tx, id) order, and only those of transactions
// older than every one still running, so a transaction that began earlier but commits later is never skipped.
// The cursor row is locked while its batch is handled: two replicas of a consumer never handle one at once.
// LISTEN wakes it when something is recorded; a poll covers wake-ups lost while it was not listening.
import { eventsHandled, eventsLag, type Logger } from '@rotunda/service-kit';
import pg from 'pg';
import { listenToChannel } from './channel.ts';
import type { DomainEvent, RecordedEvent } from './events.ts';
import { assertEventsSchema, EVENTS_WAKE_CHANNEL, ensureEventTables } from './outbox.ts';

export interface EventConsumerOptions {
  databaseUrl: string;
  logger: Logger;
  /** The consumer's own events schema: its cursors live there. */
  schema: string;
  /** The producers' events schemas it reads, e.g. ['auth_events']. */
  sources: string[];
  /** Must be idempotent: delivery is at least once. A throw leaves the event to be handled again later. */
  onEvent: (event: RecordedEvent) => Promise<void>;
  /** Pause between polls; default 2 s. */
  pollMs?: number;
}

export interface EventConsumer {
  /** Settles once the consumer listens and has made its first pass over its sources. */
  ready: Promise<void>;
  /** Handles everything recorded before the call, then resolves (tests, shutdown). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL's undefined_table. */
const UNDEFINED_TABLE = '42P01';
const BATCH = 200;
/** How soon to look again when a running transaction holds events back: delivery stays within about 1 s. */
const HELD_BACK_MS = 200;
const RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** Where a source has been handled up to, or what drain waits for: a (tx, id) place in its outbox. */
interface Place {
  tx: string;
  id: string;
}

type PassResult = 'done' | 'more' | 'held' | 'busy' | 'failed';

interface OutboxRow {
  id: string;
  tx: string;
  topic: DomainEvent['topic'];
  payload: Record<string, unknown>;
  recorded_at: Date;
}

const ident = (name: string) => pg.escapeIdentifier(assertEventsSchema(name));

export function consumeEvents({
  databaseUrl,
  logger,
  schema,
  sources,
  onEvent,
  pollMs = 2000,
}: EventConsumerOptions): EventConsumer {
  const cursors = `${ident(schema)}.cursors`;
  for (const source of sources) assertEventsSchema(source);
  // One connection for reading; passes never overlap, so it never needs two.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('error', (error) => logger.warn({ err: error }, 'event consumer connection lost'));
  // pg-pool hears a client's 'error' only while it is idle: one lost during a pass (PostgreSQL restarted) would
  // otherwise end the process; the pass learns of it from its failed query.
  pool.on('connect', (client) => client.on('error', () => {}));
  const started = new Set<string>();
  let closed = false;
  let closing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  // Its own cursor table, made once (the service's start may not have made it yet).
  let prepared: Promise<void> | undefined;

  /** One source's next batch, in a transaction that holds its cursor row. */
  async function passSource(source: string): Promise<PassResult> {
    const client = await pool.connect();
    let broken = false;
    try {
      if (!started.has(source)) {
        await client.query(`INSERT INTO ${cursors} (source) VALUES ($1) ON CONFLICT DO NOTHING`, [source]);
        started.add(source);
      }
      await client.query('BEGIN');
      // Taken before the cursor lock gives this transaction an id of its own: an older horizon is only safer.
      const horizon = await client.query<{ xmin: string }>(
        'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
      );
      const xmin = horizon.rows[0]?.xmin ?? '0';
      const locked = await client.query<Place>(
        `SELECT tx::text AS tx, id::text AS id FROM ${cursors} WHERE source = $1 FOR UPDATE SKIP LOCKED`,
        [source],
      );
      const cursor = locked.rows[0];
      if (!cursor) {
        await client.query('COMMIT');
        return 'busy';
      }
      const outbox = `${ident(source)}.outbox`;
      const rows = await client.query<OutboxRow>(
        // Ordered by the columns (o.), not the text aliases: as text, id 1000 would come before id 999.
        `SELECT id::text AS id, tx::text AS tx, topic, payload, recorded_at FROM ${outbox} o
           WHERE (tx, id) > ($1::xid8, $2::bigint) AND tx < $3::xid8
           ORDER BY o.tx, o.id LIMIT ${BATCH}`,
        [cursor.tx, cursor.id, xmin],
      );
      let handled: Place | undefined;
      let failed = false;
      const oldest = rows.rows[0]?.recorded_at;
      eventsLag.set({ consumer: schema, source }, oldest ? (Date.now() - oldest.getTime()) / 1000 : 0);
      for (const row of rows.rows) {
        const event = {
          ...row.payload,
          topic: row.topic,
          event_id: `${source}:${row.id}`,
          recorded_at: row.recorded_at.toISOString(),
        } as RecordedEvent;
        try {
          await onEvent(event);
        } catch (error) {
          logger.error(
            { err: error, source, event_id: event.event_id, topic: event.topic },
            'handling an event failed',
          );
          eventsHandled.inc({ consumer: schema, source, outcome: 'failed' });
          eventsLag.set({ consumer: schema, source }, (Date.now() - row.recorded_at.getTime()) / 1000);
          failed = true;
          break;
        }
        eventsHandled.inc({ consumer: schema, source, outcome: 'handled' });
        handled = { tx: row.tx, id: row.id };
      }
      if (!failed) eventsLag.set({ consumer: schema, source }, 0);
      if (handled)
        await client.query(`UPDATE ${cursors} SET tx = $2::xid8, id = $3::bigint WHERE source = $1`, [
          source,
          handled.tx,
          handled.id,
        ]);
      let result: PassResult = failed ? 'failed' : rows.rows.length === BATCH ? 'more' : 'done';
      if (result === 'done') {
        const at = handled ?? cursor;
        const waiting = await client.query(
          `SELECT 1 FROM ${outbox} WHERE (tx, id) > ($1::xid8, $2::bigint) AND tx >= $3::xid8 LIMIT 1`,
          [at.tx, at.id, xmin],
        );
        if (waiting.rowCount) result = 'held';
      }
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = true;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Every source until none has a full batch waiting; answers how soon to look again, if sooner than the poll. */
  async function passAll(): Promise<number | undefined> {
    let soon: number | undefined;
    try {
      prepared ??= ensureEventTables(databaseUrl, schema);
      await prepared;
    } catch (error) {
      prepared = undefined;
      logger.warn({ err: error, schema }, 'making the cursor table failed; retrying');
      return undefined;
    }
    for (const source of sources) {
      for (;;) {
        if (closed) return undefined;
        let result: PassResult;
        try {
          result = await passSource(source);
        } catch (error) {
          // A producer that has not started yet has no outbox: nothing is recorded there to miss.
          if ((error as { code?: string }).code === UNDEFINED_TABLE)
            logger.debug({ source }, 'no outbox yet; looking again at the next poll');
          else logger.warn({ err: error, source }, 'reading recorded events failed; retrying');
          result = 'failed';
        }
        if (result === 'more') continue;
        // Another replica holds the cursor or a transaction holds events back: both end soon.
        if (result === 'held' || result === 'busy') soon = HELD_BACK_MS;
        break;
      }
    }
    return soon;
  }

  /** Runs a pass now, or once more after the one running (what woke us may have come after its reads). */
  function wake(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(timer);
    running = (async () => {
      let soon: number | undefined;
      do {
        again = false;
        soon = await passAll();
      } while (again && !closed);
      running = undefined;
      if (!closed) timer = setTimeout(() => void wake(), soon ?? pollMs);
    })();
    return running;
  }

  /** The last row of each source's outbox as of now, or nothing when it is empty. */
  async function latest(): Promise<Map<string, Place>> {
    const places = new Map<string, Place>();
    for (const source of sources) {
      const last = await pool.query<Place>(
        `SELECT tx::text AS tx, id::text AS id FROM ${ident(source)}.outbox o ORDER BY o.tx DESC, o.id DESC LIMIT 1`,
      );
      if (last.rows[0]) places.set(source, last.rows[0]);
    }
    return places;
  }

  async function reached(targets: Map<string, Place>): Promise<boolean> {
    for (const [source, target] of targets) {
      const at = await pool.query(
        `SELECT 1 FROM ${cursors} WHERE source = $1 AND (tx, id) >= ($2::xid8, $3::bigint)`,
        [source, target.tx, target.id],
      );
      if (!at.rowCount) return false;
    }
    return true;
  }

  const listener = listenToChannel({
    databaseUrl,
    logger,
    channel: EVENTS_WAKE_CHANNEL,
    name: `${schema} wake-ups`,
    retryMs: RETRY_MS,
    maxRetryMs: MAX_RETRY_MS,
    onNotification: (payload) => {
      if (sources.includes(payload)) void wake();
    },
    // Wake-ups sent while nobody listened are lost: read what was recorded meanwhile.
    onListening: () => wake(),
  });
  return {
    ready: listener.ready,
    async drain() {
      const targets = await latest();
      while (!closed) {
        await wake();
        if (await reached(targets)) return;
        await new Promise((resolve) => setTimeout(resolve, HELD_BACK_MS / 4));
      }
    },
    close() {
      closing ??= (async () => {
        closed = true;
        clearTimeout(timer);
        await listener.close();
        await running;
        await pool.end();
      })();
      return closing;
    },
  };
}
