// The Postgres search adapter (the embedded default): one table per index in the owning service's search schema
// (postgres/tables.ts), with a pg_trgm GIN index that makes the every-word substring match an index lookup instead
// of a table scan (postgres/query.ts). A rebuild fills a second generation of the tables beside the live one and
// swaps the two (postgres/rebuild.ts). Every write notifies the in-memory copies (postgres/changes.ts).
import { DATABASE_CONNECTION, tracePgPool } from '@rotunda/service-kit';
import pg from 'pg';
import { tryRebuildLock } from './lock.ts';
import type {
  IndexState,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
} from './port.ts';
import { changeChannelOf, EVERYTHING_CHANGED, notifyChanges } from './postgres/changes.ts';
import { searchStatement, statementNamer } from './postgres/query.ts';
import { postgresRebuild } from './postgres/rebuild.ts';
import { postgresTables } from './postgres/tables.ts';
import { assertIdentifier, Fields } from './semantics.ts';

export interface PostgresSearchIndexOptions extends SearchIndexDefinition {
  databaseUrl: string;
  /** The schema holding this service's index tables, e.g. `org_search`: apart from the Prisma-managed schema. */
  schema: string;
  /** The table name, e.g. `organizations`. */
  index: string;
  /** Connections in this adapter's own pool. */
  poolSize?: number;
}

/** The Postgres adapter, plus reading documents back as stored (folded) for the in-memory replicas. */
export interface PostgresSearchIndex extends SearchIndex {
  /** The stored documents with these ids. */
  documents(ids: string[]): Promise<SearchDocument[]>;
  /**
   * Every stored document, a page of at most `pageSize` at a time in id order, each page read when asked: a
   * replica loading a whole index holds one page of rows, never the whole result, at once.
   */
  allDocuments(pageSize?: number): AsyncGenerator<SearchDocument[]>;
}

/** Fixed advisory-lock key: concurrent ensure() calls (replicas starting together) run one at a time. */
const ENSURE_LOCK_KEY = 'rotunda-search-ensure';

export function createPostgresSearchIndex(options: PostgresSearchIndexOptions): PostgresSearchIndex {
  const fields = new Fields(options);
  assertIdentifier('schema', options.schema);
  assertIdentifier('index', options.index);
  const tables = postgresTables(fields, options.schema, options.index);
  const { live, documentsSelect, documentOf } = tables;
  const { table, storedTable } = live;
  const channel = changeChannelOf(options.schema, options.index);
  const notify = (client: pg.ClientBase, ids: string[] | typeof EVERYTHING_CHANGED) =>
    notifyChanges(client, channel, ids);
  const statementName = statementNamer(`search.${options.schema}.${options.index}`);

  // Traced and counted as the services' own pools are: a directory search's trace shows its statement.
  const pool = tracePgPool(
    // As the services' pools connect: a client that loses its connection while checked out (PostgreSQL
    // restarted) fails its query instead of ending the process.
    new pg.Pool({
      ...DATABASE_CONNECTION,
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    }),
    `search.${options.schema}.${options.index}`,
  );
  // An idle client's error (server restart) must not crash the service; the next query reconnects.
  pool.on('error', () => {});

  /** Runs `work` in one transaction on one pooled connection. */
  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  const { rebuild, dropAbandonedRebuild } = postgresRebuild({
    tables,
    pool,
    transaction,
    tryLock: () => tryRebuildLock(options.databaseUrl, `${options.schema}.${options.index}`),
    ensure,
    notify,
  });

  async function ensure(): Promise<IndexState> {
    let state: IndexState = 'current';
    await transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [ENSURE_LOCK_KEY]);
      const trigramSchema = await tables.prepareSchema(client);
      const existing = await client.query<{ comment: string | null; present: boolean }>(
        `SELECT to_regclass($1) IS NOT NULL AS present, obj_description(to_regclass($1), 'pg_class') AS comment`,
        [table],
      );
      const current = existing.rows[0];
      if (!current?.present) {
        for (const statement of tables.createStatements(trigramSchema, live)) await client.query(statement);
      } else if (current.comment !== tables.fingerprint) {
        // Built for another definition (or by hand): it keeps answering until a rebuild replaces it.
        state = 'outdated';
      }
    });
    await dropAbandonedRebuild();
    return state;
  }

  async function upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // One transaction: a failing batch leaves none of the call's documents half-applied.
    await transaction(async (client) => {
      const ids = await tables.write(client, live, documents);
      if (ids.length > 0) await notify(client, ids);
    });
  }

  async function remove(ids: string[]): Promise<void> {
    const unique = fields.prepareIds(ids);
    if (unique.length === 0) return;
    await transaction(async (client) => {
      await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [unique]);
      await notify(client, unique);
    });
  }

  async function documents(ids: string[]): Promise<SearchDocument[]> {
    const { rows } = await pool.query<Record<string, unknown>>({
      text: `${documentsSelect} WHERE id = ANY($1::text[])`,
      values: [fields.prepareIds(ids)],
    });
    return rows.map(documentOf);
  }

  async function* allDocuments(pageSize = 5000): AsyncGenerator<SearchDocument[]> {
    let after = '';
    for (;;) {
      const { rows } = await pool.query<Record<string, unknown>>({
        text: `${documentsSelect} WHERE id > $1 ORDER BY id LIMIT $2`,
        values: [after, pageSize],
      });
      if (rows.length === 0) return;
      yield rows.map(documentOf);
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]?.id as string;
    }
  }

  async function search(query: SearchQuery): Promise<SearchResult> {
    const result = await searchIds(query);
    if (!query.withStored) return result;
    // A second read for the page's stored values; the in-memory replica answers them without one.
    const { rows } = await pool.query<{ id: string; stored: string | null }>(
      `SELECT id, stored FROM ${storedTable} WHERE id = ANY($1::text[])`,
      [result.ids],
    );
    const stored = new Map(rows.map((row) => [row.id, row.stored]));
    return { ...result, stored: result.ids.map((id) => stored.get(id) ?? null) };
  }

  async function searchIds(query: SearchQuery): Promise<SearchResult> {
    const { sql, params, prepare } = searchStatement(table, fields.prepareQuery(query));
    const name = prepare ? statementName(sql) : undefined;
    const { rows } = await pool.query<{ total: number; ids: string[] }>({
      text: sql,
      values: params,
      ...(name ? { name } : {}),
    });
    const row = rows[0];
    const total = row?.total ?? 0;
    const { countUpTo } = query;
    return countUpTo !== undefined && total > countUpTo
      ? { ids: row?.ids ?? [], total: countUpTo, totalIsLowerBound: true }
      : { ids: row?.ids ?? [], total };
  }

  async function clear(): Promise<void> {
    await transaction(async (client) => {
      await client.query(`TRUNCATE ${tables.stored ? `${table}, ${storedTable}` : table}`);
      await notify(client, EVERYTHING_CHANGED);
    });
  }

  async function close(): Promise<void> {
    await pool.end();
  }

  return { ensure, upsert, remove, search, rebuild, clear, close, documents, allDocuments };
}
