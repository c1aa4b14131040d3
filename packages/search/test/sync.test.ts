// Bringing an index in step when a replica starts (syncIndex), on the in-memory engine and a stand-in for an
// index of another definition: left alone when in step (also when a count catches a write between the owner's
// table and its index), rebuilt when truly out of step or when its documents store an older shape of their value,
// and an outdated index waited for while another replica rebuilds it.
import { errors } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import {
  createMemorySearchIndex,
  type IndexState,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  storedCodec,
  syncIndex,
} from '../src/index.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const doc = (id: string): SearchDocument => ({ id, text: { name: `Name ${id}` }, keywords: {}, sort: {} });
const sourceOf = (documents: SearchDocument[]): RebuildSource => ({
  eachPage: (handle) => handle(documents),
  documents: async (ids) => documents.filter((document) => ids.includes(document.id)),
});

describe('syncIndex', () => {
  it('leaves an index in step alone', async () => {
    const index = createMemorySearchIndex(CONTRACT_FIELDS);
    await index.upsert([doc('a'), doc('b')]);
    const table = [doc('a'), doc('b')];
    expect(await syncIndex(index, { source: sourceOf(table), count: async () => 2, pollMs: 4 })).toEqual({
      outcome: 'in step',
    });
  });

  it('does not rebuild for a count that caught a write between the table and the index', async () => {
    const index = createMemorySearchIndex(CONTRACT_FIELDS);
    await index.upsert([doc('a')]);
    let counts = 0;
    // The first count sees the table's new row before the index has it; the owner's write then lands.
    const count = async () => {
      counts++;
      if (counts === 1) return 2;
      await index.upsert([doc('b')]);
      return 2;
    };
    const empty = sourceOf([]);
    expect(await syncIndex(index, { source: empty, count, pollMs: 4 })).toEqual({ outcome: 'in step' });
    expect(index.size).toBe(2);
  });

  it('rebuilds an index that stays out of step', async () => {
    const index = createMemorySearchIndex(CONTRACT_FIELDS);
    await index.upsert([doc('a'), doc('ghost')]);
    const table = [doc('a'), doc('b'), doc('c')];
    expect(await syncIndex(index, { source: sourceOf(table), count: async () => 3, pollMs: 4 })).toEqual({
      outcome: 'rebuilt',
      documents: 3,
    });
    expect((await index.search({ offset: 0, limit: 10 })).ids).toEqual(['a', 'b', 'c']);
  });

  it('rebuilds an index whose documents store an older shape of their value, and leaves a current one alone', async () => {
    const older = storedCodec<{ name: string }>(1);
    const codec = storedCodec<{ name: string; preferred: string | null }>(2);
    const index = createMemorySearchIndex({ ...CONTRACT_FIELDS, stored: true });
    const stored = (id: string, value: string) => ({ ...doc(id), stored: value });
    await index.upsert([stored('a', older.encode({ name: 'A' })), stored('b', older.encode({ name: 'B' }))]);
    const table = ['a', 'b'].map((id) =>
      stored(id, codec.encode({ name: id.toUpperCase(), preferred: null })),
    );
    const options = { source: sourceOf(table), count: async () => 2, pollMs: 4, stored: codec };
    // Counts agree, the definition is the same: only the stored values tell it was written before.
    expect(await syncIndex(index, options)).toEqual({ outcome: 'rebuilt', documents: 2 });
    const { stored: values } = await index.search({ offset: 0, limit: 10, withStored: true });
    expect(values?.every((value) => codec.isCurrent(value))).toBe(true);
    expect(await syncIndex(index, options)).toEqual({ outcome: 'in step' });
  });

  it('serves an index in use while another replica rebuilds it, and waits for one of another definition', async () => {
    let state: IndexState = 'current';
    let rebuilds = 0;
    const elsewhere: SearchIndex = {
      ...createMemorySearchIndex(CONTRACT_FIELDS),
      ensure: async () => state,
      rebuild: async () => {
        rebuilds++;
        return { rebuilt: false };
      },
    };
    const options = { source: sourceOf([]), count: async () => 1, pollMs: 4 };
    expect(await syncIndex(elsewhere, options)).toEqual({ outcome: 'rebuilding elsewhere' });
    state = 'outdated';
    const waiting = syncIndex(elsewhere, { ...options, count: async () => 0 });
    await expect.poll(() => rebuilds).toBeGreaterThan(3);
    // The other replica's rebuild ends: the index is of this definition now.
    state = 'current';
    expect(await waiting).toEqual({ outcome: 'in step' });
  });

  it('lets a replica start while the search engine is away, and brings the index in step once it answers', async () => {
    const engine = createMemorySearchIndex(CONTRACT_FIELDS);
    let away = true;
    const whenBack =
      <T>(call: () => Promise<T>) =>
      async () => {
        if (away) throw new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
        return call();
      };
    const index: SearchIndex = {
      ...engine,
      ensure: whenBack(() => engine.ensure()),
      search: (query) => whenBack(() => engine.search(query))(),
      rebuild: (source) => whenBack(() => engine.rebuild(source))(),
    };
    const table = [doc('a'), doc('b')];
    const started = performance.now();
    expect(
      await syncIndex(index, { source: sourceOf(table), count: async () => 2, pollMs: 4, awayRetryMs: 10 }),
    ).toEqual({ outcome: 'engine away' });
    expect(performance.now() - started).toBeLessThan(100);
    away = false;
    for (let waited = 0; engine.size < 2; waited += 10) {
      if (waited > 2000) throw new Error('the index was not brought in step once the engine answered');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await engine.search({ offset: 0, limit: 10 })).ids).toEqual(['a', 'b']);
  });
});
