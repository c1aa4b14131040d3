// How dates, times and names read in the public square: dates in en-US short format
// (docs/product.md#9-business-constants-and-limits), event times as 12-hour clock times, authors as first and
// last name.

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

/** 'First Last', or a neutral word when the author's profile is not known. */
export function fullName(person: { first_name: string; last_name: string } | null): string {
  const name = person ? `${person.first_name} ${person.last_name}`.trim() : '';
  return name || 'A member';
}
