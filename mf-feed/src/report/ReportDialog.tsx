// The report dialog (ADR 0041): the member picks a reason and may add a note of at most 500 characters,
// then sends; the dialog thanks them, says where the outcome will show ("Your reports"), and the target counts as
// reported for the rest of the visit. A missing reason
// or the server's refusal (a suspension, reporting too often) is said in the dialog and announced.
import { REPORT_NOTE_MAX, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from '@rotunda/rules';
import { Dialog, FormError, refusalOr, useAction } from '@rotunda/ui';
import { Flag } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { addReport, type ReportTarget } from '../api';
import { markReported } from './reported';
import '@rotunda/ui/forms.css';
import './report.css';

export const THANKS = 'Thanks — a contributor will review it.';
export const OUTCOME_HINT = 'What they decide will show under “Your reports” on the Public Square.';

interface ReportDialogProps {
  open: boolean;
  target: ReportTarget;
  userId: string;
  onClose: () => void;
}

export function ReportDialog({ open, target, userId, onClose }: ReportDialogProps) {
  const noun = target.target_type;
  return (
    <Dialog
      open={open}
      title={`Report this ${noun}`}
      description={`Tell the contributors what is wrong with this ${noun}.`}
      onClose={onClose}
    >
      {/* A fresh form at each opening. */}
      {open && <ReportForm target={target} userId={userId} onClose={onClose} />}
    </Dialog>
  );
}

const failed = refusalOr({
  logged: 'The report could not be sent',
  shown: 'The report could not be sent right now. Please try again in a moment.',
});

function ReportForm({ target, userId, onClose }: Omit<ReportDialogProps, 'open'>) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const ids = useId();
  const doneButton = useRef<HTMLButtonElement>(null);
  const left = REPORT_NOTE_MAX - note.length;

  // The thanks replaces the form: the focus goes to its Done button rather than to the page.
  useEffect(() => {
    if (sent) doneButton.current?.focus();
  }, [sent]);

  const send = (event: FormEvent) => {
    event.preventDefault();
    void run(
      async () => {
        await addReport(target, reason as ReportReason, note.trim());
        markReported(userId, target);
        setSent(true);
      },
      failed,
      reason === null ? 'Choose a reason for the report.' : null,
    );
  };

  if (sent) {
    return (
      <div className="dialog__body report-form">
        <p className="form-success" role="status">
          {THANKS}
        </p>
        {/* Read with the Done button, which takes the focus. */}
        <p id={`${ids}-next`} className="report-form__next">
          {OUTCOME_HINT}
        </p>
        <div className="form-actions">
          <button
            ref={doneButton}
            type="button"
            className="button button--primary"
            aria-describedby={`${ids}-next`}
            onClick={onClose}
          >
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="dialog__body report-form" noValidate onSubmit={send}>
      <fieldset className="form-fieldset">
        <legend className="field__label report-form__legend">Reason</legend>
        <div className="report-form__reasons">
          {REPORT_REASONS.map((value, index) => (
            <label key={value} className="report-form__reason">
              <input
                type="radio"
                name={`${ids}-reason`}
                value={value}
                checked={reason === value}
                required
                data-autofocus={index === 0 ? true : undefined}
                onChange={() => setReason(value)}
              />
              {REPORT_REASON_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-note`}>
          Note (optional)
        </label>
        <textarea
          id={`${ids}-note`}
          className="field__input"
          rows={3}
          maxLength={REPORT_NOTE_MAX}
          aria-describedby={`${ids}-left`}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <p id={`${ids}-left`} className="report-form__counter">
          {left === 1 ? '1 character left' : `${left} characters left`}
        </p>
      </div>
      <FormError message={error} />
      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          <Flag size={16} aria-hidden="true" />
          {busy ? 'Sending…' : 'Send report'}
        </button>
      </div>
    </form>
  );
}
