// Registration eligibility (docs/product.md#5-validation-rules): beta email, approved work email, .ca.gov,
// approved domain.
import { describe, expect, it } from 'vitest';
import { type EligibilityLists, emailDomain, isCaGovDomain, isEmailEligible } from '../src/index.ts';

const none: EligibilityLists = { betaEmails: [], approvedEmails: [], approvedDomains: [] };
const lists: EligibilityLists = {
  betaEmails: ['Tester@Gmail.com'],
  approvedEmails: ['Jane.Doe@Lobby-Firm.com'],
  approvedDomains: ['association.org', '@union.org'],
};

describe('email eligibility', () => {
  it('accepts a beta email, ignoring case and surrounding spaces', () => {
    expect(isEmailEligible('tester@gmail.com', lists)).toBe(true);
    expect(isEmailEligible('  TESTER@GMAIL.COM ', lists)).toBe(true);
    expect(isEmailEligible('other@gmail.com', lists)).toBe(false);
  });

  it('accepts an approved work email case-insensitively, but not its whole domain', () => {
    expect(isEmailEligible('jane.doe@lobby-firm.com', lists)).toBe(true);
    expect(isEmailEligible('JANE.DOE@LOBBY-FIRM.COM', lists)).toBe(true);
    expect(isEmailEligible('john.doe@lobby-firm.com', lists)).toBe(false);
  });

  it('accepts ca.gov and any subdomain of it, in any case', () => {
    expect(isEmailEligible('x@dof.ca.gov', none)).toBe(true);
    expect(isEmailEligible('x@ca.gov', none)).toBe(true);
    expect(isEmailEligible('X@Asm.CA.Gov', none)).toBe(true);
    expect(isEmailEligible('x@a.b.ca.gov', none)).toBe(true);
  });

  it('rejects look-alikes of ca.gov', () => {
    expect(isEmailEligible('x@notca.gov.evil.com', none)).toBe(false);
    expect(isEmailEligible('x@notca.gov', none)).toBe(false);
    expect(isEmailEligible('x@ca.gov.evil.com', none)).toBe(false);
    expect(isEmailEligible('x@ca-gov.com', none)).toBe(false);
    expect(isEmailEligible('ca.gov@gmail.com', none)).toBe(false);
    expect(isEmailEligible('x@dof.ca.gov@gmail.com', none)).toBe(false);
  });

  it('rejects malformed addresses under the domain rules', () => {
    expect(isEmailEligible('@ca.gov', none)).toBe(false);
    expect(isEmailEligible('x@.ca.gov', none)).toBe(false);
    expect(isEmailEligible('x@ca.gov.', none)).toBe(false);
    expect(isEmailEligible('x y@ca.gov', none)).toBe(false);
    expect(isEmailEligible('', none)).toBe(false);
    expect(isEmailEligible('   ', none)).toBe(false);
  });

  it('accepts an approved domain exactly, case-insensitively, not its subdomains or look-alikes', () => {
    expect(isEmailEligible('a@association.org', lists)).toBe(true);
    expect(isEmailEligible('a@ASSOCIATION.ORG', lists)).toBe(true);
    expect(isEmailEligible('a@union.org', lists)).toBe(true);
    expect(isEmailEligible('a@sub.association.org', lists)).toBe(false);
    expect(isEmailEligible('a@myassociation.org', lists)).toBe(false);
    expect(isEmailEligible('a@association.org.evil.com', lists)).toBe(false);
  });

  it('rejects everything else when the lists are empty', () => {
    expect(isEmailEligible('someone@gmail.com', none)).toBe(false);
  });

  it('exposes the domain and ca.gov helpers', () => {
    expect(emailDomain(' X@DOF.CA.GOV ')).toBe('dof.ca.gov');
    expect(emailDomain('no-at-sign')).toBeNull();
    expect(emailDomain('a@b@c.com')).toBeNull();
    expect(isCaGovDomain('CA.GOV')).toBe(true);
    expect(isCaGovDomain('xca.gov')).toBe(false);
  });
});
