// The claim rule: confirmed at once only for the profile's own work email, in any case and spacing, when that
// email has been the profile's for 30 days or more and the claimant is not a contributor.
import { describe, expect, it } from 'vitest';
import { claimConfirmsAtOnce, WORK_EMAIL_SETTLING_DAYS } from '../src/index.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);

describe('claimConfirmsAtOnce', () => {
  it('confirms a claim by the owner of the work email, whatever its case or surrounding spaces', () => {
    expect(claimConfirmsAtOnce('Ada.Lovelace@Senate.CA.gov ', 'ada.lovelace@senate.ca.gov')).toBe(true);
  });

  it('leaves any other claim for a contributor, an empty email included', () => {
    expect(claimConfirmsAtOnce('ada@gmail.com', 'ada.lovelace@senate.ca.gov')).toBe(false);
    expect(claimConfirmsAtOnce('', '')).toBe(false);
    expect(claimConfirmsAtOnce('  ', ' ')).toBe(false);
  });

  it('waits while the work email was changed in the last 30 days, and confirms once it has settled', () => {
    const claim = (changedAt: Date | null) =>
      claimConfirmsAtOnce('ada@senate.ca.gov', 'ada@senate.ca.gov', {
        workEmailChangedAt: changedAt,
        now: NOW,
      });
    expect(WORK_EMAIL_SETTLING_DAYS).toBe(30);
    expect(claim(daysAgo(0))).toBe(false);
    expect(claim(daysAgo(29.9))).toBe(false);
    expect(claim(daysAgo(30))).toBe(true);
    expect(claim(null)).toBe(true);
  });

  it("always leaves a contributor's own claim for another contributor", () => {
    expect(
      claimConfirmsAtOnce('desk@senate.ca.gov', 'desk@senate.ca.gov', { claimantIsContributor: true }),
    ).toBe(false);
  });
});
