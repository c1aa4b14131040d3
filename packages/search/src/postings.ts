// Sorted lists of ordinals (a document's or a word's place in the in-memory engine's columns) kept in typed arrays,
// and their intersection: the postings the in-memory engine (memory.ts) and its vocabulary (vocabulary.ts) search.

/** Int32s appended to a typed array that doubles as it grows: a third of a number[]'s memory. */
export class Int32Column {
  values = new Int32Array(4);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(Math.max(4, this.length * 2));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** After a full load: gives back the room left to grow into. */
  trim(): void {
    if (this.values.length > this.length) this.values = this.values.slice(0, this.length);
  }

  view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}

/** Ascending ordinals: a word's documents, a keyword value's, or a vocabulary run's words. */
export class Postings extends Int32Column {
  /**
   * A bit per ordinal, once the list holds at least one ordinal in 32 (the bits then take no more room than the
   * list): candidates are narrowed by it with one lookup each, where merging walked the whole long list.
   */
  bits: Uint32Array | undefined;

  override push(ordinal: number): void {
    super.push(ordinal);
    if (this.bits) {
      if (ordinal >>> 5 >= this.bits.length) {
        const grown = new Uint32Array(Math.max(this.bits.length * 2, (ordinal >>> 5) + 1));
        grown.set(this.bits);
        this.bits = grown;
      }
      this.bits[ordinal >>> 5] = (this.bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
    }
  }

  /** After a full load of `count` ordinals: trimmed, with the bits set if dense. */
  settle(count: number): void {
    this.trim();
    this.bits = undefined;
    if (this.length * 32 < count) return;
    const bits = new Uint32Array((count >>> 5) + 1);
    for (let i = 0; i < this.length; i++) {
      const ordinal = this.values[i] as number;
      bits[ordinal >>> 5] = (bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
    }
    this.bits = bits;
  }

  /** The candidates also in this list. */
  narrow(candidates: Int32Array): Int32Array {
    return this.bits ? withBits(candidates, this.bits) : intersect(candidates, this.view());
  }
}

const hasBit = (bits: Uint32Array, ordinal: number): boolean =>
  ((bits[ordinal >>> 5] ?? 0) & (1 << (ordinal & 31))) !== 0;

/** The candidates whose bit is set. */
export function withBits(candidates: Int32Array, bits: Uint32Array): Int32Array {
  const kept = new Int32Array(candidates.length);
  let length = 0;
  for (let i = 0; i < candidates.length; i++) {
    const ordinal = candidates[i] as number;
    if (hasBit(bits, ordinal)) kept[length++] = ordinal;
  }
  return kept.subarray(0, length);
}

/** The candidates (ascending) in any of the lists: by a list's bits, or found in it moving forward. */
export function inAny(candidates: Int32Array, lists: readonly Postings[]): Int32Array {
  const views = lists.map((list) => list.view());
  const cursors = new Int32Array(lists.length);
  const kept = new Int32Array(candidates.length);
  let length = 0;
  for (let i = 0; i < candidates.length; i++) {
    const ordinal = candidates[i] as number;
    for (let l = 0; l < lists.length; l++) {
      const bits = (lists[l] as Postings).bits;
      let held: boolean;
      if (bits) held = hasBit(bits, ordinal);
      else {
        const view = views[l] as Int32Array;
        const at = lowerBound(view, cursors[l] as number, ordinal);
        cursors[l] = at;
        held = view[at] === ordinal;
      }
      if (held) {
        kept[length++] = ordinal;
        break;
      }
    }
  }
  return kept.subarray(0, length);
}

export const NO_POSTINGS = new Postings();

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
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
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
