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

export interface SearchIndex {
  /**
   * Creates what the index needs (tables/indices) if missing; idempotent. An index built for another field
   * definition is dropped and created empty, so the owner reindexes when the index answers total 0.
   */
  ensure(): Promise<void>;
  upsert(documents: SearchDocument[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  search(query: SearchQuery): Promise<SearchResult>;
  /** Drops every document (for reindexing). */
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
