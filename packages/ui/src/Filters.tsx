// Pieces of the lists' filter forms (the public square, the directory, the organization list): a filter in its
// labelled field, the search box with its magnifier (.search-field of @rotunda/ui/controls.css), a group select's
// options, which keep a group named in a shared link selectable before, or without, the list of groups arriving,
// and the Reset filters button.
import { RotateCcw, Search } from 'lucide-react';
import type { ReactNode } from 'react';

export interface FilterFieldProps {
  /** The id of the control inside, which the label names. */
  id: string;
  label: string;
  /** The field's place in the form, e.g. 'dir-filters__search'. */
  className: string;
  children: ReactNode;
}

export function FilterField({ id, label, className, children }: FilterFieldProps) {
  return (
    <div className={`field ${className}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

export interface ResetFiltersProps {
  /** The button's place in the form, e.g. 'dir-filters__reset'. */
  className: string;
  /** Some filter is applied (else the button is disabled). */
  active: boolean;
  onReset: () => void;
}

export function ResetFilters({ className, active, onReset }: ResetFiltersProps) {
  return (
    <button
      type="button"
      className={`button button--quiet ${className}`}
      onClick={onReset}
      disabled={!active}
    >
      <RotateCcw size={16} aria-hidden="true" />
      Reset filters
    </button>
  );
}

export interface SearchInputProps {
  /** The input's id, for the screen's own label. */
  id: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

export function SearchInput({ id, placeholder, value, onChange }: SearchInputProps) {
  return (
    <span className="search-field">
      <Search size={18} aria-hidden="true" className="search-field__icon" />
      <input
        id={id}
        className="field__input search-field__input"
        type="search"
        name="search"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </span>
  );
}

export interface GroupOptionsProps {
  /** The groups offered, in order. */
  names: readonly string[];
  /** The group chosen now ('' for all). */
  chosen: string;
}

/** 'All groups', then each group; a chosen group not (yet) among them keeps its place at the end. */
export function GroupOptions({ names, chosen }: GroupOptionsProps) {
  return (
    <>
      <option value="">All groups</option>
      {names.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
      {chosen && !names.includes(chosen) && <option value={chosen}>{chosen}</option>}
    </>
  );
}
