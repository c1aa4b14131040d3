// The paged list asks for its next page when its last card is seen, including the case an observer alone
// misses: the card came into view while a new query was loading (the list refused then) and stayed in view;
// and a screen reader hears how many cards a next page brought.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PagedList, type PagedListProps } from '../src/index';
import { FakeIntersectionObserver } from './support';

type Pages = PagedListProps<number>['pages'];

function list(pages: Pages) {
  return (
    <PagedList
      pages={pages}
      noun="posts"
      listClassName="feed-list"
      staleClassName="feed-list--stale"
      itemKey={(item) => item}
      renderItem={(item) => <span>Post {item}</span>}
      loadAheadPx={1000}
    />
  );
}

describe('PagedList', () => {
  beforeAll(() => FakeIntersectionObserver.install());
  afterEach(() => FakeIntersectionObserver.reset());

  it('loads the next page once a new query is ready when the same last card stayed in view meanwhile', () => {
    const items = Array.from({ length: 20 }, (_, i) => i + 1);
    const loadMore = vi.fn();
    const base = { items, loadingMore: false, moreFailed: false, hasMore: true, loadMore };
    const { rerender } = render(list({ ...base, status: 'loading' }));
    act(() => FakeIntersectionObserver.intersect(screen.getByText('Post 20').closest('li') as Element, 0.2));
    expect(loadMore).toHaveBeenCalledTimes(1);
    rerender(list({ ...base, status: 'ready' }));
    expect(loadMore).toHaveBeenCalledTimes(2);
  });

  it('does not ask when the last card is out of view as the query becomes ready', () => {
    const loadMore = vi.fn();
    const base = { items: [1, 2], loadingMore: false, moreFailed: false, hasMore: true, loadMore };
    const { rerender } = render(list({ ...base, status: 'loading' }));
    rerender(list({ ...base, status: 'ready' }));
    expect(loadMore).not.toHaveBeenCalled();
  });

  it('announces in its status line how many more cards the next page brought', () => {
    const loadMore = vi.fn();
    const base = { status: 'ready' as const, moreFailed: false, hasMore: true, loadMore };
    const { rerender } = render(list({ ...base, items: [1, 2], loadingMore: false }));
    const status = screen.getAllByRole('status').find((line) => line.tagName === 'P') as HTMLElement;
    expect(status.textContent).toBe('');
    rerender(list({ ...base, items: [1, 2], loadingMore: true }));
    expect(status.textContent).toBe('');
    rerender(list({ ...base, items: [1, 2, 3, 4, 5], loadingMore: false }));
    expect(status.textContent).toBe('Loaded 3 more: 5 posts shown');
  });
});
