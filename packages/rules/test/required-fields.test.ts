// The required-fields message (docs/product.md#5-validation-rules: create profile step 1, create job step,
// create post).
import { describe, expect, it } from 'vitest';
import {
  isMissing,
  missingFields,
  REQUIRED_FIELDS_MESSAGE_PREFIX,
  requiredFieldsMessage,
} from '../src/index.ts';

describe('requiredFieldsMessage', () => {
  it('lists every missing profile label in form order with the spec prefix', () => {
    expect(
      requiredFieldsMessage({
        'Profile Picture': null,
        'First Name': '',
        'Last Name': undefined,
        'Work Email': '   ',
        'Office Phone': '',
      }),
    ).toBe(
      'Please provide entries for the following required fields: Profile Picture, First Name, Last Name, Work Email, Office Phone',
    );
  });

  it('lists only the missing labels', () => {
    expect(
      requiredFieldsMessage({
        'Post Title': 'Hearing',
        'Post Body': '',
        'Type of Post': '3',
      }),
    ).toBe('Please provide entries for the following required fields: Post Body');
  });

  it('returns null when everything is entered', () => {
    expect(requiredFieldsMessage({ 'First Name': 'Ana', 'Last Name': 'Ruiz' })).toBeNull();
    expect(requiredFieldsMessage({})).toBeNull();
  });

  it('treats null, undefined and blank strings as missing; 0, false and objects as entered', () => {
    expect([null, undefined, '', ' \t'].map(isMissing)).toEqual([true, true, true, true]);
    expect([0, false, 'x', {}].map(isMissing)).toEqual([false, false, false, false]);
    expect(missingFields({ a: 0, b: null })).toEqual(['b']);
  });

  it('exports the prefix verbatim', () => {
    expect(REQUIRED_FIELDS_MESSAGE_PREFIX).toBe('Please provide entries for the following required fields: ');
  });
});
