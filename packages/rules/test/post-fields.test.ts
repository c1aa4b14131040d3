// The post's and comment's field tables (ADR 0060): the required fields in the Create Post form's order (the
// order the spec's message names them), the event fields asked for events only, the type fixed once posted,
// the names the REST bodies give the type ids, and the limits the refusals state.
import { describe, expect, it } from 'vitest';
import {
  COMMENT_FIELDS,
  EDITABLE_POST_FIELDS,
  EVENT_POST_FIELDS,
  POST_FIELD_NAMES,
  POST_FIELDS,
  postBodyName,
  postFieldKey,
  postRequirements,
  requiredFieldsMessage,
  tooLongMessage,
} from '../src/index.ts';

const blank = {
  title: '',
  body: '',
  postTypeId: null,
  eventLocation: '',
  eventDate: '',
  eventStart: '',
  eventEnd: '',
};

describe('the post field table', () => {
  it('names a post’s missing fields in the form’s order, an event’s four more after them', () => {
    expect(requiredFieldsMessage(postRequirements(blank, false))).toBe(
      'Please provide entries for the following required fields: Post Title, Post Body, Type of Post',
    );
    expect(requiredFieldsMessage(postRequirements(blank, true))).toBe(
      'Please provide entries for the following required fields: Post Title, Post Body, Type of Post, ' +
        'Event Location, Event Date, Start Time, End Time',
    );
    expect(
      requiredFieldsMessage(postRequirements({ ...blank, title: 'Hearing', eventDate: '2026-01-15' }, true)),
    ).toBe(
      'Please provide entries for the following required fields: Post Body, Type of Post, Event Location, ' +
        'Start Time, End Time',
    );
  });

  it('leaves out what the values do not hold (an edit has no type), and the optional event type', () => {
    const { postTypeId: _, ...edit } = blank;
    expect(Object.keys(postRequirements(edit, true))).toEqual([
      'Post Title',
      'Post Body',
      'Event Location',
      'Event Date',
      'Start Time',
      'End Time',
    ]);
    expect(Object.keys(postRequirements({ ...blank, eventTypeId: null }, true))).not.toContain('Event Type');
  });

  it('keeps the type as posted, the event fields for events, and the as-built client’s body names', () => {
    expect(POST_FIELD_NAMES.filter((name) => !(EDITABLE_POST_FIELDS as string[]).includes(name))).toEqual([
      'posttype_id',
    ]);
    expect(EVENT_POST_FIELDS).toEqual([
      'event_location',
      'event_date',
      'eventtype_id',
      'event_start',
      'event_end',
    ]);
    expect(postBodyName('posttype_id')).toBe('post_type');
    expect(postBodyName('eventtype_id')).toBe('event_type');
    expect(postBodyName('post_title')).toBe('post_title');
    expect(postFieldKey('post_title')).toBe('title');
    expect(postFieldKey('event_location')).toBe('eventLocation');
  });

  it('states the limits the service refuses past', () => {
    expect(tooLongMessage(POST_FIELDS.post_title.label, POST_FIELDS.post_title.limit)).toBe(
      'Post Title must be at most 200 characters.',
    );
    expect(POST_FIELDS.event_location.limit).toBe(200);
    expect(POST_FIELDS.post_body.limit).toBe(50_000);
    expect(tooLongMessage(COMMENT_FIELDS.comment_body.label, COMMENT_FIELDS.comment_body.limit)).toBe(
      'Comment must be at most 5000 characters.',
    );
  });
});
