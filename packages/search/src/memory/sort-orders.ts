// The in-memory engine's sort orders over its columns (columns.ts): per order of one sort field, every live
// document in that order (a walk), kept in step with each change; and per sort field, each document's dense rank,
// for orders of several keys or a random one.
import type { SortFieldDefinition } from '../port.ts';
import type { PreparedSortKey } from '../semantics.ts';
import type { Columns } from './columns.ts';
import { compareCodePoints, compareSorted, merge, seededHash } from './order.ts';

/** Every live entry in one sort field's order, kept in step with each change, and where each entry stands in it. */
export interface Walk {
  order: Int32Array;
  compare: (a: number, b: number) => number;
  /** Each ordinal's place in `order`; computed when first asked after a change. */
  places?: Int32Array;
}

export class SortOrders {
  /** Per order of one sort field ("name asc"), built when first asked. */
  private readonly walks = new Map<string, Walk>();
  /** Per sort field, each ordinal's dense rank ascending (missing values: -1), for orders of several keys. */
  private ranks: Int32Array[] | undefined;
  private idRanks: Int32Array | undefined;

  private readonly columns: Columns;
  private readonly sortFields: readonly SortFieldDefinition[];

  constructor(columns: Columns, sortFields: readonly SortFieldDefinition[]) {
    this.columns = columns;
    this.sortFields = sortFields;
  }

  /** After documents were added (`added`) or dropped: each walk in step, the ranks computed again when asked. */
  changed(added: number[]): void {
    this.ranks = undefined;
    this.idRanks = undefined;
    const { alive } = this.columns;
    for (const walk of this.walks.values()) {
      const kept = walk.order.filter((ordinal) => alive[ordinal] === 1);
      walk.order = merge(kept, Int32Array.from(added).sort(walk.compare), walk.compare);
      walk.places = undefined;
    }
  }

  /** One sort field's order, missing values last either way, then id ascending. */
  private fieldOrder(
    field: SortFieldDefinition,
    direction: 'asc' | 'desc',
  ): (a: number, b: number) => number {
    const { ids } = this.columns;
    const values = this.columns.sortColumn(field.name);
    return (a, b) =>
      compareSorted(field, direction, values[a] ?? null, values[b] ?? null) ||
      compareCodePoints(ids[a] as string, ids[b] as string);
  }

  walkOf(field: SortFieldDefinition, direction: 'asc' | 'desc'): Walk {
    const name = `${field.name} ${direction}`;
    let walk = this.walks.get(name);
    if (!walk) {
      const compare = this.fieldOrder(field, direction);
      walk = { order: Int32Array.from(this.columns.byId.values()).sort(compare), compare };
      this.walks.set(name, walk);
    }
    return walk;
  }

  placesOf(walk: Walk): Int32Array {
    if (!walk.places) {
      const places = new Int32Array(this.columns.ids.length);
      for (let i = 0; i < walk.order.length; i++) places[walk.order[i] as number] = i;
      walk.places = places;
    }
    return walk.places;
  }

  /** Dense ranks of the live ordinals by `compare`, equal values sharing a rank; -1 for those left out. */
  private rankBy(
    compare: (a: number, b: number) => number,
    include: (ordinal: number) => boolean,
  ): Int32Array {
    const result = new Int32Array(this.columns.ids.length).fill(-1);
    const ordinals = [...this.columns.byId.values()].filter(include).sort(compare);
    let rank = -1;
    let previous: number | undefined;
    for (const ordinal of ordinals) {
      if (previous === undefined || compare(previous, ordinal) !== 0) rank++;
      result[ordinal] = rank;
      previous = ordinal;
    }
    return result;
  }

  private sortRanks(): { ranks: Int32Array[]; idRanks: Int32Array } {
    if (!this.ranks || !this.idRanks) {
      const { ids, sortColumns } = this.columns;
      this.ranks = this.sortFields.map(({ type }, field) => {
        const values = sortColumns[field] as (string | number | null)[];
        return this.rankBy(
          type === 'number'
            ? (a, b) => (values[a] as number) - (values[b] as number)
            : (a, b) => compareCodePoints(values[a] as string, values[b] as string),
          (ordinal) => (values[ordinal] ?? null) !== null,
        );
      });
      this.idRanks = this.rankBy(
        (a, b) => compareCodePoints(ids[a] as string, ids[b] as string),
        () => true,
      );
    }
    return { ranks: this.ranks, idRanks: this.idRanks };
  }

  /** The query's order over `among` (ordinals), for orders of several keys or a random one: its keys, then id. */
  comparator(sort: PreparedSortKey[], among: number[]): (a: number, b: number) => number {
    const { ranks: byField, idRanks: idOrder } = this.sortRanks();
    const { ids } = this.columns;
    const keys = sort.map((key) => {
      if ('random' in key) {
        const seed = key.random;
        const hashes = new Map(among.map((ordinal) => [ordinal, seededHash(seed, ids[ordinal] as string)]));
        return (a: number, b: number) => (hashes.get(a) as number) - (hashes.get(b) as number);
      }
      const rank = byField[this.sortFields.findIndex(({ name }) => name === key.field.name)] as Int32Array;
      const sign = key.direction === 'asc' ? 1 : -1;
      // Missing values (rank -1) come last in both directions.
      return (a: number, b: number) => {
        const x = rank[a] as number;
        const y = rank[b] as number;
        if (x === y) return 0;
        if (x < 0) return 1;
        if (y < 0) return -1;
        return sign * (x - y);
      };
    });
    return (a, b) => {
      for (const key of keys) {
        const difference = key(a, b);
        if (difference !== 0) return difference;
      }
      return (idOrder[a] as number) - (idOrder[b] as number);
    };
  }
}
