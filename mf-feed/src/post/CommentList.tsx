// A post's comments in the read modal, oldest first: author (a link to their profile), date, 'edited' when
// changed after it was written, and for its author an edit toggle (pencil, then save: leaving edit mode saves)
// and delete (docs/product.md#2-screens-and-routes, #4-states-and-transitions, #6-roles-and-permissions);
// 'Report' for other members; why a hidden comment is hidden, for its author and contributors. The people a
// comment mentions are links to their profiles.
import { formatPostedOn } from '@rotunda/rules';
import type { AuthUser } from '@rotunda/session';
import { Check } from 'lucide-react';
import { useId, useState } from 'react';
import type { Comment } from '../api';
import { CommentAuthor } from '../feed/PostCard';
import { MentionText } from '../mentions/MentionText';
import { HiddenNotice } from '../report/HiddenNotice';
import { ReportButton } from '../report/ReportButton';
import { AuthorTools } from './AuthorTools';

/**
 * docs/product.md#3-entities-and-their-fields: a comment is shown as edited when updatedAt is later than
 * createdAt.
 */
export function wasEdited(comment: Pick<Comment, 'createdAt' | 'updatedAt'>): boolean {
  return Date.parse(comment.updatedAt) > Date.parse(comment.createdAt);
}

interface CommentListProps {
  comments: readonly Comment[];
  user: AuthUser | null;
  onEdit: (comment: Comment, body: string) => Promise<boolean>;
  onDelete: (comment: Comment) => Promise<boolean>;
}

export function CommentList({ comments, user, onEdit, onDelete }: CommentListProps) {
  if (comments.length === 0) return <p className="comments__none">No comments yet.</p>;
  return (
    <ul className="comments">
      {comments.map((comment) => (
        <CommentItem
          key={comment.comment_id}
          comment={comment}
          mine={user !== null && comment.user_id === user.user_id}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
    </ul>
  );
}

interface CommentItemProps {
  comment: Comment;
  mine: boolean;
  onEdit: CommentListProps['onEdit'];
  onDelete: CommentListProps['onDelete'];
}

function CommentItem({ comment, mine, onEdit, onDelete }: CommentItemProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.comment_body);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const blank = text.trim() === '';

  const toggleEdit = async () => {
    if (!editing) {
      setText(comment.comment_body);
      setEditing(true);
      return;
    }
    // Leaving edit mode saves; an unchanged comment needs no call.
    const body = text.trim();
    if (body === comment.comment_body) {
      setEditing(false);
      return;
    }
    setBusy(true);
    const saved = await onEdit(comment, body);
    setBusy(false);
    if (saved) setEditing(false);
  };

  const remove = async () => {
    setBusy(true);
    const deleted = await onDelete(comment);
    if (!deleted) setBusy(false);
  };

  return (
    <li className="comment">
      <div className="comment__header">
        <CommentAuthor comment={comment} />
        <span className="comment__meta">
          <time dateTime={comment.createdAt}>{formatPostedOn(comment.createdAt)}</time>
          {wasEdited(comment) && <span className="comment__edited"> · edited</span>}
        </span>
        {mine ? (
          <AuthorTools
            noun="comment"
            className="comment__tools"
            small
            editing={editing}
            saveIcon={Check}
            editDisabled={busy || (editing && blank)}
            deleteDisabled={busy}
            onToggleEdit={toggleEdit}
            onDelete={remove}
          />
        ) : (
          <span className="comment__tools">
            <ReportButton
              target={{ target_type: 'comment', target_id: comment.comment_id }}
              authorId={comment.user_id}
              small
            />
          </span>
        )}
      </div>
      <HiddenNotice moderation={comment.moderation} />
      {editing ? (
        <>
          <label className="visually-hidden" htmlFor={inputId}>
            Edit your comment
          </label>
          <textarea
            id={inputId}
            className="field__input comment__input"
            rows={2}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </>
      ) : (
        <p className="comment__body">
          <MentionText text={comment.comment_body} mentions={comment.mentions} />
        </p>
      )}
    </li>
  );
}
