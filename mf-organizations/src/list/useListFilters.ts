// The organization list's filters, kept in the URL query (?search=…&group=…) so a reload or a shared link
// shows the same list. The search box updates the URL 250 ms after the member stops typing.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

export const SEARCH_DEBOUNCE_MS = 250;

export interface ListFilters {
  /** What the search box shows, as typed. */
  text: string;
  setText: (text: string) => void;
  /** The applied search (trimmed), from the URL: what the list is fetched with. */
  search: string;
  /** The applied group name, from the URL; '' for every group. */
  group: string;
  setGroup: (group: string) => void;
  /** Applies the typed search now (Enter in the search box). */
  applyText: () => void;
  /** Clears both filters. */
  reset: () => void;
  /** True when a search or a group is applied or typed. */
  active: boolean;
}

export function useListFilters(): ListFilters {
  const [params, setParams] = useSearchParams();
  const search = (params.get('search') ?? '').trim();
  const group = params.get('group') ?? '';
  const [text, setText] = useState(search);

  // A ref, so the debounced update reads the latest group even if it changed while the member typed.
  const latest = useRef({ params, setParams });
  latest.current = { params, setParams };

  const writeSearch = useCallback((value: string) => {
    const { params: current, setParams: set } = latest.current;
    const trimmed = value.trim();
    if ((current.get('search') ?? '').trim() === trimmed) return;
    const next = new URLSearchParams(current);
    if (trimmed) next.set('search', trimmed);
    else next.delete('search');
    // Typing should not fill the history with one entry per word.
    set(next, { replace: true });
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => writeSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, writeSearch]);

  // The URL changed from outside the box (back/forward, Reset, a shared link): show what it says.
  useEffect(() => {
    setText((current) => (current.trim() === search ? current : search));
  }, [search]);

  const setGroup = useCallback((value: string) => {
    const { params: current, setParams: set } = latest.current;
    const next = new URLSearchParams(current);
    if (value) next.set('group', value);
    else next.delete('group');
    set(next, { replace: true });
  }, []);

  const reset = useCallback(() => {
    const { params: current, setParams: set } = latest.current;
    const next = new URLSearchParams(current);
    next.delete('search');
    next.delete('group');
    setText('');
    set(next, { replace: true });
  }, []);

  const applyText = useCallback(() => writeSearch(text), [text, writeSearch]);

  return {
    text,
    setText,
    search,
    group,
    setGroup,
    applyText,
    reset,
    active: search !== '' || group !== '' || text.trim() !== '',
  };
}
