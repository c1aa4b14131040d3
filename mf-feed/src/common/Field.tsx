// A labelled form field of the post forms, with the '*' of a required one (hidden from screen readers, which
// hear the input's own required state).
import type { ReactNode } from 'react';

export function RequiredMark() {
  return (
    <span className="post-form__required" aria-hidden="true">
      {' '}
      *
    </span>
  );
}

interface FieldProps {
  id: string;
  label: string;
  required?: boolean;
  /** Spans the whole row of a field grid. */
  wide?: boolean;
  children: ReactNode;
}

export function Field({ id, label, required = false, wide = false, children }: FieldProps) {
  return (
    <div className={`field${wide ? ' post-form__wide' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && <RequiredMark />}
      </label>
      {children}
    </div>
  );
}
