// The Postgres search adapter (the embedded default): one table per index in the owning service's search schema,
// with a pg_trgm GIN index that makes the every-word substring match an index lookup instead of a table scan. A
// rebuild fills a second generation of the tables beside the live one, catches up on the writes made meanwhile
// (a trigger on the live table logs their ids) and swaps the two by renaming, in one transaction.
import { tracePgPool } from '@rotunda/service-kit';
import pg from 'pg';
import { tryRebuildLock } from './lock.ts';
import type {
  IndexState,
  RebuildOutcome,
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
} from './port.ts';
import { assertIdentifier, definitionFingerprint, Fields, type PreparedQuery } from './semantics.ts';

export interface PostgresSearchIndexOptions extends SearchIndexDefinition {
  databaseUrl: string;
  /** The schema holding this service's index tables, e.g. `org_search`: apart from the Prisma-managed schema. */
  schema: string;
  /** The table name, e.g. `organizations`. */
  index: string;
  /** Connections in this adapter's own pool. */
  poolSize?: number;
}

/**
 * The channel every write to an index notifies, in its own transaction, with the ids it changed (a JSON list; '*'
 * after clear() and a rebuild's switch): how the in-memory copies of the index (replica.ts) learn of every writer's changes, a replica's,
 * a reindex's or a seed's. Postgres truncates channel names at 63 bytes; it is quoted where listened to.
 */
export const changeChannelOf = (schema: string, index: string) =>
  `search_changes.${schema}.${index}`.slice(0, 63);

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

/** NOTIFY payloads must stay under 8,000 bytes; ids are listed in chunks below that. */
const NOTIFY_PAYLOAD_BYTES = 7000;

/** The ids as JSON lists of at most NOTIFY_PAYLOAD_BYTES each. */
function changePayloads(ids: string[]): string[] {
  const payloads: string[] = [];
  let chunk: string[] = [];
  let bytes = 2;
  for (const id of ids) {
    const size = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (chunk.length > 0 && bytes + size > NOTIFY_PAYLOAD_BYTES) {
      payloads.push(JSON.stringify(chunk));
      chunk = [];
      bytes = 2;
    }
    chunk.push(id);
    bytes += size;
  }
  if (chunk.length > 0) payloads.push(JSON.stringify(chunk));
  return payloads;
}

/** The payload clear() and a rebuild's switch notify: every document changed. */
export const EVERYTHING_CHANGED = '*';

/** Bumped when the table layout below changes, so ensure() calls tables made by an older version outdated. */
const LAYOUT_VERSION = 'pg-1';

/**
 * Joins the text fields in the concatenated column: a newline. Query words are split on whitespace, so no word
 * contains one and `LIKE '%word%'` can never match across the boundary between two fields. One trigram-indexed
 * column thus keeps per-field semantics without one LIKE per field per word (fewer index lookups).
 */
const FIELD_SEPARATOR_SQL = "E'\\n'";

/** Fixed advisory-lock key: concurrent ensure() calls (replicas starting together) run one at a time. */
const ENSURE_LOCK_KEY = 'rotunda-search-ensure';

/**
 * Catch-up passes before the switch end once a pass finds fewer changed ids than this: the last pass runs while
 * writers wait, so it should be short.
 */
const CATCH_UP_SMALL = 100;
/** Catch-up passes at most before the switch, however busy writers keep the log. */
const CATCH_UP_PASSES = 10;

/** Rows per INSERT: one JSON parameter each, so the size is about memory, not Postgres' parameter limit. */
const UPSERT_BATCH = 1000;

/**
 * Distinct search statements (query shapes: number of words, filters, sort) an adapter prepares; later shapes run
 * unprepared. Every pooled connection keeps its own copy of each prepared statement, so the count stays bounded
 * however many words a query has.
 */
const MAX_PREPARED_SHAPES = 64;

/**
 * Three ASCII letters or digits in a row: a trigram pg_trgm extracts from `%word%` whatever the database's locale
 * (which decides whether other characters count as letters).
 */
