// The in-memory search engine: the port's semantics over documents held in this process, with a trigram index for
// words and postings for keyword filters. It is the read side of the replicated index (replica.ts), which keeps it
// equal to the Postgres index; the query checks and case folding are the other adapters' (semantics.ts).
import type {
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
  SortFieldDefinition,
} from './port.ts';
import { Fields, type PreparedDocument, type PreparedQuery, type PreparedSortKey } from './semantics.ts';

/** Postgres' FIELD_SEPARATOR: query words hold no whitespace, so no word matches across two fields. */
const FIELD_SEPARATOR = '\n';

/** Rebuilds the postings once this many replaced or removed entries linger in them, and they outnumber the live. */
const COMPACT_AFTER = 1024;

/** One document as the engine keeps it: spread over columns by ordinal, not an object each, fewer for GC to trace. */
interface Row {
  id: string;
  /** The folded text fields joined by FIELD_SEPARATOR. */
  haystack: string;
  /** Per keyword field, in definition order; equal lists are one shared array. */
  keywords: readonly (readonly string[])[];
  /** Per sort field, in definition order. */
  sort: readonly (string | number | null)[];
  stored: string | null;
}

/**
 * Ascending ordinals in a typed array that doubles as it grows: a third of a number[]'s memory, which matters at a
 * hundred thousand people with dozens of trigrams each.
 */
class Postings {
  ordinals = new Int32Array(4);
  length = 0;
  /**
   * A bit per ordinal, once the list holds at least one ordinal in 32 (the bits then take no more room than the
   * list): candidates are narrowed by it with one lookup each, where merging walked the whole long list.
   */
  bits: Uint32Array | undefined;

  push(ordinal: number): void {
    if (this.length === this.ordinals.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.ordinals);
      this.ordinals = grown;
    }
    this.ordinals[this.length++] = ordinal;
    if (this.bits) {
      if (ordinal >>> 5 >= this.bits.length) {
        const grown = new Uint32Array(Math.max(this.bits.length * 2, (ordinal >>> 5) + 1));
        grown.set(this.bits);
        this.bits = grown;
      }
      this.bits[ordinal >>> 5] = (this.bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
    }
  }

