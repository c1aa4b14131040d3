// The personal-information fields, shared by profile creation (step 1) and the Edit Profile dialog: the
// picture (uploaded as soon as it is chosen, with a preview), then one input per row of @rotunda/rules'
// PROFILE_FIELDS in its section (about you, contact, social media), the input's type following the row's kind;
// contributors-only rows (the lobbyist filer id) shown to contributors alone. Required ones carry an asterisk.
import {
  PROFILE_FIELD_NAMES,
  PROFILE_FIELDS,
  PRONOUNS,
  type ProfileFieldKind,
  type ProfileFieldName,
  type ProfileFieldSpec,
  type ProfileFormSection,
} from '@rotunda/rules';
import { FormSection, ImageUpload, refusalOf } from '@rotunda/ui';
import { Avatar } from '../common/Avatar';
import { type FieldProblems, problemOf, SelectField, TextField, type TextFieldProps } from '../common/fields';
import { formatWhileTyping, type ProfileFormField, type ProfileFormValues } from './profile-form';

/** What each kind of field's input is. */
const INPUTS: Record<ProfileFieldKind, Pick<TextFieldProps, 'type' | 'inputMode' | 'placeholder'>> = {
  name: {},
  text: {},
  email: { type: 'email', inputMode: 'email' },
  phone: { type: 'tel', inputMode: 'tel' },
  date: { type: 'date' },
  url: { type: 'url', inputMode: 'url', placeholder: 'https://' },
  picture: {},
  pronouns: {},
};

/** What a field's input says beyond its row. */
const EXTRAS: Partial<Record<ProfileFieldName, Partial<TextFieldProps>>> = {
  lobby_filer_id: {
    inputMode: 'numeric',
    maxLength: 32,
    hint: "The lobbyist's filer id on Cal-Access, the Secretary of State's lobbying disclosure site.",
  },
};

const inSection = (section: ProfileFormSection) =>
  PROFILE_FIELD_NAMES.filter((name) => PROFILE_FIELDS[name].section === section);

interface ProfileFormFieldsProps {
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

export function ProfileFormFields({
  values,
  onChange,
  uploadPicture,
  withLobbyFilerId,
  autoFocus,
  problems,
}: ProfileFormFieldsProps) {
  const set = (field: ProfileFormField) => (value: string) =>
    onChange(field, formatWhileTyping(field, value));
  const picture = values.profile_picture.trim() || null;

  const inputs = (section: ProfileFormSection) =>
    inSection(section)
      .filter((name) => withLobbyFilerId || PROFILE_FIELDS[name].editor === 'editor')
      .map((name, index) => {
        const { kind, label, required, autoComplete }: ProfileFieldSpec = PROFILE_FIELDS[name];
        if (kind === 'pronouns')
          return (
            <SelectField
              key={name}
              label={label}
              value={values[name]}
              onChange={set(name)}
              empty="Not shown"
              options={PRONOUNS}
            />
          );
        return (
          <TextField
            key={name}
            label={label}
            {...INPUTS[kind]}
            {...(autoComplete && { autoComplete })}
            {...(required && { required: true })}
            {...EXTRAS[name]}
            {...problemOf(problems, label)}
            {...(autoFocus && section === 'about' && index === 0 && { autoFocus: true })}
            value={values[name]}
            onChange={set(name)}
          />
        );
      });

  return (
    <div className="prof-form__sections">
      <ImageUpload
        label={PROFILE_FIELDS.profile_picture.label}
        noun="picture"
        shape="round"
        required
        hasImage={picture !== null}
        current={<Avatar person={values} picture={picture} size="large" />}
        upload={uploadPicture}
        onUploaded={(url) => onChange('profile_picture', url)}
        messageOf={refusalOf}
        invalid={
          problems?.labels.includes(PROFILE_FIELDS.profile_picture.label)
            ? { describedBy: problems.errorId }
            : undefined
        }
      />
      <FormSection legend="About you" gridClassName="prof-form__grid">
        {inputs('about')}
      </FormSection>
      <FormSection legend="Contact" gridClassName="prof-form__grid">
        {inputs('contact')}
      </FormSection>
      <FormSection legend="Social media" gridClassName="form-grid--wide">
        {inputs('social')}
      </FormSection>
    </div>
  );
}
