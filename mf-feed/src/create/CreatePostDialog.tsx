// The Create Post modal (docs/product.md#2-screens-and-routes, #4-states-and-transitions,
// #5-validation-rules): title, the rich-text body, the type; for events also location, date, start (12:00)
// and end (13:00) and the event type. 'Save changes' looks disabled until every required field is filled, and
// a click on it then lists what is missing. A saved post closes the modal; a refusal from the server (e.g. no
// profile yet) is shown here.
import { POST_FIELDS, POST_LABELS } from '@rotunda/rules';
import { CancelAndSave, Dialog, refusalOr, useAction } from '@rotunda/ui';
import { type FormEvent, useId, useState } from 'react';
import { addPost, type EventType, fetchEventTypes, type Post, type PostType } from '../api';
import { Field } from '../common/Field';
import { useTypeList } from '../feed/useTypeList';
import { EventInputs, TitleAndBody } from './PostInputs';
import { EMPTY_DRAFT, isEventType, missingForNewPost, newPostFrom, type PostDraft } from './post-form';
import '@rotunda/ui/forms.css';
import '../post/post-dialogs.css';

const SAVE_FAILED = refusalOr({
  logged: 'The post could not be saved',
  shown: 'Your post could not be saved right now. Please try again in a moment.',
});

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
  const { busy: saving, error: message, run } = useAction();
  const event = isEventType(draft.typeId);
  const eventTypes = useTypeList<EventType>(fetchEventTypes, event);
  const missing = missingForNewPost(draft);
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const set = (field: keyof PostDraft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const onSubmit = (submitted: FormEvent) => {
    submitted.preventDefault();
    run(async () => onCreated(await addPost(newPostFrom(draft))), SAVE_FAILED, missing);
  };

  return (
    <form className="dialog-form post-form" onSubmit={onSubmit} noValidate>
      <div className="post-form__body dialog__body">
        <TitleAndBody
          id={id}
          isNew
          title={draft.title}
          onTitle={set('title')}
          onBody={({ html, empty, mentions }) =>
            setDraft((d) => ({ ...d, body: html, bodyEmpty: empty, mentions }))
          }
        />
        <TypeSelect
          id={id('type')}
          label={POST_LABELS.postType}
          required
          none="Choose a type"
          types={postTypes.map((type) => ({ id: type.posttype_id, name: type.post_type }))}
          value={draft.typeId}
          onChange={set('typeId')}
        />
        {event && (
          <fieldset className="post-form__event">
            <legend className="post-form__legend">Event details</legend>
            <EventInputs id={id} isNew values={draft} onChange={set}>
              <TypeSelect
                id={id('event-type')}
                label={POST_FIELDS.eventtype_id.label}
                none="Choose an event type"
                types={eventTypes.map((type) => ({ id: type.eventtype_id, name: type.event_type }))}
                value={draft.eventTypeId}
                onChange={set('eventTypeId')}
              />
            </EventInputs>
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
          {/* Looks disabled while incomplete but stays clickable, so a click can say what is missing. */}
          <CancelAndSave
            onCancel={onClose}
            cancelLabel="Close"
            saving={saving}
            looksDisabled={missing !== null || saving}
          />
        </div>
      </div>
    </form>
  );
}

interface TypeSelectProps {
  id: string;
  label: string;
  required?: boolean;
  /** The first option, for no type chosen. */
  none: string;
  types: readonly { id: number; name: string }[];
  value: string;
  onChange: (value: string) => void;
}

/** A post type or event type select in its labelled field. */
function TypeSelect({ id, label, required = false, none, types, value, onChange }: TypeSelectProps) {
  return (
    <Field id={id} label={label} required={required}>
      <select
        id={id}
        className="field__input field__input--select"
        required={required || undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{none}</option>
        {types.map((type) => (
          <option key={type.id} value={type.id}>
            {type.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
