// Step 2 of profile creation: the current job. Next with required fields missing names them
// (docs/product.md#5-validation-rules Create job step); otherwise an organization or office typed rather than
// chosen is made, then the job is added as the current one.
import { refusalOr, useAction } from '@rotunda/ui';
import { useState } from 'react';
import { JobFormFields } from '../job/JobFormFields';
import { emptyJobDraft, missingJobFieldsMessage } from '../job/job-form';
import { saveJob } from '../job/save-job';
import { StepForm } from './StepForm';

const FAILED = {
  logged: 'The job could not be saved',
  shown: 'Your job could not be saved right now. Please try again in a moment.',
};

export function JobStep({ profileId, onSaved }: { profileId: number; onSaved: () => void }) {
  const [draft, setDraft] = useState(() => emptyJobDraft(true));
  const { busy, error, run } = useAction();

  const save = () =>
    run(
      async () => {
        await saveJob({ ...draft, current_job: true }, profileId);
        onSaved();
      },
      refusalOr(FAILED),
      missingJobFieldsMessage(draft),
    );

  return (
    <StepForm label="Current job" onSubmit={save} busy={busy} error={error}>
      <JobFormFields draft={draft} onChange={setDraft} withEndDate={false} />
    </StepForm>
  );
}
