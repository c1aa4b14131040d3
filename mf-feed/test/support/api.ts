// The stand-in gateway of @rotunda/ui/testing (a handler per "METHOD path", every call recorded with its URL, JSON
// body and headers); builders make posts and comments as docs/api.md shapes them.
import {
  type RecordedCall as AnyCall,
  type Handler as AnyHandler,
  json,
  stubFetch,
} from '@rotunda/ui/testing';
import type { Comment, EventType, Post, PostType } from '../../src/api';

export { json, noContent, refusal } from '@rotunda/ui/testing';

/** A call with its JSON body parsed (undefined without one). */
export type RecordedCall = AnyCall<Record<string, unknown> | undefined>;
export type Handler = AnyHandler<RecordedCall>;

export const stubApi = (routes: Record<string, Handler>): RecordedCall[] =>
  stubFetch(routes, (body) =>
    typeof body === 'string' ? (JSON.parse(body) as Record<string, unknown>) : undefined,
  );

/** The calls to one endpoint ("METHOD path"). */
export const callsTo = (calls: readonly RecordedCall[], route: string) =>
  calls.filter((call) => `${call.method} ${call.url.pathname}` === route);

/** POST /api/posts/all over `all`, paged by the body's offset and limit as the gateway does. */
export function feedOf(all: readonly Post[]): Handler {
  return (call) => {
    const offset = Number(call.body?.offset ?? 0);
    const limit = Number(call.body?.limit ?? 20);
    return json(all.slice(offset, offset + limit));
  };
}

export const POST_TYPES: PostType[] = [
  { posttype_id: 1, post_type: 'ANNOUNCEMENT' },
  { posttype_id: 2, post_type: 'JOB POSTING' },
  { posttype_id: 9, post_type: 'EVENT' },
];

export const EVENT_TYPES: EventType[] = [
  { eventtype_id: 3, event_type: 'HEARING' },
  { eventtype_id: 1, event_type: 'RECEPTION' },
  { eventtype_id: 2, event_type: 'WORKSHOP' },
  { eventtype_id: 4, event_type: 'OTHER' },
];

/** The endpoints every public square render calls, with `posts` as the whole feed. */
export function squareRoutes(
  posts: readonly Post[],
  more: Record<string, Handler> = {},
): Record<string, Handler> {
  return {
    'POST /api/posts/all': feedOf(posts),
    'GET /api/posts/post-types': () => json(POST_TYPES),
    'GET /api/posts/event-types': () => json(EVENT_TYPES),
    'GET /api/news': () => json([]),
    'POST /api/posts/get-likes/u-1': () => json([]),
    'POST /api/posts/update-read-count': (call) => json({ post_id: call.body?.post_id, reads: 1 }),
    ...more,
  };
}

export function comment(overrides: Partial<Comment> = {}): Comment {
  const id = overrides.comment_id ?? 1;
  return {
    comment_id: id,
    post_id: 1,
    comment_author: 41,
    comment_body: `Comment ${id}`,
    user_id: 'u-other',
    createdAt: '2026-01-15T18:00:00.000Z',
    updatedAt: '2026-01-15T18:00:00.000Z',
    ProfileInfo: { profile_id: 41, first_name: 'Rosa', last_name: 'Marquez' },
    ...overrides,
  };
}

export function post(overrides: Partial<Post> = {}): Post {
  const id = overrides.post_id ?? 1;
  return {
    post_id: id,
    post_title: `Post ${id}`,
    post_body: `<p>Body of post ${id}</p>`,
    post_author: 40,
    user_id: 'u-other',
    organization_id: 7,
    division_id: null,
    organization_name: 'Department of Water Stewardship',
    division_name: null,
    posttype_id: 1,
    post_type: 'ANNOUNCEMENT',
    eventtype_id: null,
    event_type: null,
    event_location: null,
    event_date: null,
    event_start: null,
    event_end: null,
    created_at: '2026-01-15T18:30:00.000Z',
    updated_at: '2026-01-15T18:30:00.000Z',
    likes_count: 0,
    reads: 0,
    comments_count: overrides.PostComments?.length ?? 0,
    ProfileInfo: { profile_id: 40, first_name: 'Ada', last_name: 'Lopez', user_id: 'u-other' },
    PostComments: [],
    ...overrides,
  };
}

/** An event post: a workshop on 2026-01-15 from 12:00 to 13:00 in Sacramento. */
export function eventPost(overrides: Partial<Post> = {}): Post {
  return post({
    posttype_id: 9,
    post_type: 'EVENT',
    eventtype_id: 2,
    event_type: 'WORKSHOP',
    event_location: '1021 O Street, Sacramento',
    event_date: '2026-01-15',
    event_start: '12:00',
    event_end: '13:00',
    ...overrides,
  });
}

export const many = (count: number, from = 1): Post[] =>
  Array.from({ length: count }, (_, i) => post({ post_id: from + i }));
