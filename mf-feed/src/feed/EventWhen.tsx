// When an event happens, as a post shows it: the date, and the time from start to end
// (docs/product.md#2-screens-and-routes).
import { eventTimeRange, formatEventDate } from '@rotunda/rules';
import { CalendarDays, Clock } from 'lucide-react';
import type { Post } from '../api';

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
