// The form of a profile-creation step: its fields, then a footer with what is missing or refused and the button
// that goes on ('Next', or 'Save and finish' on the last step), disabled and saying so while it saves.
import { ArrowRight, Check } from 'lucide-react';
import type { FormEvent, ReactNode } from 'react';
import { FormError } from '../common/fields';

interface StepFormProps {
  /** The form's accessible name. */
  label: string;
  onSubmit: () => void;
  busy: boolean;
  error: string | null;
  /** The last step saves and finishes instead of going on. */
  last?: boolean;
  /** The error line's id, for the fields it names to be described by it. */
  errorId?: string;
  children: ReactNode;
}

export function StepForm({ label, onSubmit, busy, error, last = false, errorId, children }: StepFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="prof-step__body" onSubmit={submit} noValidate aria-label={label}>
      {children}
      <div className="prof-step__footer">
        <FormError message={error} {...(errorId && { id: errorId })} />
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {last && <Check size={18} aria-hidden="true" />}
            {busy ? 'Saving…' : last ? 'Save and finish' : 'Next'}
            {!last && <ArrowRight size={18} aria-hidden="true" />}
          </button>
        </div>
      </div>
    </form>
  );
}
