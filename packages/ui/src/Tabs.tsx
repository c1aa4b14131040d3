// An accessible tab set (WAI-ARIA tabs): the tabs in a tablist, arrow keys, Home and End move between them
// and select (automatic activation), and only the selected panel is rendered. Its look is tabs.css (.tabs__list,
// .tabs__tab, .tabs__panel).
import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import './tabs.css';

export interface TabDefinition<Key extends string> {
  key: Key;
  label: string;
  render: () => ReactNode;
}

export interface TabsProps<Key extends string> {
  label: string;
  tabs: readonly TabDefinition<Key>[];
  selected: Key;
  onSelect: (key: Key) => void;
}

export function Tabs<Key extends string>({ label, tabs, selected, onSelect }: TabsProps<Key>) {
  const baseId = useId();
  const refs = useRef(new Map<Key, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.key === selected) ?? tabs[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.key === current?.key);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.key);
    refs.current.get(tab.key)?.focus();
  };

  if (!current) return null;
  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const isSelected = tab.key === current.key;
          return (
            <button
              key={tab.key}
              ref={(element) => {
                if (element) refs.current.set(tab.key, element);
                else refs.current.delete(tab.key);
              }}
              type="button"
              role="tab"
              id={`${baseId}-${tab.key}-tab`}
              className="tabs__tab"
              aria-selected={isSelected}
              aria-controls={isSelected ? `${baseId}-${tab.key}-panel` : undefined}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        className="tabs__panel"
        role="tabpanel"
        id={`${baseId}-${current.key}-panel`}
        aria-labelledby={`${baseId}-${current.key}-tab`}
      >
        {current.render()}
      </div>
    </div>
  );
}
