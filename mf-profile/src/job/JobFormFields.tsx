// The job form's fields, shared by profile creation (step 2) and the Add Job and Edit Job dialogs: Job Title;
// Company and the optional Office or Division, each an autocomplete over the organization directory (choosing
// marks an existing record, typing again forgets it); Type of Organization (a chosen organization brings its
// own); the work address (labels, requirements and limits from JOB_FIELDS' rows); Start Date; and in the
// dialogs 'Current Position', which disables and clears End Date.
import { JOB_FIELDS } from '@rotunda/rules';
import { AddressInputs, FormSection } from '@rotunda/ui';
import { CircleCheck, CirclePlus } from 'lucide-react';
import { useCallback, useId } from 'react';
import { type Division, findDivisions, findOrganizations, type Organization } from '../api';
import { Autocomplete, useSuggestions } from '../common/Autocomplete';
import { SelectField, TextField } from '../common/fields';
import { ORGANIZATION_TYPES } from '../profile-rules';
import {
  chooseDivision,
  chooseOrganization,
  type JobDraft,
  setCurrentJob,
  setJobField,
  type TextJobField,
  typeDivision,
  typeOrganization,
} from './job-form';

interface JobFieldsProps {
  draft: JobDraft;
  onChange: (draft: JobDraft) => void;
  /** The dialogs ask whether the position is current, and otherwise when it ended. */
  withEndDate: boolean;
  /** The field to start on when a dialog opens. */
  autoFocus?: boolean;
}

export function JobFormFields({ draft, onChange, withEndDate, autoFocus = false }: JobFieldsProps) {
  const currentId = useId();
  const organizationId = draft.organization?.organization_id ?? null;
  const organizations = useSuggestions(
    draft.organizationName,
    draft.organization === null,
    findOrganizations,
  );
  const findOffices = useCallback(
    async (text: string, signal: AbortSignal) =>
      (await findDivisions(text, signal)).filter((division) => division.organization_id === organizationId),
    [organizationId],
  );
  const divisions = useSuggestions(
    draft.divisionName,
    organizationId !== null && draft.division === null,
    findOffices,
  );
  const set = (field: TextJobField) => (value: string) => onChange(setJobField(draft, field, value));
  const typeLocked = Boolean(draft.organization?.group_type);

  return (
    <div className="prof-form__sections">
      <FormSection legend="Position" gridClassName="prof-form__grid">
        <TextField
          label="Job Title"
          value={draft.title}
          onChange={set('title')}
          required
          autoComplete="organization-title"
          autoFocus={autoFocus}
          wide
        />
        <Autocomplete<Organization>
          label="Company"
          value={draft.organizationName}
          onType={(text) => onChange(typeOrganization(draft, text))}
          suggestions={organizations}
          keyOf={(organization) => organization.organization_id}
          render={(organization) => suggestion(organization.organization_name, organization.group_type)}
          onChoose={(organization) => onChange(chooseOrganization(draft, organization))}
          required
          placeholder="Start typing to find it"
          hint={
            <ChoiceHint
              typed={draft.organizationName}
              chosen={draft.organization !== null && 'In the directory.'}
              made="Not in the directory yet: it will be added when you save."
            />
          }
          wide
        />
        <Autocomplete<Division>
          label="Office or Division"
          value={draft.divisionName}
          onType={(text) => onChange(typeDivision(draft, text))}
          suggestions={divisions}
          keyOf={(division) => division.division_id}
          render={(division) => suggestion(division.division_name, division.organization_name || undefined)}
          onChoose={(division) => onChange(chooseDivision(draft, division))}
          placeholder="Optional"
          hint={
            <ChoiceHint
              typed={draft.divisionName}
              chosen={draft.division !== null && `An office of ${draft.organizationName}.`}
              made="New office: it will be added when you save."
            />
          }
        />
        <SelectField
          label="Type of Organization"
          value={draft.groupType}
          onChange={set('groupType')}
          empty="Choose a type"
          options={ORGANIZATION_TYPES}
          required
          disabled={typeLocked}
          hint={typeLocked ? `The type ${draft.organizationName} is listed under.` : undefined}
        />
      </FormSection>
      <FormSection legend="Work address" gridClassName="form-grid--narrow">
        <AddressInputs
          rows={JOB_FIELDS}
          values={draft}
          onChange={(field, value) => onChange(setJobField(draft, field, value))}
          requiredClassName="prof-required"
        />
      </FormSection>
      <FormSection legend="Dates" gridClassName="form-grid--narrow">
        <TextField
          label="Start Date"
          type="date"
          value={draft.start_date}
          onChange={set('start_date')}
          required
        />
        {withEndDate && (
          <>
            <TextField
              label="End Date"
              type="date"
              value={draft.end_date}
              onChange={set('end_date')}
              disabled={draft.current_job}
              hint={draft.current_job ? 'A current position has no end date.' : undefined}
            />
            <div className="prof-checkbox">
              <input
                id={currentId}
                type="checkbox"
                checked={draft.current_job}
                onChange={(event) => onChange(setCurrentJob(draft, event.target.checked))}
              />
              <label htmlFor={currentId}>{JOB_FIELDS.current_job.label}</label>
            </div>
          </>
        )}
      </FormSection>
    </div>
  );
}

/** A suggestion: the record's name, and what tells it apart from others of that name. */
function suggestion(name: string, detail: string | undefined) {
  return (
    <>
      <span className="prof-autocomplete__name">{name}</span>
      {detail !== undefined && <span className="prof-autocomplete__detail">{detail}</span>}
    </>
  );
}

/** Under an autocomplete: whether its text is a record chosen from the directory, or a new one made on save. */
function ChoiceHint({ typed, chosen, made }: { typed: string; chosen: string | false; made: string }) {
  if (chosen) {
    return (
      <span className="prof-hint__chosen">
        <CircleCheck size={14} aria-hidden="true" />
        {chosen}
      </span>
    );
  }
  if (typed.trim() === '') return null;
  return (
    <span className="prof-hint__new">
      <CirclePlus size={14} aria-hidden="true" />
      {made}
    </span>
  );
}
