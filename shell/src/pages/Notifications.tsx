// The member's notifications, /notifications (docs/product.md#notifications): newest first,
// each with who acted, what happened and when, unread ones marked in looks and in words; opening one marks it
// read and leads to its post or profile. 'Mark all as read', 'Load more' (older ones, by `before`; the focus then
// goes to the first of them, as the button may be gone), an empty state, and errors in words. The bell's count follows what the page learns and does; when the live count grows
// past what the page shows, it offers to show the new ones.
import { NOTIFICATIONS_PAGE } from '@rotunda/rules';
import { ErrorLine, Page, Spinner, useAction } from '@rotunda/ui';
import { Bell, CheckCheck } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  fetchNotifications,
  markAllRead,
  markRead,
  type Notification,
  type NotificationActor,
  targetPath,
} from '../notifications/api';
import { fullDate, relativeTime } from '../notifications/time';
import { useUnread } from '../notifications/unread';
import { useHeadingFocus } from './useHeadingFocus';
import '@rotunda/ui/states.css';
import '../styles/notifications.css';

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready' };

const fullName = (actor: NotificationActor) => `${actor.first_name} ${actor.last_name}`.trim();

export function Notifications() {
  const frame = useRef<HTMLDivElement>(null);
  useHeadingFocus(frame);
  const [items, setItems] = useState<Notification[]>([]);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [hasMore, setHasMore] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const more = useAction();
  const markAll = useAction();
  const list = useRef<HTMLUListElement>(null);
  /** The index of the first item 'Load more' brought, which takes the focus. */
  const [firstLoaded, setFirstLoaded] = useState<number | null>(null);
  useEffect(() => {
    if (firstLoaded === null) return;
    list.current?.querySelectorAll<HTMLAnchorElement>('.notification__link')[firstLoaded]?.focus();
    setFirstLoaded(null);
  }, [firstLoaded]);
  const live = useUnread((s) => s.count);
  /** The unread count as of what the page shows. */
  const [known, setKnown] = useState<number | null>(null);
  const unread = live ?? items.filter((item) => !item.read).length;
  const setUnread = useCallback((count: number) => {
    setKnown(count);
    useUnread.setState({ count });
  }, []);

  // `attempt` is a dependency on purpose: 'Try again' bumps it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt re-triggers the load
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchNotifications({ signal: controller.signal }).then(
      (page) => {
        setItems(page.items);
        setHasMore(page.items.length >= NOTIFICATIONS_PAGE.default);
        setUnread(page.unread_count);
        setLoad({ status: 'ready' });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Could not load notifications', error);
        setLoad({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [attempt, setUnread]);

  const loadMore = () =>
    more.run(
      async () => {
        const last = items.at(-1);
        if (!last) return;
        const page = await fetchNotifications({ before: last.id });
        // An item seen already (one arrived meanwhile and shifted the pages) is not shown twice.
        const known = new Set(items.map((item) => item.id));
        const added = page.items.filter((item) => !known.has(item.id));
        setItems([...items, ...added]);
        if (added.length > 0) setFirstLoaded(items.length);
        setHasMore(page.items.length >= NOTIFICATIONS_PAGE.default);
        setUnread(page.unread_count);
      },
      () => 'Older notifications could not be loaded. Please try again.',
    );

  const readAll = () =>
    markAll.run(
      async () => {
        await markAllRead();
        setItems((shown) => shown.map((item) => ({ ...item, read: true })));
        setUnread(0);
      },
      () => 'Your notifications could not be marked as read. Please try again.',
    );

  const open = useCallback(
    (item: Notification) => {
      if (item.read) return;
      setItems((shown) => shown.map((one) => (one.id === item.id ? { ...one, read: true } : one)));
      const count = useUnread.getState().count;
      if (count) setUnread(count - 1);
      // The page moves on at once; a failure only leaves the item unread for next time.
      markRead([item.id]).catch((error: unknown) =>
        console.warn('Could not mark a notification read', error),
      );
    },
    [setUnread],
  );

  return (
    <div ref={frame}>
      <Page
        icon={Bell}
        title="Notifications"
        lede="Comments, likes, mentions and decisions about your posts and claims."
      >
        {load.status === 'loading' && (
          <div className="status-panel status-panel--page">
            <Spinner label="Loading notifications" />
          </div>
        )}
        {load.status === 'error' && (
          <ErrorLine onRetry={() => setAttempt((n) => n + 1)}>
            Your notifications could not be loaded. Please check your connection and try again.
          </ErrorLine>
        )}
        {load.status === 'ready' && items.length === 0 && (
          <div className="empty-state">
            <p className="empty-state__title">You’re all caught up</p>
            <p className="empty-state__text">
              When someone comments on or likes your posts, mentions you, or a decision is made about your
              claims or reports, it shows up here.
            </p>
          </div>
        )}
        {load.status === 'ready' && items.length > 0 && (
          <>
            {live !== null && known !== null && live > known && (
              <button
                type="button"
                className="button button--quiet notifications__new"
                onClick={() => setAttempt((n) => n + 1)}
              >
                Show new notifications
              </button>
            )}
            <div className="notifications__toolbar">
              <p className="notifications__summary" role="status">
                {unread === 0 ? 'No unread notifications' : `${unread} unread`}
              </p>
              {/* Marked rather than disabled when there is nothing (more) to do: a disabled button would drop
                  the keyboard focus it holds the moment it is pressed. */}
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  if (!markAll.busy && unread !== 0) void readAll();
                }}
                aria-disabled={markAll.busy || unread === 0 || undefined}
              >
                {markAll.busy ? <Spinner size="inline" /> : <CheckCheck size={16} aria-hidden="true" />}
                Mark all as read
              </button>
            </div>
            {markAll.error && (
              <p className="notifications__error" role="alert">
                {markAll.error}
              </p>
            )}
            <ul className="notifications" aria-label="Notifications" ref={list}>
              {items.map((item) => (
                <NotificationItem key={item.id} item={item} onOpen={open} />
              ))}
            </ul>
            {more.error && <ErrorLine onRetry={() => void loadMore()}>{more.error}</ErrorLine>}
            {hasMore && !more.error && (
              <div className="notifications__more">
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => {
                    if (!more.busy) void loadMore();
                  }}
                  aria-disabled={more.busy || undefined}
                >
                  {more.busy && <Spinner size="inline" />}
                  {more.busy ? 'Loading…' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </Page>
    </div>
  );
}

function NotificationItem({ item, onOpen }: { item: Notification; onOpen: (item: Notification) => void }) {
  const at = new Date(item.created_at);
  const actor = item.actor ? fullName(item.actor) : null;
  // The text usually names whoever acted already ('Dana Lee and 2 others liked…'); the name leads otherwise.
  const lead = actor && !item.text.includes(actor) ? actor : null;
  return (
    <li className={item.read ? 'notification' : 'notification notification--unread'}>
      <Link className="notification__link" to={targetPath(item.target)} onClick={() => onOpen(item)}>
        <span className="notification__dot" aria-hidden="true" />
        <span className="notification__body">
          {!item.read && <span className="visually-hidden">Unread: </span>}
          {lead && <strong className="notification__actor">{lead} </strong>}
          <span className="notification__text">{item.text}</span>
          <time className="notification__time" dateTime={item.created_at} title={fullDate(at)}>
            {relativeTime(at)}
          </time>
        </span>
      </Link>
    </li>
  );
}
