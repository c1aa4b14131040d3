// The personal-information fields, shared by profile creation (step 1) and the Edit Profile dialog: the
// picture (uploaded as soon as it is chosen, with a preview), name, pronouns, birthday, emails, phones, the
// eight social links and, for contributors only, the lobbyist filer id. Required ones carry an asterisk.
import { ImageUpload, SOCIAL_NETWORKS } from '@rotunda/ui';
import { refusalOf } from '../api';
import { Avatar } from '../common/Avatar';
import { SelectField, TextField } from '../common/fields';
import { PRONOUNS } from '../profile-rules';
import { formatWhileTyping, type ProfileFormField, type ProfileFormValues } from './profile-form';

interface ProfileFieldsProps {
  values: ProfileFormValues;
  onChange: (field: ProfileFormField, value: string) => void;
  /** Stores a chosen picture; answers its URL (which becomes the profile_picture value). */
  uploadPicture: (file: Blob, fileName: string) => Promise<string>;
  /** Contributors see and set the lobbyist filer id (spec §6). */
  withLobbyFilerId: boolean;
  /** The field to start on when a dialog opens. */
  autoFocus?: boolean;
}

export function ProfileFields({
  values,
  onChange,
  uploadPicture,
  withLobbyFilerId,
  autoFocus,
}: ProfileFieldsProps) {
  const set = (field: ProfileFormField) => (value: string) =>
    onChange(field, formatWhileTyping(field, value));
  const picture = values.profile_picture.trim() || null;

  return (
    <div className="prof-form__sections">
      <ImageUpload
        label="Profile Picture"
        noun="picture"
        shape="round"
        required
        hasImage={picture !== null}
        current={<Avatar person={values} picture={picture} size="large" />}
        upload={uploadPicture}
        onUploaded={(url) => onChange('profile_picture', url)}
        messageOf={refusalOf}
      />
      <fieldset className="prof-fieldset">
        <legend className="prof-fieldset__legend">About you</legend>
        <div className="prof-form__grid">
          <TextField
            label="First Name"
            value={values.first_name}
            onChange={set('first_name')}
            required
            autoComplete="given-name"
            autoFocus={autoFocus}
          />
          <TextField
            label="Last Name"
            value={values.last_name}
            onChange={set('last_name')}
            required
            autoComplete="family-name"
          />
          <SelectField
            label="Pronouns"
            value={values.pronouns}
            onChange={set('pronouns')}
            empty="Not shown"
            options={PRONOUNS}
          />
          <TextField
            label="Birthday"
            type="date"
            value={values.birthday}
            onChange={set('birthday')}
            autoComplete="bday"
          />
        </div>
      </fieldset>
      <fieldset className="prof-fieldset">
        <legend className="prof-fieldset__legend">Contact</legend>
        <div className="prof-form__grid">
          <TextField
            label="Work Email"
            type="email"
            value={values.work_email}
            onChange={set('work_email')}
            required
            autoComplete="work email"
            inputMode="email"
          />
          <TextField
            label="Personal Email"
            type="email"
            value={values.personal_email}
            onChange={set('personal_email')}
            autoComplete="home email"
            inputMode="email"
          />
          <TextField
            label="Office Phone"
            type="tel"
            value={values.other_phone}
            onChange={set('other_phone')}
            required
            autoComplete="work tel"
            inputMode="tel"
          />
          <TextField
            label="Mobile Phone"
            type="tel"
            value={values.mobile_phone}
            onChange={set('mobile_phone')}
            autoComplete="mobile tel"
            inputMode="tel"
          />
          {withLobbyFilerId && (
            <TextField
              label="Lobbyist Filer ID"
              value={values.lobby_filer_id}
              onChange={set('lobby_filer_id')}
              inputMode="numeric"
              maxLength={32}
              hint="The lobbyist's filer id on Cal-Access, the Secretary of State's lobbying disclosure site."
            />
          )}
        </div>
      </fieldset>
      <fieldset className="prof-fieldset">
        <legend className="prof-fieldset__legend">Social media</legend>
        <div className="prof-form__grid prof-form__grid--wide">
          {SOCIAL_NETWORKS.map(({ field, label }) => (
            <TextField
              key={field}
              label={label}
              type="url"
              value={values[field]}
              onChange={set(field)}
              autoComplete="url"
              inputMode="url"
              placeholder="https://"
            />
          ))}
        </div>
      </fieldset>
    </div>
  );
}
