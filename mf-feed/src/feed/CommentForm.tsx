// The 'Add comment' line of a post: Enter or the send button submits; an empty comment is never sent, and the
// input is disabled for visitors (spec §5). What was typed stays when the comment could not be added.
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';

interface CommentFormProps {
  disabled: boolean;
  onSubmit: (body: string) => Promise<boolean>;
}

export function CommentForm({ disabled, onSubmit }: CommentFormProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const id = useId();
  const blank = text.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled || blank || sending) return;
    setSending(true);
    const added = await onSubmit(text.trim());
    setSending(false);
    if (added) setText('');
  };

  return (
    <form className="comment-form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={id}>
        Add comment
      </label>
      <input
        id={id}
        className="field__input comment-form__input"
        type="text"
        autoComplete="off"
        placeholder={disabled ? 'Log in to comment' : 'Add comment'}
        disabled={disabled}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button
        type="submit"
        className="icon-button comment-form__send"
        aria-label="Send comment"
        disabled={disabled || blank || sending}
      >
        <SendHorizontal size={18} aria-hidden="true" />
      </button>
    </form>
  );
}
