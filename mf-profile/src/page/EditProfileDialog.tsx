// The Edit Profile dialog (docs/product.md#2-screens-and-routes, #5-validation-rules,
// #6-roles-and-permissions): every profile field, the picture (stored on the profile as soon as it is
// chosen), the lobbyist filer id for contributors only, and 'Update password' on the member's own profile
// only. Saving needs a picture, first name, last name, work email and office phone; what is missing is named
// with the spec's message, which describes each of those fields, marked invalid. A saved change closes the
// dialog; a refusal shows the server's message here.
import { CancelAndSave, Dialog, refusalOr, useAction } from '@rotunda/ui';
import { type FormEvent, useId, useState } from 'react';
import { type Profile, type ProfileUpdate, updateProfile, uploadProfilePicture } from '../api';
import { FormError } from '../common/fields';
import { ProfileFormFields } from '../profile-form/ProfileFormFields';
import {
  missingProfileFields,
  missingProfileFieldsMessage,
  type ProfileFormValues,
  profileFieldsFrom,
  profileValues,
} from '../profile-form/profile-form';
import { PasswordSection } from './PasswordSection';

interface EditProfileDialogProps {
  open: boolean;
  profile: Profile;
  /** Contributors see and set the lobbyist filer id. */
  isContributor: boolean;
  /** The member's own profile: the password can be updated here. */
  isOwn: boolean;
  onClose: () => void;
  onSaved: (profile: Profile) => void;
  /** A new picture was stored on the profile (at once, whether or not the form is saved). */
  onPictureChanged: (url: string) => void;
}

export function EditProfileDialog({ open, ...props }: EditProfileDialogProps) {
  return (
    <Dialog
      open={open}
      title="Edit profile"
      description="Fields marked * are required."
      onClose={props.onClose}
      className="dialog--wide"
    >
      {/* Mounted only while open, so every opening starts from the profile as it is now. */}
      {open && <EditProfileForm {...props} />}
    </Dialog>
  );
}

const FAILED = {
  logged: 'The profile could not be saved',
  shown: 'Your changes could not be saved right now. Please try again in a moment.',
};

function updateFrom(profile: Profile, values: ProfileFormValues, isContributor: boolean): ProfileUpdate {
  const filerId = values.lobby_filer_id.trim();
  return {
    profile_id: profile.profile_id,
    ...profileFieldsFrom(values),
    // Only a contributor may set it; others leave it out so the server keeps it as it is.
    ...(isContributor && { lobby_filer_id: filerId === '' ? null : filerId }),
  };
}

function EditProfileForm({
  profile,
  isContributor,
  isOwn,
  onClose,
  onSaved,
  onPictureChanged,
}: Omit<EditProfileDialogProps, 'open'>) {
  const formId = useId();
  const errorId = useId();
  const [values, setValues] = useState(() => profileValues(profile));
  const { busy: saving, error, run } = useAction();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(
      async () => onSaved(await updateProfile(updateFrom(profile, values, isContributor))),
      refusalOr(FAILED),
      missingProfileFieldsMessage(values),
    );
  };

  return (
    <div className="dialog-form">
      <div className="dialog__body prof-dialog-form__body">
        <form id={formId} onSubmit={onSubmit} noValidate aria-label="Profile information">
          <ProfileFormFields
            values={values}
            onChange={(field, value) => {
              setValues((current) => ({ ...current, [field]: value }));
              if (field === 'profile_picture') onPictureChanged(value);
            }}
            uploadPicture={(file, fileName) => uploadProfilePicture(file, fileName, profile.profile_id)}
            withLobbyFilerId={isContributor}
            autoFocus
            problems={error ? { labels: missingProfileFields(values), errorId } : undefined}
          />
        </form>
        {isOwn && <PasswordSection />}
      </div>
      <div className="dialog-form__footer">
        <FormError message={error} id={errorId} />
        <div className="form-actions">
          <CancelAndSave onCancel={onClose} saving={saving} disabled={saving} form={formId} />
        </div>
      </div>
    </div>
  );
}
