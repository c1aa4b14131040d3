// The search contract's cases on what matches: every word, in any text field, case-folded and literal; keyword
// filters and exclusions.
import { describe, expect, it } from 'vitest';
import { ALL_IDS } from './corpus.ts';
import type { ContractSuite } from './suite.ts';

/** Words and filters: which documents a query finds. */
export function matchingCases({ find, ids }: ContractSuite): void {
  describe('every word must match', () => {
    it('returns everything, id ascending, without text', async () => {
      expect(await find()).toEqual({ ids: ALL_IDS, total: 20 });
      expect(await ids({ text: '' })).toEqual(ALL_IDS);
      expect(await ids({ text: '  \t ' })).toEqual(ALL_IDS);
    });

    it('matches a word in any text field', async () => {
      expect(await ids({ text: 'nurses' })).toEqual(['d01', 'd02']);
      expect(await ids({ text: 'oakland' })).toEqual(['d02']);
    });

    it('needs every word, in any order, each in any field', async () => {
      expect(await ids({ text: 'nurses sacramento' })).toEqual(['d01']);
      expect(await ids({ text: 'sacramento nurses' })).toEqual(['d01']);
      expect(await ids({ text: 'nurses   \t sacramento ' })).toEqual(['d01']);
      expect(await ids({ text: 'twin peaks' })).toEqual(['d18', 'd19']);
      expect(await ids({ text: 'nurses fresno' })).toEqual([]);
    });

    it('is case-insensitive', async () => {
      expect(await ids({ text: 'NURSES Sacramento' })).toEqual(['d01']);
      expect(await ids({ text: 'alvarez' })).toEqual(['d06']);
    });

    it('matches substrings, not only whole words', async () => {
      expect(await ids({ text: 'urse' })).toEqual(['d01', 'd02']);
      expect(await ids({ text: 'coast' })).toEqual(['d16', 'd17']);
      expect(await ids({ text: 'ento ssoc' })).toEqual(['d01', 'd03']);
    });

    it('does not let one word span two fields', async () => {
      // d16 is 'Growers of the Gold Coast' in Alameda: 'coastal' is in neither field.
      expect(await ids({ text: 'coastal' })).toEqual(['d17']);
      expect(await ids({ text: 'coastalameda' })).toEqual([]);
      expect(await ids({ text: 'coast alameda' })).toEqual(['d16']);
    });

    it('folds case beyond ASCII, keeping accents significant', async () => {
      expect(await ids({ text: 'josé' })).toEqual(['d05', 'd06']);
      expect(await ids({ text: 'JOSÉ' })).toEqual(['d05', 'd06']);
      // The same word typed with a combining accent (NFD).
      expect(await ids({ text: 'jose\u0301' })).toEqual(['d05', 'd06']);
      expect(await ids({ text: 'RAMÍREZ' })).toEqual(['d05']);
      expect(await ids({ text: 'öko' })).toEqual(['d20']);
      expect(await ids({ text: 'ÖKO' })).toEqual(['d20']);
      expect(await ids({ text: 'jose' })).toEqual([]);
    });

    it('treats LIKE and wildcard metacharacters literally', async () => {
      expect(await ids({ text: '100%' })).toEqual(['d07']);
      expect(await ids({ text: '%' })).toEqual(['d07']);
      expect(await ids({ text: '%%' })).toEqual([]);
      expect(await ids({ text: '_' })).toEqual(['d08']);
      expect(await ids({ text: 'under_score' })).toEqual(['d08']);
      expect(await ids({ text: 'underxscore' })).toEqual([]);
      expect(await ids({ text: '\\' })).toEqual(['d09']);
      expect(await ids({ text: 'back\\slash' })).toEqual(['d09']);
      expect(await ids({ text: '*' })).toEqual([]);
      expect(await ids({ text: '?' })).toEqual([]);
      expect(await ids({ text: 'n?rses' })).toEqual([]);
      expect(await ids({ text: 'nurs*' })).toEqual([]);
      expect(await ids({ text: '.*' })).toEqual([]);
      expect(await ids({ text: "governor's" })).toEqual([]);
    });
  });

  describe('filters and exclusions', () => {
    it('filters on one value', async () => {
      expect(await find({ filters: { group: 'Unions' } })).toEqual({
        ids: ['d01', 'd02', 'd15'],
        total: 3,
      });
      expect(await ids({ filters: { group: "Governor's Office" } })).toEqual(['d11']);
    });

    it('matches keywords exactly', async () => {
      expect(await ids({ filters: { group: 'unions' } })).toEqual([]);
      expect(await ids({ filters: { group: 'Union' } })).toEqual([]);
    });

    it('reads a list as any of its values', async () => {
      expect(await ids({ filters: { group: ['Unions', 'Agencies'] } })).toEqual([
        'd01',
        'd02',
        'd04',
        'd15',
        'd17',
      ]);
      expect(await ids({ filters: { tags: ['water'] } })).toEqual(['d03', 'd04', 'd11', 'd14', 'd19']);
      expect(await ids({ filters: { tags: ['health', 'education'] } })).toEqual([
        'd01',
        'd02',
        'd05',
        'd11',
        'd12',
        'd15',
        'd18',
      ]);
      expect(await ids({ filters: { tags: [] } })).toEqual([]);
    });

    it('needs every filtered field to match', async () => {
      expect(await ids({ filters: { group: 'Unions', tags: 'labor' } })).toEqual(['d01', 'd15']);
      expect(await ids({ filters: { group: 'Lobbyists', tags: ['water', 'labor'] } })).toEqual([
        'd09',
        'd19',
      ]);
    });

    it('combines filters with words', async () => {
      expect(await ids({ text: 'twin', filters: { group: 'Lobbyists' } })).toEqual(['d18', 'd19']);
      expect(await ids({ text: 'twin', filters: { group: 'Lobbyists', tags: 'water' } })).toEqual(['d19']);
      expect(await ids({ text: 'committee', filters: { tags: 'labor' } })).toEqual(['d13']);
    });

    it('leaves out documents having any excluded value', async () => {
      const others = ['d07', 'd10', 'd20'];
      expect(await find({ exclude: { group: ['Other'] } })).toEqual({
        ids: ALL_IDS.filter((id) => !others.includes(id)),
        total: 17,
      });
      expect(await ids({ filters: { group: 'Unions' }, exclude: { tags: ['water', 'labor'] } })).toEqual([
        'd02',
      ]);
      expect(await ids({ exclude: { group: ['Other'], tags: ['health', 'water', 'labor'] } })).toEqual([
        'd06',
        'd08',
        'd16',
        'd17',
      ]);
    });

    it('combines exclusions with words, and ignores an empty exclusion', async () => {
      expect(await ids({ text: 'sacramento', exclude: { group: ['Other'] } })).toEqual([
        'd01',
        'd03',
        'd04',
        'd11',
        'd12',
        'd13',
      ]);
      expect(await ids({ exclude: { group: [] } })).toEqual(ALL_IDS);
    });
  });
}
