// The one contract suite every SearchIndex adapter must pass (Postgres always, Elasticsearch when configured);
// services run it against the adapter their composition root builds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
} from '../port.ts';

/** The field definition makeIndex must give its adapter: the corpus below uses exactly these. */
export const CONTRACT_FIELDS: SearchIndexDefinition = {
  textFields: ['name', 'city'],
  keywordFields: ['group', 'tags'],
  sortFields: [
    { name: 'name', type: 'text' },
    { name: 'score', type: 'number' },
  ],
  stored: true,
};

function organization(
  id: string,
  name: string,
  city: string,
  group: string,
  tags: string[],
  score: number | undefined,
): SearchDocument {
  // The sort name is given in its display case on purpose: ordering must not depend on case.
  return {
    id,
    text: { name, city },
    keywords: { group: [group], tags },
    sort: score === undefined ? { name } : { name, score },
  };
}

/** Twenty organizations chosen to separate right from almost-right (cross-field words, ties, metacharacters). */
export const CONTRACT_CORPUS: readonly SearchDocument[] = [
  organization('d01', 'California Nurses Association', 'Sacramento', 'Unions', ['health', 'labor'], 40),
  organization('d02', 'Nurses United', 'Oakland', 'Unions', ['health'], 25),
  organization(
    'd03',
    'Association of California Water Agencies',
    'Sacramento',
    'Associations',
    ['water'],
    25,
  ),
  organization(
    'd04',
    'Department of Water Resources',
    'Sacramento',
    'Agencies',
    ['water', 'environment'],
    10,
  ),
  organization('d05', 'José Ramírez Consulting', 'San José', 'Lobbyists', ['health'], 5),
  organization('d06', 'JOSÉ ALVAREZ & ASSOCIATES', 'Fresno', 'Lobbyists', [], 5),
  organization('d07', '100% Club', 'Los Angeles', 'Other', ['charity'], 1),
  organization('d08', 'Under_Score Partners', 'San Diego', 'Lobbyists', [], 5),
  // Styled in lower case: sorted by its letters, not before or after every capitalized name.
  organization('d09', 'back\\slash strategies', 'Long Beach', 'Lobbyists', ['labor'], 12),
  organization('d10', 'Rotunda', 'Sacramento', 'Other', [], undefined),
  organization('d11', 'Office of the Governor', 'Sacramento', "Governor's Office", ['health', 'water'], 30),
  organization('d12', 'Assembly Health Committee', 'Sacramento', 'Legislature', ['health'], 18),
  organization('d13', 'Senate Labor Committee', 'Sacramento', 'Legislature', ['labor'], 18),
  organization('d14', 'Campaign for Clean Water', 'Los Angeles', 'Campaigns', ['water', 'environment'], 2),
  organization('d15', 'San Francisco Teachers Union', 'San Francisco', 'Unions', ['education', 'labor'], 22),
  // Name and city glued together would read '…coastalameda' and falsely contain 'coastal'.
  organization('d16', 'Growers of the Gold Coast', 'Alameda', 'Associations', ['agriculture'], 8),
  organization('d17', 'Coastal Commission', 'San Francisco', 'Agencies', ['environment'], 14),
  organization('d18', 'Twin Peaks Advocacy', 'Fresno', 'Lobbyists', ['health'], 7),
  organization('d19', 'Twin Peaks Advocacy', 'Fresno', 'Lobbyists', ['water'], 7),
  organization('d20', 'Öko Institute', 'Berkeley', 'Other', ['environment'], 3),
];

const ALL_IDS = CONTRACT_CORPUS.map((document) => document.id);
const BY_NAME = [
  'd07', // 100% club
  'd12', // assembly health committee
  'd03', // association of california water agencies
  'd09', // back\slash strategies
  'd01', // california nurses association
  'd14', // campaign for clean water
  'd17', // coastal commission
  'd04', // department of water resources
  'd16', // growers of the gold coast
  'd06', // josé alvarez & associates (upper case in the corpus)
  'd05', // josé ramírez consulting
  'd02', // nurses united
  'd11', // office of the governor
  'd10', // rotunda
  'd15', // san francisco teachers union
  'd13', // senate labor committee
  'd18', // twin peaks advocacy (tie, id ascending)
  'd19', // twin peaks advocacy
  'd08', // under_score partners
  'd20', // öko institute (code point order: after ASCII)
];

export interface SearchIndexContractOptions {
  /** Registers the suite as skipped, printing why (e.g. 'ELASTICSEARCH_URL is not set'). */
  skipReason?: string;
  /**
   * Opens the index makeIndex made (its tables, its alias) with another definition, as the owner's next release
   * would: the definition-change rebuild is tested when given (an engine with no storage of its own has none).
   */
  reopen?: (definition: SearchIndexDefinition) => Promise<SearchIndex>;
}

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
 * Registers the contract as a vitest describe. makeIndex builds a fresh, empty index with CONTRACT_FIELDS; the
 * suite calls ensure(), owns the index's documents and closes it at the end.
 */
