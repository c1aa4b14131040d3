// The shared semantics both adapters rely on: folding, word splitting, document and query checks.
import { describe, expect, it } from 'vitest';
import { likeContains } from '../src/postgres/query.ts';
import { Fields, fold, queryWords } from '../src/semantics.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const fields = new Fields(CONTRACT_FIELDS);

describe('search semantics', () => {
  it('folds case and Unicode composition, not accents', () => {
    expect(fold('JOSÉ')).toBe('josé');
    expect(fold('JOSE\u0301')).toBe('josé');
    expect(fold('Öko')).toBe('öko');
    expect(fold('José')).not.toBe('jose');
    expect(fold('a\u0000b')).toBe('ab');
  });

  it('splits on any whitespace and drops repeats', () => {
    expect(queryWords(undefined)).toEqual([]);
    expect(queryWords(' \t\n ')).toEqual([]);
    expect(queryWords('Nurses\u00a0SACRAMENTO\tnurses')).toEqual(['nurses', 'sacramento']);
  });

  it('escapes LIKE wildcards', () => {
    expect(likeContains('100%')).toBe('%100\\%%');
    expect(likeContains('a_b\\c')).toBe('%a\\_b\\\\c%');
  });

  it('completes documents and folds their text and sort text', () => {
    const [document] = fields.prepareDocuments([
      { id: 'a', text: { name: 'Öko Institute' }, keywords: { tags: ['x', 'x'] }, sort: { name: 'Öko' } },
    ]);
    expect(document).toEqual({
      id: 'a',
      text: { name: 'öko institute', city: '' },
      keywords: { group: [], tags: ['x'] },
      sort: { name: 'öko', score: null },
      stored: null,
    });
  });

  it('refuses malformed documents', () => {
    const bad = (document: unknown) => () => fields.prepareDocuments([document as never]);
    expect(bad({ id: '', text: {}, keywords: {}, sort: {} })).toThrow(/id/);
    expect(bad({ id: 'a', text: { name: 3 }, keywords: {}, sort: {} })).toThrow(/string/);
    expect(bad({ id: 'a', text: {}, keywords: { tags: 'x' }, sort: {} })).toThrow(/list/);
    expect(bad({ id: 'a', text: {}, keywords: {}, sort: { score: 'high' } })).toThrow(/number/);
    expect(bad({ id: 'a', text: {}, keywords: {}, sort: { score: Number.NaN } })).toThrow(/number/);
    expect(bad({ id: 'a', text: {}, keywords: {}, sort: { name: 1 } })).toThrow(/string/);
    expect(bad({ id: 'x'.repeat(513), text: {}, keywords: {}, sort: {} })).toThrow(/512/);
    expect(bad({ id: 'a', text: {}, keywords: {}, sort: {}, stored: 'nul \u0000' })).toThrow(/NUL/);
    const unstored = new Fields({ ...CONTRACT_FIELDS, stored: false });
    expect(() =>
      unstored.prepareDocuments([{ id: 'a', text: {}, keywords: {}, sort: {}, stored: '{}' }]),
    ).toThrow(/no stored values/);
    expect(() => unstored.prepareQuery({ offset: 0, limit: 1, withStored: true })).toThrow(
      /no stored values/,
    );
  });

  it('refuses malformed queries', () => {
    expect(() => fields.prepareQuery({ offset: 0, limit: -1 })).toThrow(RangeError);
    expect(() => fields.prepareQuery({ offset: 99_999, limit: 2 })).toThrow(RangeError);
    expect(() => fields.prepareQuery({ exclude: { city: ['x'] }, offset: 0, limit: 1 })).toThrow(/city/);
    expect(() =>
      fields.prepareQuery({ sort: [{ field: 'name', direction: 'up' as 'asc' }], offset: 0, limit: 1 }),
    ).toThrow(/asc or desc/);
  });
});
