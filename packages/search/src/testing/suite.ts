// What each part of the search contract (contract.ts) is given: the index under test and shorthand searches.
import type { SearchIndex, SearchQuery, SearchResult } from '../port.ts';

export interface ContractSuite {
  /** The index under test, made by the contract before its tests; it holds CONTRACT_CORPUS before each one. */
  readonly index: SearchIndex;
  /** Searches the first 100 matches, unless `query` says otherwise. */
  find(query?: Partial<SearchQuery>): Promise<SearchResult>;
  /** The ids `find` answers. */
  ids(query?: Partial<SearchQuery>): Promise<string[]>;
}