export function searchIndexContract(
  name: string,
  makeIndex: () => Promise<SearchIndex>,
  options: SearchIndexContractOptions = {},
): void {
  if (options.skipReason !== undefined) {
    console.log(`search index contract ${name}: SKIPPED — ${options.skipReason}`);
    describe.skip(`search index contract ${name}`, () => {
      it('is skipped', () => {});
    });
    return;
  }

  describe(`search index contract ${name}`, () => {
    let index: SearchIndex;

    const find = (query: Partial<SearchQuery> = {}) => index.search({ offset: 0, limit: 100, ...query });
    const ids = async (query: Partial<SearchQuery> = {}) => (await find(query)).ids;

    beforeAll(async () => {
      index = await makeIndex();
      await index.ensure();
      // ensure() is idempotent: a second call keeps the index (and would keep its documents).
      await index.ensure();
    });

    beforeEach(async () => {
      await index.clear();
      // Written in reverse so an adapter that returns storage order instead of sorting by id is caught.
      await index.upsert(structuredClone([...CONTRACT_CORPUS].reverse()));
    });

    afterAll(async () => {
      await index?.clear();
      await index?.close();
    });

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
        const rebuilding = index.rebuild(table.source);
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
        const rebuilding = index.rebuild(table.source);
        await table.paused;
        // As the owner writes: its table first, then the index. d01 and d02 are on the page already read, d03 and
        // the new d22 on pages still to come.
        const write = async (document: SearchDocument) => {
          table.rows.set(document.id, structuredClone(document));
          await index.upsert([document]);
        };
        await write(renamed(d01 as SearchDocument, 'Sierra Nurses Guild'));
        table.rows.delete('d02');
        await index.remove(['d02']);
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
        await index.upsert([renamed(d01 as SearchDocument, 'Mojave Nurses Guild')]);
        expect(await ids({ text: 'mojave' })).toEqual(['d01']);
      });

      it('runs one at a time: a second rebuild meanwhile skips and changes nothing', async () => {
        const table = ownerTable(CONTRACT_CORPUS.slice(0, 10));
        const rebuilding = index.rebuild(table.source);
        await table.paused;
        const other = ownerTable([]);
        other.open();
        expect(await index.rebuild(other.source)).toEqual({ rebuilt: false });
        expect((await find()).total).toBe(20);
        table.open();
        expect(await rebuilding).toEqual({ rebuilt: true, documents: 10 });
        expect((await find()).total).toBe(10);
        // The lock is free again once a rebuild ends.
        const again = ownerTable(CONTRACT_CORPUS);
        again.open();
        expect(await index.rebuild(again.source)).toEqual({ rebuilt: true, documents: 20 });
        expect(await find()).toEqual({ ids: ALL_IDS, total: 20 });
      });

      // Registered only for an adapter with storage of its own to reopen.
      const { reopen } = options;
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
            expect(await index.ensure()).toBe('outdated');
            const back = ownerTable(CONTRACT_CORPUS);
            back.open();
            expect(await index.rebuild(back.source)).toEqual({ rebuilt: true, documents: 20 });
            expect(await index.ensure()).toBe('current');
          } finally {
            await next.close();
          }
        });
    });

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
        expect(
          await find({ filters: { group: 'Lobbyists' }, offset: 4, limit: 4, countTotal: false }),
        ).toEqual({
          ids: ['d18', 'd19'],
          total: -1,
        });
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

    describe('writes', () => {
      it('replaces a document on upsert', async () => {
        await index.upsert([
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
        expect((await find({ sort: [{ field: 'score', direction: 'desc' }], limit: 1 })).ids).toEqual([
          'd02',
        ]);
        expect((await find()).total).toBe(20);
      });

      it('clears fields the new version leaves out', async () => {
        await index.upsert([
          { id: 'd01', text: { name: 'California Nurses Association' }, keywords: {}, sort: {} },
        ]);
        expect(await ids({ text: 'nurses sacramento' })).toEqual([]);
        expect(await ids({ filters: { tags: 'labor' } })).not.toContain('d01');
        expect((await ids({ sort: [{ field: 'score', direction: 'asc' }] })).slice(-2)).toEqual([
          'd01',
          'd10',
        ]);
      });

      it('adds new documents and keeps the last of repeated ids', async () => {
        await index.upsert([
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
        await index.remove(['d01', 'd02', 'nope']);
        await index.remove([]);
        expect(await ids({ text: 'nurses' })).toEqual([]);
        expect((await find()).total).toBe(18);
      });

      it('clears every document, and takes new ones afterwards', async () => {
        await index.clear();
        expect(await find()).toEqual({ ids: [], total: 0 });
        await index.ensure();
        await index.upsert([CONTRACT_CORPUS[0] as SearchDocument]);
        expect(await find({ text: 'nurses' })).toEqual({ ids: ['d01'], total: 1 });
      });

      it('keeps stored values: answered in page order when asked, replaced or dropped by the next upsert', async () => {
        const card = (id: string) => `{"card":"${id}","note":"ünïcode ✓ \\ \\"quoted\\""}`;
        const [d01, , d03] = CONTRACT_CORPUS as SearchDocument[];
        await index.upsert([
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

        await index.upsert([
          { ...(d01 as SearchDocument), stored: card('d01 again') },
          d03 as SearchDocument,
        ]);
        const again = await find({ text: 'california', sort, withStored: true });
        expect(again.stored?.[again.ids.indexOf('d01')]).toBe(card('d01 again'));
        expect(again.stored?.[again.ids.indexOf('d03')]).toBeNull();
      });

      it('refuses fields the index does not declare', async () => {
        await expect(
          index.upsert([{ id: 'x', text: { name: 'X', nickname: 'Y' }, keywords: {}, sort: {} }]),
        ).rejects.toThrow(/nickname/);
        await expect(find({ filters: { colour: 'red' } })).rejects.toThrow(/colour/);
        await expect(find({ sort: [{ field: 'city', direction: 'asc' }] })).rejects.toThrow(/city/);
        expect((await find()).total).toBe(20);
      });
    });
  });
}
