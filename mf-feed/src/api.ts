// The REST calls of the public square (docs/api.md, Posts; docs/product.md#7-the-calls-it-makes) and
// their answers' shapes, sent with @rotunda/ui's client (errors carry the status and the server's own
// message). Reading the feed is public; every call still sends the member's fresh access token when someone
// is signed in (x-auth-token), which the writes need. A visitor's first feed page may already be in the page
// the gateway drew, or on its way: the shell starts it early (takeEarly).
import {
  EVENT_POST_TYPE_ID,
  FIRST_FEED_ELEMENT_ID,
  FIRST_POST_ELEMENT_ID,
  type ModerationAction,
  type PostFieldAnswers,
  type PostFieldBody,
  type ReportReason,
} from '@rotunda/rules';
import { asList, call, type Method, type OutgoingRequest } from '@rotunda/ui';
import type { Mentioned } from './mentions/mentions';

/**
 * A hidden post's or comment's state, carried only to its author and contributors (ADR 0041): the reason a
 * contributor gave, or hidden automatically after several members' reports until a contributor decides.
 */
export interface Moderation {
  state: 'hidden';
  reason: string;
  automatic: boolean;
}

/** A comment as the gateway answers it (contract: `comment`). */
export interface Comment {
  comment_id: number;
  post_id: number;
  comment_author: number;
  comment_body: string;
  user_id: string;
  createdAt: string;
  updatedAt: string;
  ProfileInfo: { profile_id: number; first_name: string; last_name: string } | null;
  moderation?: Moderation;
  /** The people the comment names: their "@First Last" in the text links to their profile. */
  mentions?: Mentioned[];
}

/** A post as the gateway answers it (docs/product.md#3-entities-and-their-fields Post); post_body is sanitized HTML. */
export interface Post extends PostFieldAnswers {
  post_id: number;
  post_author: number;
  user_id: string;
  organization_id: number | null;
  division_id: number | null;
  organization_name: string | null;
  division_name: string | null;
  post_type: string;
  event_type: string | null;
  created_at: string;
  updated_at: string;
  likes_count: number;
  reads: number;
  /** Every comment of the post. */
  comments_count: number;
  ProfileInfo: { profile_id: number; first_name: string; last_name: string; user_id: string | null } | null;
  /** Oldest first: the latest few as the feed carries them, and any earlier ones the read modal fetched. */
  PostComments: Comment[];
  moderation?: Moderation;
  /** The people the post names: their "@First Last" in the body links to their profile. */
  mentions?: Mentioned[];
}

/** A page of a post's earlier comments (GET /api/posts/:id/comments). */
export interface CommentsPage {
  /** Oldest first. */
  comments: Comment[];
  /** There are comments before the first of these. */
  has_earlier: boolean;
}

export interface PostType {
  posttype_id: number;
  post_type: string;
}

export interface EventType {
  eventtype_id: number;
  event_type: string;
}

/**
 * Is it an event (docs/product.md#3-entities-and-their-fields, #9-business-constants-and-limits: post type id
 * 9, name EVENT)?
 */
export const isEvent = (post: Pick<Post, 'posttype_id'>): boolean => post.posttype_id === EVENT_POST_TYPE_ID;

/** Feed page size (docs/product.md#9-business-constants-and-limits). */
export const PAGE_SIZE = 20;

export type SortMode = 'recent' | 'popular' | 'random';

/** Where the shell's entry hands over a visitor's first request it started early (shell/src/remotes/early.ts). */
export const EARLY_REQUESTS = '__rotundaEarlyRequests';

/** That page's request, as fetchPosts sends it first (Recent, nothing filtered) and the shell starts it early. */
const FIRST_FEED_REQUEST = `POST /api/posts/all ${JSON.stringify({ offset: 0, limit: PAGE_SIZE, sort: 'recent' })}`;

/** The JSON text a page the gateway drew carries in element `id`, taken once (a later call asks the server). */
function takeCarried(id: string): string | null {
  const element = document.getElementById(id);
  if (!element) return null;
  element.remove();
  return element.textContent;
}

