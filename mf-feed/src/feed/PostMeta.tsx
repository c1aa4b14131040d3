// A post's type line (the type, plus the event type for events) and its byline: the author as a link to
// their profile, the division if the post has one (otherwise the organization), and the date
// (docs/product.md#2-screens-and-routes).
import { formatPostedOn, fullName } from '@rotunda/rules';
import { Link } from 'react-router';
import { isEvent, type Post } from '../api';

export function PostTypeLine({ post }: { post: Post }) {
  return (
    <p className="post-types">
      <span className="chip post-chip">{post.post_type}</span>
      {isEvent(post) && post.event_type && (
        <span className="chip post-chip post-chip--event">{post.event_type}</span>
      )}
    </p>
  );
}

export function Byline({ post }: { post: Post }) {
  const where = post.division_name || post.organization_name;
  const date = formatPostedOn(post.created_at);
  return (
    <p className="post-byline">
      <Link className="post-byline__author" to={`/profile/${post.post_author}`}>
        {fullName(post.ProfileInfo)}
      </Link>
      {where && (
        <>
          <span className="post-byline__dot" aria-hidden="true">
            ·
          </span>
          <span>{where}</span>
        </>
      )}
      {date && (
        <>
          <span className="post-byline__dot" aria-hidden="true">
            ·
          </span>
          <time dateTime={post.created_at}>{date}</time>
        </>
      )}
    </p>
  );
}
