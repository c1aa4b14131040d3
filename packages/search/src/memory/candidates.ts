// How the in-memory engine (memory.ts) narrows a query to candidates before checking them: each query word through
// the vocabulary words containing it and their postings, each single-value filter through its postings, the
// fewest first; and the check of one candidate against what the narrowing left unsettled.
import { inAny, NO_POSTINGS, type Postings } from '../postings.ts';
import type { PreparedQuery } from '../semantics.ts';
import type { Columns } from './columns.ts';

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

/** What a candidate must still be checked for, with its fields' columns looked up once. */
export interface Check {
  /** A bit per query word its document must hold a word with (see markWords). */
  wordBits: number;
  /** Query words past MASKED_WORDS, looked for in the document's text. */
  words: string[];
  filters: { column: (readonly string[])[]; values: string[] }[];
  exclude: { column: (readonly string[])[]; values: string[] }[];
}

export const isEmpty = ({ wordBits, words, filters, exclude }: Check) =>
  wordBits === 0 && words.length === 0 && filters.length === 0 && exclude.length === 0;

const hasAny = (present: readonly string[], values: string[]): boolean => {
  for (const value of values) if (present.includes(value)) return true;
  return false;
};

/** The ordinals of the documents holding any of these words: one list's view, or the lists merged. */
function gather(columns: Columns, ids: Int32Array, documents: number): Int32Array {
  if (ids.length === 1) return (columns.wordPostings[ids[0] as number] as Postings).view();
  const all = new Int32Array(documents);
  let length = 0;
  for (const id of ids) {
    const list = (columns.wordPostings[id] as Postings).view();
    all.set(list, length);
    length += list.length;
  }
  all.sort();
  let unique = 0;
  for (let i = 0; i < length; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i] as number;
  return all.subarray(0, unique);
}

/** Plans and checks one search at a time (the marks it leaves on vocabulary words are that search's). */
export class Matcher {
  /**
   * Per vocabulary word, the search that marked it last and the bits of that search's query words it contains.
   * Reused by every search and never cleared, as the engine's marks on ordinals.
   */
  private wordStamps = new Uint32Array(0);
  private wordBits = new Uint32Array(0);
  private wordStamp = 0;

  /** Query word i's bit on every vocabulary word containing it; answers those words and their postings' length. */
  private markWords(
    columns: Columns,
    words: string[],
  ): { bit: number; ids: Int32Array; documents: number }[] {
    const { vocabulary, wordPostings } = columns;
    if (this.wordStamps.length < vocabulary.size || this.wordStamp === 0xffffffff) {
      this.wordStamps = new Uint32Array(Math.max(vocabulary.size * 2, 1024));
      this.wordBits = new Uint32Array(this.wordStamps.length);
      this.wordStamp = 0;
    }
    const stamp = ++this.wordStamp;
    const { wordStamps, wordBits } = this;
    return words.map((word, i) => {
      const bit = 1 << i;
      const ids = vocabulary.containing(word);
      let documents = 0;
      for (const id of ids) {
        documents += (wordPostings[id] as Postings).length;
        if (wordStamps[id] !== stamp) {
          wordStamps[id] = stamp;
          wordBits[id] = 0;
        }
        wordBits[id] = (wordBits[id] as number) | bit;
      }
      return { bit, ids, documents };
    });
  }

  /** Whether the document has every word, passes every filter and no exclusion (liveness aside). */
  isMatch(columns: Columns, ordinal: number, { wordBits: needed, words, filters, exclude }: Check): boolean {
    if (needed !== 0) {
      const held = columns.documentWords.values;
      const ends = columns.wordEnds.values;
      const { wordStamps, wordBits, wordStamp } = this;
      let bits = 0;
      for (let k = ordinal === 0 ? 0 : (ends[ordinal - 1] as number); k < (ends[ordinal] as number); k++) {
        const id = held[k] as number;
        if (wordStamps[id] === wordStamp) bits |= wordBits[id] as number;
      }
      if ((bits & needed) !== needed) return false;
    }
    if (words.length > 0) {
      const haystack = columns.haystacks[ordinal] as string;
      for (const word of words) if (!haystack.includes(word)) return false;
    }
    for (const { column, values } of filters)
      if (!hasAny(column[ordinal] as readonly string[], values)) return false;
    for (const { column, values } of exclude)
      if (hasAny(column[ordinal] as readonly string[], values)) return false;
    return true;
  }

  /**
   * The ordinals every match is among, and about how many. Each query word narrows to the documents holding one of
   * the vocabulary words containing it, each single-value filter to its postings: the fewest documents are the
   * candidates, narrowed by the others until few are left. Undefined when there is nothing to narrow by, or only a
   * word too common to gather (everyone may match). And what each candidate must still be checked for: what the
   * narrowing did not settle.
   */
  candidatesOf(
    columns: Columns,
    query: PreparedQuery,
  ): { candidates: Int32Array | undefined; estimate: number; check: Check } {
    const { wordPostings } = columns;
    const check: Check = {
      wordBits: 0,
      words: query.words.slice(MASKED_WORDS),
      filters: query.filters.map(({ field, values }) => ({ column: columns.keywordColumn(field), values })),
      exclude: query.exclude.map(({ field, values }) => ({ column: columns.keywordColumn(field), values })),
    };
    /** A word's or a filter's documents: `list` when one list holds them, else the words whose lists do. */
    const narrowers: { size: number; list?: Postings; words?: Int32Array; settle: () => void }[] = [];
    for (const { bit, ids: words, documents } of this.markWords(
      columns,
      query.words.slice(0, MASKED_WORDS),
    )) {
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
        const list = columns.keywordPostingsOf(field)?.get(values[0] as string) ?? NO_POSTINGS;
        const settle = () => {
          check.filters = check.filters.filter((other) => other !== filter);
        };
        narrowers.push({ size: list.length, list, settle });
      }
    });
    narrowers.sort((a, b) => a.size - b.size);
    const first = narrowers.find(({ list, size }) => list || size * GATHER_SHARE <= columns.ids.length);
    if (!first)
      return {
        candidates: undefined,
        estimate: Math.min(narrowers[0]?.size ?? columns.ids.length, columns.size),
        check,
      };
    let candidates = first.list ? first.list.view() : gather(columns, first.words as Int32Array, first.size);
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
}
