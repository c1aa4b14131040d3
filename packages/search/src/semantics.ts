// The query semantics both adapters share: field validation, case folding, word splitting and query checks,
// done once in TypeScript so Postgres and Elasticsearch cannot drift apart.
import { createHash } from 'node:crypto';
import type { SearchDocument, SearchIndexDefinition, SearchQuery, SortFieldDefinition } from './port.ts';

/** Field, schema and index names end up as SQL identifiers and Elasticsearch paths: keep them boring. */
export const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * Deepest page end (offset + limit) either adapter serves. Elasticsearch refuses from + size beyond the index's
 * max_result_window, which the adapter sets to this; Postgres enforces the same bound so the port behaves alike.
 */
export const MAX_RESULT_WINDOW = 100_000;

/** Elasticsearch's _id limit, enforced on both adapters alike. */
const MAX_ID_BYTES = 512;

export function assertIdentifier(kind: string, name: string): void {
  if (!IDENTIFIER.test(name))
    throw new TypeError(`search: ${kind} ${JSON.stringify(name)} must match ${IDENTIFIER}`);
}

export function validateDefinition(definition: SearchIndexDefinition): SearchIndexDefinition {
  if (definition.textFields.length === 0)
    throw new TypeError('search: an index needs at least one text field');
  // A name may be both a text and a sort field (e.g. name); within one kind it must be unique.
  const seen = new Set<string>();
  const check = (kind: string, name: string) => {
    assertIdentifier(`${kind} field`, name);
    if (seen.has(`${kind}:${name}`)) throw new TypeError(`search: ${kind} field ${name} is declared twice`);
    seen.add(`${kind}:${name}`);
  };
  for (const name of definition.textFields) check('text', name);
  for (const name of definition.keywordFields) check('keyword', name);
  for (const field of definition.sortFields) {
    check('sort', field.name);
    if (field.type !== 'text' && field.type !== 'number') {
      throw new TypeError(
        `search: sort field ${field.name} has type ${String(field.type)}, not text or number`,
      );
    }
  }
  if (definition.stored !== undefined && typeof definition.stored !== 'boolean')
    throw new TypeError('search: stored is true or false');
  return {
    textFields: [...definition.textFields],
    keywordFields: [...definition.keywordFields],
    sortFields: definition.sortFields.map((field) => ({ name: field.name, type: field.type })),
    // Only when set, so the fingerprint of an index without stored values stays what it was.
    ...(definition.stored ? { stored: true } : {}),
  };
}

/**
 * A short digest of the definition. Stored with the table or index so ensure() notices a definition that
 * changed since the index was built (a new field would otherwise be silently unsearchable).
 */
export function definitionFingerprint(definition: SearchIndexDefinition, engineVersion: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ engineVersion, ...definition }))
    .digest('hex')
    .slice(0, 32);
}

/**
 * Case folding for stored text, sort text and query words alike. Done here rather than with SQL lower() or an
 * Elasticsearch analyzer so both engines fold identically whatever the database's locale: NFC first so a
 * decomposed 'é' equals a composed one, then Unicode lower-casing ('JOSÉ' -> 'josé'; accents stay significant).
 * NUL is dropped because Postgres text cannot hold it.
 */
export function fold(value: string): string {
  return value.replaceAll('\u0000', '').normalize('NFC').toLowerCase().normalize('NFC');
}

/**
 * The query's words: split on any whitespace, folded. No word ever contains whitespace, which is what lets the
 * Postgres adapter join fields with a newline and still never match a word across two fields.
 */
