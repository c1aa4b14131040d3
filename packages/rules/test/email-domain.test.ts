// The verified-employer rule: which organization domains a contributor may list, which count, and which member
// email domains match them.
import { describe, expect, it } from 'vitest';
import {
  cleanEmailDomains,
  EMAIL_DOMAIN_LIMITS,
  EMAIL_DOMAIN_MESSAGES,
  emailDomainMatches,
  emailDomainOf,
  splitEmailDomains,
  websiteDomain,
} from '../src/index.ts';

describe('emailDomainMatches', () => {
  it('matches the same domain, whatever the case or a leading www.', () => {
    expect(emailDomainMatches('dof.ca.gov', ['dof.ca.gov'])).toBe(true);
    expect(emailDomainMatches('DOF.CA.Gov', ['dof.ca.gov'])).toBe(true);
    expect(emailDomainMatches('dof.ca.gov', ['WWW.Dof.CA.gov'])).toBe(true);
  });

  it('matches a subdomain of a listed domain, a broad parent included', () => {
    expect(emailDomainMatches('sen.ca.gov', ['ca.gov'])).toBe(true);
    expect(emailDomainMatches('district7.sen.ca.gov', ['sen.ca.gov'])).toBe(true);
  });

  it('never matches a parent of a listed domain, a sibling, or a look-alike', () => {
    expect(emailDomainMatches('ca.gov', ['dof.ca.gov'])).toBe(false);
    expect(emailDomainMatches('asm.ca.gov', ['sen.ca.gov'])).toBe(false);
    expect(emailDomainMatches('evildof.ca.gov', ['dof.ca.gov'])).toBe(false);
    expect(emailDomainMatches('dof.ca.gov.example.com', ['dof.ca.gov'])).toBe(false);
  });

  it('never matches public webmail, even when an organization lists it', () => {
    expect(emailDomainMatches('gmail.com', ['gmail.com'])).toBe(false);
    expect(emailDomainMatches('yahoo.com', ['yahoo.com', 'acme.org'])).toBe(false);
    expect(emailDomainMatches('proton.me', ['proton.me'])).toBe(false);
  });

  it('matches nothing without an email domain or without organization domains', () => {
    expect(emailDomainMatches(null, ['dof.ca.gov'])).toBe(false);
    expect(emailDomainMatches('dof.ca.gov', [])).toBe(false);
  });
});

describe('emailDomainOf', () => {
  it('takes the part after the last @, normalized', () => {
    expect(emailDomainOf('Jane.Doe@Sen.CA.gov')).toBe('sen.ca.gov');
    expect(emailDomainOf('"a@b"@www.acme.org')).toBe('acme.org');
  });
  it('answers null for no address or no domain', () => {
    expect(emailDomainOf('')).toBeNull();
    expect(emailDomainOf('jane')).toBeNull();
    expect(emailDomainOf('jane@localhost')).toBeNull();
  });
});

describe('websiteDomain', () => {
  it("answers the website's host without www., or null without a host name", () => {
    expect(websiteDomain('https://WWW.DOF.ca.gov/budget?x=1')).toBe('dof.ca.gov');
    expect(websiteDomain('acme.org')).toBe('acme.org');
    expect(websiteDomain('http://10.0.0.1/')).toBeNull();
    expect(websiteDomain('not a url')).toBeNull();
  });
});

describe('cleanEmailDomains', () => {
  it('stores lower-case host names without www., blank entries and repeats dropped', () => {
    expect(cleanEmailDomains(['Sen.CA.gov', ' www.acme.org ', '', 'sen.ca.gov'])).toEqual({
      domains: ['sen.ca.gov', 'acme.org'],
    });
  });

  it('refuses a scheme, a path, an address, a single label, an IP address and bad labels', () => {
    for (const bad of [
      'https://acme.org',
      'acme.org/people',
      'jane@acme.org',
      'gov',
      '10.0.0.1',
      '-acme.org',
      'ac_me.org',
    ]) {
      expect(cleanEmailDomains([bad])).toEqual({ problem: EMAIL_DOMAIN_MESSAGES.invalid(bad) });
    }
  });

  it('refuses public webmail', () => {
    expect(cleanEmailDomains(['Gmail.com'])).toEqual({ problem: EMAIL_DOMAIN_MESSAGES.webmail('gmail.com') });
  });

  it(`refuses more than ${EMAIL_DOMAIN_LIMITS.count} domains`, () => {
    const many = Array.from({ length: EMAIL_DOMAIN_LIMITS.count + 1 }, (_, i) => `d${i}.example.org`);
    expect(cleanEmailDomains(many)).toEqual({ problem: EMAIL_DOMAIN_MESSAGES.tooMany });
    expect(cleanEmailDomains(many.slice(1))).toEqual({ domains: many.slice(1) });
  });

  it("splits a form's text on lines, commas and spaces", () => {
    expect(splitEmailDomains('a.org, b.org\nc.org  d.org;e.org')).toEqual([
      'a.org',
      'b.org',
      'c.org',
      'd.org',
      'e.org',
    ]);
  });
});
