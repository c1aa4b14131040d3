import { describe, expect, it } from 'vitest';
import { inAny, Postings } from '../src/postings.ts';
import { Vocabulary } from '../src/vocabulary.ts';

describe('vocabulary', () => {
  const vocabulary = new Vocabulary();
  const words = ['staff', 'analyst', 'ana', 'chief', 'mischief', 'josé', 'of', 'office', 'a'];
  for (const word of words) vocabulary.add(word);
  const containing = (part: string) =>
    Array.from(vocabulary.containing(part), (id) => vocabulary.words[id]).sort();

  it('gives each word one id, the first time it is seen', () => {
    expect(vocabulary.add('staff')).toBe(0);
    expect(vocabulary.add('chief')).toBe(3);
    expect(vocabulary.size).toBe(words.length);
  });

  it('finds the words containing a part of any length, anywhere in them', () => {
    expect(containing('a')).toEqual(['a', 'ana', 'analyst', 'staff']);
    expect(containing('st')).toEqual(['analyst', 'staff']);
    expect(containing('ana')).toEqual(['ana', 'analyst']);
    expect(containing('chief')).toEqual(['chief', 'mischief']);
    expect(containing('ffice')).toEqual(['office']);
    expect(containing('sé')).toEqual(['josé']);
  });

  it('finds none for a part whose trigrams all occur but never together in one word', () => {
    // 'staf' and 'ffi' are in the vocabulary, 'staffi' in no word.
    expect(containing('staffi')).toEqual([]);
    expect(containing('zz')).toEqual([]);
    expect(containing('')).toEqual([]);
  });
});

describe('postings', () => {
  const list = (ordinals: number[], count?: number) => {
    const postings = new Postings();
    for (const ordinal of ordinals) postings.push(ordinal);
    if (count !== undefined) postings.settle(count);
    return postings;
  };

  it('keeps the candidates held by any list, whether it keeps bits or is searched', () => {
    const dense = list([1, 2, 3, 40], 64);
    const sparse = list([5, 41, 63]);
    expect(dense.bits).toBeDefined();
    expect(sparse.bits).toBeUndefined();
    expect([...inAny(Int32Array.from([0, 2, 5, 6, 40, 41, 62, 63]), [dense, sparse])]).toEqual([
      2, 5, 40, 41, 63,
    ]);
    expect([...inAny(Int32Array.from([0, 4]), [dense, sparse])]).toEqual([]);
  });

  it('grows again after being trimmed empty', () => {
    const postings = list([], 0);
    postings.push(7);
    postings.push(9);
    expect([...postings.view()]).toEqual([7, 9]);
  });
});