/**
 * The answer to exactly this request if the shell started it early, taken once (a second call asks the
 * server itself); null when there is none, or it failed, so that the caller makes its own request.
 */
async function takeEarly({ method, path, body }: OutgoingRequest): Promise<Response | null> {
  const early = (globalThis as { [EARLY_REQUESTS]?: Map<string, Promise<Response>> })[EARLY_REQUESTS];
  const key = `${method} ${path} ${body}`;
  const carried = key === FIRST_FEED_REQUEST ? takeCarried(FIRST_FEED_ELEMENT_ID) : null;
  if (carried !== null) {
    early?.delete(key);
    return new Response(carried, { headers: { 'content-type': 'application/json' } });
  }
  const answer = early?.get(key);
  if (!answer) return null;
  early?.delete(key);
  return answer.then(
    (response) => (response.ok ? response : null),
    () => null,
  );
}

const ask = <T>(method: Method, path: string, body?: unknown, signal?: AbortSignal) =>
  call<T>(method, path, { body, signal, early: takeEarly });

async function list<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T[]> {
  return asList<T>(await ask<unknown>(method, path, body, signal), `${method} ${path}`);
}

export interface FeedQuery {
  offset: number;
  sort: SortMode;
  /** The visit's random seed; sent with the random order only, which it keeps stable from page to page. */
  seed: number;
  posttypeId: number | null;
  search: string;
  /** Only posts whose author shares an issue area with the member ("My issue areas"); absent: every post. */
  myIssues?: boolean;
}

/** One page of the feed, sorted, filtered and searched on the server. */
export function fetchPosts(query: FeedQuery, signal?: AbortSignal): Promise<Post[]> {
  const search = query.search.trim();
  return list<Post>(
    'POST',
    '/api/posts/all',
    {
      offset: query.offset,
      limit: PAGE_SIZE,
      sort: query.sort,
      ...(query.sort === 'random' && { seed: query.seed }),
      ...(query.posttypeId !== null && { posttype_id: query.posttypeId }),
      ...(search !== '' && { search }),
      ...(query.myIssues && { my_issues: true }),
    },
    signal,
  );
}

/** The post the page carries, if it is this one: taken once (a later opening asks the server). */
function takeFirstPost(postId: number): Post | null {
  const carried = takeCarried(FIRST_POST_ELEMENT_ID);
  if (carried === null) return null;
  try {
    const post = JSON.parse(carried) as Post;
    return post.post_id === postId ? post : null;
  } catch {
    return null;
  }
}

/**
 * One post at its own address, as the feed shows it; 404 for one the server does not show. A visitor starts from
 * the copy the page carries; a member asks, for their own view of it (their hidden post, for one).
 */
export function fetchPost(postId: number, member: boolean, signal?: AbortSignal): Promise<Post> {
  const carried = takeFirstPost(postId);
  if (carried && !member) return Promise.resolve(carried);
  return ask<Post>('GET', `/api/posts/${postId}`, undefined, signal);
}

/** Whether the member's profile covers an issue area (the square offers "My issue areas" then). */
export async function fetchCoversIssueAreas(signal?: AbortSignal): Promise<boolean> {
  const info = await ask<{ has_issue_areas?: boolean }>('POST', '/api/posts/profile-info', {}, signal);
  return info.has_issue_areas === true;
}

export const fetchPostTypes = (signal?: AbortSignal) =>
  list<PostType>('GET', '/api/posts/post-types', undefined, signal);

export const fetchEventTypes = (signal?: AbortSignal) =>
  list<EventType>('GET', '/api/posts/event-types', undefined, signal);

/** The ids of the posts the member likes (their own likes only: userId is theirs). */
export async function fetchLikedPostIds(userId: string, signal?: AbortSignal): Promise<number[]> {
  const likes = await list<{ post_id: number; liked: boolean }>(
    'POST',
    `/api/posts/get-likes/${encodeURIComponent(userId)}`,
    {},
    signal,
  );
  return likes.filter((like) => like.liked).map((like) => like.post_id);
}

/** Likes or unlikes; answers the server-counted likes. */
export const setLike = (postId: number, liked: boolean) =>
  ask<{ post_id: number; liked: boolean; likes_count: number }>('POST', '/api/posts/add-like', {
    post_id: postId,
    liked,
  });

