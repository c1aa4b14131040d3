// The 'Add to calendar' link of an event post: downloads the event as an .ics file. The file is built once
// the link is on screen (the `ics` package loads then), so the link is a plain download link that works with
// a click, the keyboard or 'Save link as'.
import { CalendarPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Post } from '../api';
import { calendarFileName, eventCalendarFile, publicSquareLink } from './calendar';

export function CalendarLink({ post }: { post: Post }) {
  const [href, setHref] = useState<string | null>(null);
  const { post_id, post_title, post_body, event_location, event_date, event_start, event_end } = post;

  // Rebuilt when the event changes, not on every like or comment.
  useEffect(() => {
    let current = true;
    const event = { post_id, post_title, post_body, event_location, event_date, event_start, event_end };
    eventCalendarFile(event, publicSquareLink()).then(
      (text) => {
        if (current) setHref(text ? `data:text/calendar;charset=utf-8,${encodeURIComponent(text)}` : null);
      },
      (error: unknown) => console.error('The calendar entry could not be built', error),
    );
    return () => {
      current = false;
    };
  }, [post_id, post_title, post_body, event_location, event_date, event_start, event_end]);

  if (!href) return null;
  return (
    <a className="calendar-link" href={href} download={calendarFileName(post_title)}>
      <CalendarPlus size={16} aria-hidden="true" />
      Add to calendar
    </a>
  );
}
