// The search contract's cases on order and paging: sort keys, ties, missing values, a seeded random order, pages
// without duplicates or gaps, and totals counted, bounded or not counted.
import { describe, expect, it } from 'vitest';
import type { SearchQuery } from '../port.ts';
import { ALL_IDS, BY_NAME } from './corpus.ts';
import type { ContractSuite } from './suite.ts';

/** Sorting, the seeded random order and paging. */
export function orderCases({ find, ids }: ContractSuite): void {
  describe('sorting', () => {
    it('sorts text case-insensitively, ties by id ascending', async () => {
      expect(await ids({ sort: [{ field: 'name', direction: 'asc' }] })).toEqual(BY_NAME);
    });

    it('keeps id ascending for ties when descending', async () => {
      const descending = [...BY_NAME].reverse();
      // The tie d18/d19 keeps id order even though the key is descending.
      descending.splice(descending.indexOf('d19'), 2, 'd18', 'd19');
      expect(await ids({ sort: [{ field: 'name', direction: 'desc' }] })).toEqual(descending);
    });

    it('sorts numbers, missing values last either way', async () => {
      expect(await ids({ sort: [{ field: 'score', direction: 'asc' }] })).toEqual([
        'd07', // 1
        'd14', // 2
        'd20', // 3
        'd05', // 5
        'd06',
        'd08',
        'd18', // 7
        'd19',
        'd16', // 8
        'd04', // 10
        'd09', // 12
        'd17', // 14
        'd12', // 18
        'd13',
        'd15', // 22
        'd02', // 25
        'd03',
        'd11', // 30
        'd01', // 40
        'd10', // no score
      ]);
      expect(await ids({ sort: [{ field: 'score', direction: 'desc' }] })).toEqual([
        'd01',
        'd11',
        'd02',
        'd03',
        'd15',
        'd12',
        'd13',
        'd17',
        'd09',
        'd04',
        'd16',
        'd18',
        'd19',
        'd05',
        'd06',
        'd08',
        'd20',
        'd14',
        'd07',
        'd10',
      ]);
    });

    it('applies keys in order before the id', async () => {
      const sorted = await ids({
        filters: { group: 'Lobbyists' },
        sort: [
          { field: 'score', direction: 'desc' },
          { field: 'name', direction: 'asc' },
        ],
      });
      // Score 12, then 7 (same name: id), then 5 by name: josé alvarez, josé ramírez, under_score.
      expect(sorted).toEqual(['d09', 'd18', 'd19', 'd06', 'd05', 'd08']);
    });

    it('sorts the matches of a search', async () => {
      expect(await ids({ text: 'sacramento', sort: [{ field: 'score', direction: 'desc' }] })).toEqual([
        'd01',
        'd11',
        'd03',
        'd12',
        'd13',
        'd04',
        'd10',
      ]);
    });
  });

  describe('seeded random order', () => {
    const shuffled = (seed: number, query: Partial<SearchQuery> = {}) =>
      ids({ ...query, sort: [{ random: seed }] });

    it('orders every match, the same way each time for one seed', async () => {
      const first = await shuffled(7);
      expect([...first].sort()).toEqual(ALL_IDS);
      expect(await shuffled(7)).toEqual(first);
      expect((await find({ sort: [{ random: 7 }] })).total).toBe(20);
    });

    it('is a shuffle: seeds give different orders, and not id order', async () => {
      const orders = await Promise.all([1, 2, 3, 4].map((seed) => shuffled(seed)));
      // Twenty documents have 20! orders: two seeds agreeing, or a seed keeping id order, is a broken shuffle.
      expect(new Set(orders.map((order) => order.join())).size).toBe(4);
      for (const order of orders) expect(order).not.toEqual(ALL_IDS);
      expect(await shuffled(-2_147_483_648)).not.toEqual(await shuffled(2_147_483_647));
    });

    it('pages one seed without duplicates or gaps', async () => {
      const whole = await shuffled(2024);
      const pages = [];
      for (let offset = 0; offset < 20; offset += 6)
        pages.push(await find({ sort: [{ random: 2024 }], offset, limit: 6 }));
      expect(pages.flatMap((page) => page.ids)).toEqual(whole);
      expect(pages.every((page) => page.total === 20)).toBe(true);
    });

    it('shuffles only the matches of words and filters', async () => {
      const lobbyists = await shuffled(11, { filters: { group: 'Lobbyists' } });
      expect([...lobbyists].sort()).toEqual(['d05', 'd06', 'd08', 'd09', 'd18', 'd19']);
      const sacramento = await shuffled(11, { text: 'sacramento', exclude: { group: ['Other'] } });
      expect([...sacramento].sort()).toEqual(['d01', 'd03', 'd04', 'd11', 'd12', 'd13']);
      expect(await shuffled(11, { text: 'sacramento', exclude: { group: ['Other'] } })).toEqual(sacramento);
    });

    it('orders by the keys before it first', async () => {
      const sorted = await ids({
        filters: { group: 'Lobbyists' },
        sort: [{ field: 'score', direction: 'desc' }, { random: 5 }],
      });
      expect(sorted[0]).toBe('d09');
      expect(new Set(sorted.slice(1, 3))).toEqual(new Set(['d18', 'd19']));
      expect(new Set(sorted.slice(3))).toEqual(new Set(['d05', 'd06', 'd08']));
    });

    it('refuses a seed that is not a 32-bit integer, and two random keys', async () => {
      await expect(shuffled(1.5)).rejects.toThrow(/seed/);
      await expect(shuffled(2 ** 31)).rejects.toThrow(/seed/);
      await expect(find({ sort: [{ random: 1 }, { random: 2 }] })).rejects.toThrow(/one random/);
    });
  });

  describe('paging', () => {
    it('pages without duplicates or gaps, total unchanged', async () => {
      const sort = [{ field: 'name', direction: 'asc' as const }];
      const pages = [];
      for (let offset = 0; offset < 21; offset += 7) pages.push(await find({ sort, offset, limit: 7 }));
      expect(pages.map((page) => page.ids.length)).toEqual([7, 7, 6]);
      expect(pages.every((page) => page.total === 20)).toBe(true);
      expect(pages.flatMap((page) => page.ids)).toEqual(BY_NAME);
    });

    it('pages a filtered search in id order', async () => {
      const first = await find({ filters: { group: 'Lobbyists' }, offset: 0, limit: 4 });
      const second = await find({ filters: { group: 'Lobbyists' }, offset: 4, limit: 4 });
      expect(first).toEqual({ ids: ['d05', 'd06', 'd08', 'd09'], total: 6 });
      expect(second).toEqual({ ids: ['d18', 'd19'], total: 6 });
    });

    it('counts nothing when asked not to: the same pages, total -1', async () => {
      const sort = [{ field: 'name', direction: 'asc' as const }];
      expect(await find({ sort, offset: 5, limit: 5, countTotal: false })).toEqual({
        ids: BY_NAME.slice(5, 10),
        total: -1,
      });
      expect(
        await find({
          text: 'sacramento',
          sort: [{ field: 'score', direction: 'desc' }],
          countTotal: false,
        }),
      ).toEqual({
        ids: ['d01', 'd11', 'd03', 'd12', 'd13', 'd04', 'd10'],
        total: -1,
      });
      expect(await find({ filters: { group: 'Lobbyists' }, offset: 4, limit: 4, countTotal: false })).toEqual(
        {
          ids: ['d18', 'd19'],
          total: -1,
        },
      );
      expect(await find({ text: 'nurses', countTotal: true })).toEqual({ ids: ['d01', 'd02'], total: 2 });
    });

    it('counts up to a bound: past it the total is the bound, said to be a lower bound', async () => {
      const sort = [{ field: 'name', direction: 'asc' as const }];
      expect(await find({ sort, offset: 0, limit: 5, countUpTo: 10 })).toEqual({
        ids: BY_NAME.slice(0, 5),
        total: 10,
        totalIsLowerBound: true,
      });
      expect(await find({ filters: { group: 'Lobbyists' }, offset: 0, limit: 2, countUpTo: 6 })).toEqual({
        ids: ['d05', 'd06'],
        total: 6,
      });
      expect(await find({ filters: { group: 'Lobbyists' }, offset: 0, limit: 2, countUpTo: 5 })).toEqual({
        ids: ['d05', 'd06'],
        total: 5,
        totalIsLowerBound: true,
      });
      const lowerBound = await find({ text: 'sacramento', offset: 0, limit: 1, countUpTo: 3 });
      expect(lowerBound).toMatchObject({ total: 3, totalIsLowerBound: true });
      expect(await find({ text: 'nurses', countUpTo: 3 })).toEqual({ ids: ['d01', 'd02'], total: 2 });
    });

    it('answers the total past the last page and for limit 0', async () => {
      expect(await find({ offset: 40, limit: 10 })).toEqual({ ids: [], total: 20 });
      expect(await find({ text: 'nurses', offset: 0, limit: 0 })).toEqual({ ids: [], total: 2 });
    });

    it('refuses negative or fractional offsets and limits', async () => {
      await expect(find({ offset: -1 })).rejects.toThrow();
      await expect(find({ limit: 2.5 })).rejects.toThrow();
    });
  });
}
