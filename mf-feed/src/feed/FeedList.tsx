// The list of post cards with its states: a spinner while the first load is still empty, a calm error line,
// an empty message, and the next page when the last card comes within 1000 px of the viewport's bottom
// (spec §2, §4, §9).
import { Spinner } from '@rotunda/ui';
import type { Post } from '../api';
import { ErrorLine } from '../common/status';
import { PostCard } from './PostCard';
import type { Feed } from './useFeed';
import type { Likes } from './useLikes';
import { canObserveVisibility, useNearViewportBottom } from './useNearViewportBottom';
import type { CommentOutcome } from './usePostActions';

interface FeedListProps {
  feed: Feed;
  likes: Likes;
  visitor: boolean;
  /** A search or a type filter is applied (the empty message says so). */
  filtered: boolean;
  /** Only posts in the member's issue areas are shown (the empty message says so). */
  myIssues: boolean;
  onRead: (post: Post) => void;
  onComment: (postId: number, body: string) => Promise<CommentOutcome>;
}

export function FeedList({ feed, likes, visitor, filtered, myIssues, onRead, onComment }: FeedListProps) {
  const lastCardRef = useNearViewportBottom(feed.loadMore);
  const { posts, status } = feed;

  return (
    <section className="feed" aria-label="Posts" aria-busy={status === 'loading'}>
      {status === 'loading' && posts.length === 0 && (
        <div className="feed-status">
          <Spinner label="Loading posts" />
        </div>
      )}
      {status === 'error' && (
        <ErrorLine onRetry={feed.reload}>
          Posts could not be loaded right now. Please try again in a moment.
        </ErrorLine>
      )}
      {status === 'ready' && posts.length === 0 && (
        <div className="feed-empty">
          <p className="feed-empty__title">
            {filtered
              ? 'No posts match your search.'
              : myIssues
                ? 'No posts in your issue areas yet.'
                : 'No posts yet.'}
          </p>
          <p className="feed-empty__text">
            {filtered
              ? 'Try fewer or different words, or another type.'
              : myIssues
                ? 'Turn off My issue areas to see every post.'
                : 'Be the first to share something.'}
          </p>
        </div>
      )}
      {posts.length > 0 && status !== 'error' && (
        <ul className={`feed-list${status === 'loading' ? ' feed-list--stale' : ''}`}>
          {posts.map((post, index) => (
            <li key={post.post_id} ref={index === posts.length - 1 ? lastCardRef : undefined}>
              <PostCard
                post={post}
                liked={likes.isLiked(post.post_id)}
                visitor={visitor}
                onLike={() => likes.toggle(post)}
                onRead={() => onRead(post)}
                onComment={(body) => onComment(post.post_id, body)}
              />
            </li>
          ))}
        </ul>
      )}
      {feed.loadingMore && (
        <div className="feed-status feed-status--more">
          <Spinner label="Loading more posts" size="small" />
          <span aria-hidden="true">Loading more…</span>
        </div>
      )}
      {feed.moreFailed && <ErrorLine onRetry={feed.loadMore}>More posts could not be loaded.</ErrorLine>}
      {feed.hasMore && !feed.loadingMore && !feed.moreFailed && !canObserveVisibility() && (
        <div className="feed-status feed-status--more">
          <button type="button" className="button button--quiet" onClick={feed.loadMore}>
            Show more posts
          </button>
        </div>
      )}
    </section>
  );
}
