// Stored values as the services keep them: a versioned JSON copy of what a list page shows (an organization, a
// person's card), parsed once per distinct text and shared between pages, with the page's unstored ones read from
// the owner's tables.

/** Parsed values kept at most; the memo is emptied when it would outgrow this. */
const MEMO_LIMIT = 50_000;

export interface StoredCodec<T> {
  /** The stored text of a value: [version, value] as JSON. */
  encode(value: T): string;
  /**
   * The values of a page's documents, in order. Those stored none, or one of another version (an index written
   * before the shape changed), come from `read` by id until they are indexed again; ids it does not know are left
   * out. Parsed values are frozen and shared: pages repeat the same documents, and parsing 30 per page was most of
   * the garbage a page made.
   */
  page(
    ids: readonly string[],
    stored: readonly (string | null)[] | undefined,
    read: (ids: string[]) => Promise<ReadonlyMap<string, T>>,
  ): Promise<Readonly<T>[]>;
  /** Whether a stored text is of this version: an index holding others is rebuilt at start (syncIndex). */
  isCurrent(stored: string | null | undefined): boolean;
}

/** `version` is bumped when T changes shape. */
export function storedCodec<T>(version: number): StoredCodec<T> {
  const parsed = new Map<string, Readonly<T> | null>();

  function decode(stored: string | null | undefined): Readonly<T> | null {
    if (!stored) return null;
    let value = parsed.get(stored);
    if (value === undefined) {
      const [storedVersion, storedValue] = JSON.parse(stored) as [number, T];
      value = storedVersion === version ? Object.freeze(storedValue) : null;
      if (parsed.size >= MEMO_LIMIT) parsed.clear();
      parsed.set(stored, value);
    }
    return value;
  }

  return {
    encode: (value) => JSON.stringify([version, value]),
    isCurrent: (stored) => decode(stored) !== null,
    async page(ids, stored, read) {
      const values = ids.map((_, i) => decode(stored?.[i]));
      const missing = ids.filter((_, i) => values[i] === null);
      if (missing.length === 0) return values as Readonly<T>[];
      const fromTables = await read(missing);
      return ids.flatMap((id, i) => values[i] ?? fromTables.get(id) ?? []);
    },
  };
}
