// Posts, comments, likes and the post and event types as the post service's rules see them
// (docs/product.md#3-entities-and-their-fields), with the fixed lists of types, and the read copies of other
// services' names (ADR 0012).
import { EVENT_POST_TYPE_ID, type EventFieldValues } from '@rotunda/rules';
import type { ModerationMark, ModerationState } from './visibility.ts';

export interface PostType {
  postTypeId: number;
  postType: string;
}

export interface EventType {
  eventTypeId: number;
  eventType: string;
}

/**
 * What members of a state-government directory announce. The ids never change; 9 is EVENT
 * (docs/product.md#3-entities-and-their-fields).
 */
export const POST_TYPES = [
  { postTypeId: 1, postType: 'ANNOUNCEMENT' },
  { postTypeId: 2, postType: 'PRESS RELEASE' },
  { postTypeId: 3, postType: 'POLICY UPDATE' },
  { postTypeId: 4, postType: 'BILL UPDATE' },
  { postTypeId: 5, postType: 'REPORT' },
  { postTypeId: 6, postType: 'JOB OPENING' },
  { postTypeId: 7, postType: 'APPOINTMENT' },
  { postTypeId: 8, postType: 'PUBLIC COMMENT' },
  { postTypeId: EVENT_POST_TYPE_ID, postType: 'EVENT' },
] as const satisfies readonly PostType[];

/**
 * The kinds of event. The ids never change; the list is answered by name with OTHER last
 * (docs/product.md#3-entities-and-their-fields).
 */
export const EVENT_TYPES = [
  { eventTypeId: 1, eventType: 'HEARING' },
  { eventTypeId: 2, eventType: 'TOWN HALL' },
  { eventTypeId: 3, eventType: 'WORKSHOP' },
  { eventTypeId: 4, eventType: 'WEBINAR' },
  { eventTypeId: 5, eventType: 'CONFERENCE' },
  { eventTypeId: 6, eventType: 'RECEPTION' },
  { eventTypeId: 7, eventType: 'FUNDRAISER' },
  { eventTypeId: 8, eventType: 'PRESS CONFERENCE' },
  { eventTypeId: 9, eventType: 'NETWORKING' },
  { eventTypeId: 10, eventType: 'OTHER' },
] as const satisfies readonly EventType[];

export const OTHER_EVENT_TYPE = 'OTHER';

/** Event types by name, OTHER last (docs/product.md#3-entities-and-their-fields). */
export function eventTypeOrder(a: EventType, b: EventType): number {
  const aOther = a.eventType === OTHER_EVENT_TYPE;
  const bOther = b.eventType === OTHER_EVENT_TYPE;
  if (aOther !== bOther) return aOther ? 1 : -1;
  return a.eventType < b.eventType ? -1 : a.eventType > b.eventType ? 1 : 0;
}

/** Who wrote a post or comment, from the read copy of profiles. */
export interface AuthorName {
  profileId: number;
  firstName: string;
  lastName: string;
  /** The profile's member; null if the copy has none. */
  userId: string | null;
}

/** An author as the read copy keeps them: the names, and the issue areas their posts are filed under. */
export interface AuthorCopy extends AuthorName {
  /** Ids of the issue areas the profile covers; undefined keeps what the copy holds (an older announcement). */
  issueAreaIds?: readonly number[];
}

/** A person a post or comment names, with the read copy's names. */
export interface Mention {
  profileId: number;
  firstName: string;
  lastName: string;
}

export interface Comment {
  commentId: number;
  postId: number;
  authorId: number;
  userId: string;
  body: string;
  createdAt: Date;
  updatedAt: Date;
  /** Null when the read copy does not know the author (yet). */
  author: AuthorName | null;
  moderation: ModerationMark;
  /** The people it names whom the read copy knows, in the order written. */
  mentions: Mention[];
}

/** The event fields of a post (@rotunda/rules' POST_FIELDS); all null for posts that are not events. */
export type EventFields = EventFieldValues;

export interface Post extends EventFields {
  postId: number;
  title: string;
  /** Sanitized HTML. */
  body: string;
  authorId: number;
  userId: string;
  organizationId: number | null;
  divisionId: number | null;
  /** From the read copies: current after a rename; null when the copy does not know it (yet). */
  organizationName: string | null;
  divisionName: string | null;
  postTypeId: number;
  postType: string;
  eventType: string | null;
  likesCount: number;
  reads: number;
  createdAt: Date;
  updatedAt: Date;
  author: AuthorName | null;
  /** Every comment of the post. */
  commentsCount: number;
  /** The latest few (POST_COMMENTS.latest), oldest first; the earlier ones come a page at a time. */
  comments: Comment[];
  moderation: ModerationMark;
  /** The people it names whom the read copy knows, in the order written. */
  mentions: Mention[];
}

/** A page of a post's comments, oldest first, and whether there are earlier ones. */
export interface CommentsPage {
  comments: Comment[];
  hasEarlier: boolean;
}

/** A new post as stored: the rules have checked and sanitized it and taken its author from the profile service. */
export interface NewPost extends EventFields {
  title: string;
  body: string;
  bodyText: string;
  authorId: number;
  userId: string;
  organizationId: number | null;
  divisionId: number | null;
  postTypeId: number;
}

/** The stored fields an edit may change. */
export type PostChanges = Partial<EventFields & { title: string; body: string; bodyText: string }>;

/** What the search index needs of a post. */
export interface IndexedPost {
  postId: number;
  title: string;
  bodyText: string;
  authorFirstName: string;
  authorLastName: string;
  postTypeId: number;
  createdAt: Date;
  likesCount: number;
  /** The author's issue areas as the read copy holds them ("My issue areas"). */
  authorIssueAreaIds: number[];
  /** The author's member and the post's moderation: who may find it. */
  userId: string;
  moderationState: ModerationState;
}

/**
 * A member as the profile service answers for authors (contract: ProfileService.Author): the current job's
 * organization and division, null when there is none.
 */
export interface Author {
  profileId: number;
  /** Empty for an unclaimed profile. */
  userId: string;
  firstName: string;
  lastName: string;
  organizationId: number | null;
  divisionId: number | null;
  /** Ids of the issue areas the profile covers; absent when the profile service did not say (an older one). */
  issueAreaIds?: number[];
}

/** Read copy rows of the org service's names. */
export interface OrganizationName {
  organizationId: number;
  organizationName: string;
}

export interface DivisionName {
  divisionId: number;
  divisionName: string;
  organizationId: number;
}

/** The feed's orders (contract: recent, popular, random). */
export const SORTS = ['recent', 'popular', 'random'] as const;
export type Sort = (typeof SORTS)[number];
