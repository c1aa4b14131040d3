// A titled group of a form's fields (.form-fieldset and .form-grid of @rotunda/ui/forms.css, which the screen
// imports): the legend, then the fields laid out on the grid.
import type { ReactNode } from 'react';

export interface FormSectionProps {
  legend: string;
  /** The grid's variant or the screen's own class besides form-grid, e.g. 'form-grid--narrow'. */
  gridClassName?: string;
  children: ReactNode;
}

export function FormSection({ legend, gridClassName, children }: FormSectionProps) {
  return (
    <fieldset className="form-fieldset">
      <legend className="form-fieldset__legend">{legend}</legend>
      <div className={gridClassName ? `form-grid ${gridClassName}` : 'form-grid'}>{children}</div>
    </fieldset>
  );
}
