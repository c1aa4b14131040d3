// A wait in words: seconds, then minutes rounded up, singular for one; never under a second.
import { describe, expect, it } from 'vitest';
import { waitInWords } from '../src/index.ts';

describe('waitInWords', () => {
  it('says seconds below two minutes, then whole minutes rounded up', () => {
    expect(waitInWords(1)).toBe('1 second');
    expect(waitInWords(42)).toBe('42 seconds');
    expect(waitInWords(119)).toBe('119 seconds');
    expect(waitInWords(120)).toBe('2 minutes');
    expect(waitInWords(121)).toBe('3 minutes');
  });

  it('rounds a part of a second up, and never says less than one second', () => {
    expect(waitInWords(0.2)).toBe('1 second');
    expect(waitInWords(0)).toBe('1 second');
    expect(waitInWords(41.5)).toBe('42 seconds');
  });

  it('says minutes from the threshold given, or never', () => {
    expect(waitInWords(59, 60)).toBe('59 seconds');
    expect(waitInWords(60, 60)).toBe('1 minute');
    expect(waitInWords(61, 60)).toBe('2 minutes');
    expect(waitInWords(600, Number.POSITIVE_INFINITY)).toBe('600 seconds');
  });
});
