// A list screen's filters (the directory's, the organization list's) kept in the URL query (?search=…&group=…&issue=…), so a reload or a shared link
// shows the same list. The search box updates the URL 250 ms after the member stops typing; a select
// updates it at once. Every change replaces the history entry: Back leaves the screen rather than stepping
// through each keystroke. Once the member has left the screen, nothing more is written (a pending search
// would otherwise land on the next page's URL).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';

export const SEARCH_DEBOUNCE_MS = 250;

/** The query parameter the search box writes. */
const SEARCH = 'search';

export interface UrlFilters<K extends string> {
  /** What the search box shows, as typed. */
  text: string;
  setText: (text: string) => void;
  /** The applied search (trimmed), from the URL: what the list is fetched with. */
  search: string;
  /** Each select's applied value, from the URL; '' for none. */
  values: Record<K, string>;
  setValue: (name: K, value: string) => void;
  /** Applies the typed search now (Enter in the search box). */
  applyText: () => void;
  /** Clears the search and every select. */
  reset: () => void;
  /** True when a search or a select is applied, or a search is typed. */
  active: boolean;
}

/** `selects` names the query parameters of the screen's selects; pass a constant array. */
export function useUrlFilters<K extends string>(selects: readonly K[]): UrlFilters<K> {
  const [params, setParams] = useSearchParams();
  const search = (params.get(SEARCH) ?? '').trim();
  const values = Object.fromEntries(selects.map((name) => [name, params.get(name) ?? ''])) as Record<
    K,
    string
  >;
  const [text, setText] = useState(search);
  const { pathname } = useLocation();
  // Where the screen was opened: the router's path, and the document's (which moves at once on navigation).
  const home = useRef({ route: pathname, document: window.location.pathname });

  // A ref, so the debounced update reads the latest selects even if one changed while the member typed.
  const latest = useRef({ params, setParams, pathname });
  latest.current = { params, setParams, pathname };

  const update = useCallback((change: (next: URLSearchParams) => void) => {
    const { params: current, setParams: set, pathname: route } = latest.current;
    // Gone to another page: the host may render this screen once more with that page's location, and a
    // pending search may fire before it re-renders at all; either way a write would land on that page.
    if (route !== home.current.route || window.location.pathname !== home.current.document) return;
    const next = new URLSearchParams(current);
    change(next);
    if (next.toString() !== current.toString()) set(next, { replace: true });
  }, []);

  // The search this hook last wrote: its echo in the URL is not an outside change, and must not overwrite
  // what the member typed in the meantime.
  const written = useRef<string | null>(null);

  const writeSearch = useCallback(
    (value: string) =>
      update((next) => {
        const trimmed = value.trim();
        written.current = trimmed;
        if (trimmed) next.set(SEARCH, trimmed);
        else next.delete(SEARCH);
      }),
    [update],
  );

  // Only what the member typed is written; the box prefilled from the URL already matches it.
  useEffect(() => {
    if (text.trim() === search) return;
    const timer = setTimeout(() => writeSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search, writeSearch]);

  // The URL changed from outside the box (back/forward, Reset, a shared link): show what it says.
  useEffect(() => {
    if (search === written.current) return;
    written.current = null;
    setText((current) => (current.trim() === search ? current : search));
  }, [search]);

  const setValue = useCallback(
    (name: K, value: string) =>
      update((next) => {
        if (value) next.set(name, value);
        else next.delete(name);
      }),
    [update],
  );

  const reset = useCallback(() => {
    setText('');
    update((next) => {
      next.delete(SEARCH);
      for (const name of selects) next.delete(name);
    });
  }, [update, selects]);

  const applyText = useCallback(() => writeSearch(text), [text, writeSearch]);

  return {
    text,
    setText,
    search,
    values,
    setValue,
    applyText,
    reset,
    active: search !== '' || text.trim() !== '' || Object.values<string>(values).some((v) => v !== ''),
  };
}
