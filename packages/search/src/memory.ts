// The in-memory search engine: the port's semantics over documents held in this process, with a trigram index for
// words and postings for keyword filters. It is the read side of the replicated index (replica.ts), which keeps it
// equal to the Postgres index; the query checks and case folding are the other adapters' (semantics.ts).
import type {
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
} from './port.ts';
import { Fields, type PreparedDocument, type PreparedQuery, type PreparedSortKey } from './semantics.ts';

/** Postgres' FIELD_SEPARATOR: query words hold no whitespace, so no word matches across two fields. */
const FIELD_SEPARATOR = '\n';

/** Rebuilds the postings once this many replaced or removed entries linger in them, and they outnumber the live. */
const COMPACT_AFTER = 1024;

interface Entry {
  id: string;
  /** As upserted, for rebuilding the postings. */
  document: PreparedDocument;
  /** The folded text fields joined by FIELD_SEPARATOR. */
  haystack: string;
  keywords: Record<string, ReadonlySet<string>>;
  sort: Record<string, string | number | null>;
  live: boolean;
}

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

/** Past this many matches, a page in one field's order walks every entry in that order instead of sorting them. */
const WALK_AFTER = 512;

/** Candidates this few are checked one by one rather than narrowed by intersecting more postings. */
const NARROW_ENOUGH = 32;

/** The ordinals in both ascending lists. */
function intersect(a: number[], b: number[]): number[] {
  const both: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both.push(x);
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both;
}

