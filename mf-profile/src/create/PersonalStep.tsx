// Step 1 of profile creation: personal information. The picture uploads as soon as it is chosen (no profile
// exists yet, so it is only stored and its URL sent with the profile). Next with required fields missing names
// them (spec §5 Create profile step 1); otherwise the profile is created and the flow goes on with its id.
import type { AuthUser } from '@rotunda/session';
import { ArrowRight } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { createProfile, type Profile, refusalOf, uploadProfilePicture } from '../api';
import { FormError } from '../common/fields';
import { ProfileFields } from '../profile-form/ProfileFields';
import {
  missingProfileFieldsMessage,
  newProfileValues,
  profileFieldsFrom,
} from '../profile-form/profile-form';

const uploadNewPicture = (file: Blob, fileName: string) => uploadProfilePicture(file, fileName, null);

export function PersonalStep({ user, onCreated }: { user: AuthUser; onCreated: (profile: Profile) => void }) {
  const [values, setValues] = useState(() => newProfileValues(user));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const missing = missingProfileFieldsMessage(values);
    setError(missing);
    if (missing) return;
    setSaving(true);
    try {
      onCreated(await createProfile(profileFieldsFrom(values)));
    } catch (failure) {
      const serverSays = refusalOf(failure);
      if (!serverSays) console.error('The profile could not be created', failure);
      setError(serverSays ?? 'Your profile could not be created right now. Please try again in a moment.');
      setSaving(false);
    }
  };

  return (
    <form className="prof-step__body" onSubmit={onSubmit} noValidate aria-label="Personal information">
      <ProfileFields
        values={values}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
        uploadPicture={uploadNewPicture}
        withLobbyFilerId={false}
      />
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
