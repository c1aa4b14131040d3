// The organization's and the division's field tables: the street address the edit form requires, the Cal-Access
// ID only contributors give, the eight social links of SOCIAL_FIELDS, the labels refusals and the curation
// history show, and the services' spelling of each name.
import { describe, expect, it } from 'vitest';
import {
  DIVISION_FIELD_NAMES,
  DIVISION_FIELDS,
  ORGANIZATION_FIELD_LABELS,
  ORGANIZATION_FIELD_NAMES,
  ORGANIZATION_FIELDS,
  organizationFieldKey,
  SOCIAL_FIELDS,
} from '../src/index.ts';

describe('the organization field table', () => {
  it('has the edit form require only the street address, and the Cal-Access ID given by contributors only', () => {
    expect(ORGANIZATION_FIELD_NAMES.filter((name) => ORGANIZATION_FIELDS[name].required)).toEqual([
      'street_address',
    ]);
    expect(
      ORGANIZATION_FIELD_NAMES.filter((name) => ORGANIZATION_FIELDS[name].editor === 'contributor'),
    ).toEqual(['lobby_filer_id']);
  });

  it('has the eight social links of SOCIAL_FIELDS, labelled as the networks are known', () => {
    for (const { field, label } of SOCIAL_FIELDS) {
      expect(ORGANIZATION_FIELDS[field]).toMatchObject({ kind: 'url', label });
    }
    expect(ORGANIZATION_FIELD_NAMES.filter((name) => ORGANIZATION_FIELDS[name].kind === 'url')).toHaveLength(
      9,
    );
  });

  it('bounds the state, the ZIP code, the phone and the filer id as the forms do', () => {
    expect(ORGANIZATION_FIELDS.state.limit).toBe(32);
    expect(ORGANIZATION_FIELDS.zip_code.limit).toBe(16);
    expect(ORGANIZATION_FIELDS.main_phone.limit).toBe(64);
    expect(ORGANIZATION_FIELDS.lobby_filer_id.limit).toBe(32);
  });

  it('answers each name by the services’ spelling too', () => {
    expect(organizationFieldKey('main_phone')).toBe('mainPhone');
    expect(organizationFieldKey('lobby_filer_id')).toBe('lobbyFilerId');
    expect(organizationFieldKey('division_phone')).toBe('divisionPhone');
  });
});

describe('the division field table', () => {
  it('holds the address, its phone and its website, formatted and labelled as an organization’s', () => {
    expect(DIVISION_FIELD_NAMES).toEqual([
      'street_address',
      'suite_number',
      'city',
      'state',
      'zip_code',
      'division_phone',
      'website',
    ]);
    expect(DIVISION_FIELDS.city).toEqual(ORGANIZATION_FIELDS.city);
    expect(DIVISION_FIELDS.division_phone).toEqual(ORGANIZATION_FIELDS.main_phone);
    expect(DIVISION_FIELD_NAMES.some((name) => DIVISION_FIELDS[name].required)).toBe(false);
  });
});

describe('the history labels', () => {
  it('name an organization’s and its divisions’ fields as refusals do', () => {
    expect(ORGANIZATION_FIELD_LABELS).toMatchObject({
      street_address: 'Street Address',
      suite_number: 'Suite',
      zip_code: 'Zip Code',
      main_phone: 'Phone',
      division_phone: 'Phone',
      lobby_filer_id: 'Cal-Access ID',
      twitter_url: 'Twitter/X',
    });
  });
});