const hasAny = (present: ReadonlySet<string> | undefined, values: string[]): boolean => {
  if (!present) return false;
  for (const value of values) if (present.has(value)) return true;
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

export interface MemorySearchIndex extends SearchIndex {
  /** Replaces documents and drops ids at once, with no search in between (the replica applies a refresh so). */
  apply(upserts: SearchDocument[], removals: string[]): void;
  /** Replaces every document at once (a full reload). */
  replaceAll(documents: SearchDocument[]): void;
  readonly size: number;
}

export function createMemorySearchIndex(definition: SearchIndexDefinition): MemorySearchIndex {
  const fields = new Fields(definition);
  const { textFields, keywordFields, sortFields } = fields.definition;

  let entries: Entry[] = [];
  let byId = new Map<string, number>();
  let trigrams = new Map<string, number[]>();
  let keywordPostings = new Map<string, Map<string, number[]>>();
  let dead = 0;
  /** Per sort field, each entry's dense rank ascending (missing values: -1); rebuilt after a change. */
  let ranks: Map<string, Int32Array> | undefined;
  let idRanks: Int32Array | undefined;
  /** Every live entry in one field's order ("name asc"), for pages of many matches; rebuilt after a change. */
  let walks = new Map<string, Int32Array>();

  const post = (postings: Map<string, number[]>, key: string, ordinal: number) => {
    const list = postings.get(key);
    if (list) list.push(ordinal);
    else postings.set(key, [ordinal]);
  };

  function add(document: PreparedDocument): void {
    const ordinal = entries.length;
    const keywords: Record<string, ReadonlySet<string>> = {};
    for (const name of keywordFields) {
      const values = new Set(document.keywords[name] ?? []);
      keywords[name] = values;
      let postings = keywordPostings.get(name);
      if (!postings) {
        postings = new Map();
        keywordPostings.set(name, postings);
      }
      for (const value of values) post(postings, value, ordinal);
    }
    const haystack = textFields.map((name) => document.text[name] ?? '').join(FIELD_SEPARATOR);
    for (const trigram of trigramsOf(haystack)) post(trigrams, trigram, ordinal);
    entries.push({ id: document.id, document, haystack, keywords, sort: document.sort, live: true });
    byId.set(document.id, ordinal);
  }

  function drop(id: string): void {
    const ordinal = byId.get(id);
    if (ordinal === undefined) return;
    (entries[ordinal] as Entry).live = false;
    byId.delete(id);
    dead++;
  }

  function rebuild(documents: PreparedDocument[]): void {
    entries = [];
    byId = new Map();
    trigrams = new Map();
    keywordPostings = new Map();
    dead = 0;
    for (const document of documents) add(document);
  }

  const liveDocuments = (): PreparedDocument[] =>
    entries.filter((entry) => entry.live).map((entry) => entry.document);

  function changed(): void {
    ranks = undefined;
    idRanks = undefined;
    walks = new Map();
    if (dead > COMPACT_AFTER && dead > byId.size) rebuild(liveDocuments());
  }

  function apply(upserts: SearchDocument[], removals: string[]): void {
    const prepared = fields.prepareDocuments(upserts);
    for (const id of fields.prepareIds(removals)) drop(id);
    for (const document of prepared) {
      drop(document.id);
      add(document);
    }
    changed();
  }

  function replaceAll(documents: SearchDocument[]): void {
    rebuild(fields.prepareDocuments(documents));
    changed();
  }

  /** Dense ranks of the live entries by `compare`, equal values sharing a rank. */
  function rankBy(compare: (a: Entry, b: Entry) => number, include: (entry: Entry) => boolean): Int32Array {
    const result = new Int32Array(entries.length).fill(-1);
    const ordinals = [...byId.values()].filter((ordinal) => include(entries[ordinal] as Entry));
    ordinals.sort((a, b) => compare(entries[a] as Entry, entries[b] as Entry));
    let rank = -1;
    let previous: Entry | undefined;
    for (const ordinal of ordinals) {
      const entry = entries[ordinal] as Entry;
      if (!previous || compare(previous, entry) !== 0) rank++;
      result[ordinal] = rank;
      previous = entry;
    }
    return result;
  }

  function sortRanks(): { ranks: Map<string, Int32Array>; idRanks: Int32Array } {
    if (!ranks || !idRanks) {
      ranks = new Map();
      for (const { name, type } of sortFields) {
        const value = (entry: Entry) => entry.sort[name] ?? null;
        ranks.set(
          name,
          rankBy(
            type === 'number'
              ? (a, b) => (value(a) as number) - (value(b) as number)
              : (a, b) => compareCodePoints(value(a) as string, value(b) as string),
            (entry) => value(entry) !== null,
          ),
        );
      }
      idRanks = rankBy(
        (a, b) => compareCodePoints(a.id, b.id),
        () => true,
      );
    }
    return { ranks, idRanks };
  }

  /**
   * The live entries matching every word, filter and exclusion. Candidates come from intersecting the shortest
   * postings (each word's trigrams, single-value filters), all in ascending ordinal order; each candidate is then
   * checked in full, since trigrams only say a word may occur.
   */
  function matches(query: PreparedQuery): number[] {
    const lists: number[][] = [];
    for (const word of query.words)
      for (const trigram of trigramsOf(word)) lists.push(trigrams.get(trigram) ?? []);
    for (const { field, values } of query.filters) {
      if (values.length === 1) lists.push(keywordPostings.get(field)?.get(values[0] as string) ?? []);
    }
    lists.sort((a, b) => a.length - b.length);
    let candidates: Iterable<number> = byId.values();
    const [shortest, ...rest] = lists;
    if (shortest) {
      let narrowed = shortest;
      for (const list of rest) {
        if (narrowed.length <= NARROW_ENOUGH) break;
        narrowed = intersect(narrowed, list);
      }
      candidates = narrowed;
    }
    const { words, filters, exclude } = query;
    const found: number[] = [];
    next: for (const ordinal of candidates) {
      const entry = entries[ordinal] as Entry;
      if (!entry.live) continue;
      for (const word of words) if (!entry.haystack.includes(word)) continue next;
      for (const { field, values } of filters) if (!hasAny(entry.keywords[field], values)) continue next;
      for (const { field, values } of exclude) if (hasAny(entry.keywords[field], values)) continue next;
      found.push(ordinal);
    }
    return found;
  }

  /** The query's order over `among` (ordinals): its keys, then id ascending. */
  function comparator(sort: PreparedSortKey[], among: number[]): (a: number, b: number) => number {
    const { ranks: byField, idRanks: idOrder } = sortRanks();
    const keys = sort.map((key) => {
      if ('random' in key) {
        const seed = key.random;
        const hashes = new Map(
          among.map((ordinal) => [ordinal, seededHash(seed, (entries[ordinal] as Entry).id)]),
        );
        return (a: number, b: number) => (hashes.get(a) as number) - (hashes.get(b) as number);
      }
      const rank = byField.get(key.field.name) as Int32Array;
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

  /** The ordinals of the page: many matches in one field's order are picked walking every entry in that order. */
  function page(query: PreparedQuery, found: number[]): number[] {
    const end = query.offset + query.limit;
    const [key, ...others] = query.sort;
    if (key && !('random' in key) && others.length === 0 && found.length > WALK_AFTER) {
      const name = `${key.field.name} ${key.direction}`;
      let walk = walks.get(name);
      if (!walk) {
        const live = [...byId.values()];
        walk = Int32Array.from(live.sort(comparator(query.sort, live)));
        walks.set(name, walk);
      }
      const matched = new Uint8Array(entries.length);
      for (const ordinal of found) matched[ordinal] = 1;
      const picked: number[] = [];
      for (let i = 0, seen = 0; i < walk.length && seen < end; i++) {
        const ordinal = walk[i] as number;
        if (matched[ordinal] === 1 && seen++ >= query.offset) picked.push(ordinal);
      }
      return picked;
    }
    return found.sort(comparator(query.sort, found)).slice(query.offset, end);
  }

  function searchNow(query: SearchQuery): SearchResult {
    const prepared = fields.prepareQuery(query);
    const found = matches(prepared);
    const pageEntries = page(prepared, found).map((ordinal) => entries[ordinal] as Entry);
    const ids = pageEntries.map((entry) => entry.id);
    const stored = prepared.withStored ? { stored: pageEntries.map((entry) => entry.document.stored) } : {};
    if (!prepared.countTotal) return { ids, total: -1, ...stored };
    const { countUpTo } = prepared;
    return countUpTo !== null && found.length > countUpTo
      ? { ids, total: countUpTo, totalIsLowerBound: true, ...stored }
      : { ids, total: found.length, ...stored };
  }

  return {
    ensure: async () => {},
    upsert: async (documents) => apply(documents, []),
    remove: async (ids) => apply([], ids),
    search: async (query) => searchNow(query),
    clear: async () => replaceAll([]),
    close: async () => replaceAll([]),
    apply,
    replaceAll,
    get size() {
      return byId.size;
    },
  };
}
