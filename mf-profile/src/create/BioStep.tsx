// Step 3 of profile creation: the bio (required, docs/product.md#5-validation-rules Bio step) and issue
// areas, chosen from the known ones or typed as new ones ('You already added this issue.' for one already on
// the list). Saving writes the bio, makes the new issue areas and adds each to the profile, then the flow
// ends.
import { ApiError, refusalOr, useAction } from '@rotunda/ui';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { addIssueArea, addUserIssue, saveBio } from '../api';
import { FieldLabel } from '../common/fields';
import { type IssueChoice, IssueInput } from '../common/IssueInput';
import { useIssues } from '../common/useIssues';
import { BIO_REQUIRED_MESSAGE, DUPLICATE_ISSUE_MESSAGES } from '../profile-rules';
import { StepForm } from './StepForm';

const FAILED = {
  logged: 'The bio and issues could not be saved',
  shown: 'Your bio and issues could not be saved right now. Please try again in a moment.',
};

export function BioStep({ profileId, onSaved }: { profileId: number; onSaved: () => void }) {
  const bioId = useId();
  const [bio, setBio] = useState('');
  const [chosen, setChosen] = useState<IssueChoice[]>([]);
  // Issues already on the profile, so trying again after a failure does not add them twice.
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const { busy: saving, error, run } = useAction();
  const issues = useIssues();

  const save = async () => {
    await saveBio(profileId, bio.trim());
    for (const choice of chosen) {
      const key = choice.name.toLowerCase();
      if (added.has(key)) continue;
      const issue = choice.issue ?? (await addIssueArea(choice.name));
      await addUserIssue(profileId, issue.issue_id).catch((failure: unknown) => {
        // Already on the profile (an earlier attempt got that far): nothing left to do for it.
        if (!(failure instanceof ApiError && failure.status === 409)) throw failure;
      });
      setAdded((current) => new Set(current).add(key));
    }
    onSaved();
  };

  return (
    <StepForm
      label="Bio and issue areas"
      onSubmit={() => run(save, refusalOr(FAILED), bio.trim() === '' ? BIO_REQUIRED_MESSAGE : null)}
      busy={saving}
      error={error}
      last
    >
      <div className="field">
        <FieldLabel id={bioId} label="Bio" required />
        <textarea
          id={bioId}
          className="field__input prof-textarea"
          rows={8}
          required
          aria-describedby={`${bioId}-hint`}
          value={bio}
          onChange={(event) => setBio(event.target.value)}
        />
        <p id={`${bioId}-hint`} className="prof-hint">
          Who you are and your expertise: what colleagues should know about your work.
        </p>
      </div>
      <section className="prof-step__issues" aria-labelledby={`${bioId}-issues`}>
        <h3 id={`${bioId}-issues`} className="prof-subtitle">
          Issue areas
        </h3>
        <p className="prof-hint">The policy areas you work on. Choose from the list or type a new one.</p>
        <IssueInput
          issues={issues}
          chosenNames={chosen.map((choice) => choice.name)}
          duplicateMessage={DUPLICATE_ISSUE_MESSAGES.create}
          onAdd={(choice) => setChosen((current) => [...current, choice])}
        />
        {chosen.length > 0 && (
          <ul className="prof-chips" aria-label="Your issue areas">
            {chosen.map((choice) => (
              <li key={choice.name.toLowerCase()} className="prof-chip">
                {choice.name}
                <button
                  type="button"
                  className="prof-chip__remove"
                  aria-label={`Remove ${choice.name}`}
                  disabled={saving || added.has(choice.name.toLowerCase())}
                  onClick={() => setChosen((current) => current.filter((other) => other !== choice))}
                >
                  <X size={14} aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </StepForm>
  );
}
