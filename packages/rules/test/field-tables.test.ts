// The field tables and what is derived from them: the required fields in the form's order (the order the
// required-fields message names them), the personal contact details kept out of lists, the contributors-only
// filer id, the services' spelling of each name, the eight social links from SOCIAL_FIELDS, the job's labels
// from JOB_LABELS, the first name a person is shown by, and fields moved between the two spellings.
import { describe, expect, it } from 'vitest';
import {
  DIVISION_FIELD_NAMES,
  type DivisionFieldName,
  fieldsByKey,
  fieldsByName,
  JOB_FIELD_NAMES,
  JOB_FIELDS,
  JOB_LABELS,
  LISTED_PROFILE_FIELDS,
  MEMBER_PROFILE_FIELDS,
  PERSONAL_PROFILE_FIELDS,
  PROFILE_FIELD_LABELS,
  PROFILE_FIELD_NAMES,
  PROFILE_FIELDS_BY_KEY,
  profileFieldKey,
  REQUIRED_PROFILE_FIELDS,
  SOCIAL_FIELDS,
  shownFirstName,
} from '../src/index.ts';

describe('the profile field table', () => {
  it('requires the picture, names, work email and office phone, in the form’s order', () => {
    expect(REQUIRED_PROFILE_FIELDS.map((name) => PROFILE_FIELD_LABELS[name])).toEqual([
      'Profile Picture',
      'First Name',
      'Last Name',
      'Work Email',
      'Office Phone',
    ]);
  });

  it('keeps the personal contact details out of lists, and the filer id to contributors', () => {
    expect([...PERSONAL_PROFILE_FIELDS].sort()).toEqual(['birthday', 'mobile_phone', 'personal_email']);
    expect(LISTED_PROFILE_FIELDS).toHaveLength(PROFILE_FIELD_NAMES.length - 3);
    expect(LISTED_PROFILE_FIELDS).toContain('preferred_name');
    expect(PROFILE_FIELD_NAMES.filter((name) => !(MEMBER_PROFILE_FIELDS as string[]).includes(name))).toEqual(
      ['lobby_filer_id'],
    );
  });

  it('has the eight social links of SOCIAL_FIELDS, labelled as the networks are known', () => {
    for (const { field, label } of SOCIAL_FIELDS) expect(PROFILE_FIELD_LABELS[field]).toBe(label);
    expect(PROFILE_FIELD_NAMES.filter((name) => name.endsWith('_url'))).toHaveLength(8);
  });

  it('answers each row by the services’ name too', () => {
    expect(profileFieldKey('preferred_name')).toBe('preferredName');
    expect(PROFILE_FIELDS_BY_KEY.otherPhone).toMatchObject({ name: 'other_phone', label: 'Office Phone' });
    expect(Object.keys(PROFILE_FIELDS_BY_KEY)).toHaveLength(PROFILE_FIELD_NAMES.length);
  });

  it('shows the preferred name in place of the first name, when one is given', () => {
    expect(shownFirstName({ first_name: 'Elizabeth', preferred_name: 'Liz' })).toBe('Liz');
    expect(shownFirstName({ first_name: 'Elizabeth', preferred_name: '  ' })).toBe('Elizabeth');
    expect(shownFirstName({ first_name: 'Elizabeth', preferred_name: null })).toBe('Elizabeth');
    expect(shownFirstName({ first_name: 'Elizabeth' })).toBe('Elizabeth');
  });
});

describe('the job field table', () => {
  it('names the job form’s fields by JOB_LABELS, in the form’s order', () => {
    expect(JOB_FIELD_NAMES.filter((name) => JOB_FIELDS[name].required && name !== 'current_job')).toEqual([
      'title',
      'organization_id',
      'street_address',
      'city',
      'state',
      'zip_code',
      'start_date',
    ]);
    expect(JOB_FIELDS.organization_id.label).toBe(JOB_LABELS.organization);
    expect(JOB_FIELDS.zip_code.label).toBe(JOB_LABELS.zipCode);
  });
});

describe("a record's fields between its two spellings", () => {
  it('reads a message into the services’ names, absent fields null, and writes back leaving nulls out', () => {
    const message = { street_address: '1416 9th Street', city: 'Sacramento', zip_code: '95814', website: '' };
    const values = fieldsByKey(DIVISION_FIELD_NAMES, message as Partial<Record<DivisionFieldName, string>>);
    expect(values).toEqual({
      streetAddress: '1416 9th Street',
      suiteNumber: null,
      city: 'Sacramento',
      state: null,
      zipCode: '95814',
      divisionPhone: null,
      website: '',
    });
    expect(fieldsByName(DIVISION_FIELD_NAMES, values)).toEqual(message);
  });
});
