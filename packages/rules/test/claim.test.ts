// The claim rule: confirmed at once only for the profile's own work email, in any case and spacing.
import { describe, expect, it } from 'vitest';
import { claimConfirmsAtOnce } from '../src/index.ts';

describe('claimConfirmsAtOnce', () => {
  it('confirms a claim by the owner of the work email, whatever its case or surrounding spaces', () => {
    expect(claimConfirmsAtOnce('Ada.Lovelace@Senate.CA.gov ', 'ada.lovelace@senate.ca.gov')).toBe(true);
  });

  it('leaves any other claim for a contributor, an empty email included', () => {
    expect(claimConfirmsAtOnce('ada@gmail.com', 'ada.lovelace@senate.ca.gov')).toBe(false);
    expect(claimConfirmsAtOnce('', '')).toBe(false);
    expect(claimConfirmsAtOnce('  ', ' ')).toBe(false);
  });
});
