// The distinct words of the in-memory engine's documents (memory.ts) and which of them contain a given part. A query
// word matches a document when it is part of one of the document's words (no query word holds whitespace), so the
// engine finds a query word's documents through the few words that contain it instead of reading every candidate's
// text: a whole state's people share some tens of thousands of words.
import { intersect, Postings } from './postings.ts';

/** Words this few are checked one by one rather than narrowed by intersecting more trigrams. */
const NARROW_ENOUGH = 16;

const NONE = new Int32Array(0);

/** Every distinct run of one, two and three code units in `word`. */
function gramsOf(word: string): Set<string> {
  const grams = new Set<string>();
  for (let length = 1; length <= 3; length++)
    for (let i = 0; i + length <= word.length; i++) grams.add(word.slice(i, i + length));
  return grams;
}

export class Vocabulary {
  /** Each word, by its id (ids are dense, in order of first sight). */
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();
  /** Each run of up to three code units, to the ids of the words holding it, ascending. */
  private readonly grams = new Map<string, Postings>();

  get size(): number {
    return this.words.length;
  }

  /** The word's id, the word added when new. */
  add(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.ids.set(word, id);
      for (const gram of gramsOf(word)) {
        let list = this.grams.get(gram);
        if (!list) {
          list = new Postings();
          this.grams.set(gram, list);
        }
        list.push(id);
      }
    }
    return id;
  }

  /**
   * The ids of the words that contain `part`, ascending. Up to three code units, the part is one of the runs
   * indexed; longer, it holds all of its trigrams, which narrows the words to the few then checked.
   */
  containing(part: string): Int32Array {
    if (part.length === 0) return NONE;
    if (part.length <= 3) return this.grams.get(part)?.view() ?? NONE;
    const lists: Int32Array[] = [];
    for (let i = 0; i + 3 <= part.length; i++) {
      const list = this.grams.get(part.slice(i, i + 3));
      if (!list) return NONE;
      lists.push(list.view());
    }
    lists.sort((a, b) => a.length - b.length);
    let ids = lists[0] as Int32Array;
    for (let i = 1; i < lists.length && ids.length > NARROW_ENOUGH; i++)
      ids = intersect(ids, lists[i] as Int32Array);
    const held = new Int32Array(ids.length);
    let length = 0;
    for (const id of ids) if ((this.words[id] as string).includes(part)) held[length++] = id;
    return held.subarray(0, length);
  }
}
