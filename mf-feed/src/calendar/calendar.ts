// 'Add to calendar' for event posts: an iCalendar (RFC 5545) file built with the `ics` package. The event's
// date and times are California wall-clock times, written as UTC instants so every calendar app places them
// right. `ics` (and its validator) is loaded only when someone reaches for an event's link (CalendarLink).
import type { Post } from '../api';
import { bodyText } from '../content/rich-text';

export const EVENT_TIME_ZONE = 'America/Los_Angeles';

const WALL_CLOCK = new Intl.DateTimeFormat('en-US', {
  timeZone: EVENT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** How far Los Angeles' wall clock is ahead of UTC at `instant`, in ms (negative: it is behind). */
function offsetAt(instant: number): number {
  const parts = Object.fromEntries(WALL_CLOCK.formatToParts(instant).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant (ms since the epoch) of a date 'YYYY-MM-DD' and time 'HH:MM' in Los Angeles; null if invalid. */
export function pacificInstant(date: string, time: string): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})/.exec(time);
  if (!d || !t) return null;
  const asUtc = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(asUtc)) return null;
  // The offset at the guess, then at the result: right on both sides of a daylight saving change.
  const first = asUtc - offsetAt(asUtc);
  return asUtc - offsetAt(first);
}

const HOUR = 60 * 60 * 1000;

/** What a calendar entry is made of. */
export type CalendarEvent = Pick<
  Post,
  'post_id' | 'post_title' | 'post_body' | 'event_location' | 'event_date' | 'event_start' | 'event_end'
>;

/** Whether the post has a calendar entry: a valid date and start time. */
export function hasCalendarEntry(post: Pick<CalendarEvent, 'event_date' | 'event_start'>): boolean {
  return Boolean(
    post.event_date && post.event_start && pacificInstant(post.event_date, post.event_start) !== null,
  );
}

/** The .ics file's text for an event post, with a link back to the post's own address; null without date/time. */
export async function eventCalendarFile(post: CalendarEvent, link: string): Promise<string | null> {
  if (!post.event_date || !post.event_start) return null;
  const start = pacificInstant(post.event_date, post.event_start);
  if (start === null) return null;
  const end = post.event_end ? pacificInstant(post.event_date, post.event_end) : null;
  const { createEvent } = await import(/* webpackChunkName: "ics" */ 'ics');
  const description = bodyText(post.post_body);
  const { error, value } = createEvent({
    productId: 'rotunda/public-square',
    uid: `post-${post.post_id}@rotunda`,
    title: post.post_title,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    // An end before the start (or none) would make an invalid entry: an hour long instead.
    end: end !== null && end > start ? end : start + HOUR,
    endInputType: 'utc',
    endOutputType: 'utc',
    ...(post.event_location && { location: post.event_location }),
    description: description ? `${description}\n\n${link}` : link,
    url: link,
  });
  if (error || !value) throw error ?? new Error('The calendar entry could not be built');
  return value;
}

/** A file name from the title: 'Budget Workshop!' gives 'budget-workshop.ics'. */
export function calendarFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'event'}.ics`;
}
