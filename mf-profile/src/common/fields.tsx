// The form pieces the profile screens share: a label, a labelled text field (alone or a list of them by field
// name), a labelled select and the line that says what is missing or what the server refused.
import { FormError as SharedFormError } from '@rotunda/ui';
import { type ReactNode, useId, useState } from 'react';

interface FieldFrameProps {
  id: string;
  label: string;
  required?: boolean | undefined;
  hint?: ReactNode;
  wide?: boolean | undefined;
  children: ReactNode;
}

/** A field's label; a required field's asterisk is for the eye only (the input itself says it is required). */
export function FieldLabel({ id, label, required }: Pick<FieldFrameProps, 'id' | 'label' | 'required'>) {
  return (
    <label className="field__label" htmlFor={id}>
      {label}
      {required && (
        <span className="prof-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

function FieldFrame({ id, label, required, hint, wide, children }: FieldFrameProps) {
  return (
    <div className={`field${wide ? ' form-field--wide' : ''}`}>
      <FieldLabel id={id} label={label} required={required} />
      {children}
      {hint && (
        <p id={`${id}-hint`} className="prof-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: (value: string) => void;
  type?: 'text' | 'email' | 'tel' | 'url' | 'date' | 'password';
  name?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'url' | 'email';
  placeholder?: string;
  hint?: ReactNode;
  disabled?: boolean;
  wide?: boolean;
  /** The field a dialog opens on. */
  autoFocus?: boolean;
  maxLength?: number;
  /** Another element describing the field, e.g. a password's rules checklist or the form's error. */
  describedBy?: string | undefined;
  /** The form refused to go on because of this field (aria-invalid). */
  invalid?: boolean | undefined;
}

export function TextField({
  label,
  value,
  onChange,
  onBlur,
  type = 'text',
  name,
  required,
  autoComplete = 'off',
  inputMode,
  placeholder,
  hint,
  disabled,
  wide,
  autoFocus,
  maxLength,
  describedBy,
  invalid,
}: TextFieldProps) {
  const id = useId();
  const descriptions = [hint ? `${id}-hint` : '', describedBy ?? ''].filter(Boolean).join(' ');
  // A date field keeps the focus in its inner parts (month, day, year), and Chromium does not always count the
  // field itself as focused then: it draws its focus ring from the focus events instead of :focus-visible.
  const [dateFocused, setDateFocused] = useState(false);
  const isDate = type === 'date';
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} wide={wide}>
      <input
        id={id}
        className={isDate && dateFocused ? 'field__input field__input--focused' : 'field__input'}
        onFocus={isDate ? () => setDateFocused(true) : undefined}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        required={required}
        disabled={disabled}
        maxLength={maxLength}
        aria-describedby={descriptions || undefined}
        aria-invalid={invalid || undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={(event) => {
          if (isDate) setDateFocused(false);
          onBlur?.(event.target.value);
        }}
        {...(autoFocus && { 'data-autofocus': true })}
      />
    </FieldFrame>
  );
}

/** A text field of a form whose values are kept by field name: what it shows besides its value. */
export type TextFieldSpec<Field extends string> = { field: Field } & Omit<
  TextFieldProps,
  'value' | 'onChange'
>;

/** The fields a refused form named (by label) and the id of its error, which describes them. */
export interface FieldProblems {
  labels: readonly string[];
  errorId: string;
}

/** What a field named by `label` carries when the form's error names it. */
export const problemOf = (problems: FieldProblems | undefined, label: string) =>
  problems?.labels.includes(label) ? { invalid: true, describedBy: problems.errorId } : {};

/** Text fields in the order given, each showing its field's value and reporting changes to it. */
export function TextFields<Field extends string>({
  specs,
  values,
  set,
  autoFocusFirst = false,
  problems,
}: {
  specs: readonly TextFieldSpec<Field>[];
  values: Readonly<Record<Field, string>>;
  set: (field: Field) => (value: string) => void;
  /** The first field is the one a dialog opens on. */
  autoFocusFirst?: boolean | undefined;
  problems?: FieldProblems | undefined;
}) {
  return specs.map(({ field, ...props }, index) => (
    <TextField
      key={field}
      {...props}
      {...problemOf(problems, props.label)}
      {...(autoFocusFirst && index === 0 && { autoFocus: true })}
      value={values[field]}
      onChange={set(field)}
    />
  ));
}

export interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first option, for no choice. */
  empty: string;
  options: readonly string[];
  required?: boolean;
  disabled?: boolean;
  hint?: ReactNode;
}

export function SelectField({
  label,
  value,
  onChange,
  empty,
  options,
  required,
  disabled,
  hint,
}: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint}>
      <select
        id={id}
        className="field__input field__input--select"
        value={value}
        required={required}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{empty}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
        {value && !options.includes(value) && <option value={value}>{value}</option>}
      </select>
    </FieldFrame>
  );
}

/**
 * A refusal the member must read: missing fields, the server's message (found by .prof-form-error in e2e); `id`
 * for the fields it names to be described by it.
 */
export function FormError({ message, id }: { message: string | null; id?: string }) {
  return <SharedFormError message={message} className="prof-form-error" {...(id && { id })} />;
}
