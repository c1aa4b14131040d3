// Step 3 of profile creation: the bio (required, spec §5 Bio step) and issue areas, chosen from the known ones
// or typed as new ones ('You already added this issue.' for one already on the list). Saving writes the bio,
// makes the new issue areas and adds each to the profile, then the flow ends.
import { Check, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, addIssueArea, addUserIssue, refusalOf, saveBio } from '../api';
import { FormError } from '../common/fields';
import { type IssueChoice, IssueInput } from '../common/IssueInput';
import { useIssues } from '../common/useIssues';
import { BIO_REQUIRED_MESSAGE, DUPLICATE_ISSUE_MESSAGES } from '../profile-rules';

export function BioStep({ profileId, onSaved }: { profileId: number; onSaved: () => void }) {
  const bioId = useId();
  const [bio, setBio] = useState('');
  const [chosen, setChosen] = useState<IssueChoice[]>([]);
  // Issues already on the profile, so trying again after a failure does not add them twice.
  const [added, setAdded] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const issues = useIssues();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (bio.trim() === '') {
      setError(BIO_REQUIRED_MESSAGE);
      return;
    }
    setError(null);
    setSaving(true);
    try {
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
    } catch (failure) {
      const serverSays = refusalOf(failure);
      if (!serverSays) console.error('The bio and issues could not be saved', failure);
      setError(
        serverSays ?? 'Your bio and issues could not be saved right now. Please try again in a moment.',
      );
      setSaving(false);
    }
  };

  return (
    <form className="prof-step__body" onSubmit={onSubmit} noValidate aria-label="Bio and issue areas">
      <div className="field">
        <label className="field__label" htmlFor={bioId}>
          Bio
          <span className="prof-required" aria-hidden="true">
            {' '}
            *
          </span>
        </label>
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
      <div className="prof-step__footer">
        <FormError message={error} />
        <div className="prof-actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            <Check size={18} aria-hidden="true" />
            {saving ? 'Saving…' : 'Save and finish'}
          </button>
        </div>
      </div>
    </form>
  );
}