/** Counts one more read of the post (Keep Reading). */
export const countRead = (postId: number) =>
  ask<{ post_id: number; reads: number }>('POST', '/api/posts/update-read-count', { post_id: postId });

/** The comments written before comment `before` (the latest without it), a page at a time. */
export function fetchEarlierComments(postId: number, before: number | null): Promise<CommentsPage> {
  const query = before === null ? '' : `?before=${before}`;
  return ask<CommentsPage>('GET', `/api/posts/${postId}/comments${query}`);
}

/** Adds a comment; `mentions` are the profile ids it names (sent only when there are some). */
export const addComment = (postId: number, body: string, mentions: readonly number[] = []) =>
  call<Comment>('POST', '/api/posts/add-comment', {
    body: { post_id: postId, comment_body: body, ...(mentions.length > 0 && { mentions }) },
    idempotent: true,
  });

export const updateComment = (commentId: number, body: string) =>
  ask<Comment>('POST', '/api/posts/update-comment', { comment_id: commentId, comment_body: body });

export const deleteComment = (commentId: number) =>
  ask<void>('DELETE', '/api/posts/delete-comment', { comment_id: commentId });

/** What the Create Post form sends (@rotunda/rules' POST_FIELDS); the event fields are null for other types. */
export type NewPost = PostFieldBody & {
  /** The profile ids the body names; left out when it names nobody. */
  mentions?: number[];
};

/** Sent with an Idempotency-Key, so a retry after a lost answer never posts twice. */
export const addPost = (post: NewPost) =>
  call<Post>('POST', '/api/posts/add-post', { body: post, idempotent: true });

/** What the read modal's edit saves; the event fields are sent for events only. */
export interface PostUpdate {
  post_id: number;
  post_title: string;
  post_body: string;
  event_location?: string;
  event_date?: string;
  event_start?: string;
  event_end?: string;
}

export const updatePost = (update: PostUpdate) => ask<Post>('POST', '/api/posts/update-post', update);

export const deletePost = (postId: number) =>
  ask<void>('DELETE', '/api/posts/delete-post', { post_id: postId });

/** A person the "@" completion offers, from the directory search (GET /api/profiles/search). */
export interface PersonMatch extends Mentioned {
  title: string | null;
  organization_name: string | null;
}

/** The first `limit` people of the directory matching `search` (names, title, organization). */
export async function searchPeople(
  search: string,
  limit: number,
  signal?: AbortSignal,
): Promise<PersonMatch[]> {
  const params = new URLSearchParams({ search, offset: '0', limit: String(limit) });
  const page = await ask<{ profiles: PersonMatch[] }>(
    'GET',
    `/api/profiles/search?${params}`,
    undefined,
    signal,
  );
  return page.profiles;
}

/** What a member may report (docs/product.md#moderation). */
export type ReportTarget = { target_type: 'post' | 'comment'; target_id: number };

/** Reports a post or comment; a member's repeat report of one target counts once (the same report_id). */
export const addReport = (target: ReportTarget, reason: ReportReason, note: string) =>
  ask<{ report_id: number }>('POST', '/api/reports', {
    ...target,
    reason,
    ...(note !== '' && { note }),
  });

/** One of the member's own reports and what became of it (ADR 0041: the closed report is their notice). */
export interface MyReport {
  report_id: number;
  target_type: 'post' | 'comment';
  target_id: number;
  /** For a comment, the post it is on; for a post, its own id. */
  post_id: number;
  reason: ReportReason;
  note: string;
  created_at: string;
  /** Open until a contributor decides on the target. */
  status: 'open' | 'closed';
  /** The decision that closed it; '' while open. */
  outcome: ModerationAction | '';
  decided_at: string | null;
  /** A post's title or the start of a comment's text; empty once it was removed. */
  excerpt: string;
}

/** The member's own reports, newest first (at most 100). */
export const fetchMyReports = (signal?: AbortSignal) =>
  list<MyReport>('GET', '/api/reports/mine', undefined, signal);