  /** After a full load of `count` ordinals: gives back the room left to grow into, and sets the bits if dense. */
  settle(count: number): void {
    if (this.ordinals.length > this.length) this.ordinals = this.ordinals.slice(0, this.length);
    this.bits = undefined;
    if (this.length * 32 < count) return;
    const bits = new Uint32Array((count >>> 5) + 1);
    for (let i = 0; i < this.length; i++) {
      const ordinal = this.ordinals[i] as number;
      bits[ordinal >>> 5] = (bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
    }
    this.bits = bits;
  }

  /** The candidates also in this list. */
  narrow(candidates: Int32Array): Int32Array {
    const { bits } = this;
    if (!bits) return intersect(candidates, this.view());
    const kept = new Int32Array(candidates.length);
    let length = 0;
    for (let i = 0; i < candidates.length; i++) {
      const ordinal = candidates[i] as number;
      if (((bits[ordinal >>> 5] ?? 0) & (1 << (ordinal & 31))) !== 0) kept[length++] = ordinal;
    }
    return kept.subarray(0, length);
  }

  view(): Int32Array {
    return this.ordinals.subarray(0, this.length);
  }
}

const NO_POSTINGS = new Postings();

/**
 * Code point order, which is what Postgres' COLLATE "C" (UTF-8 bytes) and Elasticsearch's keyword sort use. JS
 * compares UTF-16 code units, which differs only where a surrogate meets a code unit from U+E000 up.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Past this many matches, a page in one field's order walks that order instead of sorting the matches. */
const WALK_AFTER = 512;

/** Candidates this few are checked one by one rather than narrowed by intersecting more postings. */
const NARROW_ENOUGH = 32;

/** A list this many times longer than the other is searched (galloping) rather than walked in step. */
const GALLOP_RATIO = 8;

/** The first index from `from` on whose ordinal is not below `ordinal` (list.length if none). */
function lowerBound(list: Int32Array, from: number, ordinal: number): number {
  let low = from;
  let high = from;
  let step = 1;
  while (high < list.length && (list[high] as number) < ordinal) {
    low = high + 1;
    high += step;
    step *= 2;
  }
  high = Math.min(high, list.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as number) < ordinal) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The ordinals in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const both = new Int32Array(Math.min(a.length, b.length));
  let length = 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length > GALLOP_RATIO * short.length) {
    for (let i = 0, j = 0; i < short.length && j < long.length; i++) {
      const ordinal = short[i] as number;
      j = lowerBound(long, j, ordinal);
      if (long[j] === ordinal) both[length++] = ordinal;
    }
    return both.subarray(0, length);
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both[length++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both.subarray(0, length);
}

const hasAny = (present: readonly string[], values: string[]): boolean => {
  for (const value of values) if (present.includes(value)) return true;
  return false;
};

/** A seeded 32-bit hash of an id (FNV-1a, then a murmur3 finalizer): a random order fixed by its seed. */
function seededHash(seed: number, id: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Every run of three code units in `text` that holds no field separator. */
function trigramsOf(text: string): Set<string> {
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) {
    const trigram = text.slice(i, i + 3);
    if (!trigram.includes(FIELD_SEPARATOR)) trigrams.add(trigram);
  }
  return trigrams;
}

/** The two sorted runs of ordinals as one, in `compare` order. */
function merge(a: Int32Array, b: Int32Array, compare: (x: number, y: number) => number): Int32Array {
  const merged = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length)
    merged[k++] = compare(a[i] as number, b[j] as number) <= 0 ? (a[i++] as number) : (b[j++] as number);
  merged.set(a.subarray(i), k);
  merged.set(b.subarray(j), k + a.length - i);
  return merged;
}

/** Every live entry in one sort field's order, kept in step with each change, and where each entry stands in it. */
interface Walk {
  order: Int32Array;
  compare: (a: number, b: number) => number;
  /** Each ordinal's place in `order`; computed when first asked after a change. */
  places?: Int32Array;
}

export interface MemorySearchIndex extends SearchIndex {
  /** Replaces documents and drops ids at once, with no search in between (the replica applies a refresh so). */
  apply(upserts: SearchDocument[], removals: string[]): void;
  /**
   * Replaces every document at once (a full reload) with those of `pages`, taken one page at a time: only their
   * compact rows are kept until the last, and searches answer from the documents before until then.
   */
  replaceAll(pages: AsyncIterable<SearchDocument[]> | Iterable<SearchDocument[]>): Promise<void>;
  readonly size: number;
}

