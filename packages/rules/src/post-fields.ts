// A post's and a comment's fields a member writes, one row each (ADR 0060): keyed by the name the gRPC messages
// and the REST answers share (post_title), each row holding the post service's name for it, the REST request
// body's name where the as-built client sends another (post_type for the type's id), the label forms and
// refusals show, the kind of value, the longest text, whether it is required (always, or for events only) and
// whether its author may change it. The gateway's bodies, the messages it forwards and its answers' fields, the
// post service's messages both ways and its checks, and the Create Post form's required fields are derived
// from these tables.
import { POST_LABELS } from './post.ts';

/**
 * text: trimmed plain text; rich-text: the editor's HTML, sanitized by the service (its limit is the HTML's as
 * sent); type: a fixed type's id (0 or absent is none); date: YYYY-MM-DD; time: HH:MM.
 */
export type PostFieldKind = 'text' | 'rich-text' | 'type' | 'date' | 'time';

/**
 * 'always': every post (docs/product.md#5-validation-rules Create Post); 'events': posts of type 9 only;
 * false: optional.
 */
export type PostFieldRequirement = 'always' | 'events' | false;

export interface PostFieldSpec {
  /** The post service's name for it. */
  key: string;
  /** The REST request body's name, where it is not the row's. */
  body?: string;
  label: string;
  kind: PostFieldKind;
  /** The longest text (text and rich-text kinds). */
  limit?: number;
  required: PostFieldRequirement;
  /** Whether it belongs to events only (null on every other post). */
  event: boolean;
  /** 'author': only its author changes it; null: set when it is posted, never changed. */
  editor: 'author' | null;
}

/** In the Create Post form's order: the required-fields message names them in this order. */
export const POST_FIELDS = {
  post_title: {
    key: 'title',
    label: POST_LABELS.title,
    kind: 'text',
    limit: 200,
    required: 'always',
    event: false,
    editor: 'author',
  },
  post_body: {
    key: 'body',
    label: POST_LABELS.body,
    kind: 'rich-text',
    // Of the HTML as sent: a long announcement with formatting fits many times over.
    limit: 50_000,
    required: 'always',
    event: false,
    editor: 'author',
  },
  posttype_id: {
    key: 'postTypeId',
    body: 'post_type',
    label: POST_LABELS.postType,
    kind: 'type',
    required: 'always',
    event: false,
    editor: null,
  },
  event_location: {
    key: 'eventLocation',
    label: POST_LABELS.eventLocation,
    kind: 'text',
    limit: 200,
    required: 'events',
    event: true,
    editor: 'author',
  },
  event_date: {
    key: 'eventDate',
    label: POST_LABELS.eventDate,
    kind: 'date',
    required: 'events',
    event: true,
    editor: 'author',
  },
  eventtype_id: {
    key: 'eventTypeId',
    body: 'event_type',
    label: 'Event Type',
    kind: 'type',
    required: false,
    event: true,
    editor: 'author',
  },
  event_start: {
    key: 'eventStart',
    label: POST_LABELS.eventStart,
    kind: 'time',
    required: 'events',
    event: true,
    editor: 'author',
  },
  event_end: {
    key: 'eventEnd',
    label: POST_LABELS.eventEnd,
    kind: 'time',
    required: 'events',
    event: true,
    editor: 'author',
  },
} as const satisfies Record<string, PostFieldSpec>;

type Table = typeof POST_FIELDS;

/** A post field as the gRPC messages and the REST answers name it: post_title. */
export type PostFieldName = keyof Table;
/** A post field as the post service names it: title. */
export type PostFieldKey = Table[PostFieldName]['key'];
export type PostFieldKeyOf<N extends PostFieldName> = Table[N]['key'];
/** A post field as the REST request bodies name it: post_type. */
export type PostBodyNameOf<N extends PostFieldName> = Table[N] extends { body: infer B extends string }
  ? B
  : N;

