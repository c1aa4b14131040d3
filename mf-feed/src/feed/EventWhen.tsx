// When an event happens, as a post shows it: the date, and the time from start to end
// (docs/product.md#2-screens-and-routes).
import { CalendarDays, Clock } from 'lucide-react';
import type { Post } from '../api';
import { formatEventDate, formatEventTime } from '../content/format';

/** 'start – end', or the start alone; '' when there is no start. */
export function eventTimeRange(post: Pick<Post, 'event_start' | 'event_end'>): string {
  if (!post.event_start) return '';
  const start = formatEventTime(post.event_start);
  return post.event_end ? `${start} – ${formatEventTime(post.event_end)}` : start;
}

export function EventWhen({ post }: { post: Post }) {
  const time = eventTimeRange(post);
  if (!post.event_date && !time) return null;
  return (
    <p className="event-when">
      {post.event_date && (
        <span className="event-when__part">
          <CalendarDays size={16} aria-hidden="true" />
          <span className="visually-hidden">Date: </span>
          {formatEventDate(post.event_date)}
        </span>
      )}
      {time && (
        <span className="event-when__part">
          <Clock size={16} aria-hidden="true" />
          <span className="visually-hidden">Time: </span>
          {time}
        </span>
      )}
    </p>
  );
}
