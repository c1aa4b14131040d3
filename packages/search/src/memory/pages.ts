// How the in-memory engine (memory.ts) answers a prepared query from its columns: the page and the total, found by
// walking one field's order when matches are dense, else by checking the candidates and sorting the matches.
import type { SearchResult } from '../port.ts';
import type { PreparedQuery } from '../semantics.ts';
import { type Check, isEmpty, Matcher } from './candidates.ts';
import type { Columns } from './columns.ts';
import type { SortOrders, Walk } from './sort-orders.ts';

/** Past this many matches, a page in one field's order walks that order instead of sorting the matches. */
const WALK_AFTER = 512;

/** Finds one search's page at a time (the marks it leaves are that search's). */
export class PageFinder {
  private readonly matcher = new Matcher();
  /**
   * Marks on ordinals for one search: stamps[ordinal] === the search's stamp. One array reused by every search,
   * never cleared (a new stamp forgets the old marks), since allocating and zeroing a byte per document on each
   * search cost more than the rest of a narrow one.
   */
  private stamps = new Uint32Array(0);
  private stamp = 0;

  /** Marks `ordinals` (of columns holding `size` ordinals) for this search; answers the stamp they hold. */
  private mark(ordinals: ArrayLike<number>, size: number): number {
    if (this.stamps.length < size || this.stamp === 0xffffffff) {
      this.stamps = new Uint32Array(Math.max(size, 1024));
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const { stamps } = this;
    for (let i = 0; i < ordinals.length; i++) stamps[ordinals[i] as number] = stamp;
    return stamp;
  }

  /** The ordinals of the page among `found`: in one field's order by where they stand in its walk. */
  private page(
    columns: Columns,
    orders: SortOrders,
    query: PreparedQuery,
    walk: Walk | undefined,
    found: ArrayLike<number>,
  ): number[] {
    const end = query.offset + query.limit;
    if (!walk) {
      const among = Array.from(found);
      return among.sort(orders.comparator(query.sort, among)).slice(query.offset, end);
    }
    if (found.length <= WALK_AFTER) {
      const places = orders.placesOf(walk);
      return Array.from(found)
        .sort((a, b) => (places[a] as number) - (places[b] as number))
        .slice(query.offset, end);
    }
    const matched = this.mark(found, columns.ids.length);
    const { stamps } = this;
    const picked: number[] = [];
    for (let i = 0, seen = 0; i < walk.order.length && seen < end; i++) {
      const ordinal = walk.order[i] as number;
      if (stamps[ordinal] === matched && seen++ >= query.offset) picked.push(ordinal);
    }
    return picked;
  }

  /** The matches among the candidates (every live document when none), checked one by one. */
  private matchesOf(columns: Columns, candidates: Int32Array | undefined, check: Check): ArrayLike<number> {
    const exact = isEmpty(check);
    // Candidates that need no check are the matches, unless replaced or removed documents linger among them.
    if (candidates && exact && columns.dead === 0) return candidates;
    const { alive } = columns;
    const matches: number[] = [];
    for (const ordinal of candidates ?? columns.byId.values())
      if (alive[ordinal] === 1 && (exact || this.matcher.isMatch(columns, ordinal, check)))
        matches.push(ordinal);
    return matches;
  }

  /**
   * Page and total. In one field's order, when many documents may match, the search walks that order, checking
   * each, and stops once it has the page and has counted as far as it must: walking (count bound) / (share
   * matching) documents beats checking every candidate when matches are dense ("everyone", a big group). Fewer
   * candidates are checked one by one and the matches sorted.
   */
  find(columns: Columns, orders: SortOrders, query: PreparedQuery): SearchResult {
    const { offset, limit, countTotal, countUpTo } = query;
    const end = offset + limit;
    const [key, ...others] = query.sort;
    const walk =
      key && !('random' in key) && others.length === 0 ? orders.walkOf(key.field, key.direction) : undefined;
    const { candidates, estimate, check } = this.matcher.candidatesOf(columns, query);
    const needed = !countTotal
      ? end
      : countUpTo === null
        ? Number.POSITIVE_INFINITY
        : Math.max(end, countUpTo + 1);
    let picked: number[];
    let total = 0;
    if (walk && estimate * estimate > needed * columns.size) {
      const exact = isEmpty(check);
      picked = [];
      const marked = candidates ? this.mark(candidates, columns.ids.length) : undefined;
      const { stamps } = this;
      for (let i = 0; i < walk.order.length && total < needed; i++) {
        const ordinal = walk.order[i] as number;
        if (marked !== undefined && stamps[ordinal] !== marked) continue;
        if (!exact && !this.matcher.isMatch(columns, ordinal, check)) continue;
        if (total >= offset && total < end) picked.push(ordinal);
        total++;
      }
    } else {
      const found = this.matchesOf(columns, candidates, check);
      picked = this.page(columns, orders, query, walk, found);
      total = found.length;
    }
    const pageIds = picked.map((ordinal) => columns.ids[ordinal] as string);
    const stored = query.withStored
      ? { stored: picked.map((ordinal) => columns.storedColumn[ordinal] ?? null) }
      : {};
    if (!countTotal) return { ids: pageIds, total: -1, ...stored };
    return countUpTo !== null && total > countUpTo
      ? { ids: pageIds, total: countUpTo, totalIsLowerBound: true, ...stored }
      : { ids: pageIds, total, ...stored };
  }
}
