// The search contract's cases on writes: upserts replace whole documents, removals, clear(), stored values, and
// fields the index does not declare refused.
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../port.ts';
import { CONTRACT_CORPUS } from './corpus.ts';
import type { ContractSuite } from './suite.ts';

/** Upserts, removals, clear() and stored values. */
export function writeCases(suite: ContractSuite): void {
  const { find, ids } = suite;

  describe('writes', () => {
    it('replaces a document on upsert', async () => {
      await suite.index.upsert([
        {
          id: 'd02',
          text: { name: 'Nurses Alliance', city: 'Fresno' },
          keywords: { group: ['Associations'], tags: [] },
          sort: { name: 'Nurses Alliance', score: 99 },
        },
      ]);
      expect(await ids({ text: 'united' })).toEqual([]);
      expect(await ids({ text: 'nurses fresno' })).toEqual(['d02']);
      expect(await ids({ filters: { group: 'Unions' } })).toEqual(['d01', 'd15']);
      expect(await ids({ filters: { tags: 'health' } })).not.toContain('d02');
      expect((await find({ sort: [{ field: 'score', direction: 'desc' }], limit: 1 })).ids).toEqual(['d02']);
      expect((await find()).total).toBe(20);
    });

    it('clears fields the new version leaves out', async () => {
      await suite.index.upsert([
        { id: 'd01', text: { name: 'California Nurses Association' }, keywords: {}, sort: {} },
      ]);
      expect(await ids({ text: 'nurses sacramento' })).toEqual([]);
      expect(await ids({ filters: { tags: 'labor' } })).not.toContain('d01');
      expect((await ids({ sort: [{ field: 'score', direction: 'asc' }] })).slice(-2)).toEqual(['d01', 'd10']);
    });

    it('adds new documents and keeps the last of repeated ids', async () => {
      await suite.index.upsert([
        { id: 'd21', text: { name: 'First Draft' }, keywords: {}, sort: {} },
        {
          id: 'd21',
          text: { name: 'Final Version', city: 'Davis' },
          keywords: { group: ['Other'] },
          sort: {},
        },
      ]);
      expect((await find()).total).toBe(21);
      expect(await ids({ text: 'draft' })).toEqual([]);
      expect(await ids({ text: 'final davis', filters: { group: 'Other' } })).toEqual(['d21']);
    });

    it('removes documents, ignoring unknown ids', async () => {
      await suite.index.remove(['d01', 'd02', 'nope']);
      await suite.index.remove([]);
      expect(await ids({ text: 'nurses' })).toEqual([]);
      expect((await find()).total).toBe(18);
    });

    it('clears every document, and takes new ones afterwards', async () => {
      await suite.index.clear();
      expect(await find()).toEqual({ ids: [], total: 0 });
      await suite.index.ensure();
      await suite.index.upsert([CONTRACT_CORPUS[0] as SearchDocument]);
      expect(await find({ text: 'nurses' })).toEqual({ ids: ['d01'], total: 1 });
    });

    it('keeps stored values: answered in page order when asked, replaced or dropped by the next upsert', async () => {
      const card = (id: string) => `{"card":"${id}","note":"ünïcode ✓ \\ \\"quoted\\""}`;
      const [d01, , d03] = CONTRACT_CORPUS as SearchDocument[];
      await suite.index.upsert([
        { ...(d01 as SearchDocument), stored: card('d01') },
        { ...(d03 as SearchDocument), stored: card('d03') },
      ]);
      const sort = [{ field: 'name', direction: 'asc' as const }];
      const page = await find({ text: 'california', sort, withStored: true });
      expect(page.ids).toEqual(expect.arrayContaining(['d01', 'd03']));
      expect(page.stored).toEqual(page.ids.map((id) => (id === 'd01' || id === 'd03' ? card(id) : null)));
      const second = await find({ text: 'california', sort, offset: 1, limit: 1, withStored: true });
      expect(second.stored).toEqual([page.stored?.[1]]);
      expect('stored' in (await find({ text: 'california' }))).toBe(false);

      await suite.index.upsert([
        { ...(d01 as SearchDocument), stored: card('d01 again') },
        d03 as SearchDocument,
      ]);
      const again = await find({ text: 'california', sort, withStored: true });
      expect(again.stored?.[again.ids.indexOf('d01')]).toBe(card('d01 again'));
      expect(again.stored?.[again.ids.indexOf('d03')]).toBeNull();
    });

    it('refuses fields the index does not declare', async () => {
      await expect(
        suite.index.upsert([{ id: 'x', text: { name: 'X', nickname: 'Y' }, keywords: {}, sort: {} }]),
      ).rejects.toThrow(/nickname/);
      await expect(find({ filters: { colour: 'red' } })).rejects.toThrow(/colour/);
      await expect(find({ sort: [{ field: 'city', direction: 'asc' }] })).rejects.toThrow(/city/);
      expect((await find()).total).toBe(20);
    });
  });
}
