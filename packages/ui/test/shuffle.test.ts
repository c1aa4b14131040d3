// shuffle: every item exactly once, in an order the random source decides, the input left as it was.
import { describe, expect, it } from 'vitest';
import { shuffle } from '../src/index';

describe('shuffle', () => {
  it('keeps every item exactly once, changes the order and leaves the input alone', () => {
    const items = [1, 2, 3, 4, 5];
    const shuffled = shuffle(items, () => 0);
    expect([...shuffled].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(shuffled).toEqual([2, 3, 4, 5, 1]);
    expect(items).toEqual([1, 2, 3, 4, 5]);
  });
});
