// The Create Post modal (spec §2, §4, §5): title, the rich-text body, the type; for events also location,
// date, start (12:00) and end (13:00) and the event type. 'Save changes' looks disabled until every required
// field is filled, and a click on it then lists what is missing. A saved post closes the modal; a refusal
// from the server (e.g. no profile yet) is shown here.
import { Dialog, refusalOf } from '@rotunda/ui';
import { Save } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { addPost, type EventType, fetchEventTypes, type Post, type PostType } from '../api';
import { Field, RequiredMark } from '../common/Field';
import { RichTextEditor } from '../editor/RichTextEditor';
import { useTypeList } from '../feed/useTypeList';
import { EMPTY_DRAFT, isEventType, missingForNewPost, newPostFrom, type PostDraft } from './post-form';
import '@rotunda/ui/forms.css';
import '../post/post-dialogs.css';

interface CreatePostDialogProps {
  open: boolean;
  postTypes: readonly PostType[];
  onClose: () => void;
  onCreated: (post: Post) => void;
}

export function CreatePostDialog({ open, postTypes, onClose, onCreated }: CreatePostDialogProps) {
  return (
    <Dialog
      open={open}
      title="Create Post"
      description="Share an announcement or an event with the public square. Fields marked * are required."
      onClose={onClose}
      className="dialog--wide"
    >
      {/* Mounted only while open, so every opening starts from an empty form. */}
      {open && <CreatePostForm postTypes={postTypes} onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function CreatePostForm({ postTypes, onClose, onCreated }: Omit<CreatePostDialogProps, 'open'>) {
  const [draft, setDraft] = useState<PostDraft>(EMPTY_DRAFT);
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const event = isEventType(draft.typeId);
  const eventTypes = useTypeList<EventType>(fetchEventTypes, event);
  const missing = missingForNewPost(draft);
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const set = (field: keyof PostDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const onSubmit = async (submitted: FormEvent) => {
    submitted.preventDefault();
    if (saving) return;
    if (missing) {
      setMessage(missing);
      return;
    }
    setSaving(true);
    setMessage(null);
    try {
      onCreated(await addPost(newPostFrom(draft)));
    } catch (failure) {
      const refusal = refusalOf(failure);
      if (!refusal) console.error('The post could not be saved', failure);
      setMessage(refusal ?? 'Your post could not be saved right now. Please try again in a moment.');
      setSaving(false);
    }
  };

  return (
    <form className="dialog-form post-form" onSubmit={onSubmit} noValidate>
      <div className="post-form__body dialog__body">
        <Field id={id('title')} label="Post Title" required>
          <input
            id={id('title')}
            className="field__input"
            type="text"
            autoComplete="off"
            required
            value={draft.title}
            onChange={(e) => set('title')(e.target.value)}
            data-autofocus
          />
        </Field>
        <div className="field">
          <span id={id('body')} className="field__label">
            Post Body
            <RequiredMark />
          </span>
          <RichTextEditor
            labelId={id('body')}
            onChange={({ html, empty }) => setDraft((d) => ({ ...d, body: html, bodyEmpty: empty }))}
          />
        </div>
        <Field id={id('type')} label="Type of Post" required>
          <select
            id={id('type')}
            className="field__input field__input--select"
            required
            value={draft.typeId}
            onChange={(e) => set('typeId')(e.target.value)}
          >
            <option value="">Choose a type</option>
            {postTypes.map((type) => (
              <option key={type.posttype_id} value={type.posttype_id}>
                {type.post_type}
              </option>
            ))}
          </select>
        </Field>
        {event && (
          <fieldset className="post-form__event">
            <legend className="post-form__legend">Event details</legend>
            <Field id={id('location')} label="Event Location" required wide>
              <input
                id={id('location')}
                className="field__input"
                type="text"
                autoComplete="off"
                required
                value={draft.location}
                onChange={(e) => set('location')(e.target.value)}
              />
            </Field>
            <Field id={id('date')} label="Event Date" required>
              <input
                id={id('date')}
                className="field__input"
                type="date"
                required
                value={draft.date}
                onChange={(e) => set('date')(e.target.value)}
              />
            </Field>
            <Field id={id('event-type')} label="Event Type">
              <select
                id={id('event-type')}
                className="field__input field__input--select"
                value={draft.eventTypeId}
                onChange={(e) => set('eventTypeId')(e.target.value)}
              >
                <option value="">Choose an event type</option>
                {eventTypes.map((type) => (
                  <option key={type.eventtype_id} value={type.eventtype_id}>
                    {type.event_type}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={id('start')} label="Start Time" required>
              <input
                id={id('start')}
                className="field__input"
                type="time"
                required
                value={draft.start}
                onChange={(e) => set('start')(e.target.value)}
              />
            </Field>
            <Field id={id('end')} label="End Time" required>
              <input
                id={id('end')}
                className="field__input"
                type="time"
                required
                value={draft.end}
                onChange={(e) => set('end')(e.target.value)}
              />
            </Field>
          </fieldset>
        )}
      </div>
      <div className="post-form__footer">
        {message && (
          <p className="post-form__message" role="alert">
            {message}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Close
          </button>
          {/* Looks disabled while incomplete but stays clickable, so a click can say what is missing. */}
          <button
            type="submit"
            className="button button--primary"
            aria-disabled={missing !== null || saving || undefined}
          >
            <Save size={18} aria-hidden="true" />
            {saving ? 'Saving…' : 'Save changes'}
          </button>
        </div>
      </div>
    </form>
  );
}
