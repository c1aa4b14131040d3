// The search contract on the in-memory engine, plus what only it has: code point order, compaction, and pages
// found two ways (walking an order, or sorting the candidates) that must both answer as the Postgres index does.
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { SearchDocument, SearchQuery } from '../src/index.ts';
import { compareCodePoints } from '../src/memory/order.ts';
import { createMemorySearchIndex } from '../src/memory.ts';
import { createPostgresSearchIndex } from '../src/postgres.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

searchIndexContract('memory', async () => createMemorySearchIndex(CONTRACT_FIELDS));

describe('in-memory search engine', () => {
  it('orders text by code point, as Postgres COLLATE "C" and Elasticsearch do', () => {
    // U+FF21 (fullwidth A) is one UTF-16 unit above the surrogates that encode U+1F600, yet its code point is lower.
    const words = ['\u{1F600}', '\uFF21', 'z', 'é'];
    expect([...words].sort(compareCodePoints)).toEqual(['z', 'é', '\uFF21', '\u{1F600}']);
  });

  it('keeps answering right after many replacements compact its postings', async () => {
    const index = createMemorySearchIndex(CONTRACT_FIELDS);
    for (let round = 0; round < 3; round++) {
      await index.upsert(
        Array.from({ length: 1500 }, (_, i) => ({
          id: `o${i}`,
          text: { name: `Organization ${i} round-${round}` },
          keywords: { group: [i % 2 ? 'Unions' : 'Agencies'] },
          sort: { name: `Organization ${i}`, score: i },
        })),
      );
    }
    expect(index.size).toBe(1500);
    const found = await index.search({
      text: 'round-2',
      filters: { group: 'Unions' },
      offset: 0,
      limit: 3,
      sort: [{ field: 'score', direction: 'desc' }],
    });
    expect(found).toEqual({ ids: ['o1499', 'o1497', 'o1495'], total: 750 });
    // Past 512 matches a page walks the whole order; an offset page and a name order must come out the same way.
    const deeper = await index.search({
      text: 'round-2',
      filters: { group: 'Unions' },
      offset: 2,
      limit: 2,
      sort: [{ field: 'score', direction: 'desc' }],
    });
    expect(deeper.ids).toEqual(['o1495', 'o1493']);
    const byName = await index.search({
      text: 'round-2',
      offset: 0,
      limit: 3,
      sort: [{ field: 'name', direction: 'asc' }],
    });
    expect(byName.ids).toEqual(['o0', 'o1', 'o10']);
    expect((await index.search({ text: 'round-1', offset: 0, limit: 1 })).total).toBe(0);
  });

  it('answers as the Postgres index does on thousands of documents, broad queries and narrow ones alike', async () => {
    // Skewed on purpose: 'Unions' and the word 'staff' are dense (a page walks the name order), 'Courts' and
    // 'zephyr' rare (the candidates are checked and sorted); some documents have no name to sort by.
    const groups = ['Unions', 'Unions', 'Unions', 'Agencies', 'Agencies', 'Courts'];
    const words = ['staff', 'staff', 'director', 'analyst', 'zephyr', 'clerk', 'staff aide'];
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const documents: SearchDocument[] = Array.from({ length: 3000 }, (_, i) => {
      const name = `${['Ana', 'Ben', 'Cy', 'Dee'][random(4)]} ${words[random(words.length)]} ${i % 97}`;
      return {
        id: `d${i}`,
        text: { name, city: ['Sacramento', 'Davis', 'Fresno'][random(3)] as string },
        keywords: {
          group: random(20) === 0 ? [] : [groups[random(groups.length)] as string],
          tags: Array.from({ length: random(3) }, () => `t${random(8)}`),
        },
        sort: (random(50) === 0
          ? { score: random(100) }
          : { name, score: random(100) }) as SearchDocument['sort'],
        stored: `card ${i}`,
      };
    });
    const memory = createMemorySearchIndex(CONTRACT_FIELDS);
    const postgres = createPostgresSearchIndex({
      databaseUrl: await createTestDatabase(),
      schema: 'memory_compare',
      index: 'people',
      ...CONTRACT_FIELDS,
    });
    try {
      await postgres.ensure();
      await postgres.upsert(documents);
      // Loaded whole, as a replica loads: long postings get their bits, which later writes must keep up.
      await memory.replaceAll([documents.slice(0, 1000), documents.slice(1000)]);
      // Replaced and removed documents too, so the postings hold entries that are no longer current.
      const changed = documents.slice(0, 300).map((document) => ({
        ...document,
        text: { ...document.text, name: `Zephyr ${document.text.name}` },
      }));
      const removed = documents.slice(300, 400).map((document) => document.id);
      for (const index of [memory, postgres]) {
        await index.upsert(changed);
        await index.remove(removed);
      }
      const byName = [{ field: 'name', direction: 'asc' as const }];
      const queries: SearchQuery[] = [
        { offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { offset: 90, limit: 30, sort: byName, countUpTo: 100 },
        { offset: 0, limit: 30, sort: [{ field: 'name', direction: 'desc' }], countUpTo: 100 },
        { offset: 0, limit: 30, sort: byName },
        { offset: 2960, limit: 30, sort: byName, countUpTo: 100 },
        { filters: { group: 'Unions' }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { filters: { group: 'Unions' }, offset: 60, limit: 30, sort: byName, countTotal: false },
        { filters: { group: 'Courts' }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { filters: { group: ['Courts', 'Agencies'] }, offset: 30, limit: 30, sort: byName, countUpTo: 100 },
        { filters: { group: 'Unions', tags: 't3' }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'staff', offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'staff', offset: 0, limit: 30, sort: byName, countUpTo: 3000 },
        {
          text: 'STAFF aide',
          filters: { group: 'Agencies' },
          offset: 0,
          limit: 30,
          sort: byName,
          countUpTo: 100,
        },
        { text: 'zephyr', offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'zephyr', filters: { group: 'Unions' }, offset: 30, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'staff', exclude: { group: ['Unions'] }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        {
          text: 'sacramento',
          offset: 0,
          limit: 30,
          sort: [{ field: 'score', direction: 'desc' }],
          countUpTo: 100,
        },
        { text: 'an', filters: { tags: 't1' }, offset: 0, limit: 30, countUpTo: 100 },
        { text: 'nobody', offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        // Words held by one vocabulary word, by several ('ana': ana, analyst; 'st': staff, analyst), by more than
        // are narrowed by ('1': 1, 10 to 19, 21 …), and by most of them ('a'), alone or together with filters.
        { text: 'dee', offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'ana 12', filters: { group: 'Unions' }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'st cy', offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: '1 ff', filters: { group: 'Agencies' }, offset: 0, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'a', offset: 30, limit: 30, sort: byName, countUpTo: 100 },
        { text: 'a 7 s', exclude: { tags: ['t2'] }, offset: 0, limit: 30, sort: byName },
        { text: 'n', offset: 30, limit: 30, countUpTo: 100 },
        // More words than the engine tells apart by a bit each: the rest are looked for in the text.
        {
          text: 's a c r m e n t o sa ac cr ra am me en nt to sac acr cra ram ame men ent nto sacr acra cram ramen mento amento staff',
          offset: 0,
          limit: 30,
          sort: byName,
          countUpTo: 100,
        },
      ];
      for (const query of queries)
        expect(await memory.search({ ...query, withStored: true }), JSON.stringify(query)).toEqual(
          await postgres.search({ ...query, withStored: true }),
        );
    } finally {
      await postgres.close();
    }
  });
});