export function createMemorySearchIndex(definition: SearchIndexDefinition): MemorySearchIndex {
  const fields = new Fields(definition);
  const { textFields, keywordFields, sortFields } = fields.definition;

  // The columns, by ordinal; replaced and removed documents stay in them (and the postings) until compacted.
  let ids: string[] = [];
  let haystacks: string[] = [];
  let keywordColumns: (readonly string[])[][] = keywordFields.map(() => []);
  let sortColumns: (string | number | null)[][] = sortFields.map(() => []);
  let storedColumn: (string | null)[] = [];
  /** 1 where the document at that ordinal is current. */
  let alive = new Uint8Array(1024);
  let byId = new Map<string, number>();
  let trigrams = new Map<string, Postings>();
  /** Per keyword field (definition order), each value's postings. */
  let keywordPostings: Map<string, Postings>[] = keywordFields.map(() => new Map());
  /** Per keyword field, one shared array for each distinct list of values (most people share their group). */
  let keywordLists: Map<string, readonly string[]>[] = keywordFields.map(() => new Map());
  let dead = 0;
  /** Per sort field, each ordinal's dense rank ascending (missing values: -1), for orders of several keys. */
  let ranks: Int32Array[] | undefined;
  let idRanks: Int32Array | undefined;
  /** Per order of one sort field ("name asc"), built when first asked. */
  let walks = new Map<string, Walk>();

  const keywordIndex = new Map(keywordFields.map((name, i) => [name, i]));
  const sortIndex = new Map(sortFields.map(({ name }, i) => [name, i]));

  function shared(field: number, values: readonly string[]): readonly string[] {
    const lists = keywordLists[field] as Map<string, readonly string[]>;
    const key = values.join(FIELD_SEPARATOR);
    let list = lists.get(key);
    if (!list) {
      list = Object.freeze([...values]);
      lists.set(key, list);
    }
    return list;
  }

  function rowOf(document: PreparedDocument): Row {
    return {
      id: document.id,
      haystack: textFields.map((name) => document.text[name] ?? '').join(FIELD_SEPARATOR),
      keywords: keywordFields.map((name) => document.keywords[name] ?? []),
      sort: sortFields.map(({ name }) => document.sort[name] ?? null),
      stored: document.stored,
    };
  }

  const rowAt = (ordinal: number): Row => ({
    id: ids[ordinal] as string,
    haystack: haystacks[ordinal] as string,
    keywords: keywordColumns.map((column) => column[ordinal] as readonly string[]),
    sort: sortColumns.map((column) => column[ordinal] ?? null),
    stored: storedColumn[ordinal] ?? null,
  });

  const post = (postings: Map<string, Postings>, key: string, ordinal: number) => {
    let list = postings.get(key);
    if (!list) {
      list = new Postings();
      postings.set(key, list);
    }
    list.push(ordinal);
  };

  /** Adds the row under the next ordinal; answers it. */
  function add(row: Row): number {
    const ordinal = ids.length;
    row.keywords.forEach((values, field) => {
      const list = shared(field, values);
      (keywordColumns[field] as (readonly string[])[]).push(list);
      for (const value of list) post(keywordPostings[field] as Map<string, Postings>, value, ordinal);
    });
    row.sort.forEach((value, field) => {
      (sortColumns[field] as (string | number | null)[]).push(value);
    });
    for (const trigram of trigramsOf(row.haystack)) post(trigrams, trigram, ordinal);
    ids.push(row.id);
    haystacks.push(row.haystack);
    storedColumn.push(row.stored);
    if (ordinal === alive.length) {
      const grown = new Uint8Array(alive.length * 2);
      grown.set(alive);
      alive = grown;
    }
    alive[ordinal] = 1;
    byId.set(row.id, ordinal);
    return ordinal;
  }

  function drop(id: string): void {
    const ordinal = byId.get(id);
    if (ordinal === undefined) return;
    alive[ordinal] = 0;
    byId.delete(id);
    dead++;
  }

  function rebuild(rows: Row[]): void {
    ids = [];
    haystacks = [];
    keywordColumns = keywordFields.map(() => []);
    sortColumns = sortFields.map(() => []);
    storedColumn = [];
    alive = new Uint8Array(Math.max(1024, rows.length));
    byId = new Map();
    trigrams = new Map();
    keywordPostings = keywordFields.map(() => new Map());
    keywordLists = keywordFields.map(() => new Map());
    dead = 0;
    walks = new Map();
    ranks = undefined;
    idRanks = undefined;
    for (const row of rows) add(row);
    for (const list of trigrams.values()) list.settle(rows.length);
    for (const postings of keywordPostings) for (const list of postings.values()) list.settle(rows.length);
  }

  /** After documents were added (`added`) or dropped: each walk in step, compacted when the dead pile up. */
  function changed(added: number[]): void {
    ranks = undefined;
    idRanks = undefined;
    if (dead > COMPACT_AFTER && dead > byId.size) {
      rebuild([...byId.values()].sort((a, b) => a - b).map(rowAt));
      return;
    }
    for (const walk of walks.values()) {
      const kept = walk.order.filter((ordinal) => alive[ordinal] === 1);
      walk.order = merge(kept, Int32Array.from(added).sort(walk.compare), walk.compare);
      walk.places = undefined;
    }
  }

  function apply(upserts: SearchDocument[], removals: string[]): void {
    const prepared = fields.prepareDocuments(upserts);
    for (const id of fields.prepareIds(removals)) drop(id);
    const added: number[] = [];
    for (const document of prepared) {
      drop(document.id);
      added.push(add(rowOf(document)));
    }
    changed(added);
  }

  async function replaceAll(
    pages: AsyncIterable<SearchDocument[]> | Iterable<SearchDocument[]>,
  ): Promise<void> {
    const rows = new Map<string, Row>();
    for await (const page of pages)
      for (const document of fields.prepareDocuments(page)) {
        // A repeated id keeps its last version, as in one call.
        rows.delete(document.id);
        rows.set(document.id, rowOf(document));
      }
    rebuild([...rows.values()]);
  }

  /** One sort field's order, missing values last either way, then id ascending. */
  function fieldOrder(
    field: SortFieldDefinition,
    direction: 'asc' | 'desc',
  ): (a: number, b: number) => number {
    const column = () => sortColumns[sortIndex.get(field.name) as number] as (string | number | null)[];
    const sign = direction === 'asc' ? 1 : -1;
    return (a, b) => {
      const values = column();
      const u = values[a] ?? null;
      const v = values[b] ?? null;
      if (u !== v) {
        if (u === null) return 1;
        if (v === null) return -1;
        const difference =
          field.type === 'number'
            ? (u as number) - (v as number)
            : compareCodePoints(u as string, v as string);
        if (difference !== 0) return sign * difference;
      }
      return compareCodePoints(ids[a] as string, ids[b] as string);
    };
  }

  function walkOf(field: SortFieldDefinition, direction: 'asc' | 'desc'): Walk {
    const name = `${field.name} ${direction}`;
    let walk = walks.get(name);
    if (!walk) {
      const compare = fieldOrder(field, direction);
      walk = { order: Int32Array.from(byId.values()).sort(compare), compare };
      walks.set(name, walk);
    }
    return walk;
  }

  function placesOf(walk: Walk): Int32Array {
    if (!walk.places) {
      const places = new Int32Array(ids.length);
      for (let i = 0; i < walk.order.length; i++) places[walk.order[i] as number] = i;
      walk.places = places;
    }
    return walk.places;
  }

  /** Dense ranks of the live ordinals by `compare`, equal values sharing a rank; -1 for those left out. */
  function rankBy(
    compare: (a: number, b: number) => number,
    include: (ordinal: number) => boolean,
  ): Int32Array {
    const result = new Int32Array(ids.length).fill(-1);
    const ordinals = [...byId.values()].filter(include).sort(compare);
    let rank = -1;
    let previous: number | undefined;
    for (const ordinal of ordinals) {
      if (previous === undefined || compare(previous, ordinal) !== 0) rank++;
      result[ordinal] = rank;
      previous = ordinal;
    }
    return result;
  }

  function sortRanks(): { ranks: Int32Array[]; idRanks: Int32Array } {
    if (!ranks || !idRanks) {
      ranks = sortFields.map(({ type }, field) => {
        const values = sortColumns[field] as (string | number | null)[];
        return rankBy(
          type === 'number'
            ? (a, b) => (values[a] as number) - (values[b] as number)
            : (a, b) => compareCodePoints(values[a] as string, values[b] as string),
          (ordinal) => (values[ordinal] ?? null) !== null,
        );
      });
      idRanks = rankBy(
        (a, b) => compareCodePoints(ids[a] as string, ids[b] as string),
        () => true,
      );
    }
    return { ranks, idRanks };
  }

  /** What a candidate must still be checked for, with its fields' columns looked up once. */
  interface Check {
    words: string[];
    filters: { column: (readonly string[])[]; values: string[] }[];
    exclude: { column: (readonly string[])[]; values: string[] }[];
  }

  const isEmpty = ({ words, filters, exclude }: Check) =>
    words.length === 0 && filters.length === 0 && exclude.length === 0;

  /** Whether the document has every word, passes every filter and no exclusion (liveness aside). */
  function isMatch(ordinal: number, { words, filters, exclude }: Check): boolean {
    if (words.length > 0) {
      const haystack = haystacks[ordinal] as string;
      for (const word of words) if (!haystack.includes(word)) return false;
    }
    for (const { column, values } of filters)
      if (!hasAny(column[ordinal] as readonly string[], values)) return false;
    for (const { column, values } of exclude)
      if (hasAny(column[ordinal] as readonly string[], values)) return false;
    return true;
  }

  /**
   * The ordinals every match is among: the postings of each word's trigrams and of single-value filters,
   * intersected shortest first until few are left; undefined when the query has none (everyone may match). And
   * what each candidate must still be checked for: with every posting intersected, a single-value filter is met
   * and so is a word three code units long (its one trigram is the word); a longer word only may occur, a shorter
   * one has no trigram.
   */
  function candidatesOf(query: PreparedQuery): { candidates: Int32Array | undefined; check: Check } {
    const column = (field: string) =>
      keywordColumns[keywordIndex.get(field) as number] as (readonly string[])[];
    const check: Check = {
      words: query.words,
      filters: query.filters.map(({ field, values }) => ({ column: column(field), values })),
      exclude: query.exclude.map(({ field, values }) => ({ column: column(field), values })),
    };
    const lists: Postings[] = [];
    for (const word of query.words)
      for (const trigram of trigramsOf(word)) lists.push(trigrams.get(trigram) ?? NO_POSTINGS);
    for (const { field, values } of query.filters)
      if (values.length === 1)
        lists.push(
          keywordPostings[keywordIndex.get(field) as number]?.get(values[0] as string) ?? NO_POSTINGS,
        );
    lists.sort((a, b) => a.length - b.length);
    const [shortest, ...rest] = lists;
    if (!shortest) return { candidates: undefined, check };
    let candidates = shortest.view();
    let intersected = 1;
    for (const list of rest) {
      if (candidates.length <= NARROW_ENOUGH) break;
      candidates = list.narrow(candidates);
      intersected++;
    }
    if (intersected < lists.length) return { candidates, check };
    return {
      candidates,
      check: {
        words: check.words.filter((word) => word.length !== 3),
        filters: check.filters.filter(({ values }) => values.length !== 1),
        exclude: check.exclude,
      },
    };
  }

  /**
   * Marks `ordinals` for one search: stamps[ordinal] === the answered stamp. One array reused by every search,
   * never cleared (a new stamp forgets the old marks), since allocating and zeroing a byte per document on each
   * search cost more than the rest of a narrow one.
   */
  let stamps = new Uint32Array(0);
  let stamp = 0;
  function mark(ordinals: ArrayLike<number>): number {
    if (stamps.length < ids.length || stamp === 0xffffffff) {
      stamps = new Uint32Array(Math.max(ids.length, 1024));
      stamp = 0;
    }
    stamp++;
    for (let i = 0; i < ordinals.length; i++) stamps[ordinals[i] as number] = stamp;
    return stamp;
  }

  /** The query's order over `among` (ordinals), for orders of several keys or a random one: its keys, then id. */
  function comparator(sort: PreparedSortKey[], among: number[]): (a: number, b: number) => number {
    const { ranks: byField, idRanks: idOrder } = sortRanks();
    const keys = sort.map((key) => {
      if ('random' in key) {
        const seed = key.random;
        const hashes = new Map(among.map((ordinal) => [ordinal, seededHash(seed, ids[ordinal] as string)]));
        return (a: number, b: number) => (hashes.get(a) as number) - (hashes.get(b) as number);
      }
      const rank = byField[sortIndex.get(key.field.name) as number] as Int32Array;
      const sign = key.direction === 'asc' ? 1 : -1;
      // Missing values (rank -1) come last in both directions.
      return (a: number, b: number) => {
        const x = rank[a] as number;
        const y = rank[b] as number;
        if (x === y) return 0;
        if (x < 0) return 1;
        if (y < 0) return -1;
        return sign * (x - y);
      };
    });
    return (a, b) => {
      for (const key of keys) {
        const difference = key(a, b);
        if (difference !== 0) return difference;
      }
      return (idOrder[a] as number) - (idOrder[b] as number);
    };
  }

  /** The ordinals of the page among `found`: in one field's order by where they stand in its walk. */
  function page(query: PreparedQuery, walk: Walk | undefined, found: number[]): number[] {
    const end = query.offset + query.limit;
    if (!walk) return found.sort(comparator(query.sort, found)).slice(query.offset, end);
    if (found.length <= WALK_AFTER) {
      const places = placesOf(walk);
      return found.sort((a, b) => (places[a] as number) - (places[b] as number)).slice(query.offset, end);
    }
    const matched = mark(found);
    const picked: number[] = [];
    for (let i = 0, seen = 0; i < walk.order.length && seen < end; i++) {
      const ordinal = walk.order[i] as number;
      if (stamps[ordinal] === matched && seen++ >= query.offset) picked.push(ordinal);
    }
    return picked;
  }

  /**
   * Page and total. In one field's order, when many documents may match, the search walks that order, checking
   * each, and stops once it has the page and has counted as far as it must: walking (count bound) / (share
   * matching) documents beats checking every candidate when matches are dense ("everyone", a big group). Fewer
   * candidates are checked one by one and the matches sorted.
   */
  function searchNow(query: SearchQuery): SearchResult {
    const prepared = fields.prepareQuery(query);
    const { offset, limit, countTotal, countUpTo } = prepared;
    const end = offset + limit;
    const [key, ...others] = prepared.sort;
    const walk =
      key && !('random' in key) && others.length === 0 ? walkOf(key.field, key.direction) : undefined;
    const { candidates, check } = candidatesOf(prepared);
    const exact = isEmpty(check);
    const estimate = candidates?.length ?? byId.size;
    const needed = !countTotal
      ? end
      : countUpTo === null
        ? Number.POSITIVE_INFINITY
        : Math.max(end, countUpTo + 1);
    let picked: number[];
    let total = 0;
    if (walk && estimate * estimate > needed * byId.size) {
      picked = [];
      const marked = candidates ? mark(candidates) : undefined;
      for (let i = 0; i < walk.order.length && total < needed; i++) {
        const ordinal = walk.order[i] as number;
        if (marked !== undefined && stamps[ordinal] !== marked) continue;
        if (!exact && !isMatch(ordinal, check)) continue;
        if (total >= offset && total < end) picked.push(ordinal);
        total++;
      }
    } else {
      const found: number[] = [];
      for (const ordinal of candidates ?? byId.values())
        if (alive[ordinal] === 1 && (exact || isMatch(ordinal, check))) found.push(ordinal);
      picked = page(prepared, walk, found);
      total = found.length;
    }
    const pageIds = picked.map((ordinal) => ids[ordinal] as string);
    const stored = prepared.withStored
      ? { stored: picked.map((ordinal) => storedColumn[ordinal] ?? null) }
      : {};
    if (!countTotal) return { ids: pageIds, total: -1, ...stored };
    return countUpTo !== null && total > countUpTo
      ? { ids: pageIds, total: countUpTo, totalIsLowerBound: true, ...stored }
      : { ids: pageIds, total, ...stored };
  }

  return {
    ensure: async () => {},
    upsert: async (documents) => apply(documents, []),
    remove: async (ids) => apply([], ids),
    search: async (query) => searchNow(query),
    clear: () => replaceAll([]),
    close: () => replaceAll([]),
    apply,
    replaceAll,
    get size() {
      return byId.size;
    },
  };
}
