// One post in the feed (docs/product.md#2-screens-and-routes, Post card): type, title, byline, event date and
// times (with 'Add to calendar'), a preview of the body (sanitized, 300 visible characters), the heart with
// its count, the comment count, 'Copy link' (and a phone's 'Share'), 'Keep Reading' (the read modal at the
// post's address), 'Report' for other members, the latest comments and the 'Add comment' line. The people a
// post or comment mentions are links to their profiles. Its author and contributors see why a hidden post is
// hidden.
import { fullName } from '@rotunda/rules';
import { MessageCircle } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { type Comment, isEvent, type Post } from '../api';
import { CalendarLink } from '../calendar/CalendarLink';
import { PostBody } from '../content/PostBody';
import { MentionText } from '../mentions/MentionText';
import { ShareButtons } from '../post/ShareButtons';
import { HiddenNotice } from '../report/HiddenNotice';
import { ReportButton } from '../report/ReportButton';
import { CommentForm } from './CommentForm';
import { EventWhen } from './EventWhen';
import { LikeButton } from './LikeButton';
import { Byline, PostTypeLine } from './PostMeta';
import type { CommentOutcome } from './usePostActions';
import './post-card.css';

/** How many of the latest comments a card shows; the read modal shows every comment, the earlier ones on request. */
export const CARD_COMMENTS = 2;

interface PostCardProps {
  post: Post;
  liked: boolean;
  /** A visitor: the heart ignores clicks and the comment input is disabled. */
  visitor: boolean;
  onLike: () => void;
  onRead: () => void;
  onComment: (body: string, mentions: number[]) => Promise<CommentOutcome>;
}

export function PostCard({ post, liked, visitor, onLike, onRead, onComment }: PostCardProps) {
  const titleId = useId();
  const comments = post.PostComments.slice(-CARD_COMMENTS);
  const count = post.comments_count;
  return (
    <article className="post-card" aria-labelledby={titleId}>
      <PostTypeLine post={post} />
      <h3 id={titleId} className="post-card__title">
        {post.post_title}
      </h3>
      <Byline post={post} />
      <HiddenNotice moderation={post.moderation} />
      {isEvent(post) && (
        <div className="post-card__event">
          <EventWhen post={post} />
          <CalendarLink post={post} />
        </div>
      )}
      <PostBody html={post.post_body} mentions={post.mentions} preview className="post-card__preview" />
      <div className="post-card__actions">
        <LikeButton liked={liked} count={post.likes_count} disabled={visitor} onToggle={onLike} />
        <span className="post-action post-action--static">
          <MessageCircle size={18} aria-hidden="true" />
          <span>
            {count}
            <span className="visually-hidden">{count === 1 ? ' comment' : ' comments'}</span>
          </span>
        </span>
        <ShareButtons post={post} describedBy={titleId} />
        <button
          type="button"
          className="button button--quiet post-card__read"
          aria-haspopup="dialog"
          aria-describedby={titleId}
          onClick={onRead}
        >
          Keep Reading
        </button>
        <ReportButton
          target={{ target_type: 'post', target_id: post.post_id }}
          authorId={post.user_id}
          describedBy={titleId}
        />
      </div>
      {comments.length > 0 && (
        <ul className="card-comments" aria-label="Latest comments">
          {comments.map((comment) => (
            <li key={comment.comment_id} className="card-comments__item">
              <CommentAuthor comment={comment} />{' '}
              <span>
                <MentionText text={comment.comment_body} mentions={comment.mentions} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <CommentForm disabled={visitor} onSubmit={onComment} />
    </article>
  );
}

export function CommentAuthor({ comment }: { comment: Comment }) {
  return (
    <Link className="comment-author" to={`/profile/${comment.comment_author}`}>
      {fullName(comment.ProfileInfo)}
    </Link>
  );
}