const TRIGRAM = /[a-z0-9]{3}/;

const quote = (identifier: string) => `"${identifier}"`;

/** Escapes LIKE's wildcards so a user's '%', '_' or '\' is a literal character (backslash is LIKE's default escape). */
export function likeContains(word: string): string {
  return `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export function createPostgresSearchIndex(options: PostgresSearchIndexOptions): PostgresSearchIndex {
  const fields = new Fields(options);
  const { definition } = fields;
  assertIdentifier('schema', options.schema);
  assertIdentifier('index', options.index);

  const textColumn = (name: string) => `t_${name}`;
  const keywordColumn = (name: string) => `k_${name}`;
  const sortColumn = (name: string) => `s_${name}`;
  const qualified = (name: string) => `${quote(options.schema)}.${quote(name)}`;
  const objectName = (base: string, suffix: string) => {
    const name = `${base}_${suffix}`;
    // Postgres silently truncates longer names, which could make two indexes collide.
    if (name.length > 63)
      throw new TypeError(`search: index name ${name} is longer than Postgres' 63 characters`);
    return name;
  };
  const fieldNames = [
    ...definition.textFields,
    ...definition.keywordFields,
    ...definition.sortFields.map((f) => f.name),
  ];
  for (const name of fieldNames) {
    // Columns are t_/k_/s_ + the name; a name Postgres would truncate could collide with another.
    if (name.length > 61) throw new TypeError(`search: field name ${name} is too long for a Postgres column`);
  }

  /**
   * The tables and index names of one generation. The live one has the index's own names; a rebuild fills one
   * named `<index>_rebuild…` and, on the switch, renames it (tables and indexes) to the live names.
   */
  const generationOf = (base: string) => {
    const indexNames = {
      pkey: objectName(base, 'pkey'),
      storedPkey: objectName(base, 'stored_pkey'),
      trigram: objectName(base, 'search_trgm'),
      keyword: (field: string) => objectName(base, `k_${field}`),
      sortAsc: (field: string) => objectName(base, `s_${field}_asc`),
      sortDesc: (field: string) => objectName(base, `s_${field}_desc`),
    };
    const all = [
      indexNames.pkey,
      ...(definition.stored ? [indexNames.storedPkey] : []),
      indexNames.trigram,
      ...definition.keywordFields.map(indexNames.keyword),
      ...definition.sortFields.flatMap(({ name }) => [indexNames.sortAsc(name), indexNames.sortDesc(name)]),
    ];
    return {
      tableName: base,
      storedName: objectName(base, 'stored'),
      table: qualified(base),
      storedTable: qualified(objectName(base, 'stored')),
      indexNames,
      /** Every index name, in one order for every generation (the switch renames them pairwise). */
      all,
    };
  };
  type Generation = ReturnType<typeof generationOf>;
  const live = generationOf(options.index);
  const next = generationOf(`${options.index}_rebuild`);
  const { table, storedTable } = live;
  /** The ids of live rows written while a rebuild runs, logged by a trigger the rebuild puts on the live table. */
  const changeLog = qualified(objectName(options.index, 'rebuild_changes'));
  const logFunction = qualified(objectName(options.index, 'rebuild_log'));
  const rebuildLockName = `${options.schema}.${options.index}`;
  // Hex only, so it is safe as the literal of COMMENT ON (DDL takes no parameters).
  const fingerprint = `rotunda-search:${definitionFingerprint(definition, LAYOUT_VERSION)}`;

  // Traced and counted as the services' own pools are: a directory search's trace shows its statement.
  const pool = tracePgPool(
    new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 }),
    `search.${options.schema}.${options.index}`,
  );
  // An idle client's error (server restart) must not crash the service; the next query reconnects.
  pool.on('error', () => {});

  function createStatements(trigramSchema: string, generation: Generation): string[] {
    const { table, storedTable, indexNames: names } = generation;
    const columns = [
      // COLLATE "C": byte order, which is Unicode code point order in UTF-8, the order Elasticsearch's keyword
      // sort uses too, whatever the database's locale.
      'id text COLLATE "C" NOT NULL',
      ...definition.textFields.map((name) => `${textColumn(name)} text NOT NULL DEFAULT ''`),
      // The stored fields are already lower-cased (fold() in semantics.ts, identical for both engines), so this
      // generated concatenation is the lower-cased text every query word is matched against.
      `search_text text GENERATED ALWAYS AS (${definition.textFields
        .map((name) => textColumn(name))
        .join(` || ${FIELD_SEPARATOR_SQL} || `)}) STORED`,
      ...definition.keywordFields.map((name) => `${keywordColumn(name)} text[] NOT NULL DEFAULT '{}'`),
      ...definition.sortFields.map(({ name, type }) =>
        type === 'number' ? `${sortColumn(name)} double precision` : `${sortColumn(name)} text COLLATE "C"`,
      ),
    ];
    return [
      // Constraints named per generation: their indexes' names must be unique in the schema.
      `CREATE TABLE ${table} (${columns.join(', ')}, CONSTRAINT ${quote(names.pkey)} PRIMARY KEY (id))`,
      // Stored values (list cards, hundreds of bytes each) live in a table of their own: inline they made the rows
      // searches scan 3.5 times as many pages (a group's count read 880 instead of 252), and only a page asking
      // for them reads them.
      ...(definition.stored
        ? [
            `CREATE TABLE ${storedTable} (id text COLLATE "C" REFERENCES ${table} (id) ON DELETE CASCADE,
              stored text NOT NULL, CONSTRAINT ${quote(names.storedPkey)} PRIMARY KEY (id))`,
          ]
        : []),
      // Trigram GIN: for `search_text LIKE '%word%'` Postgres looks up the word's trigrams in this index and
      // rechecks only the candidate rows, instead of scanning every row; a B-tree cannot serve a leading '%'.
      // Words under 3 characters have no trigram and fall back to a scan (still correct, filters still apply).
      `CREATE INDEX ${quote(names.trigram)} ON ${table} USING gin (search_text ${pg.escapeIdentifier(trigramSchema)}.gin_trgm_ops)`,
      // Array GIN: `k_x && $1` (has any of these values) for filters and exclusions.
      ...definition.keywordFields.map(
        (name) => `CREATE INDEX ${quote(names.keyword(name))} ON ${table} USING gin (${keywordColumn(name)})`,
      ),
      // One B-tree per sort order with the id tie-breaker, so a first page sorted by a key reads its rows in order
      // instead of sorting every match.
      ...definition.sortFields.flatMap(({ name }) => [
        `CREATE INDEX ${quote(names.sortAsc(name))} ON ${table} (${sortColumn(name)} ASC NULLS LAST, id)`,
        `CREATE INDEX ${quote(names.sortDesc(name))} ON ${table} (${sortColumn(name)} DESC NULLS LAST, id)`,
      ]),
      `COMMENT ON TABLE ${table} IS '${fingerprint}'`,
    ];
  }

  /** pg_trgm and the schema, made if missing (in the caller's transaction); answers pg_trgm's schema. */
  async function prepareSchema(client: pg.ClientBase): Promise<string> {
    // pg_trgm is a trusted extension: the database owner may create it without being a superuser.
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const extension = await client.query<{ schema: string }>(
      `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname = 'pg_trgm'`,
    );
    const trigramSchema = extension.rows[0]?.schema;
    if (!trigramSchema) throw new Error('search: pg_trgm is not installed');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(options.schema)}`);
    return trigramSchema;
  }

  async function ensure(): Promise<IndexState> {
    let state: IndexState = 'current';
    await transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [ENSURE_LOCK_KEY]);
      const trigramSchema = await prepareSchema(client);
      const existing = await client.query<{ comment: string | null; present: boolean }>(
        `SELECT to_regclass($1) IS NOT NULL AS present, obj_description(to_regclass($1), 'pg_class') AS comment`,
        [table],
      );
      const current = existing.rows[0];
      if (!current?.present) {
        for (const statement of createStatements(trigramSchema, live)) await client.query(statement);
      } else if (current.comment !== fingerprint) {
        // Built for another definition (or by hand): it keeps answering until a rebuild replaces it.
        state = 'outdated';
      }
    });
    await dropAbandonedRebuild();
    return state;
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
    const lock = await tryRebuildLock(options.databaseUrl, rebuildLockName);
    if (!lock) return;
    try {
      await transaction(dropRebuildObjects);
    } finally {
      await lock.release();
    }
  }

  const insertColumns = [
    'id',
    ...definition.textFields.map(textColumn),
    ...definition.keywordFields.map(keywordColumn),
    ...definition.sortFields.map(({ name }) => sortColumn(name)),
  ];
  const recordType = [
    'id text',
    ...definition.textFields.map((name) => `${textColumn(name)} text`),
    ...definition.keywordFields.map((name) => `${keywordColumn(name)} text[]`),
    ...definition.sortFields.map(({ name, type }) =>
      type === 'number' ? `${sortColumn(name)} double precision` : `${sortColumn(name)} text`,
    ),
  ].join(', ');
  // All rows of a batch travel as one JSON parameter and are unpacked by jsonb_to_recordset: parameterized, and
  // one statement per thousand rows.
  const upsertSql = (generation: Generation) => `INSERT INTO ${generation.table} (${insertColumns.join(', ')})
    SELECT ${insertColumns.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${recordType})
    ON CONFLICT (id) DO UPDATE SET ${insertColumns
      .filter((column) => column !== 'id')
      .map((column) => `${column} = EXCLUDED.${column}`)
      .join(', ')}`;
  const upsertLive = upsertSql(live);
  const upsertNext = upsertSql(next);

  /** Writes the documents into one generation's tables, in the caller's transaction; answers their ids. */
  async function write(client: pg.ClientBase, generation: Generation, documents: SearchDocument[]) {
    const prepared = fields.prepareDocuments(documents);
    const rows = prepared.map((document) => {
      const row: Record<string, unknown> = { id: document.id };
      for (const name of definition.textFields) row[textColumn(name)] = document.text[name];
      for (const name of definition.keywordFields) row[keywordColumn(name)] = document.keywords[name];
      for (const { name } of definition.sortFields) row[sortColumn(name)] = document.sort[name];
      if (definition.stored) row.stored = document.stored;
      return row;
    });
    for (let start = 0; start < rows.length; start += UPSERT_BATCH) {
      const batch = JSON.stringify(rows.slice(start, start + UPSERT_BATCH));
      await client.query(generation === live ? upsertLive : upsertNext, [batch]);
      if (definition.stored) {
        // Replaced whole: a new version without a stored value drops the old one.
        await client.query(
          `DELETE FROM ${generation.storedTable} WHERE id IN (SELECT id FROM jsonb_to_recordset($1::jsonb) AS r(id text))`,
          [batch],
        );
        await client.query(
          `INSERT INTO ${generation.storedTable} (id, stored)
            SELECT id, stored FROM jsonb_to_recordset($1::jsonb) AS r(id text, stored text) WHERE stored IS NOT NULL`,
          [batch],
        );
      }
    }
    return prepared.map((document) => document.id);
  }

  async function upsert(documents: SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // One transaction: a failing batch leaves none of the call's documents half-applied.
    await transaction(async (client) => {
      const ids = await write(client, live, documents);
      if (ids.length > 0) await notify(client, ids);
    });
  }

  /** Sent on commit only, so a replica reading the ids then sees this write. */
  async function notify(client: pg.ClientBase, ids: string[] | typeof EVERYTHING_CHANGED): Promise<void> {
    const channel = changeChannelOf(options.schema, options.index);
    const payloads = ids === EVERYTHING_CHANGED ? [EVERYTHING_CHANGED] : changePayloads(ids);
    for (const payload of payloads) await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

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

  async function remove(ids: string[]): Promise<void> {
    const unique = fields.prepareIds(ids);
    if (unique.length === 0) return;
    await transaction(async (client) => {
      await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [unique]);
      await notify(client, unique);
    });
  }

  const documentColumns = insertColumns.join(', ');
  const documentsFrom = definition.stored ? `${table} LEFT JOIN ${storedTable} USING (id)` : table;
  const documentsSelect = `SELECT ${definition.stored ? `${documentColumns}, stored` : documentColumns} FROM ${documentsFrom}`;

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

  function documentOf(row: Record<string, unknown>): SearchDocument {
    const sort: Record<string, string | number> = {};
    for (const { name } of definition.sortFields) {
      const value = row[sortColumn(name)];
      if (value !== null && value !== undefined) sort[name] = value as string | number;
    }
    return {
      id: row.id as string,
      text: Object.fromEntries(definition.textFields.map((name) => [name, row[textColumn(name)] as string])),
      keywords: Object.fromEntries(
        definition.keywordFields.map((name) => [name, row[keywordColumn(name)] as string[]]),
      ),
      sort,
      ...(typeof row.stored === 'string' ? { stored: row.stored } : {}),
    };
  }

  // Prepared-statement names by SQL text: pg parses a named statement once per connection, and Postgres may then
  // reuse one generic plan instead of planning every call (measured: a quarter less database CPU per search).
  const statementNames = new Map<string, string>();
  const statementName = (sql: string): string | undefined => {
    let name = statementNames.get(sql);
    if (name === undefined && statementNames.size < MAX_PREPARED_SHAPES) {
      name = `search.${options.schema}.${options.index}.${statementNames.size}`;
      statementNames.set(sql, name);
    }
    return name;
  };

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
    const { sql, params, prepare } = searchStatement(fields.prepareQuery(query));
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

  function searchStatement(query: PreparedQuery): { sql: string; params: unknown[]; prepare: boolean } {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const conditions: string[] = [];
    // Every word must be a substring of the lower-cased concatenation, hence of one field (FIELD_SEPARATOR_SQL).
    for (const word of query.words) conditions.push(`search_text LIKE ${param(likeContains(word))}`);
    for (const { field, values } of query.filters) {
      conditions.push(`${keywordColumn(field)} && ${param(values)}::text[]`);
    }
    for (const { field, values } of query.exclude) {
      conditions.push(`NOT (${keywordColumn(field)} && ${param(values)}::text[])`);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    // With a bound, counting stops one past it: that one says "more than the bound".
    const counted = (rows: string) =>
      query.countUpTo === null
        ? `(SELECT count(*) FROM ${rows})::integer`
        : `(SELECT count(*) FROM (SELECT 1 FROM ${rows} LIMIT ${param(query.countUpTo + 1)}) AS bounded)::integer`;
    const order = [
      ...query.sort.map((key) =>
        'random' in key
          ? // A seeded hash of the id: the same seed, the same order on every page; hashtextextended is the hash
            // Postgres' hash partitioning relies on, so it is stable and needs no column or index.
            `hashtextextended(id, ${param(key.random)}::bigint)`
          : // Missing sort values come last in both directions, as Elasticsearch's `missing: _last` does.
            `${sortColumn(key.field.name)} ${key.direction.toUpperCase()} NULLS LAST`,
      ),
      'id ASC',
    ].join(', ');
    const page = `ORDER BY ${order} LIMIT ${param(query.limit)} OFFSET ${param(query.offset)}`;
    if (!query.countTotal) {
      // The page alone: Postgres walks a sort index and stops after `limit` rows. Prepared without words only: with
      // words the best plan depends on them (a common word is found soonest walking the sort index, a rare one
      // through the trigram index; measured at 200,000 rows: 2 ms either way when planned for the words, 45 ms
      // for a common word on a generic plan), so those are planned per call.
      const sql = `SELECT -1 AS total, ARRAY(SELECT id FROM ${table} ${where} ${page}) AS ids`;
      return { sql, params, prepare: query.words.length === 0 };
    }
    // One round trip and always one row, even past the last page (count(*) OVER () would give no row there).
    if (query.words.some((word) => [...word].length >= 3)) {
      // A word of 3+ characters has trigrams, so the index narrows the matches: scan them once, then count
      // and sort that set (measured: half the time of scanning twice for a two-word query at 100,000 rows).
      const columns = [
        ...new Set([
          'id',
          ...query.sort.flatMap((key) => ('random' in key ? [] : [sortColumn(key.field.name)])),
        ]),
      ].join(', ');
      const sql = `WITH matches AS MATERIALIZED (SELECT ${columns} FROM ${table} ${where})
        SELECT ${counted('matches')} AS total, ARRAY(SELECT id FROM matches ${page}) AS ids`;
      // Prepared only when a word surely has a trigram: Postgres' generic plan for this text always takes the
      // trigram index, which is right then; for words without one ('%%%') it would read the whole index
      // (measured: 7.6 ms against 1.7 ms on 10,000 rows), so those calls stay unprepared and are planned for
      // their own words.
      return { sql, params, prepare: query.words.some((word) => TRIGRAM.test(word)) };
    }
    // No words, or only 1-2 character ones (no trigram, so a scan): possibly most rows match, so keep count and
    // page as separate sub-plans: the page walks a sort index and stops after `limit` rows instead of sorting
    // every match, and the count runs alone.
    const sql = `SELECT ${counted(`${table} ${where}`)} AS total,
      ARRAY(SELECT id FROM ${table} ${where} ${page}) AS ids`;
    // Planned per call: a generic plan here would take the trigram index for 1-2 character words, which have no
    // trigram, and read all of it (measured: 20 ms against a 3 ms scan).
    return { sql, params, prepare: false };
  }

  /** Drops what a rebuild made beside the live tables (one that died midway leaves them). */
  async function dropRebuildObjects(client: pg.ClientBase): Promise<void> {
    await client.query(`DROP TRIGGER IF EXISTS rotunda_rebuild_log ON ${table}`);
    await client.query(`DROP FUNCTION IF EXISTS ${logFunction}()`);
    await client.query(`DROP TABLE IF EXISTS ${changeLog}, ${next.storedTable}, ${next.table}`);
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
      const present = new Set(await write(client, next, current));
      const gone = ids.filter((id) => !present.has(id));
      if (gone.length > 0) await client.query(`DELETE FROM ${next.table} WHERE id = ANY($1::text[])`, [gone]);
    }
  }

  async function rebuild(source: RebuildSource): Promise<RebuildOutcome> {
    const lock = await tryRebuildLock(options.databaseUrl, rebuildLockName);
    if (!lock) return { rebuilt: false };
    try {
      await ensure();
      // From here on every write to the live table logs its id, before the source is read: a document the fill
      // reads before a write changes it is read again from the source by the catch-up.
      await transaction(async (client) => {
        const trigramSchema = await prepareSchema(client);
        await dropRebuildObjects(client);
        for (const statement of createStatements(trigramSchema, next)) await client.query(statement);
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
        await transaction((client) => write(client, next, documents));
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
        if (definition.stored)
          await client.query(`ALTER TABLE ${next.storedTable} RENAME TO ${quote(live.storedName)}`);
        for (const [i, name] of next.all.entries())
          await client.query(`ALTER INDEX ${qualified(name)} RENAME TO ${quote(live.all[i] as string)}`);
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

  async function clear(): Promise<void> {
    await transaction(async (client) => {
      await client.query(`TRUNCATE ${definition.stored ? `${table}, ${storedTable}` : table}`);
      await notify(client, EVERYTHING_CHANGED);
    });
  }

  async function close(): Promise<void> {
    await pool.end();
  }

  return { ensure, upsert, remove, search, rebuild, clear, close, documents, allDocuments };
}
