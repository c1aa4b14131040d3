// The Postgres index's rebuild: fills a second generation of the tables beside the live one, catches up on the
// writes made meanwhile (a trigger on the live table logs their ids) and swaps the two by renaming, in one
// transaction; and clears away what a rebuild that died midway left behind.
import type pg from 'pg';
import type { HeldLock } from '../lock.ts';
import type { IndexState, RebuildOutcome, RebuildSource } from '../port.ts';
import { EVERYTHING_CHANGED } from './changes.ts';
import { type PostgresTables, quote, UPSERT_BATCH } from './tables.ts';

/**
 * Catch-up passes before the switch end once a pass finds fewer changed ids than this: the last pass runs while
 * writers wait, so it should be short.
 */
const CATCH_UP_SMALL = 100;
/** Catch-up passes at most before the switch, however busy writers keep the log. */
const CATCH_UP_PASSES = 10;

/** What the rebuild works with: the index's tables and connections, and what its adapter does. */
export interface RebuildContext {
  tables: PostgresTables;
  pool: pg.Pool;
  /** Runs `work` in one transaction on one pooled connection. */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** The index's rebuild lock, when no other process holds it. */
  tryLock(): Promise<HeldLock | undefined>;
  ensure(): Promise<IndexState>;
  notify(client: pg.ClientBase, ids: string[] | typeof EVERYTHING_CHANGED): Promise<void>;
}

export function postgresRebuild({ tables, pool, transaction, tryLock, ensure, notify }: RebuildContext) {
  const { live, next, changeLog, logFunction } = tables;
  const { table, storedTable } = live;

  /** Drops what a rebuild made beside the live tables (one that died midway leaves them). */
  async function dropRebuildObjects(client: pg.ClientBase): Promise<void> {
    await client.query(`DROP TRIGGER IF EXISTS rotunda_rebuild_log ON ${table}`);
    await client.query(`DROP FUNCTION IF EXISTS ${logFunction}()`);
    await client.query(`DROP TABLE IF EXISTS ${changeLog}, ${next.storedTable}, ${next.table}`);
  }

  /**
   * What a rebuild made beside the live tables, left when its process died: its trigger would go on logging every
   * write. Dropped when no rebuild holds the lock, i.e. none is running.
   */
  async function dropAbandonedRebuild(): Promise<void> {
    const { rows } = await pool.query<{ present: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL OR to_regclass($2) IS NOT NULL AS present',
      [changeLog, next.table],
    );
    if (!rows[0]?.present) return;
    const lock = await tryLock();
    if (!lock) return;
    try {
      await transaction(dropRebuildObjects);
    } finally {
      await lock.release();
    }
  }

  /**
   * Brings the new generation's documents of the ids the live table's trigger logged in step with the source,
   * in the caller's transaction; answers how many ids it took from the log.
   */
  async function catchUp(client: pg.ClientBase, source: RebuildSource): Promise<number> {
    let caught = 0;
    for (;;) {
      const { rows } = await client.query<{ id: string }>(
        `DELETE FROM ${changeLog} WHERE id IN (SELECT id FROM ${changeLog} LIMIT ${UPSERT_BATCH}) RETURNING id`,
      );
      if (rows.length === 0) return caught;
      caught += rows.length;
      const ids = rows.map((row) => row.id);
      const current = await source.documents(ids);
      const present = new Set(await tables.write(client, next, current));
      const gone = ids.filter((id) => !present.has(id));
      if (gone.length > 0) await client.query(`DELETE FROM ${next.table} WHERE id = ANY($1::text[])`, [gone]);
    }
  }

  async function rebuild(source: RebuildSource): Promise<RebuildOutcome> {
    const lock = await tryLock();
    if (!lock) return { rebuilt: false };
    try {
      await ensure();
      // From here on every write to the live table logs its id, before the source is read: a document the fill
      // reads before a write changes it is read again from the source by the catch-up.
      await transaction(async (client) => {
        const trigramSchema = await tables.prepareSchema(client);
        await dropRebuildObjects(client);
        for (const statement of tables.createStatements(trigramSchema, next)) await client.query(statement);
        await client.query(`CREATE TABLE ${changeLog} (id text COLLATE "C" PRIMARY KEY)`);
        await client.query(
          `CREATE FUNCTION ${logFunction}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO ${changeLog} (id)
                VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END) ON CONFLICT DO NOTHING;
              RETURN NULL;
            END $$`,
        );
        await client.query(
          `CREATE TRIGGER rotunda_rebuild_log AFTER INSERT OR UPDATE OR DELETE ON ${table}
            FOR EACH ROW EXECUTE FUNCTION ${logFunction}()`,
        );
      });
      await source.eachPage(async (documents) => {
        await transaction((client) => tables.write(client, next, documents));
      });
      for (let pass = 0; pass < CATCH_UP_PASSES; pass++) {
        if ((await transaction((client) => catchUp(client, source))) < CATCH_UP_SMALL) break;
      }
      const documents = await transaction(async (client) => {
        // Writers wait from here to the commit (readers go on): the last of their ids are caught up, then the new
        // generation takes the live names. Queries waiting on the old table find the new one by its name.
        await client.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
        await catchUp(client, source);
        // The old generation's stored values, if it had any (its definition may differ), go with it.
        await client.query(`DROP TABLE IF EXISTS ${storedTable}`);
        await client.query(`DROP TABLE ${table}`);
        await client.query(`DROP TABLE ${changeLog}`);
        await client.query(`DROP FUNCTION ${logFunction}()`);
        await client.query(`ALTER TABLE ${next.table} RENAME TO ${quote(live.tableName)}`);
        if (tables.stored)
          await client.query(`ALTER TABLE ${next.storedTable} RENAME TO ${quote(live.storedName)}`);
        for (const [i, name] of next.all.entries())
          await client.query(
            `ALTER INDEX ${tables.qualified(name)} RENAME TO ${quote(live.all[i] as string)}`,
          );
        const { rows } = await client.query<{ count: number }>(
          `SELECT count(*)::integer AS count FROM ${table}`,
        );
        // The in-memory copies reload the new generation whole, answering from their old copy meanwhile.
        await notify(client, EVERYTHING_CHANGED);
        return rows[0]?.count ?? 0;
      });
      return { rebuilt: true, documents };
    } catch (error) {
      // The live tables stand as they were; what the rebuild made goes, so writers stop logging for it.
      await transaction(dropRebuildObjects).catch(() => {});
      throw error;
    } finally {
      await lock.release();
    }
  }

  return { rebuild, dropAbandonedRebuild };
}
