// Organization and division names must be names: letters, not a number or symbols alone, refused with the
// same words in the browser and on the server.
import { describe, expect, it } from 'vitest';
import { isName, NAME_LABELS, nameProblem, notANameMessage } from '../src/index.ts';

describe('organization and division names', () => {
  it('accepts names with letters of any script, with digits and punctuation beside them', () => {
    for (const name of [
      '3M',
      'Añil 21',
      'AT&T',
      'Ωmega Partners',
      '加州商会',
      'SEIU Local 1000',
      'a',
      'Infinity Insurance',
      '1st District Office',
      '7-Eleven',
    ])
      expect(isName(name), name).toBe(true);
  });

  it('refuses numbers in any notation, punctuation and symbols alone', () => {
    for (const name of [
      '0',
      '1e+308',
      ' 1E-7 ',
      '-2.5e10',
      '0x1F',
      '0b101',
      '12 345',
      '1,000.00',
      '----',
      '$$$',
      '…',
      '🙂',
    ])
      expect(isName(name), name).toBe(false);
  });

  it('words the refusal with the field label; blank is left to the required-fields message', () => {
    expect(nameProblem(NAME_LABELS.organization, '1e+308')).toBe(
      'Organization Name must contain letters, not only numbers or symbols.',
    );
    expect(nameProblem(NAME_LABELS.division, '----')).toBe(
      'Division Name must contain letters, not only numbers or symbols.',
    );
    expect(notANameMessage('Name')).toBe('Name must contain letters, not only numbers or symbols.');
    for (const blank of ['', '   ', null, undefined]) expect(nameProblem('Name', blank)).toBeNull();
    expect(nameProblem(NAME_LABELS.organization, 'Harbor Lights 2')).toBeNull();
  });
});
