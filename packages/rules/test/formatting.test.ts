// Title case, state upper-casing and phone format (docs/product.md#5-validation-rules "Organization form",
// "Other formatting", #9-business-constants-and-limits).
import { describe, expect, it } from 'vitest';
import { formatPhone, formatState, titleCase } from '../src/index.ts';

describe('titleCase', () => {
  it('capitalises words and keeps of/and/the lowercase except as the first word', () => {
    expect(titleCase('the city of the angels')).toBe('The City of the Angels');
    expect(titleCase('department of fish and wildlife')).toBe('Department of Fish and Wildlife');
    expect(titleCase('1021 o street')).toBe('1021 O Street');
  });

  it('lowercases small words typed in capitals, and capitalises a first small word', () => {
    expect(titleCase('THE CITY OF THE ANGELS')).toBe('The CITY of the ANGELS');
    expect(titleCase('and then')).toBe('And Then');
    expect(titleCase('of')).toBe('Of');
  });

  it('only matches whole small words', () => {
    expect(titleCase('theater andover office')).toBe('Theater Andover Office');
  });

  it('keeps the rest of each word as typed, so acronyms and Mc names survive', () => {
    expect(titleCase('suite 200 PO box')).toBe('Suite 200 PO Box');
    expect(titleCase('mcKinley blvd NW')).toBe('McKinley Blvd NW');
  });

  it('keeps whitespace exactly, including a trailing space while typing', () => {
    expect(titleCase('main ')).toBe('Main ');
    expect(titleCase('  the  plaza')).toBe('  The  Plaza');
    expect(titleCase('')).toBe('');
  });

  it('handles non-ASCII first letters', () => {
    expect(titleCase('élan avenue')).toBe('Élan Avenue');
    expect(titleCase('ñandú way')).toBe('Ñandú Way');
  });
});

describe('formatState', () => {
  it('upper-cases as typed', () => {
    expect(formatState('ca')).toBe('CA');
    expect(formatState('Ca')).toBe('CA');
    expect(formatState('c')).toBe('C');
    expect(formatState('')).toBe('');
  });
});

describe('formatPhone', () => {
  it('formats exactly 10 digits as (xxx) xxx-xxxx', () => {
    expect(formatPhone('9165551234')).toBe('(916) 555-1234');
    expect(formatPhone('916.555.1234')).toBe('(916) 555-1234');
    expect(formatPhone('916-555-1234')).toBe('(916) 555-1234');
    expect(formatPhone('(916) 555-1234')).toBe('(916) 555-1234');
  });

  it('leaves anything other than 10 digits unchanged', () => {
    expect(formatPhone('19165551234')).toBe('19165551234');
    expect(formatPhone('1 (916) 555-1234')).toBe('1 (916) 555-1234');
    expect(formatPhone('916555123')).toBe('916555123');
    expect(formatPhone('916-555')).toBe('916-555');
    expect(formatPhone('')).toBe('');
    expect(formatPhone('call me')).toBe('call me');
  });
});
