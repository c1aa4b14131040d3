// Form text as the services store it: trimmed, blank as cleared, lengths bounded, http(s) links only, search
// words bounded; calendar dates; the social networks' labels; the job form's end-date rule.
import { describe, expect, it } from 'vitest';
import {
  hasEndOrIsCurrent,
  isCalendarDate,
  SOCIAL_URL_FIELDS,
  SOCIAL_URL_LABELS,
  singleSpaced,
  textFieldRules,
} from '../src/index.ts';

class Refused extends Error {}
const { cleanText, cleanUrl, searchWords } = textFieldRules((message) => new Refused(message));

describe('cleanText', () => {
  it('trims; blank is cleared (null) and absent stays absent', () => {
    expect(cleanText('  Capitol Mall ', 'Street Address')).toBe('Capitol Mall');
    expect(cleanText('   ', 'Street Address')).toBeNull();
    expect(cleanText(null, 'Street Address')).toBeNull();
    expect(cleanText(undefined, 'Street Address')).toBeUndefined();
  });

  it('refuses text longer than its limit (256 unless told), naming the field, with the caller’s error', () => {
    expect(cleanText('x'.repeat(256), 'City')).toHaveLength(256);
    expect(() => cleanText('x'.repeat(257), 'City')).toThrow(
      new Refused('City must be at most 256 characters.'),
    );
    expect(() => cleanText('x'.repeat(201), 'Organization Name', 200)).toThrow(Refused);
  });
});

describe('cleanUrl', () => {
  it('keeps http(s) links and adds https:// to a bare host', () => {
    expect(cleanUrl('https://example.org/a?b=1', 'Website')).toBe('https://example.org/a?b=1');
    expect(cleanUrl('www.example.org/about', 'Website')).toBe('https://www.example.org/about');
    expect(cleanUrl(' ', 'Website')).toBeNull();
    expect(cleanUrl(undefined, 'Website')).toBeUndefined();
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://example.org',
    'not a link',
    'https://exa mple.org',
  ])('refuses %s in the rule’s words', (value) => {
    expect(() => cleanUrl(value, 'LinkedIn')).toThrow(
      new Refused('LinkedIn must be a web address starting with http:// or https://.'),
    );
  });

  it('refuses a link longer than 2048 characters', () => {
    expect(() => cleanUrl(`https://example.org/${'a'.repeat(2030)}`, 'Website')).toThrow(
      'Website must be at most 2048 characters.',
    );
  });
});

describe('search text', () => {
  it('splits on spaces, at most 10 words of at most 100 characters', () => {
    expect(searchWords('  capitol   bridge ')).toEqual(['capitol', 'bridge']);
    expect(searchWords('')).toEqual([]);
    expect(() => searchWords('a b c d e f g h i j k')).toThrow(new Refused('Search with at most 10 words.'));
    expect(() => searchWords('x'.repeat(101))).toThrow(
      new Refused('Search words must be at most 100 characters.'),
    );
  });

  it('single-spaces a search as it is compared', () => {
    expect(singleSpaced('  water \t  plan\n')).toBe('water plan');
  });
});

describe('isCalendarDate', () => {
  it('takes YYYY-MM-DD dates that exist', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', 'today', ''])
      expect(isCalendarDate(bad)).toBe(false);
  });
});

describe('social networks', () => {
  it('lists the eight networks in the spec’s order with the names people use', () => {
    expect(SOCIAL_URL_FIELDS).toEqual([
      'linkedinUrl',
      'facebookUrl',
      'youtubeUrl',
      'threadsUrl',
      'twitterUrl',
      'instagramUrl',
      'tiktokUrl',
      'blueskyUrl',
    ]);
    expect(SOCIAL_URL_LABELS.twitterUrl).toBe('Twitter/X');
    expect(SOCIAL_URL_LABELS.youtubeUrl).toBe('YouTube');
  });
});

describe('hasEndOrIsCurrent', () => {
  it('asks a job for an end date unless it is current', () => {
    expect(hasEndOrIsCurrent({ currentJob: true, endDate: null })).toBe(true);
    expect(hasEndOrIsCurrent({ currentJob: false, endDate: '2024-01-01' })).toBe(true);
    expect(hasEndOrIsCurrent({ currentJob: false, endDate: ' ' })).toBe(false);
    expect(hasEndOrIsCurrent({ currentJob: false, endDate: undefined })).toBe(false);
  });
});
