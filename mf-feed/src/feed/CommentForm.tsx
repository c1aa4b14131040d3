// The 'Add comment' line of a post: Enter or the send button submits; an empty comment is never sent, and the
// input is disabled for visitors (spec §5). What was typed stays when the comment could not be added, and a
// refusal the member can act on (e.g. commenting too quickly: when to try again) shows under the line.
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { CommentOutcome } from './usePostActions';

interface CommentFormProps {
  disabled: boolean;
  onSubmit: (body: string) => Promise<CommentOutcome>;
}

export function CommentForm({ disabled, onSubmit }: CommentFormProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = useId();
  const blank = text.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (disabled || blank || sending) return;
    setSending(true);
    setRefusal(null);
    const outcome = await onSubmit(text.trim());
    setSending(false);
    if (outcome.added) setText('');
    else setRefusal(outcome.refusal);
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
        aria-describedby={refusal ? `${id}-refusal` : undefined}
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
      {refusal && (
        <p id={`${id}-refusal`} className="comment-form__refusal" role="alert">
          {refusal}
        </p>
      )}
    </form>
  );
}
