// The personal-information fields, shared by profile creation (step 1) and the Edit Profile dialog: the
// picture (uploaded as soon as it is chosen, with a preview), name, pronouns, birthday, emails, phones, the
// eight social links and, for contributors only, the lobbyist filer id. Required ones carry an asterisk.
import { SOCIAL_FIELDS as SOCIAL_NETWORKS } from '@rotunda/rules';
import { FormSection, ImageUpload, refusalOf } from '@rotunda/ui';
import { Avatar } from '../common/Avatar';
import { type FieldProblems, SelectField, TextField, type TextFieldSpec, TextFields } from '../common/fields';
import { PRONOUNS } from '../profile-rules';
import { formatWhileTyping, type ProfileFormField, type ProfileFormValues } from './profile-form';

type FieldSpecs = readonly TextFieldSpec<ProfileFormField>[];

const NAME_FIELDS: FieldSpecs = [
  { field: 'first_name', label: 'First Name', required: true, autoComplete: 'given-name' },
  { field: 'last_name', label: 'Last Name', required: true, autoComplete: 'family-name' },
];

const CONTACT_FIELDS: FieldSpecs = [
  {
    field: 'work_email',
    label: 'Work Email',
    type: 'email',
    required: true,
    autoComplete: 'work email',
    inputMode: 'email',
  },
  {
    field: 'personal_email',
    label: 'Personal Email',
    type: 'email',
    autoComplete: 'home email',
    inputMode: 'email',
  },
  {
    field: 'other_phone',
    label: 'Office Phone',
    type: 'tel',
    required: true,
    autoComplete: 'work tel',
    inputMode: 'tel',
  },
  { field: 'mobile_phone', label: 'Mobile Phone', type: 'tel', autoComplete: 'mobile tel', inputMode: 'tel' },
];

const SOCIAL_FIELDS: FieldSpecs = SOCIAL_NETWORKS.map(({ field, label }) => ({
  field,
  label,
  type: 'url',
  autoComplete: 'url',
  inputMode: 'url',
  placeholder: 'https://',
}));

interface ProfileFieldsProps {
  values: ProfileFormValues;
  onChange: (field: ProfileFormField, value: string) => void;
  /** Stores a chosen picture; answers its URL (which becomes the profile_picture value). */
  uploadPicture: (file: Blob, fileName: string) => Promise<string>;
  /** Contributors see and set the lobbyist filer id (docs/product.md#6-roles-and-permissions). */
  withLobbyFilerId: boolean;
  /** The field to start on when a dialog opens. */
  autoFocus?: boolean;
  /** The required fields the form's error names, marked invalid and described by it. */
  problems?: FieldProblems | undefined;
}

export function ProfileFields({
  values,
  onChange,
  uploadPicture,
  withLobbyFilerId,
  autoFocus,
  problems,
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
        invalid={problems?.labels.includes('Profile Picture') ? { describedBy: problems.errorId } : undefined}
      />
      <FormSection legend="About you" gridClassName="prof-form__grid">
        <TextFields
          specs={NAME_FIELDS}
          values={values}
          set={set}
          autoFocusFirst={autoFocus}
          problems={problems}
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
      </FormSection>
      <FormSection legend="Contact" gridClassName="prof-form__grid">
        <TextFields specs={CONTACT_FIELDS} values={values} set={set} problems={problems} />
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
      </FormSection>
      <FormSection legend="Social media" gridClassName="form-grid--wide">
        <TextFields specs={SOCIAL_FIELDS} values={values} set={set} />
      </FormSection>
    </div>
  );
}
