// The Postgres index's tables: their names for the live generation and a rebuild's, the statements that create
// them (columns, the trigram, keyword and sort indexes), and how a document is written into them and read back.
import pg from 'pg';
import type { SearchDocument } from '../port.ts';
import { definitionFingerprint, type Fields } from '../semantics.ts';

/** Bumped when the table layout below changes, so ensure() calls tables made by an older version outdated. */
const LAYOUT_VERSION = 'pg-1';

/**
 * Joins the text fields in the concatenated column: a newline. Query words are split on whitespace, so no word
 * contains one and `LIKE '%word%'` can never match across the boundary between two fields. One trigram-indexed
 * column thus keeps per-field semantics without one LIKE per field per word (fewer index lookups).
 */
const FIELD_SEPARATOR_SQL = "E'\\n'";

/** Rows per INSERT: one JSON parameter each, so the size is about memory, not Postgres' parameter limit. */
export const UPSERT_BATCH = 1000;

export const quote = (identifier: string) => `"${identifier}"`;
export const textColumn = (name: string) => `t_${name}`;
export const keywordColumn = (name: string) => `k_${name}`;
export const sortColumn = (name: string) => `s_${name}`;

const objectName = (base: string, suffix: string) => {
  const name = `${base}_${suffix}`;
  // Postgres silently truncates longer names, which could make two indexes collide.
  if (name.length > 63)
    throw new TypeError(`search: index name ${name} is longer than Postgres' 63 characters`);
  return name;
};

export type PostgresTables = ReturnType<typeof postgresTables>;
export type Generation = PostgresTables['live'];

/** The tables of the index `index` in `schema`, holding the fields' documents. */
export function postgresTables(fields: Fields, schema: string, index: string) {
  const { definition } = fields;
  const fieldNames = [
    ...definition.textFields,
    ...definition.keywordFields,
    ...definition.sortFields.map((f) => f.name),
  ];
  for (const name of fieldNames) {
    // Columns are t_/k_/s_ + the name; a name Postgres would truncate could collide with another.
    if (name.length > 61) throw new TypeError(`search: field name ${name} is too long for a Postgres column`);
  }
  const qualified = (name: string) => `${quote(schema)}.${quote(name)}`;

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
  const live = generationOf(index);
  const next = generationOf(`${index}_rebuild`);
  const { table, storedTable } = live;
  // Hex only, so it is safe as the literal of COMMENT ON (DDL takes no parameters).
  const fingerprint = `rotunda-search:${definitionFingerprint(definition, LAYOUT_VERSION)}`;

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

  /**
   * pg_trgm and the schema, made if missing (in the caller's transaction); answers pg_trgm's schema. Each is made
   * only when missing: a service's own role (ADR 0039) may not create either, and CREATE … IF NOT EXISTS asks for
   * that right first; the role bootstrap made both for it.
   */
  async function prepareSchema(client: pg.ClientBase): Promise<string> {
    const trigramSchemaOf = async () =>
      (
        await client.query<{ schema: string }>(
          `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
            WHERE e.extname = 'pg_trgm'`,
        )
      ).rows[0]?.schema;
    let trigramSchema = await trigramSchemaOf();
    if (!trigramSchema) {
      // pg_trgm is a trusted extension: the database owner may create it without being a superuser.
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      trigramSchema = await trigramSchemaOf();
    }
    if (!trigramSchema) throw new Error('search: pg_trgm is not installed');
    const present = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (present.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
    return trigramSchema;
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

  const documentColumns = insertColumns.join(', ');
  const documentsFrom = definition.stored ? `${table} LEFT JOIN ${storedTable} USING (id)` : table;
  /** The live documents as stored, to be narrowed by a WHERE clause. */
  const documentsSelect = `SELECT ${definition.stored ? `${documentColumns}, stored` : documentColumns} FROM ${documentsFrom}`;

  /** A row of documentsSelect as the document it stores. */
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

  return {
    /** Documents carry a stored value, in a table of its own. */
    stored: definition.stored === true,
    live,
    next,
    /** The ids of live rows written while a rebuild runs, logged by a trigger the rebuild puts on the live table. */
    changeLog: qualified(objectName(index, 'rebuild_changes')),
    logFunction: qualified(objectName(index, 'rebuild_log')),
    qualified,
    fingerprint,
    createStatements,
    prepareSchema,
    write,
    documentsSelect,
    documentOf,
  };
}
