// 'Update password', in the Edit Profile dialog of the member's own profile only
// (docs/product.md#6-roles-and-permissions): the current password, a new one with the live checklist of the
// rules, and the new one again. The answer is the spec's alert: 'Password has been updated' or 'Error
// updating password. Please try again.'
import { isPasswordValid, PASSWORD_MESSAGES, passwordMismatchError } from '@rotunda/rules';
import { PasswordChecklist } from '@rotunda/ui';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { updatePassword } from '../api';
import { FormError, TextField } from '../common/fields';

export const PASSWORD_UPDATE_MESSAGES = {
  updated: 'Password has been updated',
  failed: 'Error updating password. Please try again.',
  currentMissing: 'Please enter your current password.',
} as const;

export function PasswordSection() {
  const titleId = useId();
  const checklistId = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [retyped, setRetyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [updated, setUpdated] = useState(false);
  const [saving, setSaving] = useState(false);
  const mismatch = retyped === '' ? null : passwordMismatchError(next, retyped);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setUpdated(false);
    const refusal =
      current === ''
        ? PASSWORD_UPDATE_MESSAGES.currentMissing
        : !isPasswordValid(next)
          ? PASSWORD_MESSAGES.doesNotMeetCriteria
          : passwordMismatchError(next, retyped);
    setError(refusal);
    if (refusal) return;
    setSaving(true);
    try {
      await updatePassword(current, next);
      setCurrent('');
      setNext('');
      setRetyped('');
      setUpdated(true);
    } catch (failure) {
      console.error('The password could not be updated', failure);
      setError(PASSWORD_UPDATE_MESSAGES.failed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="prof-password" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId} className="form-fieldset__legend">
        Update password
      </h3>
      <div className="form-grid prof-form__grid">
        <TextField
          label="Current password"
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          wide
        />
        <div className="prof-password__new">
          <TextField
            label="New password"
            type="password"
            value={next}
            onChange={setNext}
            autoComplete="new-password"
            describedBy={checklistId}
          />
          <PasswordChecklist id={checklistId} password={next} />
        </div>
        <TextField
          label="Retype new password"
          type="password"
          value={retyped}
          onChange={setRetyped}
          autoComplete="new-password"
          hint={mismatch ?? undefined}
        />
      </div>
      <FormError message={error} />
      {updated && (
        <p className="form-success" role="alert">
          {PASSWORD_UPDATE_MESSAGES.updated}
        </p>
      )}
      <div className="form-actions prof-actions--start">
        <button type="submit" className="button button--secondary" disabled={saving}>
          <KeyRound size={18} aria-hidden="true" />
          {saving ? 'Updating…' : 'Update password'}
        </button>
      </div>
    </form>
  );
}
