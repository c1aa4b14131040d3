// The post form's rules (spec §5, Create post): Post Title, Post Body and Type of Post are required, and for
// events (type 9) Event Location, Event Date, Start Time and End Time too, listed in the shared
// 'Please provide entries for the following required fields: ' message. Event times start at 12:00 and 13:00.
import { requiredFieldsMessage } from '@rotunda/rules';
import { EVENT_POST_TYPE_ID, type NewPost } from '../api';

/** Spec §9: event defaults. */
export const DEFAULT_EVENT_START = '12:00';
export const DEFAULT_EVENT_END = '13:00';

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
};

export const isEventType = (typeId: string): boolean => typeId === String(EVENT_POST_TYPE_ID);

const eventRequirements = (event: EventFields) => ({
  'Event Location': event.location,
  'Event Date': event.date,
  'Start Time': event.start,
  'End Time': event.end,
});

/** The missing-fields message for a new post, or null when it can be saved. */
export function missingForNewPost(draft: PostDraft): string | null {
  return requiredFieldsMessage({
    'Post Title': draft.title,
    'Post Body': draft.bodyEmpty ? '' : 'entered',
    'Type of Post': draft.typeId,
    ...(isEventType(draft.typeId) && eventRequirements(draft)),
  });
}

/** The missing-fields message for an edited post (its type does not change), or null. */
export function missingForEdit(
  edit: { title: string; bodyEmpty: boolean } & EventFields,
  event: boolean,
): string | null {
  return requiredFieldsMessage({
    'Post Title': edit.title,
    'Post Body': edit.bodyEmpty ? '' : 'entered',
    ...(event && eventRequirements(edit)),
  });
}

/** What add-post is sent: the event fields only for events, null otherwise. */
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
  };
}
