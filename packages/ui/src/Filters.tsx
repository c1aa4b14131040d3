// Pieces of the lists' filter forms (the public square, the directory, the organization list): the search box
// with its magnifier (.search-field of @rotunda/ui/controls.css), and a group select's options, which keep a
// group named in a shared link selectable before, or without, the list of groups arriving.
import { Search } from 'lucide-react';

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