export function queryWords(text: string | undefined): string[] {
  if (!text) return [];
  const words = fold(text)
    .split(/\s+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

/** A document with every declared field present, folded where the semantics fold. */
export interface PreparedDocument {
  id: string;
  text: Record<string, string>;
  keywords: Record<string, string[]>;
  sort: Record<string, string | number | null>;
  stored: string | null;
}

function assertKnown(
  kind: string,
  names: Iterable<string>,
  allowed: ReadonlySet<string>,
  where: string,
): void {
  for (const name of names) {
    if (!allowed.has(name)) throw new TypeError(`search: ${where} names ${kind} field ${name}, not declared`);
  }
}

/** A checked sort key: a declared field with its direction, or the seeded shuffle. */
export type PreparedSortKey = { field: SortFieldDefinition; direction: 'asc' | 'desc' } | { random: number };

export interface PreparedQuery {
  words: string[];
  filters: { field: string; values: string[] }[];
  exclude: { field: string; values: string[] }[];
  sort: PreparedSortKey[];
  offset: number;
  limit: number;
  countTotal: boolean;
  /** Null: count every match. */
  countUpTo: number | null;
  withStored: boolean;
}

/** A random order's seed is a 32-bit integer: what both engines take as a hash seed without loss. */
const SEED_RANGE = { min: -(2 ** 31), max: 2 ** 31 - 1 };

/** Field lookups for one definition, built once per adapter. */
export class Fields {
  readonly definition: SearchIndexDefinition;
  readonly text: ReadonlySet<string>;
  readonly keywords: ReadonlySet<string>;
  readonly sort: ReadonlyMap<string, SortFieldDefinition>;

  constructor(definition: SearchIndexDefinition) {
    this.definition = validateDefinition(definition);
    this.text = new Set(this.definition.textFields);
    this.keywords = new Set(this.definition.keywordFields);
    this.sort = new Map(this.definition.sortFields.map((field) => [field.name, field]));
  }

  /**
   * Checks and completes documents: an undeclared field is a caller bug and throws rather than vanishing; a
   * missing field is empty text, no keywords or no sort value. A repeated id keeps its last version.
   */
  prepareDocuments(documents: SearchDocument[]): PreparedDocument[] {
    const byId = new Map<string, PreparedDocument>();
    for (const document of documents) {
      const { id } = document;
      if (typeof id !== 'string' || id.length === 0)
        throw new TypeError('search: a document needs a non-empty id');
      if (Buffer.byteLength(id) > MAX_ID_BYTES)
        throw new TypeError(`search: id longer than ${MAX_ID_BYTES} bytes`);
      if (id.includes('\u0000')) throw new TypeError('search: an id cannot contain NUL');
      const where = `document ${id}`;
      assertKnown('text', Object.keys(document.text ?? {}), this.text, where);
      assertKnown('keyword', Object.keys(document.keywords ?? {}), this.keywords, where);
      assertKnown('sort', Object.keys(document.sort ?? {}), new Set(this.sort.keys()), where);

      const text: Record<string, string> = {};
      for (const name of this.definition.textFields) {
        const value = document.text?.[name] ?? '';
        if (typeof value !== 'string') throw new TypeError(`search: ${where}: text ${name} is not a string`);
        text[name] = fold(value);
      }
      const keywords: Record<string, string[]> = {};
      for (const name of this.definition.keywordFields) {
        const values = document.keywords?.[name] ?? [];
        if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
          throw new TypeError(`search: ${where}: keywords ${name} must be a list of strings`);
        }
        keywords[name] = [...new Set(values.map((value) => value.replaceAll('\u0000', '')))];
      }
      const sort: Record<string, string | number | null> = {};
      for (const field of this.definition.sortFields) {
        const value = document.sort?.[field.name];
        if (value === undefined || value === null) {
          sort[field.name] = null;
        } else if (field.type === 'number') {
          if (typeof value !== 'number' || !Number.isFinite(value)) {
            throw new TypeError(`search: ${where}: sort ${field.name} must be a finite number`);
          }
          sort[field.name] = value;
        } else {
          if (typeof value !== 'string')
            throw new TypeError(`search: ${where}: sort ${field.name} must be a string`);
          // Folded so the order is case-insensitive on both engines (Elasticsearch also lower-cases by normalizer).
          sort[field.name] = fold(value);
        }
      }
      const stored = document.stored ?? null;
      if (stored !== null) {
        if (!this.definition.stored)
          throw new TypeError(`search: ${where}: the index keeps no stored values`);
        if (typeof stored !== 'string') throw new TypeError(`search: ${where}: stored is a string`);
        // Postgres text cannot hold NUL, and a stored value must come back exactly as given.
        if (stored.includes('\u0000')) throw new TypeError(`search: ${where}: stored cannot contain NUL`);
      }
      byId.delete(id);
      byId.set(id, { id, text, keywords, sort, stored });
    }
    return [...byId.values()];
  }

  prepareIds(ids: string[]): string[] {
    for (const id of ids) {
      if (typeof id !== 'string') throw new TypeError('search: ids must be strings');
    }
    return [...new Set(ids)];
  }

  prepareQuery(query: SearchQuery): PreparedQuery {
    const { offset, limit } = query;
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new RangeError('search: offset must be an integer ≥ 0');
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError('search: limit must be an integer ≥ 0');
    if (offset + limit > MAX_RESULT_WINDOW) {
      throw new RangeError(`search: offset + limit must not exceed ${MAX_RESULT_WINDOW}`);
    }
    if (query.text !== undefined && typeof query.text !== 'string')
      throw new TypeError('search: text is a string');

    const filters = Object.entries(query.filters ?? {}).map(([field, value]) => {
      if (!this.keywords.has(field))
        throw new TypeError(`search: filter names keyword field ${field}, not declared`);
      const values = Array.isArray(value) ? value : [value];
      if (values.some((item) => typeof item !== 'string'))
        throw new TypeError(`search: filter ${field}: strings only`);
      return { field, values: [...new Set(values)] };
    });
    const exclude = Object.entries(query.exclude ?? {})
      .map(([field, values]) => {
        if (!this.keywords.has(field))
          throw new TypeError(`search: exclude names keyword field ${field}, not declared`);
        if (!Array.isArray(values) || values.some((item) => typeof item !== 'string')) {
          throw new TypeError(`search: exclude ${field}: a list of strings`);
        }
        return { field, values: [...new Set(values)] };
      })
      // Leaving out documents that have one of no values leaves out nothing.
      .filter((entry) => entry.values.length > 0);
    const sort = (query.sort ?? []).map((key): PreparedSortKey => {
      if ('random' in key) {
        const seed = key.random;
        if (!Number.isSafeInteger(seed) || seed < SEED_RANGE.min || seed > SEED_RANGE.max)
          throw new RangeError('search: a random order takes a 32-bit integer seed');
        return { random: seed };
      }
      const { field, direction } = key;
      const definition = this.sort.get(field);
      if (!definition) throw new TypeError(`search: sort names field ${field}, not declared`);
      if (direction !== 'asc' && direction !== 'desc')
        throw new TypeError(`search: sort ${field}: asc or desc`);
      return { field: definition, direction };
    });
    if (sort.filter((key) => 'random' in key).length > 1)
      throw new TypeError('search: at most one random order per query');
    if (query.countTotal !== undefined && typeof query.countTotal !== 'boolean')
      throw new TypeError('search: countTotal is true or false');
    const countUpTo = query.countUpTo ?? null;
    if (
      countUpTo !== null &&
      !(Number.isSafeInteger(countUpTo) && countUpTo >= 1 && countUpTo <= MAX_RESULT_WINDOW)
    )
      throw new RangeError(`search: countUpTo is a whole number from 1 to ${MAX_RESULT_WINDOW}`);
    if (query.withStored !== undefined && typeof query.withStored !== 'boolean')
      throw new TypeError('search: withStored is true or false');
    if (query.withStored && !this.definition.stored)
      throw new TypeError('search: withStored asks an index that keeps no stored values');
    return {
      withStored: query.withStored ?? false,
      words: queryWords(query.text),
      filters,
      exclude,
      sort,
      offset,
      limit,
      countTotal: query.countTotal ?? true,
      countUpTo,
    };
  }
}
