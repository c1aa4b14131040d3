// The "@" completion of the post and comment editors, the WAI-ARIA APG combobox with a listbox (list
// autocomplete, the first match selected): "@" and letters before the caret search the directory (after 200 ms
// without typing, at most 6 people with title and organization); Up and Down move through them, Enter or Tab
// chooses, Escape closes, a pointer click chooses too. The editor keeps the focus throughout (the options are
// pointed at with aria-activedescendant), and a live region says how many people were found. Once the text names
// the most people allowed, nobody more is offered and a short note says why. The editor owns its text: it tells
// the hook what lies before the caret, and inserts the chosen name itself.
import { TOO_MANY_MENTIONS } from '@rotunda/rules';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { type PersonMatch, searchPeople } from '../api';
import { type MentionQuery, mentionQueryIn } from './mentions';
import './mentions.css';

/** Suggestions shown at once. */
export const SUGGESTIONS = 6;
/** Quiet time after a keystroke before the directory is asked. */
export const SEARCH_DELAY_MS = 200;

/** The keys the list takes while it is open; any other key goes to the editor. */
export interface KeyLike {
  key: string;
  shiftKey: boolean;
  preventDefault: () => void;
}

interface CompletionOptions {
  /** The text already names the most people allowed. */
  limitReached: boolean;
  /** Inserts the chosen person in place of the "@" query. */
  onChoose: (person: PersonMatch, query: MentionQuery) => void;
}

export interface MentionCompletion {
  /** Call on every change of the text or caret with the text before the caret; null when the editor has none. */
  update: (textBeforeCaret: string | null) => void;
  /** The editor's keydown: answers whether the list took the key (the editor must then ignore it). */
  onKeyDown: (event: KeyLike) => boolean;
  close: () => void;
  /** Whether the list is showing: the combobox's aria-expanded. */
  expanded: boolean;
  /** The list's id: the combobox's aria-controls. */
  listId: string;
  /** The option the keys act on: the combobox's aria-activedescendant. */
  activeId: string | undefined;
  /** The list, the note and the live region, to render right after the editor. */
  popup: ReactNode;
}

type Results = { search: string; people: PersonMatch[] } | null;

export function useMentionCompletion({ limitReached, onChoose }: CompletionOptions): MentionCompletion {
  const listId = useId();
  const [query, setQuery] = useState<MentionQuery | null>(null);
  const [results, setResults] = useState<Results>(null);
  const [active, setActive] = useState(0);
  // The "@" whose list Escape closed: it stays closed until the member types at another "@".
  const dismissed = useRef<number | null>(null);
  const onChooseRef = useRef(onChoose);
  onChooseRef.current = onChoose;

  const search = query && !limitReached ? query.search : null;
  useEffect(() => {
    if (search === null) {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchPeople(search, SUGGESTIONS, controller.signal).then(
        (people) => {
          setResults({ search, people: people.slice(0, SUGGESTIONS) });
          setActive(0);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('People to mention could not be found', error);
          setResults({ search, people: [] });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search]);

  const people = results && results.search === search ? results.people : [];
  const expanded = search !== null && people.length > 0;

  const close = useCallback(() => {
    setQuery(null);
    setResults(null);
  }, []);

  const update = useCallback((textBeforeCaret: string | null) => {
    const found = textBeforeCaret === null ? null : mentionQueryIn(textBeforeCaret);
    if (found?.start !== dismissed.current) dismissed.current = null;
    setQuery((current) => {
      if (!found || found.start === dismissed.current) return null;
      return current?.start === found.start && current.search === found.search ? current : found;
    });
  }, []);

  const choose = (person: PersonMatch) => {
    if (!query) return;
    onChooseRef.current(person, query);
    close();
  };

  const onKeyDown = (event: KeyLike): boolean => {
    if (!expanded || !query) return false;
    const move = (by: number) => setActive((index) => (index + by + people.length) % people.length);
    switch (event.key) {
      case 'ArrowDown':
        move(1);
        break;
      case 'ArrowUp':
        move(-1);
        break;
      case 'Enter':
      case 'Tab': {
        const person = people[active];
        if (!person || event.shiftKey) return false;
        choose(person);
        break;
      }
      case 'Escape':
        dismissed.current = query.start;
        close();
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  const optionId = (person: PersonMatch) => `${listId}-person-${person.profile_id}`;
  const activePerson = expanded ? people[active] : undefined;
  const activeId = activePerson && optionId(activePerson);

  // The active option stays in sight, in the list and in a dialog's scrolling body.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const announcement =
    search === null || results?.search !== search
      ? ''
      : people.length === 0
        ? `No one in the directory matches “${search}”.`
        : `${people.length === 1 ? '1 person' : `${people.length} people`} found. Up and down arrows choose, Enter inserts.`;

  const popup = (
    <div className="mention-popup">
      <div
        id={listId}
        role="listbox"
        aria-label="People to mention"
        className="mention-list"
        hidden={!expanded}
      >
        {expanded &&
          people.map((person, index) => {
            const work = [person.title, person.organization_name].filter(Boolean).join(', ');
            return (
              // The option is chosen by a click; the keyboard stays in the editor (aria-activedescendant).
              // biome-ignore lint/a11y/useKeyWithClickEvents: the editor's own keys choose, as the combobox pattern has it
              <div
                key={person.profile_id}
                id={optionId(person)}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className="mention-option"
                // Keeps the focus (and the caret) in the editor.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(person)}
              >
                <span className="mention-option__name">
                  {person.first_name} {person.last_name}
                </span>
                {work && <span className="mention-option__work">{work}</span>}
              </div>
            );
          })}
      </div>
      {/* One live region: the count for screen readers, or the limit's note, which everyone sees. */}
      <p className={query && limitReached ? 'mention-note' : 'visually-hidden'} role="status">
        {query && limitReached ? TOO_MANY_MENTIONS : announcement}
      </p>
    </div>
  );

  return { update, onKeyDown, close, expanded, listId, activeId, popup };
}
