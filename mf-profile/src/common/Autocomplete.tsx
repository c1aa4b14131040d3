// A text field with a suggestion list (docs/product.md#4-states-and-transitions,
// #9-business-constants-and-limits: at most 5 suggestions, arrow keys over indices 0 to 4): the ARIA combobox
// pattern. ArrowDown/ArrowUp move through the list, Enter or a click chooses the active suggestion, Escape or
// leaving the field closes the list; typing again opens it. Enter without an active suggestion goes to
// `onEnter` when given (the issue fields add the typed name). The caller fetches the suggestions
// (useSuggestions) and decides what choosing means.
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { SUGGESTION_LIMIT } from '../profile-rules';
import { FieldLabel } from './fields';
import './autocomplete.css';

export interface AutocompleteProps<T> {
  label: string;
  value: string;
  /** The member typed: the caller keeps the text and forgets an earlier choice. */
  onType: (text: string) => void;
  suggestions: readonly T[];
  keyOf: (item: T) => string | number;
  render: (item: T) => ReactNode;
  onChoose: (item: T) => void;
  /** Enter with no suggestion active. */
  onEnter?: () => void;
  required?: boolean;
  placeholder?: string;
  /** A line under the field: whether the value is an existing record or a new one. */
  hint?: ReactNode;
  autoFocus?: boolean;
  /** Takes a whole row of the form's grid (long names, such as organizations'). */
  wide?: boolean;
}

export function Autocomplete<T>({
  label,
  value,
  onType,
  suggestions,
  keyOf,
  render,
  onChoose,
  onEnter,
  required,
  placeholder,
  hint,
  autoFocus,
  wide = false,
}: AutocompleteProps<T>) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const shown = suggestions.slice(0, SUGGESTION_LIMIT);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const open = focused && !dismissed && shown.length > 0;

  // New suggestions start with none active, so Enter keeps what was typed until an arrow key says otherwise.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list (by its keys) resets the active one
  useEffect(() => setActive(-1), [shown.map(keyOf).join('|')]);

  const choose = (item: T) => {
    onChoose(item);
    setDismissed(true);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (shown.length === 0) return;
      event.preventDefault();
      setDismissed(false);
      const last = shown.length - 1;
      setActive((current) =>
        event.key === 'ArrowDown' ? Math.min(current + 1, last) : Math.max(current - 1, 0),
      );
      return;
    }
    if (event.key === 'Enter') {
      const item = open && active >= 0 ? shown[active] : undefined;
      if (item !== undefined) {
        event.preventDefault();
        choose(item);
      } else if (onEnter) {
        event.preventDefault();
        setDismissed(true);
        onEnter();
      } else if (open) {
        event.preventDefault();
        setDismissed(true);
      }
      return;
    }
    if (event.key === 'Escape' && open) {
      // Closes the list, not the dialog around it.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(true);
    }
  };

  const activeId = open && active >= 0 ? `${id}-option-${active}` : undefined;

  return (
    <div className={`field prof-autocomplete${wide ? ' form-field--wide' : ''}`}>
      <FieldLabel id={id} label={label} required={required} />
      <div className="prof-autocomplete__box">
        <input
          id={id}
          className="field__input"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeId}
          aria-describedby={hint ? hintId : undefined}
          required={required}
          placeholder={placeholder}
          value={value}
          onChange={(event) => {
            setDismissed(false);
            onType(event.target.value);
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={onKeyDown}
          {...(autoFocus && { 'data-autofocus': true })}
        />
        <div
          id={listId}
          role="listbox"
          aria-label={`${label} suggestions`}
          className="prof-autocomplete__list"
          hidden={!open}
        >
          {open &&
            shown.map((item, index) => (
              // The keyboard chooses from the field (aria-activedescendant), so an option needs no key handler.
              // biome-ignore lint/a11y/useKeyWithClickEvents: see above
              <div
                key={keyOf(item)}
                id={`${id}-option-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className={`prof-autocomplete__option${index === active ? ' prof-autocomplete__option--active' : ''}`}
                // Keeps the focus in the field, so the click below still finds the list open.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(item)}
              >
                {render(item)}
              </div>
            ))}
        </div>
      </div>
      {hint && (
        <p id={hintId} className="prof-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * Suggestions for the typed text, fetched a moment after the member stops typing (stale answers dropped);
 * none while `enabled` is false or the text is blank. A failed lookup suggests nothing and is only logged.
 */
export function useSuggestions<T>(
  text: string,
  enabled: boolean,
  find: (text: string, signal: AbortSignal) => Promise<T[]>,
): T[] {
  const [suggestions, setSuggestions] = useState<T[]>([]);
  const query = text.trim();
  useEffect(() => {
    if (!enabled || query === '') {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      find(query, controller.signal).then(
        (found) => setSuggestions(found.slice(0, SUGGESTION_LIMIT)),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Suggestions could not be loaded', error);
          setSuggestions([]);
        },
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, enabled, find]);
  return suggestions;
}

/** How long typing pauses before a lookup is sent. */
export const LOOKUP_DELAY_MS = 200;
