// The search contract's cases on rebuilds: searches answer throughout, never from an empty index; writes made
// meanwhile are kept; one rebuild at a time; and a rebuild for a new definition.
import { describe, expect, it } from 'vitest';
import type { RebuildSource, SearchDocument, SearchIndex, SearchIndexDefinition } from '../port.ts';
import { ALL_IDS, CONTRACT_CORPUS, CONTRACT_FIELDS } from './corpus.ts';
import type { ContractSuite } from './suite.ts';

/** The definition of the owner's next release in the definition-change case: one more text field. */
const WITH_STREET: SearchIndexDefinition = {
  ...CONTRACT_FIELDS,
  textFields: [...CONTRACT_FIELDS.textFields, 'street'],
};

/**
 * The owner's table a rebuild reads, as a map by id: read a page of 5 at a time in id order, each when asked (as a
 * database cursor reads), and paused after the first page until the test opens the gate.
 */
function ownerTable(documents: readonly SearchDocument[]) {
  const rows = new Map(documents.map((document) => [document.id, structuredClone(document)]));
  let reached: () => void = () => {};
  const paused = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const source: RebuildSource = {
    async eachPage(handle) {
      let after = '';
      for (let page = 0; ; page++) {
        if (page === 1) {
          reached();
          await gate;
        }
        const batch = [...rows.values()]
          .filter((document) => document.id > after)
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, 5);
        if (batch.length === 0) return;
        await handle(structuredClone(batch));
        after = batch[batch.length - 1]?.id as string;
      }
    },
    async documents(ids) {
      return ids.flatMap((id) => {
        const document = rows.get(id);
        return document ? [structuredClone(document)] : [];
      });
    },
  };
  return { rows, source, paused, open };
}

/**
 * Rebuilds from an owner's table. `reopen` opens the index with another definition (see SearchIndexContractOptions);
 * without it the definition-change case is not registered.
 */
