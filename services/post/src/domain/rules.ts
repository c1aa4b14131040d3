// The public square's rules, enforced on the server whatever the browser did
// (docs/product.md#5-validation-rules create post, comments, searches): required fields with the spec's
// labels and message, event fields for EVENT posts only, dates and times in their formats and an event ending
// after it starts, sane lengths, search words. Pure functions; the post service applies them.
import {
  COMMENT_FIELDS,
  EVENT_POST_FIELDS,
  EVENT_POST_TYPE_ID,
  EVENT_TIMES_MESSAGE,
  type EventFieldValues,
  eventEndsAfterStart,
  isCalendarDate,
  POST_FIELDS,
  type PostFieldKind,
  type PostFieldSpec,
  postFieldKey,
  postRequirements,
  requiredFieldsMessage,
  TEXT_LIMITS,
  textFieldRules,
  tooLongMessage,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import type { EventFields } from './post.ts';

/** Page sizes of the feed (docs/product.md#9-business-constants-and-limits: 20 at a time). */
export const PAGE = { default: 20, max: 50 } as const;

const rules = textFieldRules(invalidArgument);

/** Split on spaces, as the spec's searches do; blank words dropped, count and length bounded (@rotunda/rules). */
export const { searchWords } = rules;

/** Trims; refuses text longer than `max`, naming the field. Blank is '' (the required-fields rule decides). */
export const cleanText = (value: string, label: string, max: number): string =>
  rules.cleanText(value, label, max) ?? '';

/** A post's title as stored: trimmed, at most its limit. */
export const cleanTitle = (value: string): string =>
  cleanText(value, POST_FIELDS.post_title.label, POST_FIELDS.post_title.limit);

/** Refuses a body longer than its limit as sent (it is sanitized after). */
export function checkBodyLength(html: string): void {
  const { label, limit } = POST_FIELDS.post_body;
  if (html.length > limit) throw invalidArgument(tooLongMessage(label, limit));
}

/** A comment's text as stored: trimmed, at most its limit; '' when blank. */
export const cleanCommentText = (value: string): string =>
  cleanText(value, COMMENT_FIELDS.comment_body.label, COMMENT_FIELDS.comment_body.limit);

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?$/;

/** A calendar date as YYYY-MM-DD (what a date input sends), or a 400 naming the field. */
export function cleanDate(value: string, label: string): string {
  if (!isCalendarDate(value)) throw invalidArgument(`${label} must be a date (YYYY-MM-DD).`);
  return value;
}

/** A time of day as HH:MM (a time input may add seconds, which are dropped), or a 400 naming the field. */
export function cleanTime(value: string, label: string): string {
  const match = TIME.exec(value);
  if (!match) throw invalidArgument(`${label} must be a time (HH:MM).`);
  return `${match[1]}:${match[2]}`;
}

/** What the rules check of a post, new or edited: its text as stored, its type, its event fields. */
export interface PostDraft extends EventFields {
  title: string;
  /** The body's visible text after sanitizing: a body with none is missing. */
  bodyText: string;
  /** 0 when not chosen. */
  postTypeId: number;
}

/** How an event's written fields are cleaned, by kind (the type's id is checked against the list before). */
const CLEANERS: Record<
  Exclude<PostFieldKind, 'rich-text' | 'type'>,
  (value: string, spec: PostFieldSpec) => string
> = {
  text: (value, spec) => cleanText(value, spec.label, spec.limit ?? TEXT_LIMITS.text),
  date: (value, spec) => cleanDate(value, spec.label),
  time: (value, spec) => cleanTime(value, spec.label),
};

const NO_EVENT = Object.fromEntries(
  EVENT_POST_FIELDS.map((name) => [postFieldKey(name), null]),
) as EventFieldValues;

/**
 * Title, body and type are required, and for events (type 9) location, date, start and end too
 * (docs/product.md#5-validation-rules); the message lists only the missing ones, in the form's order. Then
 * the formats: date and times.
 */
export function checkPost(draft: PostDraft): EventFields {
  const isEvent = draft.postTypeId === EVENT_POST_TYPE_ID;
  const message = requiredFieldsMessage(
    postRequirements(
      { ...draft, body: draft.bodyText, postTypeId: draft.postTypeId > 0 ? draft.postTypeId : null },
      isEvent,
    ),
  );
  if (message) throw invalidArgument(message);
  if (!isEvent) return { ...NO_EVENT };
  const event: Record<string, unknown> = {};
  for (const name of EVENT_POST_FIELDS) {
    const spec: PostFieldSpec = POST_FIELDS[name];
    const key = postFieldKey(name);
    event[key] =
      spec.kind === 'type'
        ? draft[key]
        : CLEANERS[spec.kind as keyof typeof CLEANERS](String(draft[key] ?? ''), spec);
  }
  const checked = event as EventFieldValues;
  if (!eventEndsAfterStart(checked.eventStart ?? '', checked.eventEnd ?? ''))
    throw invalidArgument(EVENT_TIMES_MESSAGE);
  return checked;
}
