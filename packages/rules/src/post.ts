// The public square's post form rules (docs/product.md#3-entities-and-their-fields, #5-validation-rules
// create post, #9-business-constants-and-limits): the field names the required-fields message uses, the EVENT
// type's id, an event's default times, and that an event ends after it starts (spec silent; a calendar entry
// that ends before it begins is a typo a member wants caught); how many comments travel with a post and per
// page of the earlier ones; and how a post's dates, times and names read, wherever it is drawn (mf-feed, and
// the gateway's first screen, which must read the same).

/** docs/product.md#3-entities-and-their-fields: the post type EVENT has id 9. */
export const EVENT_POST_TYPE_ID = 9;

/**
 * The spec's field names in the required-fields message, in the form's order
 * (docs/product.md#5-validation-rules create post).
 */
export const POST_LABELS = {
  title: 'Post Title',
  body: 'Post Body',
  postType: 'Type of Post',
  eventLocation: 'Event Location',
  eventDate: 'Event Date',
  eventStart: 'Start Time',
  eventEnd: 'End Time',
} as const;

/** docs/product.md#9-business-constants-and-limits: an event's times before the member changes them. */
export const EVENT_DEFAULT_TIMES = { start: '12:00', end: '13:00' } as const;

export const EVENT_TIMES_MESSAGE = 'End Time must be after Start Time.';

/** Times of day as HH:MM (seconds ignored): does the event end after it starts, on its one day? */
export function eventEndsAfterStart(start: string, end: string): boolean {
  return end.slice(0, 5) > start.slice(0, 5);
}

/**
 * Comments on the feed and in the read modal: a feed page carries each post's latest few (with the count of all),
 * so its size never grows with the comments; the read modal asks for the earlier ones a page at a time.
 */
export const POST_COMMENTS = {
  /** The latest comments each post of a feed page carries. */
  latest: 3,
  /** Comments per page of the earlier ones: the default and the most one call may ask for. */
  page: { default: 20, max: 50 },
} as const;

/** The product's own time zone: a post's date is the day it was posted in California. */
const TIME_ZONE = 'America/Los_Angeles';

const POSTED_ON = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone: TIME_ZONE });
// Calendar dates and wall-clock times carry no zone: formatted as UTC so nothing shifts them.
const CALENDAR_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone: 'UTC' });
const CLOCK_TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });

/** An instant (ISO 8601) as its date in California, e.g. '1/15/26'; '' when it does not parse. */
export function formatPostedOn(instant: string): string {
  const time = Date.parse(instant);
  return Number.isNaN(time) ? '' : POSTED_ON.format(time);
}

/** A calendar date 'YYYY-MM-DD' as '1/15/26'; the text as given when it is not such a date. */
export function formatEventDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  return CALENDAR_DATE.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** A time 'HH:MM' (seconds ignored) as '1:30 PM'; the text as given when it is not such a time. */
export function formatEventTime(time: string): string {
  const match = /^(\d{2}):(\d{2})/.exec(time);
  if (!match) return time;
  return CLOCK_TIME.format(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2])));
}

/** An event's times, '5:30 PM – 7:00 PM' (or its start alone); '' without a start. */
export function eventTimeRange(post: { event_start?: string | null; event_end?: string | null }): string {
  if (!post.event_start) return '';
  const start = formatEventTime(post.event_start);
  return post.event_end ? `${start} – ${formatEventTime(post.event_end)}` : start;
}

/** 'First Last', or a neutral word when the author's profile is not known. */
export function fullName(person: { first_name: string; last_name: string } | null | undefined): string {
  const name = person ? `${person.first_name} ${person.last_name}`.trim() : '';
  return name || 'A member';
}
