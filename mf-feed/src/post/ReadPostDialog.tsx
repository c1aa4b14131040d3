// The read modal (docs/product.md#2-screens-and-routes, #4-states-and-transitions, #6-roles-and-permissions):
// the whole sanitized body; for events Location, Date and Time from start to end (and 'Add to calendar'); the
// comments, oldest first — the latest few the feed carried, and 'Show earlier comments' fetching the ones
// before them a page at a time — with the 'Add comment' line; a Close button. The post's author alone sees
// edit (the pencil becomes save: leaving edit mode saves the post, with the event's date and times for
// events) and delete (the trash, after a confirmation; the card then leaves the feed); other members may
// report it. Its author and contributors see why a hidden post is hidden. 'Copy link' (and a phone's 'Share')
// pass its address on. The edit form arrives when the author first edits (EditPostFields), not with the dialog.
import { eventTimeRange, formatEventDate } from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import { Dialog, refusalOr, Spinner, useAction } from '@rotunda/ui';
import { Save, Trash2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { isEvent, type Post, type PostUpdate } from '../api';
import { CalendarLink } from '../calendar/CalendarLink';
import { PostBody } from '../content/PostBody';
import type { EventFields } from '../create/post-form';
import { CommentForm } from '../feed/CommentForm';
import { Byline, PostTypeLine } from '../feed/PostMeta';
import type { PostActions } from '../feed/usePostActions';
import { HiddenNotice } from '../report/HiddenNotice';
import { ReportButton } from '../report/ReportButton';
import { AuthorTools } from './AuthorTools';
import { CommentList } from './CommentList';
import { ShareButtons } from './ShareButtons';
import '@rotunda/ui/forms.css';
import './post-dialogs.css';

/** The author's edit form: only an author who edits needs it (EditPostFields.tsx). */
const loadEditing = () => import(/* webpackChunkName: "edit-post" */ './EditPostFields');
const EditPostFields = lazy(loadEditing);

interface ReadPostDialogProps {
  /** The post to show; null closes the modal. */
  post: Post | null;
  user: AuthUser | null;
  actions: PostActions;
  onClose: () => void;
}

export function ReadPostDialog({ post, user, actions, onClose }: ReadPostDialogProps) {
  return (
    <Dialog open={post !== null} title={post?.post_title ?? ''} onClose={onClose} className="dialog--wide">
      {/* Keyed by post, so another post starts in view mode. */}
      {post && <ReadPost key={post.post_id} post={post} user={user} actions={actions} onClose={onClose} />}
    </Dialog>
  );
}

interface Edit extends EventFields {
  title: string;
  body: string;
  bodyEmpty: boolean;
}

const editOf = (post: Post): Edit => ({
  title: post.post_title,
  body: post.post_body,
  bodyEmpty: false,
  location: post.event_location ?? '',
  date: post.event_date ?? '',
  start: post.event_start ?? '',
  end: post.event_end ?? '',
});

function updateFrom(post: Post, edit: Edit): PostUpdate {
  const update: PostUpdate = { post_id: post.post_id, post_title: edit.title.trim(), post_body: edit.body };
  if (!isEvent(post)) return update;
  return {
    ...update,
    event_location: edit.location.trim(),
    event_date: edit.date,
    event_start: edit.start,
    event_end: edit.end,
  };
}

type ReadPostProps = Omit<ReadPostDialogProps, 'post'> & { post: Post };

/** The line for a failed save or delete: the server's refusal, or a calm sentence. */
const failed = (what: string) =>
  refusalOr({
    logged: `The post could not be ${what}`,
    shown: `The post could not be ${what} right now. Please try again in a moment.`,
  });

function ReadPost({ post, user, actions, onClose }: ReadPostProps) {
  return (
    <div className="dialog-form">
      <div className="read-post__body dialog__body">
        <PostContent post={post} user={user} actions={actions} onClose={onClose} />
        <Comments post={post} user={user} actions={actions} />
      </div>
      <div className="read-post__footer">
        <ShareButtons post={post} />
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** The post itself: type, the author's tools, byline, and the body (or its edit form). */
function PostContent({ post, user, actions, onClose }: ReadPostProps) {
  const [edit, setEdit] = useState<Edit | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { busy, error: message, setError: setMessage, run } = useAction();
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const keepButton = useRef<HTMLButtonElement>(null);
  const mine = user !== null && post.user_id === user.user_id;

  // The question takes the focus, so keyboard and screen reader users meet it at once.
  useEffect(() => {
    if (confirmingDelete) keepButton.current?.focus();
  }, [confirmingDelete]);
  const event = isEvent(post);

  const toggleEdit = async () => {
    if (!edit) {
      setMessage(null);
      setConfirmingDelete(false);
      setEdit(editOf(post));
      return;
    }
    // Leaving edit mode saves (the form is on screen, so its module has arrived).
    const { missingForEdit } = await loadEditing();
    await run(
      async () => {
        await actions.savePost(updateFrom(post, edit));
        setEdit(null);
      },
      failed('saved'),
      missingForEdit(edit, event),
    );
  };

  const remove = () =>
    run(async () => {
      await actions.deletePost(post.post_id);
      onClose();
    }, failed('deleted'));

  const setField = (field: keyof EventFields | 'title') => (value: string) =>
    setEdit((current) => (current ? { ...current, [field]: value } : current));

  return (
    <>
      <div className="read-post__top">
        <PostTypeLine post={post} />
        {mine ? (
          <AuthorTools
            noun="post"
            className="read-post__tools"
            editing={edit !== null}
            saveIcon={Save}
            editDisabled={busy}
            deleteDisabled={busy || edit !== null}
            onToggleEdit={toggleEdit}
            onDelete={() => setConfirmingDelete(true)}
          />
        ) : (
          <span className="read-post__tools">
            <ReportButton target={{ target_type: 'post', target_id: post.post_id }} authorId={post.user_id} />
          </span>
        )}
      </div>
      <Byline post={post} />
      <HiddenNotice moderation={post.moderation} />

      {confirmingDelete && (
        <div className="read-post__confirm">
          <p id={id('confirm')} className="read-post__confirm-text">
            Delete this post and its comments? This cannot be undone.
          </p>
          <div className="read-post__confirm-actions">
            <button
              ref={keepButton}
              type="button"
              className="button button--quiet"
              aria-describedby={id('confirm')}
              onClick={() => setConfirmingDelete(false)}
            >
              Keep it
            </button>
            <button
              type="button"
              className="button feed-button--danger"
              aria-describedby={id('confirm')}
              disabled={busy}
              onClick={remove}
            >
              <Trash2 size={16} aria-hidden="true" />
              Delete post
            </button>
          </div>
        </div>
      )}

      {message && (
        <p className="read-post__message" role="alert">
          {message}
        </p>
      )}

      {edit ? (
        <Suspense fallback={<Spinner label="Opening the editor" />}>
          <EditPostFields
            id={id}
            post={post}
            values={edit}
            event={event}
            onField={setField}
            onBody={({ html, empty }) =>
              setEdit((current) => (current ? { ...current, body: html, bodyEmpty: empty } : current))
            }
          />
        </Suspense>
      ) : (
        <>
          {event && <EventDetails post={post} />}
          <PostBody html={post.post_body} mentions={post.mentions} className="read-post__text" />
        </>
      )}
    </>
  );
}

interface CommentsProps {
  post: Post;
  user: AuthUser | null;
  actions: PostActions;
}

/**
 * The comments: 'Show earlier comments' while the post has more than are shown (until the server says there are
 * no earlier ones), the list, and the 'Add comment' line.
 */
function Comments({ post, user, actions }: CommentsProps) {
  const headingId = useId();
  const [earlier, setEarlier] = useState<'idle' | 'loading' | 'failed'>('idle');
  // Null until the server answered: until then, the count tells.
  const [hasEarlier, setHasEarlier] = useState<boolean | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const mayHaveEarlier = hasEarlier ?? post.PostComments.length < post.comments_count;

  const showEarlier = async () => {
    if (earlier === 'loading') return;
    setEarlier('loading');
    try {
      const more = await actions.showEarlierComments(post);
      setHasEarlier(more);
      setEarlier('idle');
      // The button goes with the last page: the focus moves to the comments rather than to the page.
      if (!more) heading.current?.focus();
    } catch (error) {
      console.error('Earlier comments could not be loaded', error);
      setEarlier('failed');
    }
  };

  return (
    <section className="read-post__comments" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1} className="read-post__comments-title">
        Comments ({post.comments_count})
      </h3>
      {mayHaveEarlier && (
        <div className="comments__earlier">
          {/* aria-disabled, not disabled: the focus stays on the button while the page loads. */}
          <button
            type="button"
            className="button button--quiet"
            aria-disabled={earlier === 'loading'}
            onClick={showEarlier}
          >
            {earlier === 'loading' ? 'Loading earlier comments…' : 'Show earlier comments'}
          </button>
          {earlier === 'failed' && (
            <p className="comments__earlier-failed" role="alert">
              Earlier comments could not be loaded. Please try again.
            </p>
          )}
        </div>
      )}
      <CommentList
        comments={post.PostComments}
        user={user}
        onEdit={actions.editComment}
        onDelete={actions.deleteComment}
      />
      <CommentForm
        disabled={user === null}
        onSubmit={(body, mentions) => actions.addComment(post.post_id, body, mentions)}
      />
    </section>
  );
}

function EventDetails({ post }: { post: Post }) {
  const time = eventTimeRange(post);
  return (
    <div className="event-details">
      <dl className="event-details__list">
        {post.event_location && (
          <div className="event-details__location">
            <dt>Location</dt>
            <dd>{post.event_location}</dd>
          </div>
        )}
        {post.event_date && (
          <div>
            <dt>Date</dt>
            <dd>{formatEventDate(post.event_date)}</dd>
          </div>
        )}
        {time && (
          <div>
            <dt>Time</dt>
            <dd>{time}</dd>
          </div>
        )}
      </dl>
      <CalendarLink post={post} />
    </div>
  );
}
