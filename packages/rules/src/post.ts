// The public square's post form rules (docs/product.md#3-entities-and-their-fields, #5-validation-rules
// create post, #9-business-constants-and-limits): the field names the required-fields message uses, the EVENT
// type's id, an event's default times, and that an event ends after it starts (spec silent; a calendar entry
// that ends before it begins is a typo a member wants caught); how many comments travel with a post and per
// page of the earlier ones.

/** docs/product.md#3-entities-and-their-fields: the post type EVENT has id 9. */
export const EVENT_POST_TYPE_ID = 9;

/**
 * The spec's field names in the required-fields message, in the form's order
 * (docs/product.md#5-validation-rules create post).
 */
export const POST_LABELS = {
  title: 'Post Title',
  body: 'Post Body',
  postType: 'Type of Post',
  eventLocation: 'Event Location',
  eventDate: 'Event Date',
  eventStart: 'Start Time',
  eventEnd: 'End Time',
} as const;

/** docs/product.md#9-business-constants-and-limits: an event's times before the member changes them. */
export const EVENT_DEFAULT_TIMES = { start: '12:00', end: '13:00' } as const;

export const EVENT_TIMES_MESSAGE = 'End Time must be after Start Time.';

/** Times of day as HH:MM (seconds ignored): does the event end after it starts, on its one day? */
export function eventEndsAfterStart(start: string, end: string): boolean {
  return end.slice(0, 5) > start.slice(0, 5);
}

/**
 * Comments on the feed and in the read modal: a feed page carries each post's latest few (with the count of all),
 * so its size never grows with the comments; the read modal asks for the earlier ones a page at a time.
 */
export const POST_COMMENTS = {
  /** The latest comments each post of a feed page carries. */
  latest: 3,
  /** Comments per page of the earlier ones: the default and the most one call may ask for. */
  page: { default: 20, max: 50 },
} as const;
