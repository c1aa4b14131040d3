// A list's filter form (the directory, the organization list): a search landmark named by `label`, whose submit
// (Enter in the search box) applies what was typed without reloading the page. The fields are FilterField,
// SearchInput, GroupOptions and ResetFilters of Filters.tsx.
import type { FormEvent, ReactNode } from 'react';

export interface FilterFormProps {
  /** The landmark's name, e.g. 'Filter people'. */
  label: string;
  className: string;
  /** Applies the typed search. */
  onSubmit: () => void;
  children: ReactNode;
}

export function FilterForm({ label, className, onSubmit, children }: FilterFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    // The search landmark on the form itself; jsdom, where the tests run, does not know <search>.
    // biome-ignore lint/a11y/useSemanticElements: role="search" on a form is the long-supported form
    <form className={className} role="search" aria-label={label} onSubmit={submit}>
      {children}
    </form>
  );
}
