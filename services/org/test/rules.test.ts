// The organization form's server-side rules as pure functions: formatting, web addresses, required fields,
// search words, search documents and logo initials.
import { DomainError } from '@rotunda/service-kit';
import { describe, expect, it } from 'vitest';
import type { Organization } from '../src/domain/organization.ts';
import { searchDocumentOf } from '../src/domain/organization-search.ts';
import {
  cleanDivisionFields,
  cleanOrganizationFields,
  cleanText,
  cleanUrl,
  requireNameAndAddress,
  searchWords,
} from '../src/domain/rules.ts';
import { initialsOf } from '../src/seed/logo.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return { kind: (error as DomainError).kind, message: (error as DomainError).message };
  }
  throw new Error('expected a refusal');
};

describe('organization fields', () => {
  it('title-cases address, suite and city, upper-cases the state and formats a 10-digit phone', () => {
    expect(
      cleanOrganizationFields({
        streetAddress: '  1020 n street of the capitol ',
        suiteNumber: 'suite 200',
        city: 'west sacramento',
        state: 'ca',
        zipCode: ' 95814 ',
        mainPhone: '916.555.0142',
      }),
    ).toEqual({
      streetAddress: '1020 N Street of the Capitol',
      suiteNumber: 'Suite 200',
      city: 'West Sacramento',
      state: 'CA',
      zipCode: '95814',
      mainPhone: '(916) 555-0142',
    });
  });

  it('leaves out fields not sent and turns blank ones into null (cleared)', () => {
    expect(cleanOrganizationFields({ city: '   ', website: '' })).toEqual({ city: null, website: null });
    expect(cleanOrganizationFields({})).toEqual({});
  });

  it('keeps a phone that is not exactly 10 digits as typed', () => {
    expect(cleanOrganizationFields({ mainPhone: '+1 916 555 0142 x12' })).toEqual({
      mainPhone: '+1 916 555 0142 x12',
    });
  });

  it('refuses text longer than its limit, naming the field', () => {
    expect(refusal(() => cleanText('x'.repeat(201), 'Organization Name', 200))).toEqual({
      kind: 'invalid_argument',
      message: 'Organization Name must be at most 200 characters.',
    });
  });

  it('formats division fields the same way, null when not given', () => {
    expect(cleanDivisionFields({ city: 'elk grove', state: 'ca', divisionPhone: '9165550100' })).toEqual({
      streetAddress: null,
      suiteNumber: null,
      city: 'Elk Grove',
      state: 'CA',
      zipCode: null,
      divisionPhone: '(916) 555-0100',
      website: null,
    });
  });
});

describe('web addresses', () => {
  it('accepts http and https links and adds https:// to a bare host', () => {
    expect(cleanUrl('https://example.org/a?b=1', 'Website')).toBe('https://example.org/a?b=1');
    expect(cleanUrl('http://example.org', 'Website')).toBe('http://example.org');
    expect(cleanUrl('www.example.org/about', 'Website')).toBe('https://www.example.org/about');
    expect(cleanUrl('', 'Website')).toBeNull();
    expect(cleanUrl(undefined, 'Website')).toBeUndefined();
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://example.org/file',
    'file:///etc/passwd',
    'not a link',
    'https://',
    'https://exa mple.org',
  ])('refuses %s', (value) => {
    expect(refusal(() => cleanUrl(value, 'LinkedIn'))).toEqual({
      kind: 'invalid_argument',
      message: 'LinkedIn must be a web address starting with http:// or https://.',
    });
  });

  it('applies to every social link of an organization', () => {
    expect(refusal(() => cleanOrganizationFields({ blueskyUrl: 'javascript:void(0)' })).message).toBe(
      'Bluesky must be a web address starting with http:// or https://.',
    );
  });
});

describe('required fields and search words', () => {
  it("lists the missing required fields in the spec's message", () => {
    expect(refusal(() => requireNameAndAddress(' ', null)).message).toBe(
      'Please provide entries for the following required fields: Organization Name, Street Address',
    );
    expect(refusal(() => requireNameAndAddress('Delta Policy Lab', '')).message).toBe(
      'Please provide entries for the following required fields: Street Address',
    );
    expect(() => requireNameAndAddress('Delta Policy Lab', '1 Shields Avenue')).not.toThrow();
  });

  it('splits on spaces, drops blanks, bounds words', () => {
    expect(searchWords('  capitol   bridge ')).toEqual(['capitol', 'bridge']);
    expect(searchWords('')).toEqual([]);
    expect(refusal(() => searchWords('a b c d e f g h i j k')).kind).toBe('invalid_argument');
    expect(refusal(() => searchWords('x'.repeat(101))).kind).toBe('invalid_argument');
  });
});

describe('search documents and logos', () => {
  it('indexes the name as text, group and hidden as keywords, the lower-cased name for sorting, and stores the whole organization', () => {
    const organization = {
      organizationId: 7,
      organizationName: 'Golden State Nurses Union',
      groupName: 'Unions',
      hidden: false,
      mainPhone: '(916) 555-0100',
    } as Organization;
    const { stored, ...document } = searchDocumentOf(organization);
    expect(document).toEqual({
      id: '7',
      text: { name: 'Golden State Nurses Union' },
      keywords: { group: ['Unions'], hidden: ['false'] },
      sort: { name: 'golden state nurses union' },
    });
    // Versioned, so a copy stored in an older shape is read from the table instead.
    expect(JSON.parse(stored as string)).toEqual([1, organization]);
  });

  it('makes logo initials from the significant words', () => {
    expect(initialsOf('Office of the Governor')).toBe('OG');
    expect(initialsOf('Ridgeway & Sato Government Relations')).toBe('RS');
    expect(initialsOf('Rotunda')).toBe('R');
    expect(initialsOf('   ')).toBe('?');
  });
});