type NamesWhere<Condition> = {
  [N in PostFieldName]: Table[N] extends Condition ? N : never;
}[PostFieldName];

/** What an edit may change: all but the type. */
export type EditablePostField = NamesWhere<{ editor: 'author' }>;
/** The fields of events only. */
export type EventPostField = NamesWhere<{ event: true }>;
/** The fields every post has. */
export type AlwaysGivenPostField = NamesWhere<{ required: 'always' }>;

/** A field's value as the messages carry it: a type's id is a number (0 for none), any other text. */
export type PostFieldValue<N extends PostFieldName> = Table[N]['kind'] extends 'type' ? number : string;

/** A post's fields as a member writes them, under the service's names: a type 0 and text '' when not given. */
export type PostFieldValues = { [N in PostFieldName as PostFieldKeyOf<N>]: PostFieldValue<N> };

/** The event fields as a post holds them under the service's names: all null on a post that is not an event. */
export type EventFieldValues = { [N in EventPostField as PostFieldKeyOf<N>]: PostFieldValue<N> | null };

/** A post's written fields as the REST answers give them: null where a post has none. */
export type PostFieldAnswers = {
  [N in PostFieldName]: N extends AlwaysGivenPostField ? PostFieldValue<N> : PostFieldValue<N> | null;
};

/** A post's written fields as add-post's body sends them: null where a post has none. */
export type PostFieldBody = {
  [N in PostFieldName as PostBodyNameOf<N>]: PostFieldAnswers[N];
};

/** Every field, in the form's order. */
export const POST_FIELD_NAMES = Object.keys(POST_FIELDS) as PostFieldName[];

const namesWhere = <N extends PostFieldName>(test: (spec: PostFieldSpec) => boolean) =>
  POST_FIELD_NAMES.filter((name) => test(POST_FIELDS[name])) as N[];

export const EDITABLE_POST_FIELDS = namesWhere<EditablePostField>((spec) => spec.editor === 'author');
export const EVENT_POST_FIELDS = namesWhere<EventPostField>((spec) => spec.event);

/** post_title → title. */
export const postFieldKey = <N extends PostFieldName>(name: N): PostFieldKeyOf<N> => POST_FIELDS[name].key;

/** posttype_id → post_type: the name a REST request body gives it. */
export const postBodyName = <N extends PostFieldName>(name: N): PostBodyNameOf<N> =>
  ((POST_FIELDS[name] as PostFieldSpec).body ?? name) as PostBodyNameOf<N>;

/**
 * The required fields of a post, label → value, in the form's order, for requiredFieldsMessage: title, body
 * and type, and for an event its location, date and times. A field `values` does not hold is left out (an
 * edit's form has no type).
 */
export function postRequirements(
  values: Partial<Record<PostFieldKey, unknown>>,
  isEvent: boolean,
): Record<string, unknown> {
  const required: Record<string, unknown> = {};
  for (const name of POST_FIELD_NAMES) {
    const spec: PostFieldSpec = POST_FIELDS[name];
    const key = spec.key as PostFieldKey;
    if (!(key in values)) continue;
    if (spec.required === 'always' || (spec.required === 'events' && isEvent))
      required[spec.label] = values[key];
  }
  return required;
}

/**
 * A comment's field: plain text, its author's alone to change. A blank one has its own refusal
 * (docs/product.md#5-validation-rules: 'Please write a comment first'), not the required-fields message.
 */
export const COMMENT_FIELDS = {
  comment_body: {
    key: 'body',
    label: 'Comment',
    kind: 'text',
    limit: 5_000,
    required: 'always',
    editor: 'author',
  },
} as const satisfies Record<string, Omit<PostFieldSpec, 'event'>>;

/** A comment field as the gRPC messages, the REST bodies and answers name it. */
export type CommentFieldName = keyof typeof COMMENT_FIELDS;
export const COMMENT_FIELD_NAMES = Object.keys(COMMENT_FIELDS) as CommentFieldName[];
