// Step 2 of profile creation: the current job. Next with required fields missing names them (spec §5 Create
// job step); otherwise an organization or office typed rather than chosen is made, then the job is added as
// the current one.
import { ArrowRight } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../api';
import { FormError } from '../common/fields';
import { JobFields } from '../job/JobFields';
import { emptyJobDraft, missingJobFieldsMessage } from '../job/job-form';
import { saveJob } from '../job/save-job';

export function JobStep({ profileId, onSaved }: { profileId: number; onSaved: () => void }) {
  const [draft, setDraft] = useState(() => emptyJobDraft(true));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const missing = missingJobFieldsMessage(draft);
    setError(missing);
    if (missing) return;
    setSaving(true);
    try {
      await saveJob({ ...draft, current_job: true }, profileId);
      onSaved();
    } catch (failure) {
      const serverSays = refusalOf(failure);
      if (!serverSays) console.error('The job could not be saved', failure);
      setError(serverSays ?? 'Your job could not be saved right now. Please try again in a moment.');
      setSaving(false);
    }
  };

  return (
    <form className="prof-step__body" onSubmit={onSubmit} noValidate aria-label="Current job">
      <JobFields draft={draft} onChange={setDraft} withEndDate={false} />
      <div className="prof-step__footer">
        <FormError message={error} />
        <div className="prof-actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Next'}
            <ArrowRight size={18} aria-hidden="true" />
          </button>
        </div>
      </div>
    </form>
  );
}
