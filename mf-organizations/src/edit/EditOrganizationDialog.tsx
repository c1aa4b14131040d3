// The Edit Organization dialog (contributors, docs/product.md#2-screens-and-routes, #5-validation-rules):
// logo upload, name, address, suite, city, state, ZIP (labels, requirement and limits from ORGANIZATION_FIELDS'
// rows), website, phone, Cal-Access ID (Lobbyists, Associations
// and Unions only; locked once set, with a Correct button that unlocks it) and the eight social links,
// formatted live; Save only with a name and a street address, and not while a field breaks a rule (a name
// without letters, a Cal-Access ID that is not a filer number), which is said under the field. A saved change
// closes the dialog and the page reloads its data; a refusal shows the server's message here.
import { ORGANIZATION_FIELDS, SOCIAL_FIELDS } from '@rotunda/rules';
import {
  AddressInputs,
  CancelAndSave,
  Dialog,
  FormError,
  FormSection,
  refusalOr,
  useAction,
} from '@rotunda/ui';
import { type FormEvent, type ReactNode, type Ref, useEffect, useId, useRef, useState } from 'react';
import { type Organization, updateOrganization } from '../api';
import {
  calAccessLocked,
  canSave,
  type FormField,
  type FormValues,
  fieldProblems,
  formatOnLeave,
  formatWhileTyping,
  initialValues,
  showsCalAccessField,
  updateFrom,
} from './form';
import { LogoUpload } from './LogoUpload';
import '@rotunda/ui/forms.css';
import './edit-organization.css';

interface EditOrganizationDialogProps {
  open: boolean;
  organization: Organization;
  onClose: () => void;
  /** The organization was saved: close and reload the page's data. */
  onSaved: () => void;
  /** A new logo was stored (it is saved at once, whether or not the form is). */
  onLogoChanged: (url: string) => void;
}

export function EditOrganizationDialog({ open, organization, ...handlers }: EditOrganizationDialogProps) {
  return (
    <Dialog
      open={open}
      title="Edit organization"
      description="Changes show to every member once saved. Fields marked * are required."
      onClose={handlers.onClose}
      className="dialog--wide"
    >
      {/* Mounted only while open, so every opening starts from the organization as it is now. */}
      {open && <EditForm organization={organization} {...handlers} />}
    </Dialog>
  );
}

interface FieldSpec {
  field: FormField;
  label: string;
  type?: 'text' | 'url' | 'tel';
  autoComplete?: string;
  inputMode?: 'numeric' | 'url' | 'tel';
  required?: boolean;
  placeholder?: string;
  wide?: boolean;
}

const EMAIL_DOMAINS_HINT =
  "Members working here whose account email is at one of these domains, or at the website's, show a Verified " +
  'employer badge; a subdomain counts too. Host names only, separated by commas. At most 10; public email ' +
  'services never count.';

const FAILED = {
  logged: 'The organization could not be saved',
  shown: 'Your changes could not be saved right now. Please try again in a moment.',
};

