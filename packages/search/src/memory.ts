// The in-memory search engine: the port's semantics over documents held in this process, with postings for the
// documents' words (found by a query word through the vocabulary) and for keyword filters. It is the read side of
// the replicated index (replica.ts), which keeps it equal to the Postgres index; the query checks and case folding
// are the other adapters' (semantics.ts).
import type {
  RebuildOutcome,
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
  SortFieldDefinition,
} from './port.ts';
import { Int32Column, inAny, NO_POSTINGS, Postings } from './postings.ts';
import { Fields, type PreparedDocument, type PreparedQuery, type PreparedSortKey } from './semantics.ts';
import { Vocabulary } from './vocabulary.ts';

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

/**
 * Query words told apart by a bit each when a document's words are checked; more words than this (no member types
 * them) are looked for in the document's text instead.
 */
const MASKED_WORDS = 31;

/**
 * A query word whose documents outnumber one in this many is not gathered from its words' postings (a merge of
 * thousands of lists for "a"): the search walks the order, checking each document, instead.
 */
const GATHER_SHARE = 8;

/** A query word contained in up to this many vocabulary words narrows the candidates by their lists. */
const UNION_WORDS = 16;

/** The words of folded text: split as query words are, so a query word is part of a document word or of none. */
const wordsOf = (haystack: string): Set<string> =>
  new Set(haystack.split(/\s+/u).filter((word) => word.length > 0));

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

