// The 'Add comment' line of a post (docs/product.md#5-validation-rules): disabled for visitors. A member's
// line, with its "@" completion (MemberCommentForm), is fetched only for members, so a visitor's public
// square never downloads it.
import { SendHorizontal } from 'lucide-react';
import { lazy, Suspense, useId } from 'react';
import type { MemberCommentFormProps } from './MemberCommentForm';

const MemberCommentForm = lazy(() =>
  import(/* webpackChunkName: "comment-mentions" */ './MemberCommentForm').then((m) => ({
    default: m.MemberCommentForm,
  })),
);

export interface CommentFormProps extends MemberCommentFormProps {
  disabled: boolean;
}

export function CommentForm({ disabled, onSubmit }: CommentFormProps) {
  if (disabled) return <InactiveCommentLine placeholder="Log in to comment" />;
  return (
    <Suspense fallback={<InactiveCommentLine placeholder="Add comment" />}>
      <MemberCommentForm onSubmit={onSubmit} />
    </Suspense>
  );
}

/** The line for a visitor, or for a member while theirs arrives: shown, not usable. */
function InactiveCommentLine({ placeholder }: { placeholder: string }) {
  const id = useId();
  return (
    <form className="comment-form">
      <label className="visually-hidden" htmlFor={id}>
        Add comment
      </label>
      <input
        id={id}
        className="field__input comment-form__input"
        type="text"
        placeholder={placeholder}
        disabled
      />
      <button type="button" className="icon-button comment-form__send" aria-label="Send comment" disabled>
        <SendHorizontal size={18} aria-hidden="true" />
      </button>
    </form>
  );
}