const CONTACT_FIELDS: readonly FieldSpec[] = [
  { field: 'main_phone', label: 'Phone', type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
  { field: 'website', label: 'Website', type: 'url', autoComplete: 'url', placeholder: 'https://' },
];

function EditForm({
  organization,
  onClose,
  onSaved,
  onLogoChanged,
}: Omit<EditOrganizationDialogProps, 'open'>) {
  const [values, setValues] = useState<FormValues>(() => initialValues(organization));
  const { busy: saving, error, run } = useAction();
  const [logo, setLogo] = useState(organization.logo);
  const idBase = useId();
  const [correcting, setCorrecting] = useState(false);
  const calAccessInput = useRef<HTMLInputElement>(null);
  const showCalAccess = showsCalAccessField(organization);
  const locked = calAccessLocked(organization) && !correcting;
  const problems = fieldProblems(organization, values);
  const valid = canSave(values) && Object.keys(problems).length === 0;
  const saveable = valid && !saving;

  // Choosing Correct unlocks the field: the contributor types there next.
  useEffect(() => {
    if (correcting) calAccessInput.current?.focus();
  }, [correcting]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    void run(async () => {
      await updateOrganization(updateFrom(organization, values));
      onSaved();
    }, refusalOr(FAILED));
  };

  const input = (
    spec: FieldSpec,
    extra: {
      disabled?: boolean;
      hint?: string;
      action?: ReactNode;
      inputRef?: Ref<HTMLInputElement>;
    } = {},
  ) => {
    const id = `${idBase}-${spec.field}`;
    const hintId = extra.hint ? `${id}-hint` : undefined;
    const error = problems[spec.field];
    const errorId = error ? `${id}-error` : undefined;
    const field = (
      <input
        id={id}
        className="field__input"
        name={spec.field}
        type={spec.type ?? 'text'}
        autoComplete={spec.autoComplete ?? 'off'}
        inputMode={spec.inputMode}
        placeholder={spec.placeholder}
        required={spec.required}
        aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={error ? true : undefined}
        disabled={extra.disabled}
        ref={extra.inputRef}
        value={values[spec.field]}
        onChange={(event) => {
          const value = formatWhileTyping(spec.field, event.target.value);
          setValues((current) => ({ ...current, [spec.field]: value }));
        }}
        onBlur={(event) => {
          const value = formatOnLeave(spec.field, event.target.value);
          setValues((current) => ({ ...current, [spec.field]: value }));
        }}
        {...(spec.field === 'organization_name' && { 'data-autofocus': true })}
      />
    );
    return (
      <div key={spec.field} className={`field${spec.wide ? ' form-field--wide' : ''}`}>
        <label className="field__label" htmlFor={id}>
          {spec.label}
          {spec.required && (
            <span className="orgs-field__required" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
        {extra.action ? (
          <div className="orgs-field__row">
            {field}
            {extra.action}
          </div>
        ) : (
          field
        )}
        {error && (
          <p id={errorId} className="orgs-field__error">
            {error}
          </p>
        )}
        {extra.hint && (
          <p id={hintId} className="orgs-field__hint">
            {extra.hint}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className="dialog-form" onSubmit={onSubmit} noValidate>
      <div className="orgs-form__body dialog__body">
        <LogoUpload
          organizationId={organization.organization_id}
          organizationName={values.organization_name || organization.organization_name}
          logo={logo}
          onUploaded={(url) => {
            setLogo(url);
            onLogoChanged(url);
          }}
        />
        <FormSection legend="Organization">
          {input({ field: 'organization_name', label: 'Name', required: true, wide: true })}
          {showCalAccess &&
            input(
              { field: 'lobby_filer_id', label: 'Cal-Access ID', inputMode: 'numeric' },
              {
                disabled: locked,
                inputRef: calAccessInput,
                hint: locked
                  ? 'Saved. Correct it only if it is wrong.'
                  : 'The filer number on the lobbying disclosure site, digits only. Empty removes it.',
                action: locked && (
                  <button
                    type="button"
                    className="button button--secondary"
                    aria-label="Correct the Cal-Access ID"
                    onClick={() => setCorrecting(true)}
                  >
                    Correct
                  </button>
                ),
              },
            )}
        </FormSection>
        <FormSection legend="Address" gridClassName="form-grid--narrow">
          <AddressInputs
            rows={ORGANIZATION_FIELDS}
            values={values}
            onChange={(field, value) =>
              setValues((current) => ({ ...current, [field]: formatWhileTyping(field, value) }))
            }
            onBlur={(field, value) =>
              setValues((current) => ({ ...current, [field]: formatOnLeave(field, value) }))
            }
            requiredClassName="orgs-field__required"
          />
        </FormSection>
        <FormSection legend="Contact">{CONTACT_FIELDS.map((spec) => input(spec))}</FormSection>
        <FormSection legend="Verified employer">
          {input(
            { field: 'email_domains', label: 'Email domains', wide: true, placeholder: 'agency.ca.gov' },
            { hint: EMAIL_DOMAINS_HINT },
          )}
        </FormSection>
        <FormSection legend="Social media" gridClassName="form-grid--wide">
          {SOCIAL_FIELDS.map(({ field, label }) =>
            input({ field, label, type: 'url', autoComplete: 'url', placeholder: 'https://' }),
          )}
        </FormSection>
      </div>
      <div className="dialog-form__footer">
        <FormError message={error} />
        {!canSave(values) && <p className="orgs-form__hint">Enter a name and a street address to save.</p>}
        {canSave(values) && !valid && (
          <p className="orgs-form__hint">Correct the fields marked above to save.</p>
        )}
        <div className="form-actions">
          <CancelAndSave onCancel={onClose} saving={saving} disabled={!saveable} />
        </div>
      </div>
    </form>
  );
}
