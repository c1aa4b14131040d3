// The search contract on the in-memory engine, plus what only it has: code point order and compaction.
import { describe, expect, it } from 'vitest';
import { compareCodePoints, createMemorySearchIndex } from '../src/memory.ts';
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
});
