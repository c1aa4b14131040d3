// The small dialog every moderation step goes through: what is about to happen, a required reason (the author
// reads a decision's; the member a suspension's), any fields of its own (a suspension's days), and a confirm
// button named for the step. A missing reason or the server's refusal is said in it and announced.
import { Dialog, FormError, refusalOr, useAction } from '@rotunda/ui';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import '@rotunda/ui/forms.css';

export interface ReasonDialogProps {
  open: boolean;
  title: string;
  description: string;
  /** The confirm button's words, e.g. 'Hide post'. */
  confirm: string;
  /** Fields before the reason. */
  children?: ReactNode;
  /** What else must be filled in first, or null. */
  missing?: string | null;
  /** Runs the step with the trimmed reason; the dialog closes when it succeeds. */
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

export function ReasonDialog({ open, title, description, onClose, ...form }: ReasonDialogProps) {
  return (
    <Dialog open={open} title={title} description={description} onClose={onClose}>
      {open && <ReasonForm {...form} onClose={onClose} />}
    </Dialog>
  );
}

const failed = refusalOr({
  logged: 'A moderation step failed',
  shown: 'That could not be done right now. Please try again in a moment.',
});

function ReasonForm({
  confirm,
  children,
  missing = null,
  onConfirm,
  onClose,
}: Omit<ReasonDialogProps, 'open' | 'title' | 'description'>) {
  const [reason, setReason] = useState('');
  const { busy, error, run } = useAction();
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    void run(
      async () => {
        await onConfirm(trimmed);
        onClose();
      },
      failed,
      missing ?? (trimmed === '' ? 'Give a reason.' : null),
    );
  };

  return (
    <form className="dialog__body mod-reason" noValidate onSubmit={submit}>
      {children}
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Reason
        </label>
        <textarea
          id={id}
          className="field__input"
          rows={3}
          required
          data-autofocus={children ? undefined : true}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </div>
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Working…' : confirm}
        </button>
      </div>
    </form>
  );
}
