// The search contract's cases that only show with many documents: pages deep into a long run of equal sort keys
// (a page boundary inside the ties), a count bound reached and not, and a broad search answered by walking the
// order rather than checking every match (the in-memory engine's dense strategy).
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../port.ts';
import type { ContractSuite } from './suite.ts';

/** Documents in the generated set: more than the directory's count bound (1,000), so the bound is reached. */
const SCALE = 3000;
/** Few names, so each is shared by hundreds of documents. */
const NAMES = ['Ash', 'Birch', 'Cedar', 'Delta', 'Elm'];
const GROUP = 'Scale';

/** Ids without padding: ties must order them as text ('s10' before 's9'), on every engine. */
const SCALE_SET: SearchDocument[] = Array.from({ length: SCALE }, (_, n) => {
  const name = NAMES[n % NAMES.length] as string;
  return {
    id: `s${n + 1}`,
    text: { name: `${name} Grove`, city: 'Fresno' },
    keywords: { group: [GROUP], tags: [] },
    sort: { name, score: n % 7 },
  };
});

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortName = (id: string) => SCALE_SET[Number(id.slice(1)) - 1]?.sort.name as string;
/** The set in the name order: name, then id as text. */
const BY_NAME = SCALE_SET.map((document) => document.id).sort(
  (a, b) => byId(sortName(a), sortName(b)) || byId(a, b),
);

export function scaleCases(suite: ContractSuite): void {
  const { find } = suite;
  const withScaleSet = async () => {
    for (let start = 0; start < SCALE; start += 1000)
      await suite.index.upsert(structuredClone(SCALE_SET.slice(start, start + 1000)));
  };
  const inSet = { filters: { group: GROUP } };

  describe('at scale', () => {
    it('pages deep through long ties in sort order without a gap or a repeat', async () => {
      await withScaleSet();
      const sort = [{ field: 'name', direction: 'asc' as const }];
      const seen: string[] = [];
      for (let offset = 0; offset < SCALE; offset += 250)
        seen.push(...(await find({ ...inSet, sort, offset, limit: 250 })).ids);
      expect(seen).toEqual(BY_NAME);
      // One deep page on its own answers the same slice as the walk.
      expect((await find({ ...inSet, sort, offset: 2890, limit: 100 })).ids).toEqual(
        BY_NAME.slice(2890, 2990),
      );
      // Descending keeps ties in id order too.
      const descending = [...BY_NAME].sort((a, b) => byId(sortName(b), sortName(a)) || byId(a, b));
      expect(
        (await find({ ...inSet, sort: [{ field: 'name', direction: 'desc' }], offset: 1190, limit: 20 })).ids,
      ).toEqual(descending.slice(1190, 1210));
    });

    it('counts up to a bound it reaches, and exactly when it does not', async () => {
      await withScaleSet();
      const sort = [{ field: 'name', direction: 'asc' as const }];
      expect(await find({ ...inSet, sort, offset: 0, limit: 30, countUpTo: 1000 })).toMatchObject({
        ids: BY_NAME.slice(0, 30),
        total: 1000,
        totalIsLowerBound: true,
      });
      // A word every document holds: a broad search, counted to the bound.
      expect(await find({ text: 'grove', sort, offset: 0, limit: 30, countUpTo: 1000 })).toMatchObject({
        ids: BY_NAME.slice(0, 30),
        total: 1000,
        totalIsLowerBound: true,
      });
      const exact = await find({ ...inSet, offset: 0, limit: 1, countUpTo: SCALE });
      expect(exact.total).toBe(SCALE);
      expect(exact.totalIsLowerBound).toBeUndefined();
      expect((await find({ ...inSet, offset: 0, limit: 1 })).total).toBe(SCALE);
      // One name in five: 600 match, under the bound, counted exactly.
      const oneName = await find({ text: 'cedar grove', offset: 0, limit: 1, countUpTo: 1000 });
      expect(oneName.total).toBe(SCALE / NAMES.length);
      expect(oneName.totalIsLowerBound).toBeUndefined();
    });
  });
}
