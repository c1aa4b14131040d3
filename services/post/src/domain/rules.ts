// The public square's rules, enforced on the server whatever the browser did
// (docs/product.md#5-validation-rules create post, comments, searches): required fields with the spec's
// labels and message, event fields for EVENT posts only, dates and times in their formats and an event ending
// after it starts, sane lengths, search words. Pure functions; the post service applies them.
import {
  EVENT_POST_TYPE_ID,
  EVENT_TIMES_MESSAGE,
  eventEndsAfterStart,
  isCalendarDate,
  POST_LABELS,
  requiredFieldsMessage,
  textFieldRules,
} from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import type { EventFields } from './post.ts';

export const LABELS = POST_LABELS;

export const LIMITS = {
  title: 200,
  /** Of the HTML as sent: a long announcement with formatting fits many times over. */
  body: 50_000,
  location: 200,
  comment: 5_000,
} as const;

/** Page sizes of the feed (docs/product.md#9-business-constants-and-limits: 20 at a time). */
export const PAGE = { default: 20, max: 50 } as const;

const rules = textFieldRules(invalidArgument);

/** Split on spaces, as the spec's searches do; blank words dropped, count and length bounded (@rotunda/rules). */
export const { searchWords } = rules;

/** Trims; refuses text longer than `max`, naming the field. Blank is '' (the required-fields rule decides). */
export const cleanText = (value: string, label: string, max: number): string =>
  rules.cleanText(value, label, max) ?? '';

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

/**
 * Title, body and type are required, and for events (type 9) location, date, start and end too
 * (docs/product.md#5-validation-rules); the message lists only the missing ones, in the form's order. Then
 * the formats: date and times.
 */
export function checkPost(draft: PostDraft): EventFields {
  const isEvent = draft.postTypeId === EVENT_POST_TYPE_ID;
  const message = requiredFieldsMessage({
    [LABELS.title]: draft.title,
    [LABELS.body]: draft.bodyText,
    [LABELS.postType]: draft.postTypeId > 0 ? draft.postTypeId : null,
    ...(isEvent
      ? {
          [LABELS.eventLocation]: draft.eventLocation,
          [LABELS.eventDate]: draft.eventDate,
          [LABELS.eventStart]: draft.eventStart,
          [LABELS.eventEnd]: draft.eventEnd,
        }
      : {}),
  });
  if (message) throw invalidArgument(message);
  if (!isEvent)
    return { eventTypeId: null, eventLocation: null, eventDate: null, eventStart: null, eventEnd: null };
  const event = {
    eventTypeId: draft.eventTypeId,
    eventLocation: cleanText(draft.eventLocation ?? '', LABELS.eventLocation, LIMITS.location),
    eventDate: cleanDate(draft.eventDate ?? '', LABELS.eventDate),
    eventStart: cleanTime(draft.eventStart ?? '', LABELS.eventStart),
    eventEnd: cleanTime(draft.eventEnd ?? '', LABELS.eventEnd),
  };
  if (!eventEndsAfterStart(event.eventStart, event.eventEnd)) throw invalidArgument(EVENT_TIMES_MESSAGE);
  return event;
}
