// The feed's order, type filter, "My issue areas" and search (docs/product.md#2-screens-and-routes,
// #4-states-and-transitions): Recent, Popular and Random are mutually exclusive, Recent first; Random uses
// one seed for the whole visit, so its pages fit together; the search applies 250 ms after typing stops (or
// at once on Enter); Reset goes back to Recent and clears the search, the type and "My issue areas".
import { useCallback, useEffect, useState } from 'react';
import type { SortMode } from '../api';

export const SEARCH_DEBOUNCE_MS = 250;

export interface FeedFilterState {
  sort: SortMode;
  setSort: (sort: SortMode) => void;
  /** The visit's seed for the random order. */
  seed: number;
  posttypeId: number | null;
  setPosttypeId: (id: number | null) => void;
  /** Only posts of authors sharing an issue area with the member. */
  myIssues: boolean;
  setMyIssues: (on: boolean) => void;
  /** What the search box shows, as typed. */
  text: string;
  setText: (text: string) => void;
  /** The applied search (trimmed): what the feed is fetched with. */
  search: string;
  applyText: () => void;
  reset: () => void;
}

/** A positive 31-bit integer, as the server's seed. */
const newSeed = () => Math.floor(Math.random() * 2 ** 31);

export function useFeedFilters(): FeedFilterState {
  const [sort, setSort] = useState<SortMode>('recent');
  const [seed] = useState(newSeed);
  const [posttypeId, setPosttypeId] = useState<number | null>(null);
  const [myIssues, setMyIssues] = useState(false);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const applyText = useCallback(() => setSearch(text.trim()), [text]);

  const reset = useCallback(() => {
    setSort('recent');
    setPosttypeId(null);
    setMyIssues(false);
    setText('');
    setSearch('');
  }, []);

  return {
    sort,
    setSort,
    seed,
    posttypeId,
    setPosttypeId,
    myIssues,
    setMyIssues,
    text,
    setText,
    search,
    applyText,
    reset,
  };
}
