// A member's 'Add comment' line: Enter or the send button submits; an empty comment is never sent. "@" and
// letters offer people from the directory (useMentionCompletion); choosing one puts "@First Last " in the text,
// and the comment is sent with the ids of the people whose names are still in it. What was typed stays when the
// comment could not be added, and a refusal the member can act on (e.g. commenting too quickly: when to try
// again) shows under the line.
import { MENTIONS_MAX } from '@rotunda/rules';
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { type Mentioned, mentionText, stillMentioned } from '../mentions/mentions';
import { useMentionCompletion } from '../mentions/useMentionCompletion';
import type { CommentOutcome } from './usePostActions';

export interface MemberCommentFormProps {
  /** Sends the comment and the profile ids it mentions. */
  onSubmit: (body: string, mentions: number[]) => Promise<CommentOutcome>;
}

export function MemberCommentForm({ onSubmit }: MemberCommentFormProps) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<Mentioned[]>([]);
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Where the caret goes once an inserted name is on screen.
  const caretAfterInsert = useRef<number | null>(null);
  const id = useId();
  const blank = text.trim() === '';
  const mentioned = stillMentioned(text, chosen);

  const completion = useMentionCompletion({
    limitReached: mentioned.length >= MENTIONS_MAX,
    onChoose: (person, query) => {
      const caret = input.current?.selectionStart ?? text.length;
      const inserted = `${mentionText(person)} `;
      setText(text.slice(0, query.start) + inserted + text.slice(caret));
      setChosen((people) => [...people, person]);
      caretAfterInsert.current = query.start + inserted.length;
    },
  });

  useLayoutEffect(() => {
    if (caretAfterInsert.current === null || !input.current) return;
    input.current.setSelectionRange(caretAfterInsert.current, caretAfterInsert.current);
    caretAfterInsert.current = null;
  });

  const followCaret = (field: HTMLInputElement) =>
    completion.update(field.value.slice(0, field.selectionStart ?? field.value.length));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (blank || sending) return;
    setSending(true);
    setRefusal(null);
    const body = text.trim();
    const outcome = await onSubmit(
      body,
      stillMentioned(body, chosen).map((person) => person.profile_id),
    );
    setSending(false);
    if (outcome.added) {
      setText('');
      setChosen([]);
    } else setRefusal(outcome.refusal);
  };

  return (
    <form className="comment-form" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={id}>
        Add comment
      </label>
      <input
        ref={input}
        id={id}
        className="field__input comment-form__input"
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={completion.expanded}
        aria-controls={completion.listId}
        aria-activedescendant={completion.activeId}
        placeholder="Add comment"
        value={text}
        aria-describedby={refusal ? `${id}-refusal` : undefined}
        onChange={(event) => {
          setText(event.target.value);
          followCaret(event.target);
        }}
        onSelect={(event) => followCaret(event.currentTarget)}
        onKeyDown={(event) => completion.onKeyDown(event)}
        onBlur={completion.close}
      />
      <button
        type="submit"
        className="icon-button comment-form__send"
        aria-label="Send comment"
        disabled={blank || sending}
      >
        <SendHorizontal size={18} aria-hidden="true" />
      </button>
      {completion.popup}
      {refusal && (
        <p id={`${id}-refusal`} className="comment-form__refusal" role="alert">
          {refusal}
        </p>
      )}
    </form>
  );
}
