// The postal address's five inputs (street, suite, city, state, ZIP), which the job form and the Edit
// Organization dialog share: drawn from a record's field table (@rotunda/rules' JOB_FIELDS or
// ORGANIZATION_FIELDS) for the labels, which are required and the longest value, and from the shared address
// rows for the browser's autofill hints, so neither form lists the fields again. Styled by
// @rotunda/ui/controls.css and forms.css (the street takes the whole row of the form's grid).
import { ADDRESS_FIELD_NAMES, ADDRESS_FIELDS, type AddressFieldName } from '@rotunda/rules';
import { useId } from 'react';

/** What a record's table says of an address field: its label, whether it is required and its limit. */
export interface AddressRow {
  label: string;
  /** The form's own label, where the table holds one besides the refusals'. */
  formLabel?: string;
  required: boolean | 'edit';
  limit?: number;
}

export interface AddressInputsProps {
  rows: Readonly<Record<AddressFieldName, AddressRow>>;
  values: Readonly<Record<AddressFieldName, string>>;
  onChange: (field: AddressFieldName, value: string) => void;
  onBlur?: (field: AddressFieldName, value: string) => void;
  /** The class of a required field's asterisk (which is for the eye only: the input says it is required). */
  requiredClassName: string;
}

export function AddressInputs({ rows, values, onChange, onBlur, requiredClassName }: AddressInputsProps) {
  const idBase = useId();
  return ADDRESS_FIELD_NAMES.map((field, index) => {
    const row = rows[field];
    const { autoComplete, inputMode } = ADDRESS_FIELDS[field];
    const id = `${idBase}-${field}`;
    const required = row.required !== false;
    return (
      <div key={field} className={`field${index === 0 ? ' form-field--wide' : ''}`}>
        <label className="field__label" htmlFor={id}>
          {row.formLabel ?? row.label}
          {required && (
            <span className={requiredClassName} aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
        <input
          id={id}
          className="field__input"
          name={field}
          type="text"
          autoComplete={autoComplete}
          inputMode={inputMode}
          required={required}
          maxLength={row.limit}
          value={values[field]}
          onChange={(event) => onChange(field, event.target.value)}
          onBlur={(event) => onBlur?.(field, event.target.value)}
        />
      </div>
    );
  });
}
