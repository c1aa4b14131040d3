// The 'Add to calendar' link of an event post: downloads the event as an .ics file. The `ics` package and
// the file are fetched and built when someone reaches for the link (pointer over it, a touch, keyboard focus),
// not when the post is shown, so a first visit does not load them; by the click the link is usually a plain
// download link that also works with 'Save link as'. A click that comes first waits for the file and then
// downloads it.
import { CalendarPlus } from 'lucide-react';
import { type MouseEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { Post } from '../api';
import { postLink } from '../post/usePostAddress';
import { calendarFileName, eventCalendarFile, hasCalendarEntry } from './calendar';

const dataUrl = (text: string) => `data:text/calendar;charset=utf-8,${encodeURIComponent(text)}`;

/** Saves a file the way the link would once built: a download link clicked for the member. */
function download(href: string, fileName: string) {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.click();
}

export function CalendarLink({ post }: { post: Post }) {
  const [href, setHref] = useState<string | null>(null);
  const building = useRef<Promise<string | null> | null>(null);
  const { post_id, post_title, post_body, event_location, event_date, event_start, event_end } = post;

  // An edited event builds its file anew, on the next reach for the link.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each field of the event invalidates the file
  useEffect(() => {
    building.current = null;
    setHref(null);
  }, [post_id, post_title, post_body, event_location, event_date, event_start, event_end]);

  /** The file's data URL, built once per version of the event; null when it could not be built. */
  const build = useCallback(() => {
    if (!building.current) {
      const event = { post_id, post_title, post_body, event_location, event_date, event_start, event_end };
      const current: Promise<string | null> = eventCalendarFile(event, postLink(event.post_id)).then(
        (text) => {
          const url = text ? dataUrl(text) : null;
          if (building.current === current) setHref(url);
          return url;
        },
        (error: unknown) => {
          console.error('The calendar entry could not be built', error);
          // Reaching for the link again tries again.
          if (building.current === current) building.current = null;
          return null;
        },
      );
      building.current = current;
    }
    return building.current;
  }, [post_id, post_title, post_body, event_location, event_date, event_start, event_end]);

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (href) return;
    event.preventDefault();
    void build().then((url) => url && download(url, calendarFileName(post_title)));
  };

  if (!hasCalendarEntry(post)) return null;
  return (
    <a
      className="calendar-link"
      href={href ?? '#add-to-calendar'}
      download={calendarFileName(post_title)}
      onPointerEnter={build}
      onTouchStart={build}
      onFocus={build}
      onClick={onClick}
    >
      <CalendarPlus size={16} aria-hidden="true" />
      Add to calendar
    </a>
  );
}
