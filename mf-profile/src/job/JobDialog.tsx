// The Add Job and Edit Job dialogs (docs/product.md#5-validation-rules): Save is enabled only when the job is
// complete (every required field, and 'Current Position' checked or an end date given). Edit Job offers
// Delete only for a job that is not current on a profile with more than one job, after a confirmation. A
// saved or deleted job closes the dialog and the page reloads the profile; a refusal shows the server's
// message here.
import { CancelAndSave, Dialog, refusalOr, useAction } from '@rotunda/ui';
import { Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { deleteJob, type Job } from '../api';
import { FormError } from '../common/fields';
import { canDeleteJob } from '../profile-rules';
import { JobFormFields } from './JobFormFields';
import { emptyJobDraft, isJobComplete, jobDraftFrom } from './job-form';
import { saveJob } from './save-job';

export type JobDialogMode = { kind: 'add' } | { kind: 'edit'; job: Job };

interface JobDialogProps {
  /** Which dialog is open, or null. */
  mode: JobDialogMode | null;
  profileId: number;
  /** Every job of the profile, for the delete rule. */
  jobs: readonly Job[];
  onClose: () => void;
  /** A job was added, changed or deleted. */
  onChanged: () => void;
}

export function JobDialog({ mode, profileId, jobs, onClose, onChanged }: JobDialogProps) {
  return (
    <Dialog
      open={mode !== null}
      title={mode?.kind === 'edit' ? 'Edit job' : 'Add job'}
      description="Fields marked * are required."
      onClose={onClose}
      className="dialog--wide"
    >
      {/* Mounted only while open, so every opening starts from the job as it is now. */}
      {mode && (
        <JobForm
          key={mode.kind === 'edit' ? mode.job.job_id : 'add'}
          mode={mode}
          profileId={profileId}
          jobs={jobs}
          onClose={onClose}
          onChanged={onChanged}
        />
      )}
    </Dialog>
  );
}

function JobForm({
  mode,
  profileId,
  jobs,
  onClose,
  onChanged,
}: Omit<JobDialogProps, 'mode'> & { mode: JobDialogMode }) {
  const [draft, setDraft] = useState(() =>
    mode.kind === 'edit' ? jobDraftFrom(mode.job) : emptyJobDraft(false),
  );
  const { busy, error, run } = useAction();
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const complete = isJobComplete(draft);
  const deletable = mode.kind === 'edit' && canDeleteJob(mode.job, jobs);

  /** Saves or deletes the job; `failed` says what could not be done. */
  const change = (action: () => Promise<unknown>, failed: string) =>
    run(
      async () => {
        await action();
        onChanged();
      },
      refusalOr({ logged: failed, shown: `${failed} right now. Please try again in a moment.` }),
    );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!complete) return;
    void change(
      () => saveJob(draft, profileId, mode.kind === 'edit' ? mode.job.job_id : undefined),
      'The job could not be saved',
    );
  };

  return (
    <form className="dialog-form" onSubmit={onSubmit} noValidate>
      <div className="dialog__body">
        <JobFormFields draft={draft} onChange={setDraft} withEndDate autoFocus />
      </div>
      <div className="dialog-form__footer">
        <FormError message={error} />
        {!complete && (
          <p className="prof-hint">
            Fill in every field marked *, and an end date or Current Position, to save.
          </p>
        )}
        {confirmingDelete ? (
          <div className="prof-confirm">
            <p className="prof-confirm__text">Delete this position from the job history?</p>
            <div className="form-actions">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setConfirmingDelete(false)}
              >
                Keep it
              </button>
              <button
                type="button"
                className="button prof-button--danger"
                disabled={busy}
                onClick={() =>
                  mode.kind === 'edit' &&
                  change(() => deleteJob(mode.job.job_id), 'The job could not be deleted')
                }
              >
                <Trash2 size={18} aria-hidden="true" />
                Delete position
              </button>
            </div>
          </div>
        ) : (
          <div className="form-actions">
            {deletable && (
              <button
                type="button"
                className="button button--quiet prof-actions__left"
                onClick={() => setConfirmingDelete(true)}
              >
                <Trash2 size={18} aria-hidden="true" />
                Delete
              </button>
            )}
            <CancelAndSave onCancel={onClose} saving={busy} saveLabel="Save" disabled={!complete || busy} />
          </div>
        )}
      </div>
    </form>
  );
}