/** Two values of a sort field (of `field`'s type) in `direction`, missing values last either way; 0 when equal. */
function compareSorted(
  field: SortFieldDefinition | undefined,
  direction: 'asc' | 'desc',
  u: string | number | null,
  v: string | number | null,
): number {
  if (u === v) return 0;
  if (u === null) return 1;
  if (v === null) return -1;
  const difference =
    field?.type === 'number' ? (u as number) - (v as number) : compareCodePoints(u as string, v as string);
  return direction === 'asc' ? difference : -difference;
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
  let vocabulary = new Vocabulary();
  /** Per word (vocabulary id), the ordinals of the documents holding it. */
  let wordPostings: Postings[] = [];
  /** Each document's distinct words (vocabulary ids): those of ordinal o end at wordEnds[o], begin where o - 1's end. */
  let documentWords = new Int32Column();
  let wordEnds = new Int32Column();
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
    for (const word of wordsOf(row.haystack)) {
      const id = vocabulary.add(word);
      if (id === wordPostings.length) wordPostings.push(new Postings());
      (wordPostings[id] as Postings).push(ordinal);
      documentWords.push(id);
    }
    wordEnds.push(documentWords.length);
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

  /**
   * The first sort field's ascending order, which a rebuild lays the ordinals out in: a page in that order then
   * reads the columns and postings front to back, not all over memory.
   */
  const layoutOrder = (a: Row, b: Row): number =>
    compareSorted(sortFields[0], 'asc', a.sort[0] ?? null, b.sort[0] ?? null) ||
    compareCodePoints(a.id, b.id);

  function rebuild(rows: Row[]): void {
    rows.sort(layoutOrder);
    ids = [];
    haystacks = [];
    keywordColumns = keywordFields.map(() => []);
    sortColumns = sortFields.map(() => []);
    storedColumn = [];
    alive = new Uint8Array(Math.max(1024, rows.length));
    byId = new Map();
    vocabulary = new Vocabulary();
    wordPostings = [];
    documentWords = new Int32Column();
    wordEnds = new Int32Column();
    keywordPostings = keywordFields.map(() => new Map());
    keywordLists = keywordFields.map(() => new Map());
    dead = 0;
    walks = new Map();
    ranks = undefined;
    idRanks = undefined;
    for (const row of rows) add(row);
    for (const list of wordPostings) list.settle(rows.length);
    documentWords.trim();
    wordEnds.trim();
    for (const postings of keywordPostings) for (const list of postings.values()) list.settle(rows.length);
  }

  /** After documents were added (`added`) or dropped: each walk in step, compacted when the dead pile up. */
  function changed(added: number[]): void {
    ranks = undefined;
    idRanks = undefined;
    if (dead > COMPACT_AFTER && dead > byId.size) {
      rebuild([...byId.values()].map(rowAt));
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
    for await (const page of pages) addRows(rows, page);
    rebuild([...rows.values()]);
  }

  function addRows(rows: Map<string, Row>, page: SearchDocument[]): void {
    for (const document of fields.prepareDocuments(page)) {
      // A repeated id keeps its last version, as in one call.
      rows.delete(document.id);
      rows.set(document.id, rowOf(document));
    }
  }

  /** One sort field's order, missing values last either way, then id ascending. */
  function fieldOrder(
    field: SortFieldDefinition,
    direction: 'asc' | 'desc',
  ): (a: number, b: number) => number {
    const column = () => sortColumns[sortIndex.get(field.name) as number] as (string | number | null)[];
    return (a, b) => {
      const values = column();
      return (
        compareSorted(field, direction, values[a] ?? null, values[b] ?? null) ||
        compareCodePoints(ids[a] as string, ids[b] as string)
      );
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
    /** A bit per query word its document must hold a word with (see markWords). */
    wordBits: number;
    /** Query words past MASKED_WORDS, looked for in the document's text. */
    words: string[];
    filters: { column: (readonly string[])[]; values: string[] }[];
    exclude: { column: (readonly string[])[]; values: string[] }[];
  }

  const isEmpty = ({ wordBits, words, filters, exclude }: Check) =>
    wordBits === 0 && words.length === 0 && filters.length === 0 && exclude.length === 0;

  /**
   * Per vocabulary word, the search that marked it last and the bits of that search's query words it contains.
   * Reused by every search and never cleared, as the ordinals' stamps below.
   */
  let wordStamps = new Uint32Array(0);
  let wordBits = new Uint32Array(0);
  let wordStamp = 0;

  /** Query word i's bit on every vocabulary word containing it; answers those words and their postings' length. */
  function markWords(words: string[]): { bit: number; ids: Int32Array; documents: number }[] {
    if (wordStamps.length < vocabulary.size || wordStamp === 0xffffffff) {
      wordStamps = new Uint32Array(Math.max(vocabulary.size * 2, 1024));
      wordBits = new Uint32Array(wordStamps.length);
      wordStamp = 0;
    }
    wordStamp++;
    return words.map((word, i) => {
      const bit = 1 << i;
      const ids = vocabulary.containing(word);
      let documents = 0;
      for (const id of ids) {
        documents += (wordPostings[id] as Postings).length;
        if (wordStamps[id] !== wordStamp) {
          wordStamps[id] = wordStamp;
          wordBits[id] = 0;
        }
        wordBits[id] = (wordBits[id] as number) | bit;
      }
      return { bit, ids, documents };
    });
  }

  /** Whether the document has every word, passes every filter and no exclusion (liveness aside). */
  function isMatch(ordinal: number, { wordBits: needed, words, filters, exclude }: Check): boolean {
    if (needed !== 0) {
      const held = documentWords.values;
      const ends = wordEnds.values;
      let bits = 0;
      for (let k = ordinal === 0 ? 0 : (ends[ordinal - 1] as number); k < (ends[ordinal] as number); k++) {
        const id = held[k] as number;
        if (wordStamps[id] === wordStamp) bits |= wordBits[id] as number;
      }
      if ((bits & needed) !== needed) return false;
    }
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

  /** The ordinals of the documents holding any of these words: one list's view, or the lists merged. */
  function gather(ids: Int32Array, documents: number): Int32Array {
    if (ids.length === 1) return (wordPostings[ids[0] as number] as Postings).view();
    const all = new Int32Array(documents);
    let length = 0;
    for (const id of ids) {
      const list = (wordPostings[id] as Postings).view();
      all.set(list, length);
      length += list.length;
    }
    all.sort();
    let unique = 0;
    for (let i = 0; i < length; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i] as number;
    return all.subarray(0, unique);
  }

  /**
   * The ordinals every match is among, and about how many. Each query word narrows to the documents holding one of
   * the vocabulary words containing it, each single-value filter to its postings: the fewest documents are the
   * candidates, narrowed by the others until few are left. Undefined when there is nothing to narrow by, or only a
   * word too common to gather (everyone may match). And what each candidate must still be checked for: what the
   * narrowing did not settle.
   */
  function candidatesOf(query: PreparedQuery): {
    candidates: Int32Array | undefined;
    estimate: number;
    check: Check;
  } {
    const column = (field: string) =>
      keywordColumns[keywordIndex.get(field) as number] as (readonly string[])[];
    const check: Check = {
      wordBits: 0,
      words: query.words.slice(MASKED_WORDS),
      filters: query.filters.map(({ field, values }) => ({ column: column(field), values })),
      exclude: query.exclude.map(({ field, values }) => ({ column: column(field), values })),
    };
    /** A word's or a filter's documents: `list` when one list holds them, else the words whose lists do. */
    const narrowers: { size: number; list?: Postings; words?: Int32Array; settle: () => void }[] = [];
    for (const { bit, ids: words, documents } of markWords(query.words.slice(0, MASKED_WORDS))) {
      if (documents === 0) return { candidates: new Int32Array(0), estimate: 0, check };
      check.wordBits |= bit;
      const settle = () => {
        check.wordBits &= ~bit;
      };
      narrowers.push(
        words.length === 1
          ? { size: documents, list: wordPostings[words[0] as number] as Postings, settle }
          : { size: documents, words, settle },
      );
    }
    query.filters.forEach(({ field, values }, i) => {
      const filter = check.filters[i];
      if (values.length === 1) {
        const list =
          keywordPostings[keywordIndex.get(field) as number]?.get(values[0] as string) ?? NO_POSTINGS;
        const settle = () => {
          check.filters = check.filters.filter((other) => other !== filter);
        };
        narrowers.push({ size: list.length, list, settle });
      }
    });
    narrowers.sort((a, b) => a.size - b.size);
    const first = narrowers.find(({ list, size }) => list || size * GATHER_SHARE <= ids.length);
    if (!first)
      return {
        candidates: undefined,
        estimate: Math.min(narrowers[0]?.size ?? ids.length, byId.size),
        check,
      };
    let candidates = first.list ? first.list.view() : gather(first.words as Int32Array, first.size);
    first.settle();
    for (const narrower of narrowers) {
      if (candidates.length <= NARROW_ENOUGH) break;
      if (narrower === first) continue;
      if (narrower.list) candidates = narrower.list.narrow(candidates);
      else {
        const words = narrower.words as Int32Array;
        if (words.length > UNION_WORDS) continue;
        candidates = inAny(
          candidates,
          Array.from(words, (id) => wordPostings[id] as Postings),
        );
      }
      narrower.settle();
    }
    return { candidates, estimate: candidates.length, check };
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
  function page(query: PreparedQuery, walk: Walk | undefined, found: ArrayLike<number>): number[] {
    const end = query.offset + query.limit;
    if (!walk) {
      const among = Array.from(found);
      return among.sort(comparator(query.sort, among)).slice(query.offset, end);
    }
    if (found.length <= WALK_AFTER) {
      const places = placesOf(walk);
      return Array.from(found)
        .sort((a, b) => (places[a] as number) - (places[b] as number))
        .slice(query.offset, end);
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
    const { candidates, estimate, check } = candidatesOf(prepared);
    const exact = isEmpty(check);
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
      let found: ArrayLike<number>;
      // Candidates that need no check are the matches, unless replaced or removed documents linger among them.
      if (candidates && exact && dead === 0) found = candidates;
      else {
        const matches: number[] = [];
        for (const ordinal of candidates ?? byId.values())
          if (alive[ordinal] === 1 && (exact || isMatch(ordinal, check))) matches.push(ordinal);
        found = matches;
      }
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

  /** The rebuild running in this engine, if any: a second one skips, as another replica's would. */
  let rebuilding = false;

  async function rebuildFrom(source: RebuildSource): Promise<RebuildOutcome> {
    if (rebuilding) return { rebuilt: false };
    rebuilding = true;
    try {
      const rows = new Map<string, Row>();
      // Writes made meanwhile are applied to the live documents and remembered: read again from the source until
      // none is left unread, then the rows replace the live documents with no await in between.
      const written = new Set<string>();
      onWrite = (upserts, removals) => {
        for (const document of upserts) written.add(document.id);
        for (const id of removals) written.add(id);
      };
      try {
        await source.eachPage(async (documents) => addRows(rows, documents));
        while (written.size > 0) {
          const ids = [...written];
          written.clear();
          const current = await source.documents(ids);
          for (const id of ids) rows.delete(id);
          addRows(rows, current);
        }
        rebuild([...rows.values()]);
      } finally {
        onWrite = undefined;
      }
      return { rebuilt: true, documents: byId.size };
    } finally {
      rebuilding = false;
    }
  }

  let onWrite: ((upserts: SearchDocument[], removals: string[]) => void) | undefined;
  const write = (upserts: SearchDocument[], removals: string[]) => {
    onWrite?.(upserts, removals);
    apply(upserts, removals);
  };

  return {
    ensure: async () => 'current',
    upsert: async (documents) => write(documents, []),
    remove: async (ids) => write([], ids),
    rebuild: rebuildFrom,
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
