// The post form's shared rules (docs/product.md#3-entities-and-their-fields, #5-validation-rules create post,
// #9-business-constants-and-limits): labels, EVENT's id, default times, and an event ending after it starts;
// and how a post's dates, times and names read, the same in mf-feed and the gateway's first screen.
import { describe, expect, it } from 'vitest';
import {
  EVENT_DEFAULT_TIMES,
  EVENT_POST_TYPE_ID,
  eventEndsAfterStart,
  eventTimeRange,
  formatEventDate,
  formatPostedOn,
  fullName,
  POST_LABELS,
  requiredFieldsMessage,
} from '../src/index.ts';

describe('post form rules', () => {
  it('names the fields as the spec’s message does, EVENT as type 9, events from 12:00 to 13:00', () => {
    expect(
      requiredFieldsMessage({ [POST_LABELS.title]: '', [POST_LABELS.body]: '', [POST_LABELS.postType]: '' }),
    ).toBe('Please provide entries for the following required fields: Post Title, Post Body, Type of Post');
    expect(EVENT_POST_TYPE_ID).toBe(9);
    expect(EVENT_DEFAULT_TIMES).toEqual({ start: '12:00', end: '13:00' });
    expect(eventEndsAfterStart(EVENT_DEFAULT_TIMES.start, EVENT_DEFAULT_TIMES.end)).toBe(true);
  });

  it('takes an event that ends after it starts, seconds ignored; refuses one that ends at or before', () => {
    expect(eventEndsAfterStart('09:30', '09:31')).toBe(true);
    expect(eventEndsAfterStart('09:30:00', '17:00:59')).toBe(true);
    expect(eventEndsAfterStart('14:00', '13:00')).toBe(false);
    expect(eventEndsAfterStart('12:00', '12:00:30')).toBe(false);
  });
});

describe('how a post reads', () => {
  it('dates a post by the day in California, whatever the machine’s zone', () => {
    // 05:30 UTC on the 2nd is still the 1st in Sacramento.
    expect(formatPostedOn('2026-12-02T05:30:00.000Z')).toBe('12/1/26');
    expect(formatPostedOn('not a date')).toBe('');
  });

  it('shows an event’s calendar day and wall-clock times as written, in a 12-hour clock', () => {
    expect(formatEventDate('2027-01-02')).toBe('1/2/27');
    expect(formatEventDate('next Tuesday')).toBe('next Tuesday');
    expect(eventTimeRange({ event_start: '08:30:00', event_end: '17:00' })).toBe('8:30 AM – 5:00 PM');
    expect(eventTimeRange({ event_start: '12:00', event_end: null })).toBe('12:00 PM');
    expect(eventTimeRange({ event_start: null, event_end: '17:00' })).toBe('');
  });

  it('names an author by first and last name, or as a member when the profile is unknown', () => {
    expect(fullName({ first_name: 'Hana', last_name: 'Donnelly' })).toBe('Hana Donnelly');
    expect(fullName({ first_name: '', last_name: '' })).toBe('A member');
    expect(fullName(null)).toBe('A member');
  });
});
