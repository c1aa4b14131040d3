// The post form's rules (docs/product.md#5-validation-rules, Create post): Post Title, Post Body and Type of
// Post are required, and for events (type 9) Event Location, Event Date, Start Time and End Time too, listed
// in the shared 'Please provide entries for the following required fields: ' message; an event must end after
// it starts. Event times start at 12:00 and 13:00. The labels, defaults and rules are @rotunda/rules', shared
// with the server.
import {
  EVENT_DEFAULT_TIMES,
  EVENT_POST_TYPE_ID,
  EVENT_TIMES_MESSAGE,
  eventEndsAfterStart,
  postRequirements,
  requiredFieldsMessage,
} from '@rotunda/rules';
import type { NewPost } from '../api';

/** docs/product.md#9-business-constants-and-limits: event defaults. */
export const DEFAULT_EVENT_START = EVENT_DEFAULT_TIMES.start;
export const DEFAULT_EVENT_END = EVENT_DEFAULT_TIMES.end;

export interface EventFields {
  location: string;
  date: string;
  start: string;
  end: string;
}

export interface PostDraft extends EventFields {
  title: string;
  body: string;
  /** The body has no visible text (an empty editor still holds markup such as <p><br></p>). */
  bodyEmpty: boolean;
  /** The chosen post type's id as the select holds it; '' when none is chosen. */
  typeId: string;
  /** The chosen event type's id; '' when none is chosen (it is optional). */
  eventTypeId: string;
  /** The profile ids of the people the body names ("@" completion). */
  mentions: number[];
}

export const EMPTY_DRAFT: PostDraft = {
  title: '',
  body: '',
  bodyEmpty: true,
  typeId: '',
  location: '',
  date: '',
  start: DEFAULT_EVENT_START,
  end: DEFAULT_EVENT_END,
  eventTypeId: '',
  mentions: [],
};

export const isEventType = (typeId: string): boolean => typeId === String(EVENT_POST_TYPE_ID);

/** An event's times out of order, once both are given. */
const timesProblem = (event: EventFields): string | null =>
  event.start && event.end && !eventEndsAfterStart(event.start, event.end) ? EVENT_TIMES_MESSAGE : null;

/**
 * The required fields of a form, label → value, in the spec's order (@rotunda/rules' POST_FIELDS): the type
 * only when the form has one (an edit does not).
 */
const requirements = (
  form: { title: string; bodyEmpty: boolean; typeId?: string } & EventFields,
  event: boolean,
) =>
  postRequirements(
    {
      title: form.title,
      body: form.bodyEmpty ? '' : 'entered',
      ...(form.typeId !== undefined && { postTypeId: form.typeId }),
      eventLocation: form.location,
      eventDate: form.date,
      eventStart: form.start,
      eventEnd: form.end,
    },
    event,
  );

/** What keeps a new post from being saved (the missing fields, else times out of order), or null. */
export function missingForNewPost(draft: PostDraft): string | null {
  const event = isEventType(draft.typeId);
  return requiredFieldsMessage(requirements(draft, event)) ?? (event ? timesProblem(draft) : null);
}

/** The same for an edited post (its type does not change), or null. */
export function missingForEdit(
  edit: { title: string; bodyEmpty: boolean } & EventFields,
  event: boolean,
): string | null {
  return requiredFieldsMessage(requirements(edit, event)) ?? (event ? timesProblem(edit) : null);
}

/** What add-post is sent: the event fields only for events, null otherwise; the people named, if any. */
export function newPostFrom(draft: PostDraft): NewPost {
  const event = isEventType(draft.typeId);
  return {
    post_title: draft.title.trim(),
    post_body: draft.body,
    post_type: Number(draft.typeId),
    event_location: event ? draft.location.trim() : null,
    event_date: event ? draft.date : null,
    event_start: event ? draft.start : null,
    event_end: event ? draft.end : null,
    event_type: event && draft.eventTypeId ? Number(draft.eventTypeId) : null,
    ...(draft.mentions.length > 0 && { mentions: draft.mentions }),
  };
}
