// The in-memory engine's documents (memory.ts): spread over columns by ordinal, not an object each (fewer for GC
// to trace), with the postings of each document word (through the vocabulary) and of each keyword value.
// Replaced and removed documents stay in the columns and postings, marked dead, until the engine lays them out
// again.
import type { SearchIndexDefinition } from '../port.ts';
import { Int32Column, Postings } from '../postings.ts';
import type { PreparedDocument } from '../semantics.ts';
import { Vocabulary } from '../vocabulary.ts';
import { compareCodePoints, compareSorted } from './order.ts';

/** The Postgres tables' FIELD_SEPARATOR_SQL: query words hold no whitespace, so no word matches across two fields. */
const FIELD_SEPARATOR = '\n';

/** One document as the columns keep it. */
export interface Row {
  id: string;
  /** The folded text fields joined by FIELD_SEPARATOR. */
  haystack: string;
  /** Per keyword field, in definition order; equal lists are one shared array. */
  keywords: readonly (readonly string[])[];
  /** Per sort field, in definition order. */
  sort: readonly (string | number | null)[];
  stored: string | null;
}

/** A prepared document as a row of the definition's columns. */
export function rowOf(definition: SearchIndexDefinition, document: PreparedDocument): Row {
  return {
    id: document.id,
    haystack: definition.textFields.map((name) => document.text[name] ?? '').join(FIELD_SEPARATOR),
    keywords: definition.keywordFields.map((name) => document.keywords[name] ?? []),
    sort: definition.sortFields.map(({ name }) => document.sort[name] ?? null),
    stored: document.stored,
  };
}

/** The words of folded text: split as query words are, so a query word is part of a document word or of none. */
const wordsOf = (haystack: string): Set<string> =>
  new Set(haystack.split(/\s+/u).filter((word) => word.length > 0));

const post = (postings: Map<string, Postings>, key: string, ordinal: number) => {
  let list = postings.get(key);
  if (!list) {
    list = new Postings();
    postings.set(key, list);
  }
  list.push(ordinal);
};

export class Columns {
  readonly ids: string[] = [];
  readonly haystacks: string[] = [];
  readonly keywordColumns: (readonly string[])[][];
  readonly sortColumns: (string | number | null)[][];
  readonly storedColumn: (string | null)[] = [];
  /** 1 where the document at that ordinal is current. */
  alive: Uint8Array;
  /** The current documents' ordinals. */
  readonly byId = new Map<string, number>();
  readonly vocabulary = new Vocabulary();
  /** Per word (vocabulary id), the ordinals of the documents holding it. */
  readonly wordPostings: Postings[] = [];
  /** Each document's distinct words (vocabulary ids): those of ordinal o end at wordEnds[o], begin where o - 1's end. */
  readonly documentWords = new Int32Column();
  readonly wordEnds = new Int32Column();
  /** Per keyword field (definition order), each value's postings. */
  readonly keywordPostings: Map<string, Postings>[];
  /** Per keyword field, one shared array for each distinct list of values (most people share their group). */
  private readonly keywordLists: Map<string, readonly string[]>[];
  /** Replaced or removed documents still in the columns. */
  dead = 0;
  private readonly keywordIndex: Map<string, number>;
  private readonly sortIndex: Map<string, number>;

  constructor(definition: SearchIndexDefinition, capacity = 1024) {
    const { keywordFields, sortFields } = definition;
    this.keywordColumns = keywordFields.map(() => []);
    this.sortColumns = sortFields.map(() => []);
    this.keywordPostings = keywordFields.map(() => new Map());
    this.keywordLists = keywordFields.map(() => new Map());
    this.alive = new Uint8Array(capacity);
    this.keywordIndex = new Map(keywordFields.map((name, i) => [name, i]));
    this.sortIndex = new Map(sortFields.map(({ name }, i) => [name, i]));
  }

  /**
   * Columns holding `rows`, laid out in the first sort field's ascending order: a page in that order then reads
   * the columns and postings front to back, not all over memory.
   */
  static laidOut(definition: SearchIndexDefinition, rows: Row[]): Columns {
    const first = definition.sortFields[0];
    rows.sort(
      (a, b) =>
        compareSorted(first, 'asc', a.sort[0] ?? null, b.sort[0] ?? null) || compareCodePoints(a.id, b.id),
    );
    const columns = new Columns(definition, Math.max(1024, rows.length));
    for (const row of rows) columns.add(row);
    for (const list of columns.wordPostings) list.settle(rows.length);
    columns.documentWords.trim();
    columns.wordEnds.trim();
    for (const postings of columns.keywordPostings)
      for (const list of postings.values()) list.settle(rows.length);
    return columns;
  }

  get size(): number {
    return this.byId.size;
  }

  keywordColumn(field: string): (readonly string[])[] {
    return this.keywordColumns[this.keywordIndex.get(field) as number] as (readonly string[])[];
  }

  keywordPostingsOf(field: string): Map<string, Postings> | undefined {
    return this.keywordPostings[this.keywordIndex.get(field) as number];
  }

  sortColumn(field: string): (string | number | null)[] {
    return this.sortColumns[this.sortIndex.get(field) as number] as (string | number | null)[];
  }

  /** The values of each keyword list as one shared array. */
  private shared(field: number, values: readonly string[]): readonly string[] {
    const lists = this.keywordLists[field] as Map<string, readonly string[]>;
    const key = values.join(FIELD_SEPARATOR);
    let list = lists.get(key);
    if (!list) {
      list = Object.freeze([...values]);
      lists.set(key, list);
    }
    return list;
  }

  rowAt(ordinal: number): Row {
    return {
      id: this.ids[ordinal] as string,
      haystack: this.haystacks[ordinal] as string,
      keywords: this.keywordColumns.map((column) => column[ordinal] as readonly string[]),
      sort: this.sortColumns.map((column) => column[ordinal] ?? null),
      stored: this.storedColumn[ordinal] ?? null,
    };
  }

  /** Adds the row under the next ordinal; answers it. */
  add(row: Row): number {
    const ordinal = this.ids.length;
    row.keywords.forEach((values, field) => {
      const list = this.shared(field, values);
      (this.keywordColumns[field] as (readonly string[])[]).push(list);
      for (const value of list) post(this.keywordPostings[field] as Map<string, Postings>, value, ordinal);
    });
    row.sort.forEach((value, field) => {
      (this.sortColumns[field] as (string | number | null)[]).push(value);
    });
    for (const word of wordsOf(row.haystack)) {
      const id = this.vocabulary.add(word);
      if (id === this.wordPostings.length) this.wordPostings.push(new Postings());
      (this.wordPostings[id] as Postings).push(ordinal);
      this.documentWords.push(id);
    }
    this.wordEnds.push(this.documentWords.length);
    this.ids.push(row.id);
    this.haystacks.push(row.haystack);
    this.storedColumn.push(row.stored);
    if (ordinal === this.alive.length) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
    }
    this.alive[ordinal] = 1;
    this.byId.set(row.id, ordinal);
    return ordinal;
  }

  drop(id: string): void {
    const ordinal = this.byId.get(id);
    if (ordinal === undefined) return;
    this.alive[ordinal] = 0;
    this.byId.delete(id);
    this.dead++;
  }

  /** The current documents' rows, to lay out again without the dead. */
  liveRows(): Row[] {
    return [...this.byId.values()].map((ordinal) => this.rowAt(ordinal));
  }
}
