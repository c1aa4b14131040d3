// Which domains count for the "Verified employer" badge: a website's host only once a contributor confirmed it,
// never a public suffix or a state's umbrella domain; the listed domains unless a public suffix; never webmail.
import { describe, expect, it } from 'vitest';
import {
  emailDomainMatches,
  isPublicSuffix,
  isSharedDomain,
  organizationEmailDomains,
  SHARED_GOVERNMENT_DOMAINS,
} from '../src/index.ts';

describe('isSharedDomain', () => {
  it('refuses a state umbrella, with or without www., but not an agency below it', () => {
    expect(isSharedDomain('ca.gov')).toBe(true);
    expect(isSharedDomain('www.ca.gov')).toBe(true);
    expect(isSharedDomain('CA.GOV.')).toBe(true);
    expect(isSharedDomain('state.ca.us')).toBe(true);
    expect(isSharedDomain('texas.gov')).toBe(true);
    expect(isSharedDomain('oig.ca.gov')).toBe(false);
    expect(isSharedDomain('senate.ca.gov')).toBe(false);
    expect(isSharedDomain('irs.gov')).toBe(false);
    expect(SHARED_GOVERNMENT_DOMAINS.has('ny.gov')).toBe(true);
  });

  it('refuses public suffixes from both sections of the Public Suffix List', () => {
    for (const suffix of ['gov', 'co.uk', 'ca.us', 'github.io', 's3.amazonaws.com'])
      expect(isPublicSuffix(suffix), suffix).toBe(true);
    for (const domain of ['acme.org', 'acme.co.uk', 'someone.github.io'])
      expect(isPublicSuffix(domain), domain).toBe(false);
  });
});

describe('organizationEmailDomains', () => {
  it("counts a confirmed website's host without www. and the listed domains, once each", () => {
    expect(
      organizationEmailDomains({
        confirmedWebsite: 'https://WWW.DOF.ca.gov/budget?x=1',
        listed: ['ebudget.ca.gov', 'dof.ca.gov'],
      }),
    ).toEqual(['dof.ca.gov', 'ebudget.ca.gov']);
    expect(organizationEmailDomains({ confirmedWebsite: 'acme.org', listed: [] })).toEqual(['acme.org']);
  });

  it('counts no website a contributor has not confirmed', () => {
    expect(organizationEmailDomains({ confirmedWebsite: null, listed: [] })).toEqual([]);
    expect(organizationEmailDomains({ confirmedWebsite: undefined, listed: ['sen.ca.gov'] })).toEqual([
      'sen.ca.gov',
    ]);
  });

  it('never counts a website at a shared domain: ca.gov verifies no one, oig.ca.gov its own staff', () => {
    for (const website of ['https://ca.gov', 'https://www.ca.gov/', 'https://github.io', 'http://co.uk'])
      expect(organizationEmailDomains({ confirmedWebsite: website, listed: [] }), website).toEqual([]);
    const oig = organizationEmailDomains({ confirmedWebsite: 'https://www.oig.ca.gov', listed: [] });
    expect(oig).toEqual(['oig.ca.gov']);
    expect(emailDomainMatches('oig.ca.gov', oig)).toBe(true);
    expect(emailDomainMatches('dof.ca.gov', oig)).toBe(false);
  });

  it("keeps a contributor's listed umbrella (their call, recorded) but never a listed public suffix", () => {
    expect(organizationEmailDomains({ confirmedWebsite: null, listed: ['ca.gov', 'co.uk'] })).toEqual([
      'ca.gov',
    ]);
  });

  it('leaves out a website without a host name and webmail', () => {
    expect(organizationEmailDomains({ confirmedWebsite: 'http://10.0.0.1/', listed: ['gmail.com'] })).toEqual(
      [],
    );
  });
});
