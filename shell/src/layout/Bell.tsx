// The member's notifications entry: the top bar's bell (wide screens) and the phone menu's item, each marked
// as the current page on /notifications (aria-current, and the nav's current-page look), each with the unread
// count as a badge ('99+' beyond 99) and in its name ('Notifications, 3 unread'), and a polite announcement
// when the count grows (not on every event: a count going down, by reading, is the member's own doing).
import { Bell } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { useUnread } from '../notifications/unread';

export const NOTIFICATIONS_PATH = '/notifications';

/** What the badge shows: the count, or '99+' beyond 99. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/** The entry's accessible name; the visible badge's text is part of it. */
export function bellName(count: number | null): string {
  return count ? `Notifications, ${badgeText(count)} unread` : 'Notifications';
}

function Badge({ count, className }: { count: number | null; className: string }) {
  if (!count) return null;
  return (
    <span className={className} aria-hidden="true">
      {badgeText(count)}
    </span>
  );
}

/** The top bar's bell (hidden on phones, whose menu has the entry). */
export function TopBarBell() {
  const count = useUnread((s) => s.count);
  const name = bellName(count);
  return (
    <NavLink to={NOTIFICATIONS_PATH} className="icon-button topbar__bell" aria-label={name} title={name}>
      <Bell size={20} aria-hidden="true" />
      <Badge count={count} className="topbar__badge" />
    </NavLink>
  );
}

/** The navigation item (phone menu). */
export function NotificationsItem({ onNavigate }: { onNavigate?: () => void }) {
  const count = useUnread((s) => s.count);
  return (
    <NavLink to={NOTIFICATIONS_PATH} className="nav-item" onClick={onNavigate} aria-label={bellName(count)}>
      <Bell size={20} aria-hidden="true" />
      <span>Notifications</span>
      {count ? ' ' : null}
      <Badge count={count} className="nav-item__count" />
    </NavLink>
  );
}

/** Says 'You have N unread notifications' politely when the count grows; always in the page, at any width. */
export function UnreadAnnouncer() {
  const count = useUnread((s) => s.count);
  const previous = useRef(count);
  const [said, setSaid] = useState('');
  useEffect(() => {
    const before = previous.current;
    previous.current = count;
    if (count === null) setSaid('');
    else if (before !== null && count > before) {
      setSaid(`You have ${count} unread ${count === 1 ? 'notification' : 'notifications'}`);
    }
  }, [count]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite">
      {said}
    </div>
  );
}
