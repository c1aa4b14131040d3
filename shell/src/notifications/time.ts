// When a notification happened, in words: 'just now', '5 minutes ago', 'yesterday', then the date; and the full
// date and time for its title.

const RELATIVE = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const FULL_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(at: Date, now: number = Date.now()): string {
  const ago = Math.max(0, now - at.getTime());
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return RELATIVE.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return RELATIVE.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return RELATIVE.format(-Math.floor(ago / DAY), 'day');
  return SHORT_DATE.format(at);
}

export const fullDate = (at: Date): string => FULL_DATE.format(at);
