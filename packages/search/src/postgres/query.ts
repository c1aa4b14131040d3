// The Postgres index's search statement for one prepared query: every word a LIKE on the trigram-indexed text,
// filters and exclusions on the keyword arrays, the order and page, and the total counted as the query asks;
// and which of these statements are prepared once per connection.
import type { PreparedQuery } from '../semantics.ts';
import { keywordColumn, sortColumn } from './tables.ts';

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

/** Escapes LIKE's wildcards so a user's '%', '_' or '\' is a literal character (backslash is LIKE's default escape). */
export function likeContains(word: string): string {
  return `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Prepared-statement names by SQL text, `prefix` and a number: pg parses a named statement once per connection,
 * and Postgres may then reuse one generic plan instead of planning every call (less database CPU per search,
 * ADR 0033). Undefined past MAX_PREPARED_SHAPES.
 */
export function statementNamer(prefix: string): (sql: string) => string | undefined {
  const statementNames = new Map<string, string>();
  return (sql) => {
    let name = statementNames.get(sql);
    if (name === undefined && statementNames.size < MAX_PREPARED_SHAPES) {
      name = `${prefix}.${statementNames.size}`;
      statementNames.set(sql, name);
    }
    return name;
  };
}

/** The statement answering `query` from `table` (one row: total and ids), and whether to prepare it. */
export function searchStatement(
  table: string,
  query: PreparedQuery,
): { sql: string; params: unknown[]; prepare: boolean } {
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions: string[] = [];
  // Every word must be a substring of the lower-cased concatenation, hence of one field (FIELD_SEPARATOR_SQL in tables.ts).
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
    // through the trigram index; a generic plan is many times slower for a common word, ADR 0033), so those are
    // planned per call.
    const sql = `SELECT -1 AS total, ARRAY(SELECT id FROM ${table} ${where} ${page}) AS ids`;
    return { sql, params, prepare: query.words.length === 0 };
  }
  // One round trip and always one row, even past the last page (count(*) OVER () would give no row there).
  if (query.words.some((word) => [...word].length >= 3)) {
    // A word of 3+ characters has trigrams, so the index narrows the matches: scan them once, then count
    // and sort that set (faster than scanning twice, ADR 0033).
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
    // (ADR 0033), so those calls stay unprepared and are planned for their own words.
    return { sql, params, prepare: query.words.some((word) => TRIGRAM.test(word)) };
  }
  // No words, or only 1-2 character ones (no trigram, so a scan): possibly most rows match, so keep count and
  // page as separate sub-plans: the page walks a sort index and stops after `limit` rows instead of sorting
  // every match, and the count runs alone.
  const sql = `SELECT ${counted(`${table} ${where}`)} AS total,
    ARRAY(SELECT id FROM ${table} ${where} ${page}) AS ids`;
  // Planned per call: a generic plan here would take the trigram index for 1-2 character words, which have no
  // trigram, and read all of it (slower than the scan, ADR 0033).
  return { sql, params, prepare: false };
}
