// The fields of the access forms, in the shared field style (@rotunda/ui/controls.css): a text input named by
// its label, the account email the login and reset-request dialogs open on, and a new password with the live
// checklist of the password rules under it (register dialog, reset page).
import { PasswordChecklist } from '@rotunda/ui';
import type { ComponentProps } from 'react';

type TextFieldProps = { label: string } & ComponentProps<'input'>;

/** An input inside its label, which names it; every other prop goes to the input. */
export function TextField({ label, ...input }: TextFieldProps) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="field__input" {...input} />
    </label>
  );
}

interface ValueProps {
  value: string;
  onChange: (value: string) => void;
}

/** The email an account is known by; the dialog opens on it. */
export function AccountEmailField({ value, onChange, onBlur }: ValueProps & { onBlur?: () => void }) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      data-autofocus
      autoComplete="username"
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

/** A new password, described by the checklist of the password rules (with id `checklistId`) under it. */
export function NewPasswordField({
  label,
  checklistId,
  value,
  onChange,
}: ValueProps & { label: string; checklistId: string }) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        aria-describedby={checklistId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <PasswordChecklist id={checklistId} password={value} />
    </>
  );
}
