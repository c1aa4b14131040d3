// Step 1 of profile creation: personal information. The picture uploads as soon as it is chosen (no profile
// exists yet, so it is only stored and its URL sent with the profile). Next with required fields missing names
// them (docs/product.md#5-validation-rules Create profile step 1), and those fields say they are invalid and
// are described by that line, so a screen reader user meets the reason on each; otherwise the profile is
// created and the flow goes on with its id.

import type { AuthUser } from '@rotunda/session';
import { refusalOr, useAction } from '@rotunda/ui';
import { useId, useState } from 'react';
import { createProfile, type Profile, uploadProfilePicture } from '../api';
import { ProfileFormFields } from '../profile-form/ProfileFormFields';
import {
  missingProfileFields,
  missingProfileFieldsMessage,
  newProfileValues,
  profileFieldsFrom,
} from '../profile-form/profile-form';
import { StepForm } from './StepForm';

const uploadNewPicture = (file: Blob, fileName: string) => uploadProfilePicture(file, fileName, null);

const FAILED = {
  logged: 'The profile could not be created',
  shown: 'Your profile could not be created right now. Please try again in a moment.',
};

export function PersonalStep({ user, onCreated }: { user: AuthUser; onCreated: (profile: Profile) => void }) {
  const [values, setValues] = useState(() => newProfileValues(user));
  const { busy, error, run } = useAction();
  const errorId = useId();

  const create = () =>
    run(
      async () => onCreated(await createProfile(profileFieldsFrom(values))),
      refusalOr(FAILED),
      missingProfileFieldsMessage(values),
    );

  return (
    <StepForm label="Personal information" onSubmit={create} busy={busy} error={error} errorId={errorId}>
      <ProfileFormFields
        problems={error ? { labels: missingProfileFields(values), errorId } : undefined}
        values={values}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
        uploadPicture={uploadNewPicture}
        withLobbyFilerId={false}
      />
    </StepForm>
  );
}
