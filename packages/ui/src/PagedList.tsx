// A server-paged list on screen (the feed, the directory, the organization list;
// docs/product.md#4-states-and-transitions, #9-business-constants-and-limits): a spinner while its first page
// is still empty, the screen's own error and empty lines (children), the cards — dimmed while a new query
// loads — with the next page asked for when the last card is seen, then the "loading more" line, a failed
// next page with Try again, or, in a browser that cannot tell what is in view, a "Show more" button. A status
// line, always there so screen readers announce what it comes to say, tells how many more cards a next page
// brought (WCAG 4.1.3): a sighted member sees them appear, a screen reader user would not know. Its look is
// @rotunda/ui/states.css (.status-panel), which the screen imports, and the list's own class.
import { type Key, type ReactNode, useEffect, useRef, useState } from 'react';
import { ErrorLine } from './ErrorLine';
import { Spinner } from './Spinner';
import type { Pages } from './usePages';
import { canObserveVisibility, useWhenVisible } from './useWhenVisible';

export interface PagedListProps<T> {
  pages: Pick<Pages<T>, 'status' | 'items' | 'loadingMore' | 'moreFailed' | 'hasMore' | 'loadMore'>;
  /** What the list holds, in the plural: 'posts' makes 'Loading more posts', 'Show more posts'. */
  noun: string;
  /** The list's class, e.g. 'feed-list'. */
  listClassName: string;
  /** Added to it while a new query loads (the cards dimmed), e.g. 'feed-list--stale'. */
  staleClassName: string;
  itemKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  /** Ask for the next page when the last card comes this close to the viewport's bottom; else once it is wholly in view. */
  loadAheadPx?: number;
  /** The screen's lines for a failed first page and for nothing found, shown above the cards. */
  children?: ReactNode;
}

export function PagedList<T>({
  pages,
  noun,
  listClassName,
  staleClassName,
  itemKey,
  renderItem,
  loadAheadPx,
  children,
}: PagedListProps<T>) {
  // Asked again when the list becomes ready: the last card may have come into view while a new query loaded.
  const lastCardRef = useWhenVisible(pages.loadMore, loadAheadPx, pages.status);
  const { status, items } = pages;
  const loaded = useMoreLoadedMessage(items.length, pages.loadingMore, noun);
  return (
    <>
      <p className="visually-hidden" role="status">
        {loaded}
      </p>
      {status === 'loading' && items.length === 0 && (
        <div className="status-panel">
          <Spinner label={`Loading ${noun}`} />
        </div>
      )}
      {children}
      {items.length > 0 && status !== 'error' && (
        <ul className={status === 'loading' ? `${listClassName} ${staleClassName}` : listClassName}>
          {items.map((item, index) => (
            <li key={itemKey(item)} ref={index === items.length - 1 ? lastCardRef : undefined}>
              {renderItem(item)}
            </li>
          ))}
        </ul>
      )}
      {pages.loadingMore && (
        <div className="status-panel status-panel--more">
          <Spinner label={`Loading more ${noun}`} size="small" />
          <span aria-hidden="true">Loading more…</span>
        </div>
      )}
      {pages.moreFailed && (
        <ErrorLine onRetry={pages.loadMore}>{`More ${noun} could not be loaded.`}</ErrorLine>
      )}
      {pages.hasMore && !pages.loadingMore && !pages.moreFailed && !canObserveVisibility() && (
        <div className="status-panel status-panel--more">
          <button type="button" className="button button--quiet" onClick={pages.loadMore}>
            Show more {noun}
          </button>
        </div>
      )}
    </>
  );
}

/** 'Loaded 10 more: 30 posts shown' once a next page has come, '' before. */
function useMoreLoadedMessage(count: number, loadingMore: boolean, noun: string): string {
  const [message, setMessage] = useState('');
  // How many cards there were when the next page was asked for.
  const before = useRef<number | null>(null);
  useEffect(() => {
    if (loadingMore) {
      before.current ??= count;
      return;
    }
    if (before.current === null) return;
    const added = count - before.current;
    before.current = null;
    if (added > 0) setMessage(`Loaded ${added} more: ${count} ${noun} shown`);
  }, [count, loadingMore, noun]);
  return message;
}
