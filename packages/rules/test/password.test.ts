// Password rules, checked against the product's wording (docs/product.md#5-validation-rules,
// #9-business-constants-and-limits).
import { describe, expect, it } from 'vitest';
import {
  isPasswordValid,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  passwordChecklist,
  passwordError,
  passwordMismatchError,
} from '../src/index.ts';

const metKeys = (password: string) =>
  passwordChecklist(password)
    .filter((r) => r.met)
    .map((r) => r.key);

describe('password rule', () => {
  it('uses the spec messages verbatim', () => {
    expect(PASSWORD_MESSAGES.doesNotMeetCriteria).toBe('Password does not meet criteria.');
    expect(PASSWORD_MESSAGES.doNotMatch).toBe('Passwords do not match');
    expect(PASSWORD_MIN_LENGTH).toBe(10);
  });

  it('accepts exactly 10 characters with every class', () => {
    expect(isPasswordValid('Abcdefg1!x')).toBe(true);
    expect(passwordError('Abcdefg1!x')).toBeNull();
  });

  it('rejects a 9-character password that has every class', () => {
    expect(isPasswordValid('Abcdef1!x')).toBe(false);
    expect(passwordError('Abcdef1!x')).toBe('Password does not meet criteria.');
    expect(metKeys('Abcdef1!x')).toEqual(['uppercase', 'lowercase', 'number', 'symbol']);
  });

  it('rejects when a symbol is missing', () => {
    expect(isPasswordValid('Abcdefgh12')).toBe(false);
    expect(metKeys('Abcdefgh12')).toEqual(['length', 'uppercase', 'lowercase', 'number']);
  });

  it('rejects when uppercase, lowercase or number is missing', () => {
    expect(isPasswordValid('abcdefg1!x')).toBe(false);
    expect(isPasswordValid('ABCDEFG1!X')).toBe(false);
    expect(isPasswordValid('Abcdefgh!x')).toBe(false);
  });

  it('does not count a space as a symbol', () => {
    expect(metKeys('Abcd efg1x')).not.toContain('symbol');
    expect(isPasswordValid('Abcd efg1x')).toBe(false);
    expect(isPasswordValid('Abcd efg1x!')).toBe(true);
  });

  it('treats accented and other-script letters as letters, not symbols', () => {
    // 'É' is uppercase, 'é' and 'ß' lowercase: no symbol here.
    expect(metKeys('Éléphant1ß')).toEqual(['length', 'uppercase', 'lowercase', 'number']);
    // A decomposed 'é' (e + combining acute) is still a letter, not a symbol.
    expect(metKeys('Ele\u0301phant12')).not.toContain('symbol');
    // Greek and Cyrillic case letters satisfy the case rules.
    expect(isPasswordValid('Ωmega-пароль7')).toBe(true);
  });

  it('counts an emoji as one character and as a symbol', () => {
    // 8 ASCII characters + 1 emoji = 9 characters, even though it is 10 UTF-16 units.
    expect(isPasswordValid('Abcdef1x😀')).toBe(false);
    expect(metKeys('Abcdef1x😀')).toEqual(['uppercase', 'lowercase', 'number', 'symbol']);
    expect(isPasswordValid('Abcdefg1x😀')).toBe(true);
  });

  it('lists every rule with a label in display order, all unmet for an empty password', () => {
    expect(passwordChecklist('')).toEqual([
      { key: 'length', label: 'At least 10 characters', met: false },
      { key: 'uppercase', label: 'At least 1 uppercase letter', met: false },
      { key: 'lowercase', label: 'At least 1 lowercase letter', met: false },
      { key: 'number', label: 'At least 1 number', met: false },
      { key: 'symbol', label: 'At least 1 symbol', met: false },
    ]);
  });

  it('reports a mismatch between password and retype', () => {
    expect(passwordMismatchError('Abcdefg1!x', 'Abcdefg1!x')).toBeNull();
    expect(passwordMismatchError('Abcdefg1!x', 'abcdefg1!x')).toBe('Passwords do not match');
    expect(passwordMismatchError('Abcdefg1!x', '')).toBe('Passwords do not match');
  });
});
