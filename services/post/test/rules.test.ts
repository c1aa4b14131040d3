// The post rules as pure functions: the spec's required-fields message (only the missing labels, in the form's
// order, event fields for type 9 only), dates and times, search words, the feed's orders and index documents.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, eventTypeOrder } from '../src/domain/post.ts';
import { feedOrder, searchDocumentOf } from '../src/domain/post-index.ts';
import { checkPost, cleanDate, cleanTime, type PostDraft, searchWords } from '../src/domain/rules.ts';

const PREFIX = 'Please provide entries for the following required fields: ';

const draft = (overrides: Partial<PostDraft> = {}): PostDraft => ({
  title: 'Hearing on broadband',
  bodyText: 'Agenda attached',
  postTypeId: 1,
  eventTypeId: null,
  eventLocation: null,
  eventDate: null,
  eventStart: null,
  eventEnd: null,
  ...overrides,
});

describe('required fields', () => {
  it('lists title, body and type when all are missing', () => {
    expect(() => checkPost(draft({ title: '', bodyText: '', postTypeId: 0 }))).toThrow(
      `${PREFIX}Post Title, Post Body, Type of Post`,
    );
  });

  it('lists only the missing ones', () => {
    expect(() => checkPost(draft({ bodyText: ' ' }))).toThrow(`${PREFIX}Post Body`);
    expect(() => checkPost(draft({ postTypeId: 0 }))).toThrow(`${PREFIX}Type of Post`);
  });

  it('asks events (type 9) for location, date, start and end too', () => {
    expect(() => checkPost(draft({ postTypeId: 9 }))).toThrow(
      `${PREFIX}Event Location, Event Date, Start Time, End Time`,
    );
    expect(() =>
      checkPost(draft({ title: '', postTypeId: 9, eventLocation: 'Room 1200', eventDate: '2026-12-01' })),
    ).toThrow(`${PREFIX}Post Title, Start Time, End Time`);
  });

  it('clears event fields of posts that are not events', () => {
    expect(
      checkPost(
        draft({ eventTypeId: 1, eventLocation: 'Room 1200', eventDate: '2026-12-01', eventStart: '09:00' }),
      ),
    ).toEqual({ eventTypeId: null, eventLocation: null, eventDate: null, eventStart: null, eventEnd: null });
  });

  it('keeps a complete event, times as HH:MM', () => {
    expect(
      checkPost(
        draft({
          postTypeId: 9,
          eventTypeId: 1,
          eventLocation: ' Room 1200 ',
          eventDate: '2026-12-01',
          eventStart: '09:30:00',
          eventEnd: '12:00',
        }),
      ),
    ).toEqual({
      eventTypeId: 1,
      eventLocation: 'Room 1200',
      eventDate: '2026-12-01',
      eventStart: '09:30',
      eventEnd: '12:00',
    });
  });
});

describe('dates and times', () => {
  it('takes real dates only', () => {
    expect(cleanDate('2028-02-29', 'Event Date')).toBe('2028-02-29');
    for (const bad of ['2026-02-30', '2026-13-01', '12/01/2026', '2026-1-1', 'tomorrow'])
      expect(() => cleanDate(bad, 'Event Date')).toThrow('Event Date must be a date (YYYY-MM-DD).');
  });

  it('takes times of day only', () => {
    expect(cleanTime('00:00', 'Start Time')).toBe('00:00');
    expect(cleanTime('23:59:30', 'Start Time')).toBe('23:59');
    for (const bad of ['24:00', '9:30', '12:60', 'noon'])
      expect(() => cleanTime(bad, 'End Time')).toThrow('End Time must be a time (HH:MM).');
  });
});

describe('search and order', () => {
  it('splits on spaces and bounds the words', () => {
    expect(searchWords('  water   Plan ')).toEqual(['water', 'Plan']);
    expect(() => searchWords('a b c d e f g h i j k')).toThrow(/at most 10 words/);
    expect(() => searchWords('x'.repeat(101))).toThrow(/100 characters/);
  });

  it('orders recent by creation, popular by likes then creation, random by the seed', () => {
    expect(feedOrder('recent', 1)).toEqual([{ field: 'created_at', direction: 'desc' }]);
    expect(feedOrder('popular', 1)).toEqual([
      { field: 'likes', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
    ]);
    expect(feedOrder('random', 77)).toEqual([{ random: 77 }]);
  });

  it('indexes title, author names and body text, the type, the author’s issue areas, who may find it and the sort keys', () => {
    const createdAt = new Date('2026-11-20T10:00:00Z');
    expect(
      searchDocumentOf({
        postId: 7,
        title: 'Water plan',
        bodyText: 'Adopted today',
        authorFirstName: 'Maya',
        authorLastName: 'Delgado',
        postTypeId: 2,
        createdAt,
        likesCount: 4,
        authorIssueAreaIds: [3, 11],
        userId: 'member-1',
        moderationState: 'visible',
      }),
    ).toEqual({
      id: '7',
      text: { title: 'Water plan', first_name: 'Maya', last_name: 'Delgado', body: 'Adopted today' },
      keywords: { type: ['2'], issue: ['3', '11'], seen_by: ['everyone'] },
      sort: { created_at: createdAt.getTime(), likes: 4 },
    });
  });

  it('lists event types by name with OTHER last', () => {
    const names = [...EVENT_TYPES].sort(eventTypeOrder).map((type) => type.eventType);
    expect(names.at(-1)).toBe('OTHER');
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort());
  });
});
