// The inputs the Create Post form and the read modal's edit share: the title and the rich-text body, and an
// event's location, date, start and end. The Create Post form's inputs carry their required state (and the
// title takes the focus, the location no browser suggestions); the edit's are only marked with '*', its own
// check saying what is missing. Only a new post's body completes "@" mentions: an edit does not change who is
// named.
import { type EventPostField, POST_FIELDS, POST_LABELS } from '@rotunda/rules';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field, RequiredMark } from '../common/Field';
import { type EditorValue, RichTextEditor } from '../editor/RichTextEditor';
import type { EventFields } from './post-form';

type InputFieldProps = {
  id: string;
  label: string;
  /** Spans the whole row of a field grid. */
  wide?: boolean;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** A required input of a post form in its labelled field ('*'); every other prop goes to the input. */
function InputField({ id, label, wide, value, onChange, ...input }: InputFieldProps) {
  return (
    <Field id={id} label={label} required wide={wide}>
      <input
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
    </Field>
  );
}

interface PostInputsProps {
  /** The id of a named input, unique to the form. */
  id: (name: string) => string;
  /** The Create Post form (see above), not the edit. */
  isNew: boolean;
}

interface TitleAndBodyProps extends PostInputsProps {
  title: string;
  onTitle: (title: string) => void;
  /** The body the editor starts from (an edited post's); empty for a new post. */
  initialHtml?: string;
  onBody: (body: EditorValue) => void;
}

export function TitleAndBody({ id, isNew, title, onTitle, initialHtml, onBody }: TitleAndBodyProps) {
  return (
    <>
      <InputField
        id={id('title')}
        label={POST_LABELS.title}
        type="text"
        autoComplete="off"
        required={isNew || undefined}
        data-autofocus={isNew || undefined}
        value={title}
        onChange={onTitle}
      />
      <div className="field">
        <span id={id('body')} className="field__label">
          {POST_LABELS.body}
          <RequiredMark />
        </span>
        <RichTextEditor
          labelId={id('body')}
          initialHtml={initialHtml}
          completeMentions={isNew}
          onChange={onBody}
        />
      </div>
    </>
  );
}

interface EventInputsProps extends PostInputsProps {
  values: EventFields;
  onChange: (field: keyof EventFields) => (value: string) => void;
  /** What goes between the date and the start time (the Create Post form's event type). */
  children?: ReactNode;
}

/** The input each kind of written event field takes. */
const INPUT_TYPES = { text: 'text', date: 'date', time: 'time' } as const;

interface EventInput {
  name: keyof EventFields;
  label: string;
  type: string;
  wide?: boolean;
}

/** The event's written fields in the form's order, each labelled and typed by its row of POST_FIELDS. */
const EVENT_INPUTS = (
  [
    { name: 'location', field: 'event_location', wide: true },
    { name: 'date', field: 'event_date' },
    { name: 'start', field: 'event_start' },
    { name: 'end', field: 'event_end' },
  ] satisfies { name: keyof EventFields; field: Exclude<EventPostField, 'eventtype_id'>; wide?: boolean }[]
).map(
  ({ field, ...input }): EventInput => ({
    ...input,
    label: POST_FIELDS[field].label,
    type: INPUT_TYPES[POST_FIELDS[field].kind],
  }),
);

export function EventInputs({ id, isNew, values, onChange, children }: EventInputsProps) {
  const input = ({ name, label, type, wide }: EventInput) => (
    <InputField
      key={name}
      id={id(name)}
      label={label}
      wide={wide}
      type={type}
      autoComplete={isNew && type === 'text' ? 'off' : undefined}
      required={isNew || undefined}
      value={values[name]}
      onChange={onChange(name)}
    />
  );
  return (
    <>
      {EVENT_INPUTS.slice(0, 2).map(input)}
      {children}
      {EVENT_INPUTS.slice(2).map(input)}
    </>
  );
}
