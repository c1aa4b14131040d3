// Stored values: a page comes from what the documents stored, and from the owner's tables for those that stored
// none or an older shape, in the page's order.
import { describe, expect, it, vi } from 'vitest';
import { storedCodec } from '../src/stored.ts';

interface Card {
  name: string;
}

describe('stored values', () => {
  it('answers a page from its stored values, reading from the tables only those stored none or another version', async () => {
    const codec = storedCodec<Card>(2);
    const older = storedCodec<Card>(1);
    const read = vi.fn(
      async (ids: string[]) =>
        new Map(ids.filter((id) => id !== 'gone').map((id) => [id, { name: `${id} from the table` }])),
    );
    const page = await codec.page(
      ['a', 'b', 'c', 'gone', 'd'],
      [
        codec.encode({ name: 'Ana' }),
        null,
        older.encode({ name: 'Cy as it was' }),
        null,
        codec.encode({ name: 'Dee' }),
      ],
      read,
    );
    expect(page).toEqual([
      { name: 'Ana' },
      { name: 'b from the table' },
      { name: 'c from the table' },
      { name: 'Dee' },
    ]);
    expect(read).toHaveBeenCalledExactlyOnceWith(['b', 'c', 'gone']);
    expect(Object.isFrozen(page[0])).toBe(true);
  });

  it('reads nothing from the tables when every value was stored, and shares one parsed value between pages', async () => {
    const codec = storedCodec<Card>(1);
    const read = vi.fn(async () => new Map<string, Card>());
    const stored = codec.encode({ name: 'Ana' });
    const [first] = await codec.page(['a'], [stored], read);
    const [again] = await codec.page(['a'], [stored], read);
    expect(first).toEqual({ name: 'Ana' });
    expect(again).toBe(first);
    expect(read).not.toHaveBeenCalled();
  });
});
