// The orders the in-memory engine (memory.ts) sorts by, each the one the other adapters answer in: text in code
// point order, numbers, missing values last either way, and a random order fixed by a seed.
import type { SortFieldDefinition } from '../port.ts';

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

/** A seeded 32-bit hash of an id (FNV-1a, then a murmur3 finalizer): a random order fixed by its seed. */
export function seededHash(seed: number, id: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Two values of a sort field (of `field`'s type) in `direction`, missing values last either way; 0 when equal. */
export function compareSorted(
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
export function merge(a: Int32Array, b: Int32Array, compare: (x: number, y: number) => number): Int32Array {
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
