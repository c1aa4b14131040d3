// The post form's shared rules (docs/product.md#3-entities-and-their-fields, #5-validation-rules create post,
// #9-business-constants-and-limits): labels, EVENT's id, default times, and an event ending after it starts.
import { describe, expect, it } from 'vitest';
import {
  EVENT_DEFAULT_TIMES,
  EVENT_POST_TYPE_ID,
  eventEndsAfterStart,
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
