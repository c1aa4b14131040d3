// The two buttons that end a form in a dialog: Cancel (which closes it unsaved) and Save, which says 'Saving…'
// while the save runs. The screen puts them in its own actions row (.form-actions of @rotunda/ui/forms.css).
import { Save } from 'lucide-react';

export interface CancelAndSaveProps {
  onCancel: () => void;
  saving: boolean;
  /** Save's words when not saving. */
  saveLabel?: string;
  cancelLabel?: string;
  disabled?: boolean;
  /** Save looks disabled but stays clickable, so a click can say what is missing. */
  looksDisabled?: boolean;
  /** The form Save submits, when the buttons sit outside it. */
  form?: string;
}

export function CancelAndSave({
  onCancel,
  saving,
  saveLabel = 'Save changes',
  cancelLabel = 'Cancel',
  disabled,
  looksDisabled,
  form,
}: CancelAndSaveProps) {
  return (
    <>
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button
        type="submit"
        form={form}
        className="button button--primary"
        disabled={disabled}
        aria-disabled={looksDisabled || undefined}
      >
        <Save size={18} aria-hidden="true" />
        {saving ? 'Saving…' : saveLabel}
      </button>
    </>
  );
}