export function rebuildCases(
  suite: ContractSuite,
  reopen?: (definition: SearchIndexDefinition) => Promise<SearchIndex>,
): void {
  const { find, ids } = suite;

  describe('rebuilds', () => {
    const renamed = (document: SearchDocument, name: string): SearchDocument => ({
      ...document,
      text: { ...document.text, name },
      sort: { ...document.sort, name },
    });
    const [d01, , d03] = CONTRACT_CORPUS as SearchDocument[];

    /** Searches in a loop until `done` settles; answers every total seen. */
    async function searchThroughout(done: Promise<unknown>): Promise<number[]> {
      let finished = false;
      const end = done.finally(() => {
        finished = true;
      });
      const totals: number[] = [];
      while (!finished) {
        totals.push((await find({ limit: 1 })).total);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await end;
      return totals;
    }

    it('answers the old documents while it runs, never an empty index, then the new ones', async () => {
      // The table has moved on from the index: d01 renamed, d20 gone, d21 new.
      const table = ownerTable([
        renamed(d01 as SearchDocument, 'California Nurses Guild'),
        ...CONTRACT_CORPUS.slice(1, 19),
        { id: 'd21', text: { name: 'Delta Stewardship Council' }, keywords: {}, sort: {} },
      ]);
      const rebuilding = suite.index.rebuild(table.source);
      const totals = searchThroughout(rebuilding);
      await table.paused;
      expect(await ids({ text: 'association nurses' })).toEqual(['d01']);
      expect(await ids({ text: 'stewardship' })).toEqual([]);
      expect(await find({ limit: 0 })).toEqual({ ids: [], total: 20 });
      table.open();
      expect(await rebuilding).toEqual({ rebuilt: true, documents: 20 });
      expect(await ids({ text: 'nurses guild' })).toEqual(['d01']);
      expect(await ids({ text: 'association nurses' })).toEqual([]);
      expect(await ids({ text: 'stewardship' })).toEqual(['d21']);
      expect(await ids({ text: 'öko' })).toEqual([]);
      expect(await ids({ sort: [{ field: 'name', direction: 'asc' }], limit: 3 })).toEqual([
        'd07',
        'd12',
        'd03',
      ]);
      const seen = await totals;
      expect(seen.length).toBeGreaterThan(0);
      // 20 before the switch and 20 after: never a moment with fewer.
      expect(new Set(seen)).toEqual(new Set([20]));
    });

    it('keeps the writes made while it runs, on pages it had read and pages it had not', async () => {
      const table = ownerTable(CONTRACT_CORPUS);
      const rebuilding = suite.index.rebuild(table.source);
      await table.paused;
      // As the owner writes: its table first, then the index. d01 and d02 are on the page already read, d03 and
      // the new d22 on pages still to come.
      const write = async (document: SearchDocument) => {
        table.rows.set(document.id, structuredClone(document));
        await suite.index.upsert([document]);
      };
      await write(renamed(d01 as SearchDocument, 'Sierra Nurses Guild'));
      table.rows.delete('d02');
      await suite.index.remove(['d02']);
      await write(renamed(d03 as SearchDocument, 'Water Agencies League'));
      await write({ id: 'd22', text: { name: 'Tahoe Rangers' }, keywords: { group: ['Other'] }, sort: {} });
      // The live index has them at once.
      expect(await ids({ text: 'sierra' })).toEqual(['d01']);
      expect(await ids({ text: 'tahoe' })).toEqual(['d22']);
      table.open();
      expect(await rebuilding).toEqual({ rebuilt: true, documents: 20 });
      expect(await ids({ text: 'sierra' })).toEqual(['d01']);
      expect(await ids({ text: 'nurses' })).toEqual(['d01']);
      expect(await ids({ text: 'league' })).toEqual(['d03']);
      expect(await ids({ text: 'tahoe', filters: { group: 'Other' } })).toEqual(['d22']);
      expect((await find()).ids).not.toContain('d02');
      // And writes after the switch land in the new generation.
      await suite.index.upsert([renamed(d01 as SearchDocument, 'Mojave Nurses Guild')]);
      expect(await ids({ text: 'mojave' })).toEqual(['d01']);
    });

    it('runs one at a time: a second rebuild meanwhile skips and changes nothing', async () => {
      const table = ownerTable(CONTRACT_CORPUS.slice(0, 10));
      const rebuilding = suite.index.rebuild(table.source);
      await table.paused;
      const other = ownerTable([]);
      other.open();
      expect(await suite.index.rebuild(other.source)).toEqual({ rebuilt: false });
      expect((await find()).total).toBe(20);
      table.open();
      expect(await rebuilding).toEqual({ rebuilt: true, documents: 10 });
      expect((await find()).total).toBe(10);
      // The lock is free again once a rebuild ends.
      const again = ownerTable(CONTRACT_CORPUS);
      again.open();
      expect(await suite.index.rebuild(again.source)).toEqual({ rebuilt: true, documents: 20 });
      expect(await find()).toEqual({ ids: ALL_IDS, total: 20 });
    });

    // Registered only for an adapter with storage of its own to reopen.
    if (reopen)
      it('rebuilds for a new definition without an empty moment, the old definition answering until the switch', async () => {
        const next = await reopen(WITH_STREET);
        try {
          expect(await next.ensure()).toBe('outdated');
          // Not dropped: the live index still answers everything.
          expect((await find()).total).toBe(20);
          const table = ownerTable([
            { ...(d01 as SearchDocument), text: { ...d01?.text, street: '1021 O Street' } },
            ...CONTRACT_CORPUS.slice(1),
          ]);
          const rebuilding = next.rebuild(table.source);
          const totals = searchThroughout(rebuilding);
          await table.paused;
          expect((await find()).total).toBe(20);
          table.open();
          expect(await rebuilding).toEqual({ rebuilt: true, documents: 20 });
          expect(await next.ensure()).toBe('current');
          expect((await next.search({ text: 'o street', offset: 0, limit: 10 })).ids).toEqual(['d01']);
          expect(new Set(await totals)).toEqual(new Set([20]));
          // The older definition now finds the live index outdated, and rebuilding it back works the same way.
          expect(await suite.index.ensure()).toBe('outdated');
          const back = ownerTable(CONTRACT_CORPUS);
          back.open();
          expect(await suite.index.rebuild(back.source)).toEqual({ rebuilt: true, documents: 20 });
          expect(await suite.index.ensure()).toBe('current');
        } finally {
          await next.close();
        }
      });
  });
}
