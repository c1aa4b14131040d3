// The search-index port: what the org, profile and post services code against, whichever engine runs it.

export interface SearchDocument {
  id: string;
  /** Searchable text fields, e.g. { name: 'California Nurses Association' } or { first_name, last_name, title, organization, division }. */
  text: Record<string, string>;
  /** Exact-match keyword fields for filters, each a list, e.g. { group: ['Unions'], issue: ['Health', 'Labor'] }. */
  keywords: Record<string, string[]>;
  /** Sort keys, e.g. { name: 'california nurses association' } or { created_at: 1732233600000, likes: 12 }. */
  sort: Record<string, string | number>;
  /**
   * Kept with the document and answered with its id when a query asks (`withStored`), never searched: e.g. the
   * JSON of a list card, so a page needs no second read. Only in an index defined with `stored: true`.
   */
  stored?: string;
}

export interface SearchQuery {
  /** Split on whitespace; every word must occur, case-insensitively, as a substring of at least one text field. */
  text?: string;
  /** Every listed field must match; a list means any of its values (so an empty list matches nothing). */
  filters?: Record<string, string | string[]>;
  /** Documents whose field has any of these values are left out (e.g. the product's own organization). */
  exclude?: Record<string, string[]>;
  /** Stable order: the listed keys (missing values last), then id ascending as the tie-breaker. Default: id ascending. */
  sort?: SortKey[];
  offset: number;
  limit: number;
  /**
   * false: the caller pages on until a short page and needs no total (a feed), so none is counted (counting every
   * match is most of a page's cost on a large index) and the result's total is -1. Default true.
   */
  countTotal?: boolean;
  /**
   * Counts matches only up to this many (Elasticsearch's track_total_hits): past it, the total is this number and
   * the result says it is a lower bound. Counting a whole large index on every page costs more than the page;
   * "1,000+" is all a screen needs. Default: every match is counted.
   */
  countUpTo?: number;
  /** Answer each page document's stored value too (an index defined with `stored: true`). */
  withStored?: boolean;
}

/**
 * One key of the order: a declared sort field, or a shuffle fixed by `random`, a seed (a 32-bit integer): the same
 * seed orders the matches the same way on every call and page, another seed differently. At most one per query;
 * keys after it decide nothing but chance ties.
 */
export type SortKey = { field: string; direction: 'asc' | 'desc' } | { random: number };

export interface SearchResult {
  ids: string[];
  /** How many documents match in all pages; -1 when the query asked for no count. */
  total: number;
  /** Set when more than `countUpTo` match: `total` is then `countUpTo`, a lower bound. */
  totalIsLowerBound?: true;
  /** With `withStored`: each id's stored value, in the same order (null when its document has none). */
  stored?: (string | null)[];
}

/**
 * Where a rebuild reads the documents from: the owner's tables, which the index is derived from. `eachPage` hands
 * every document over, a page at a time; `documents` answers the current documents of these ids (an id it does
 * not answer is gone), read again for those written while the rebuild ran.
 */
export interface RebuildSource {
  eachPage(handle: (documents: SearchDocument[]) => Promise<void>): Promise<void>;
  documents(ids: string[]): Promise<SearchDocument[]>;
}

/** `rebuilt: false`: another process holds the index's rebuild lock and is rebuilding it; nothing was done. */
export type RebuildOutcome = { rebuilt: true; documents: number } | { rebuilt: false };

/** 'outdated': the live index was built for another definition (or an earlier layout) and needs a rebuild. */
export type IndexState = 'current' | 'outdated';

export interface SearchIndex {
  /**
   * Creates what the index needs (tables/indices) if missing; idempotent. Never drops the live index: one built
   * for another field definition keeps answering, and ensure() says it is 'outdated' so the owner rebuilds it.
   */
  ensure(): Promise<IndexState>;
  upsert(documents: SearchDocument[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Fills a new generation of the index from `source` while searches go on answering from the live one, then
   * switches readers to it at once and drops the old one. Writes made meanwhile (by any process) are in the new
   * generation. One process at a time rebuilds an index: the others answer `rebuilt: false` at once.
   */
  rebuild(source: RebuildSource): Promise<RebuildOutcome>;
  /**
   * An index that keeps the writes its engine missed (outbox.ts) sends them from now on, each read from `source`
   * as it is then; syncIndex hands it over when a replica starts.
   */
  resendFrom?(source: RebuildSource): void;
  /** Drops every document (tests and tools; a live index is rebuilt, never emptied). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export interface SortFieldDefinition {
  name: string;
  type: 'text' | 'number';
}

/** The fields an index holds; both adapters take the same definition. */
export interface SearchIndexDefinition {
  textFields: string[];
  keywordFields: string[];
  sortFields: SortFieldDefinition[];
  /** Documents carry a stored value (SearchDocument.stored) that queries may ask back. */
  stored?: boolean;
}
