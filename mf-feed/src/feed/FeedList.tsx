// The list of post cards with its states (@rotunda/ui's PagedList): a spinner while the first load is still
// empty, a calm error line, an empty message, and the next page when the last card comes within 1000 px of the
// viewport's bottom (docs/product.md#2-screens-and-routes, #4-states-and-transitions,
// #9-business-constants-and-limits).
import { ErrorLine, PagedList } from '@rotunda/ui';
import type { Post } from '../api';
import { PostCard } from './PostCard';
import type { Feed } from './useFeed';
import type { Likes } from './useLikes';
import type { CommentOutcome } from './usePostActions';
import '@rotunda/ui/cards.css';
import './feed-list.css';

/** How close to the viewport's bottom the last card must come for the next page to load. */
const LOAD_AHEAD_PX = 1000;

interface FeedListProps {
  feed: Feed;
  likes: Likes;
  visitor: boolean;
  /** A search or a type filter is applied (the empty message says so). */
  filtered: boolean;
  /** Only posts in the member's issue areas are shown (the empty message says so). */
  myIssues: boolean;
  onRead: (post: Post) => void;
  onComment: (postId: number, body: string, mentions: number[]) => Promise<CommentOutcome>;
}

export function FeedList({ feed, likes, visitor, filtered, myIssues, onRead, onComment }: FeedListProps) {
  const { items: posts, status } = feed;

  return (
    <section className="feed" aria-labelledby="feed-title" aria-busy={status === 'loading'}>
      {/* Heard, not seen: the cards' titles (h3) sit under it, as the headlines sit under theirs. */}
      <h2 id="feed-title" className="visually-hidden">
        Posts
      </h2>
      <PagedList
        pages={feed}
        noun="posts"
        listClassName="card-grid feed-list"
        staleClassName="card-grid--stale"
        itemKey={(post) => post.post_id}
        loadAheadPx={LOAD_AHEAD_PX}
        renderItem={(post) => (
          <PostCard
            post={post}
            liked={likes.isLiked(post.post_id)}
            visitor={visitor}
            onLike={() => likes.toggle(post)}
            onRead={() => onRead(post)}
            onComment={(body, mentions) => onComment(post.post_id, body, mentions)}
          />
        )}
      >
        {status === 'error' && (
          <ErrorLine onRetry={feed.retry}>
            Posts could not be loaded right now. Please try again in a moment.
          </ErrorLine>
        )}
        {status === 'ready' && posts.length === 0 && (
          <div className="empty-state">
            <p className="empty-state__title">
              {filtered
                ? 'No posts match your search.'
                : myIssues
                  ? 'No posts in your issue areas yet.'
                  : 'No posts yet.'}
            </p>
            <p className="empty-state__text">
              {filtered
                ? 'Try fewer or different words, or another type.'
                : myIssues
                  ? 'Turn off My issue areas to see every post.'
                  : 'Be the first to share something.'}
            </p>
          </div>
        )}
      </PagedList>
    </section>
  );
}
