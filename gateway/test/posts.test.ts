// The /api/posts/* paths against a fake PostService on real gRPC: docs/api.md's answer shapes (the spec's
// names, null for what a post has not), public reads for visitors (the feed, a post's earlier comments) and
// member-only writes (401 before the service is asked), the caller carried in the metadata, author fields and
// counts sent by the browser never forwarded, validation refusals that never reach the service, service
// refusals mapped to HTTP (a member commenting too quickly: 429 with Retry-After), and the feed's page cache:
// one call per distinct request for members and visitors alike until the feed version moves or this gateway
// forwards a write, visitors revalidating, the fallback when the version cannot be asked, and compressed
// variants of kept pages.
import { type IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { TOO_MANY_MENTIONS } from '@rotunda/rules';
import { DomainError, IDEMPOTENCY_MESSAGES, idempotencyKeyOf } from '@rotunda/service-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keyedMicroCache } from '../src/http/micro-cache.ts';
import {
  accessToken,
  type FakeAuth,
  get,
  MEMBER,
  post,
  type RunningGateway,
  type SigningKey,
  signingKey,
  startFakeAuth,
  startGateway,
} from './support/fake-auth.ts';
import {
  COMMENT,
  EVENT_POST,
  EVENT_TYPES,
  type FakePost,
  PLAIN_POST,
  POST_TYPES,
  startFakePost,
} from './support/fake-post.ts';

const LOGIN_REQUIRED = { errors: [{ msg: 'Access Restricted. Please login.' }] };

let key: SigningKey;
let auth: FakeAuth;
let posts: FakePost;
let gateway: RunningGateway;
let member: Record<string, string>;

beforeAll(async () => {
  key = await signingKey('key-1');
  auth = await startFakeAuth([key]);
  posts = await startFakePost();
  gateway = await startGateway({ AUTH_SERVICE_ADDR: auth.address, POST_SERVICE_ADDR: posts.address });
  member = { 'x-auth-token': await accessToken(key) };
});
afterEach(() => posts.reset());
afterAll(async () => {
  await gateway.close();
  await posts.server.shutdown();
  await auth.server.shutdown();
});

const url = (path: string, base = gateway.base) => `${base}${path}`;

/** DELETE with a JSON body, as the product sends it. */
async function del(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url(path), {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const COMMENT_JSON = {
  comment_id: 31,
  post_id: 7,
  comment_author: 102,
  comment_body: 'Will there be a recording?',
  user_id: 'concierge-1',
  createdAt: '2026-11-20T17:00:00.000Z',
  updatedAt: '2026-11-20T18:00:00.000Z',
  ProfileInfo: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker' },
  mentions: [],
};

const EVENT_JSON = {
  post_id: 7,
  post_title: 'Hearing on rural broadband',
  post_body: '<p>Public comment at the end.</p>',
  post_author: 101,
  user_id: MEMBER.sub,
  organization_id: 12,
  division_id: 3,
  organization_name: 'Capitol Bridge Advocates',
  division_name: 'Government Affairs',
  posttype_id: 9,
  post_type: 'EVENT',
  eventtype_id: 1,
  event_type: 'HEARING',
  event_location: 'Capitol Annex, Room 1200',
  event_date: '2026-12-08',
  event_start: '09:30',
  event_end: '12:00',
  created_at: '2026-11-20T16:00:00.000Z',
  updated_at: '2026-11-20T16:00:00.000Z',
  likes_count: 4,
  reads: 17,
  comments_count: 1,
  ProfileInfo: { profile_id: 101, first_name: 'Maya', last_name: 'Delgado', user_id: MEMBER.sub },
  mentions: [{ profile_id: 205, first_name: 'Dana', last_name: 'Lee' }],
  PostComments: [COMMENT_JSON],
};

/** Every field present, null where the post has none. */
const PLAIN_JSON = {
  post_id: 8,
  post_title: 'Water plan adopted',
  post_body: '<p>The board adopted the plan.</p>',
  post_author: 102,
  user_id: 'concierge-1',
  organization_id: 14,
  division_id: null,
  organization_name: 'Delta Water Authority',
  division_name: null,
  posttype_id: 2,
  post_type: 'PRESS RELEASE',
  eventtype_id: null,
  event_type: null,
  event_location: null,
  event_date: null,
  event_start: null,
  event_end: null,
  created_at: '2026-11-21T09:00:00.000Z',
  updated_at: '2026-11-21T09:00:00.000Z',
  likes_count: 0,
  reads: 0,
  comments_count: 0,
  ProfileInfo: { profile_id: 102, first_name: 'Carlos', last_name: 'Whitaker', user_id: 'concierge-1' },
  mentions: [],
  PostComments: [],
};

describe('public reads', () => {
  it('POST /api/posts/all answers a visitor the page, with defaults forwarded', async () => {
    const res = await post(url('/api/posts/all'), {});
    expect(res).toMatchObject({ status: 200, body: [PLAIN_JSON, EVENT_JSON] });
    expect(posts.callsTo('listPosts')[0]).toEqual({
      method: 'listPosts',
      request: {
        offset: 0,
        limit: 20,
        sort: 'recent',
        seed: 0,
        posttype_id: 0,
        search: '',
        my_issues: false,
      },
      caller: undefined,
    });
  });

  it('forwards paging, sort, seed, type and search', async () => {
    await post(url('/api/posts/all'), {
      offset: 40,
      limit: '20',
      sort: 'random',
      seed: 123456789,
      posttype_id: '9',
      search: '  water   plan ',
    });
    expect(posts.callsTo('listPosts')[0]?.request).toEqual({
      offset: 40,
      limit: 20,
      sort: 'random',
      seed: 123456789,
      posttype_id: 9,
      search: 'water plan',
      my_issues: false,
    });
  });

  it('drops the seed of an order that is not random, and takes null as not given', async () => {
    await post(url('/api/posts/all'), { sort: 'popular', seed: 5, posttype_id: null, search: null });
    expect(posts.callsTo('listPosts')[0]?.request).toMatchObject({
      sort: 'popular',
      seed: 0,
      posttype_id: 0,
      search: '',
    });
  });

  it.each([
    [{ limit: 0 }, 'limit must be a whole number from 1 to 50'],
    [{ limit: 51 }, 'limit must be a whole number from 1 to 50'],
    [{ offset: -1 }, 'offset must be a whole number from 0 to 99950'],
    [{ offset: 1.5 }, 'offset must be a whole number from 0 to 99950'],
    [{ sort: 'oldest' }, 'sort must be one of recent, popular, random'],
    [{ sort: 'random', seed: 2 ** 31 }, 'seed must be a whole number'],
    [{ posttype_id: 'event' }, 'posttype_id must be a whole number'],
    [{ search: ['water'] }, 'search must be text'],
    [{ search: 'x'.repeat(201) }, 'search is too long'],
  ])('refuses %j with 400 without asking the service', async (body, message) => {
    expect(await post(url('/api/posts/all'), body)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(posts.calls).toEqual([]);
  });

  it('GET /api/posts/post-types and event-types answer the lists', async () => {
    expect(await get(url('/api/posts/post-types'))).toMatchObject({ status: 200, body: POST_TYPES });
    expect(await get(url('/api/posts/event-types'))).toMatchObject({ status: 200, body: EVENT_TYPES });
  });

  it('GET /api/posts/post-type/:id and event-type/:id answer one type; 400 for a bad id; 404 passed on', async () => {
    expect(await get(url('/api/posts/post-type/9'))).toMatchObject({
      status: 200,
      body: { posttype_id: 9, post_type: 'EVENT' },
    });
    expect(posts.callsTo('getPostType')[0]?.request).toEqual({ posttype_id: 9 });
    expect(await get(url('/api/posts/event-type/1'))).toMatchObject({
      status: 200,
      body: { eventtype_id: 1, event_type: 'HEARING' },
    });
    expect((await get(url('/api/posts/post-type/nine'))).status).toBe(400);
    expect(await get(url('/api/posts/event-type/99999999999'))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Event type not found' }] },
    });
    posts.answer('getPostType', async () => {
      throw new DomainError('not_found', 'Post type not found');
    });
    expect(await get(url('/api/posts/post-type/42'))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Post type not found' }] },
    });
  });

  it('POST /api/posts/update-read-count counts a visitor’s read; a sent count is not forwarded', async () => {
    const res = await post(url('/api/posts/update-read-count'), { post_id: 7, reads: 5000 });
    expect(res).toMatchObject({ status: 200, body: { post_id: 7, reads: 18 } });
    expect(posts.callsTo('addRead')[0]).toMatchObject({ request: { post_id: 7 }, caller: undefined });
    expect((await post(url('/api/posts/update-read-count'), {})).status).toBe(400);
  });
});

describe('a post’s earlier comments: GET /api/posts/:id/comments', () => {
  it('answers a visitor the comments before one, oldest first, and whether there are earlier ones', async () => {
    const res = await get(url('/api/posts/7/comments?before=31&limit=5'));
    expect(res).toMatchObject({ status: 200, body: { comments: [COMMENT_JSON], has_earlier: true } });
    expect(posts.callsTo('listComments')[0]).toEqual({
      method: 'listComments',
      request: { post_id: 7, before_comment_id: 31, limit: 5 },
      caller: undefined,
    });
  });

  it('asks for the latest 20 when neither is given; a member’s answer is never cached', async () => {
    const res = await get(url('/api/posts/7/comments'), member);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(posts.callsTo('listComments')[0]).toMatchObject({
      request: { post_id: 7, before_comment_id: 0, limit: 20 },
      caller: { userId: MEMBER.sub },
    });
  });

  it.each([
    ['/api/posts/seven/comments', 'The id must be a whole number.'],
    ['/api/posts/-7/comments', 'The id must be a whole number.'],
    ['/api/posts/7/comments?before=0', 'before must be a whole number from 1 to 2147483647'],
    ['/api/posts/7/comments?before=31.5', 'before must be a whole number from 1 to 2147483647'],
    ['/api/posts/7/comments?before=99999999999', 'before must be a whole number from 1 to 2147483647'],
    ['/api/posts/7/comments?limit=0', 'limit must be a whole number from 1 to 50'],
    ['/api/posts/7/comments?limit=51', 'limit must be a whole number from 1 to 50'],
    ['/api/posts/7/comments?limit=all', 'limit must be a whole number from 1 to 50'],
    ['/api/posts/7/comments?limit=5&limit=6', 'limit must be a whole number from 1 to 50'],
  ])('refuses %s with 400 without asking the service', async (path, message) => {
    expect(await get(url(path))).toMatchObject({ status: 400, body: { errors: [{ msg: message }] } });
    expect(posts.calls).toEqual([]);
  });

  it('passes the service’s 404 on: no such post, or a comment of another post', async () => {
    expect(await get(url('/api/posts/99999999999/comments'))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Post not found' }] },
    });
    posts.answer('listComments', async () => {
      throw new DomainError('not_found', 'Comment not found');
    });
    expect(await get(url('/api/posts/7/comments?before=12'))).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Comment not found' }] },
    });
  });
});

describe('members only', () => {
  const calls: [string, string, unknown][] = [
    ['POST', '/api/posts/add-post', { post_title: 'x', post_body: 'y', post_type: 1 }],
    ['POST', '/api/posts/update-post', { post_id: 7, post_title: 'x' }],
    ['DELETE', '/api/posts/delete-post', { post_id: 7 }],
    ['POST', '/api/posts/add-comment', { post_id: 7, comment_body: 'Hi' }],
    ['POST', '/api/posts/update-comment', { comment_id: 31, comment_body: 'Hi' }],
    ['DELETE', '/api/posts/delete-comment', { comment_id: 31 }],
    ['POST', '/api/posts/add-like', { post_id: 7, liked: true, likes_count: 1, user_id: MEMBER.sub }],
    ['POST', `/api/posts/get-likes/${MEMBER.sub}`, {}],
    ['POST', '/api/posts/profile-info', { data: MEMBER.sub }],
  ];

  it.each(calls)('%s %s answers 401 to a visitor without asking the service', async (method, path, body) => {
    const res = method === 'DELETE' ? await del(path, body) : await post(url(path), body);
    expect(res).toMatchObject({ status: 401, body: LOGIN_REQUIRED });
    expect(posts.calls).toEqual([]);
  });

  it('answers 401 to a token that fails verification, even on the public feed', async () => {
    const res = await post(url('/api/posts/all'), {}, { 'x-auth-token': 'not.a.token' });
    expect(res.status).toBe(401);
    expect(posts.calls).toEqual([]);
  });

  it('still answers 404 for a path that does not exist', async () => {
    expect((await post(url('/api/posts/no-such-path'), {})).status).toBe(404);
  });
});

describe('posts', () => {
  it('POST /api/posts/add-post: 201 with the post; author, counts and ids sent by the browser are not forwarded', async () => {
    const res = await post(
      url('/api/posts/add-post'),
      {
        post_title: 'Hearing on rural broadband',
        post_body: '<p>Public comment at the end.</p>',
        post_type: '9',
        event_location: 'Capitol Annex, Room 1200',
        event_date: '2026-12-08',
        event_start: '09:30',
        event_end: '12:00',
        event_type: 1,
        post_author: 999,
        user_id: 'someone-else',
        organization_id: 1,
        division_id: 2,
        likes_count: 100,
        reads: 100,
      },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: EVENT_JSON });
    expect(posts.callsTo('addPost')[0]).toEqual({
      method: 'addPost',
      request: {
        post_title: 'Hearing on rural broadband',
        post_body: '<p>Public comment at the end.</p>',
        posttype_id: 9,
        event_location: 'Capitol Annex, Room 1200',
        event_date: '2026-12-08',
        event_start: '09:30',
        event_end: '12:00',
        eventtype_id: 1,
        mentions: [],
      },
      caller: { userId: MEMBER.sub, email: MEMBER.email, roles: ['default-roles-rotunda'] },
    });
  });

  it('forwards a form with nothing chosen as empty, for the service to name what is missing', async () => {
    posts.answer('addPost', async () => {
      throw new DomainError(
        'invalid_argument',
        'Please provide entries for the following required fields: Post Title, Post Body, Type of Post',
      );
    });
    expect(await post(url('/api/posts/add-post'), { post_type: '', event_type: null }, member)).toMatchObject(
      {
        status: 400,
        body: {
          errors: [
            {
              msg: 'Please provide entries for the following required fields: Post Title, Post Body, Type of Post',
            },
          ],
        },
      },
    );
    expect(posts.callsTo('addPost')[0]?.request).toMatchObject({
      post_title: '',
      post_body: '',
      posttype_id: 0,
      eventtype_id: 0,
    });
  });

  it('answers 409 to a member without a profile', async () => {
    posts.answer('addPost', async () => {
      throw new DomainError('failed_precondition', 'Please create your profile before posting');
    });
    expect(
      await post(url('/api/posts/add-post'), { post_title: 'x', post_body: 'y', post_type: 1 }, member),
    ).toMatchObject({
      status: 409,
      body: { errors: [{ msg: 'Please create your profile before posting' }] },
    });
  });

  it.each([
    [{ post_title: 42, post_body: 'y', post_type: 1 }, 'post_title must be text'],
    [{ post_title: 'x', post_body: { html: 'y' }, post_type: 1 }, 'post_body must be text'],
    [{ post_title: 'x', post_body: 'y', post_type: 'event' }, 'post_type must be a whole number'],
    [{ post_title: 'x', post_body: 'y', post_type: 9, event_type: 1.5 }, 'event_type must be a whole number'],
  ])('refuses add-post %j with 400 without asking the service', async (body, message) => {
    expect(await post(url('/api/posts/add-post'), body, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: message }] },
    });
    expect(posts.calls).toEqual([]);
  });

  it('POST /api/posts/update-post forwards only the fields sent', async () => {
    const res = await post(
      url('/api/posts/update-post'),
      { post_id: 7, post_title: 'Hearing moved', event_date: '2026-12-10', likes_count: 3 },
      member,
    );
    expect(res).toMatchObject({ status: 200, body: EVENT_JSON });
    const request = posts.callsTo('updatePost')[0]?.request;
    expect(request).toMatchObject({ post_id: 7, post_title: 'Hearing moved', event_date: '2026-12-10' });
    for (const field of ['post_body', 'event_location', 'event_start', 'event_end', 'eventtype_id'])
      expect(request?.[field]).toBeUndefined();
  });

  it('passes the service’s refusals on: 403 for someone else’s post, 404 for none', async () => {
    posts.answer('updatePost', async () => {
      throw new DomainError('permission_denied', 'Only the author can change this post');
    });
    expect(await post(url('/api/posts/update-post'), { post_id: 7, post_title: 'x' }, member)).toMatchObject({
      status: 403,
      body: { errors: [{ msg: 'Only the author can change this post' }] },
    });
    posts.answer('deletePost', async () => {
      throw new DomainError('not_found', 'Post not found');
    });
    expect(await del('/api/posts/delete-post', { post_id: 99 }, member)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Post not found' }] },
    });
    expect((await post(url('/api/posts/update-post'), { post_title: 'x' }, member)).status).toBe(400);
  });

  it('DELETE /api/posts/delete-post answers 204', async () => {
    expect(await del('/api/posts/delete-post', { post_id: 7 }, member)).toEqual({
      status: 204,
      body: undefined,
    });
    expect(posts.callsTo('deletePost')[0]).toMatchObject({
      request: { post_id: 7 },
      caller: { userId: MEMBER.sub },
    });
    expect(await del('/api/posts/delete-post', {}, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'post_id must be a whole number' }] },
    });
  });
});

describe('comments', () => {
  it('POST /api/posts/add-comment: 201 with the comment; author fields sent are not forwarded', async () => {
    const res = await post(
      url('/api/posts/add-comment'),
      {
        post_id: 7,
        comment_body: 'Will there be a recording?',
        comment_author: 999,
        user_id: 'someone-else',
      },
      member,
    );
    expect(res).toMatchObject({ status: 201, body: COMMENT_JSON });
    expect(posts.callsTo('addComment')[0]?.request).toEqual({
      post_id: 7,
      comment_body: 'Will there be a recording?',
      mentions: [],
    });
  });

  it('passes the people a post or comment mentions on, each once', async () => {
    const body = { post_title: 'x', post_body: 'y', post_type: 1, mentions: [205, '206', 205] };
    expect((await post(url('/api/posts/add-post'), body, member)).status).toBe(201);
    expect(posts.callsTo('addPost')[0]?.request.mentions).toEqual([205, 206]);
    const comment = { post_id: 7, comment_body: 'Thanks @Dana Lee', mentions: [205] };
    expect((await post(url('/api/posts/add-comment'), comment, member)).status).toBe(201);
    expect(posts.callsTo('addComment')[0]?.request.mentions).toEqual([205]);
    // null, as a form with nobody mentioned may send it, is nobody.
    expect((await post(url('/api/posts/add-comment'), { ...comment, mentions: null }, member)).status).toBe(
      201,
    );
    expect(posts.callsTo('addComment')[1]?.request.mentions).toEqual([]);
  });

  it.each([
    [Array.from({ length: 11 }, (_, index) => index + 1), TOO_MANY_MENTIONS],
    [[205, 0], 'mentions must be a whole number'],
    [[205, 1.5], 'mentions must be a whole number'],
    ['205', 'mentions must be a list of profile ids'],
  ])('refuses mentions %j with 400 without asking the service', async (mentions, message) => {
    for (const [path, body] of [
      ['/api/posts/add-post', { post_title: 'x', post_body: 'y', post_type: 1, mentions }],
      ['/api/posts/add-comment', { post_id: 7, comment_body: 'y', mentions }],
    ] as const)
      expect(await post(url(path), body, member)).toMatchObject({
        status: 400,
        body: { errors: [{ msg: message }] },
      });
    expect(posts.calls).toEqual([]);
  });

  it('passes the empty-comment refusal on', async () => {
    posts.answer('addComment', async () => {
      throw new DomainError('invalid_argument', 'Please write a comment first');
    });
    expect(await post(url('/api/posts/add-comment'), { post_id: 7 }, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'Please write a comment first' }] },
    });
    expect(posts.callsTo('addComment')[0]?.request).toEqual({ post_id: 7, comment_body: '', mentions: [] });
  });

  it('answers 429 with Retry-After and the service’s words to a member commenting too quickly', async () => {
    posts.answer('addComment', async () => {
      throw new DomainError(
        'resource_exhausted',
        'You are commenting too quickly. Please try again in 12 seconds.',
      );
    });
    const res = await post(url('/api/posts/add-comment'), { post_id: 7, comment_body: 'Again' }, member);
    expect(res).toMatchObject({
      status: 429,
      body: { errors: [{ msg: 'You are commenting too quickly. Please try again in 12 seconds.' }] },
    });
    expect(res.headers.get('retry-after')).toBe('12');
  });

  it('POST /api/posts/update-comment and DELETE /api/posts/delete-comment; 403 passed on', async () => {
    expect(
      await post(url('/api/posts/update-comment'), { comment_id: 31, comment_body: 'Edited' }, member),
    ).toMatchObject({ status: 200, body: COMMENT_JSON });
    expect(posts.callsTo('updateComment')[0]?.request).toEqual({ comment_id: 31, comment_body: 'Edited' });
    expect(await del('/api/posts/delete-comment', { comment_id: 31 }, member)).toEqual({
      status: 204,
      body: undefined,
    });
    posts.answer('deleteComment', async () => {
      throw new DomainError('permission_denied', 'Only the author can delete this comment');
    });
    expect(await del('/api/posts/delete-comment', { comment_id: 31 }, member)).toMatchObject({
      status: 403,
      body: { errors: [{ msg: 'Only the author can delete this comment' }] },
    });
  });
});

describe('Idempotency-Key (ADR 0046)', () => {
  const POST = { post_title: 'x', post_body: 'y', post_type: 1 };
  /** The key each addPost and addComment call carried in its metadata, in order. */
  const keysSent = () => {
    const sent: (string | undefined)[] = [];
    for (const method of ['addPost', 'addComment']) {
      posts.answer(method, async (_request, context) => {
        sent.push(idempotencyKeyOf(context.metadata));
        return method === 'addPost' ? PLAIN_POST : COMMENT;
      });
    }
    return sent;
  };

  it('passes the key of a create on to the service, bare or as the draft standard’s quoted string', async () => {
    const sent = keysSent();
    const key = '6f1c3a8e-52d4-4c1b-9a3e-0d2f7b9c4e11';
    const comment = { post_id: 7, comment_body: 'z' };
    const answers = [
      await post(url('/api/posts/add-post'), POST, { ...member, 'idempotency-key': key }),
      await post(url('/api/posts/add-comment'), comment, { ...member, 'Idempotency-Key': `"${key}"` }),
      await post(url('/api/posts/add-post'), POST, member),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(sent).toEqual([key, key, undefined]);
  });

  it.each([
    ['too short', 'abc1234'],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words here'],
    ['with a quote inside', '"abc"def"'],
    ['not ASCII', 'clé-numéro-1'],
  ])('refuses a key %s with 400 before asking the service', async (_case, key) => {
    const sent = keysSent();
    expect(await post(url('/api/posts/add-post'), POST, { ...member, 'idempotency-key': key })).toMatchObject(
      {
        status: 400,
        body: { errors: [{ msg: IDEMPOTENCY_MESSAGES.malformed }] },
      },
    );
    expect(sent).toEqual([]);
  });

  it('answers 422 when the key came with another request before, 409 while its first request runs', async () => {
    const headers = { ...member, 'idempotency-key': 'key-of-a-retried-post' };
    posts.answer('addPost', async () => {
      throw new DomainError('failed_precondition', IDEMPOTENCY_MESSAGES.reused);
    });
    expect(await post(url('/api/posts/add-post'), POST, headers)).toMatchObject({
      status: 422,
      body: { errors: [{ msg: IDEMPOTENCY_MESSAGES.reused }] },
    });
    posts.answer('addPost', async () => {
      throw new DomainError('failed_precondition', IDEMPOTENCY_MESSAGES.inProgress);
    });
    expect(await post(url('/api/posts/add-post'), POST, headers)).toMatchObject({
      status: 409,
      body: { errors: [{ msg: IDEMPOTENCY_MESSAGES.inProgress }] },
    });
  });
});

describe('likes and profile info', () => {
  it('POST /api/posts/add-like forwards the post and the choice only; the count is the service’s', async () => {
    const res = await post(
      url('/api/posts/add-like'),
      { post_id: 7, liked: true, likes_count: 1000, user_id: 'someone-else' },
      member,
    );
    expect(res).toMatchObject({
      status: 200,
      body: { post_id: 7, liked: true, user_id: MEMBER.sub, likes_count: 5 },
    });
    expect(posts.callsTo('setLike')[0]?.request).toEqual({ post_id: 7, liked: true });
    expect(await post(url('/api/posts/add-like'), { post_id: 7 }, member)).toMatchObject({
      status: 400,
      body: { errors: [{ msg: 'liked must be true or false' }] },
    });
  });

  it('POST /api/posts/get-likes/:id answers the caller’s likes, and 403 for anyone else’s', async () => {
    expect(await post(url(`/api/posts/get-likes/${MEMBER.sub}`), {}, member)).toMatchObject({
      status: 200,
      body: [
        { post_id: 8, user_id: MEMBER.sub, liked: true },
        { post_id: 7, user_id: MEMBER.sub, liked: true },
      ],
    });
    expect(await post(url('/api/posts/get-likes/concierge-1'), {}, member)).toMatchObject({
      status: 403,
      body: { errors: [{ msg: 'You can only list your own likes' }] },
    });
    expect(posts.callsTo('listMyLikes')).toHaveLength(1);
  });

  it('POST /api/posts/profile-info answers the caller’s author record, null where none; 404 passed on', async () => {
    expect(await post(url('/api/posts/profile-info'), { data: 'ignored' }, member)).toMatchObject({
      status: 200,
      body: {
        profile_id: 102,
        first_name: 'Carlos',
        last_name: 'Whitaker',
        user_id: 'concierge-1',
        organization_id: 14,
        division_id: null,
      },
    });
    posts.answer('getProfileInfo', async () => {
      throw new DomainError('not_found', 'Profile not found');
    });
    expect(await post(url('/api/posts/profile-info'), {}, member)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: 'Profile not found' }] },
    });
  });
});

describe('the feed’s page cache, kept until the feed version moves', () => {
  let cached: RunningGateway;
  beforeAll(async () => {
    cached = await startGateway({
      AUTH_SERVICE_ADDR: auth.address,
      POST_SERVICE_ADDR: posts.address,
      PUBLIC_CACHE_SECONDS: '10',
    });
  });
  afterAll(async () => cached.close());

  const feed = (body: unknown, headers: Record<string, string> = {}) =>
    post(url('/api/posts/all', cached.base), body, headers);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * Each test starts with no page kept: the version moves, and a read starts the gateway's questions; once a second
   * one is asked, the first answer has arrived.
   */
  async function watched() {
    posts.feedVersion.value++;
    await feed({ search: 'start the watch' });
    const asked = posts.feedVersion.asked;
    while (posts.feedVersion.asked < asked + 2) await sleep(20);
    posts.reset();
  }

  /** Reads until `done` holds of the answer; answers the milliseconds it took. */
  async function until(read: () => Promise<{ body: unknown }>, done: (body: unknown) => boolean) {
    const started = Date.now();
    while (!done((await read()).body)) {
      if (Date.now() - started > 5000) throw new Error('the page never changed');
      await sleep(20);
    }
    return Date.now() - started;
  }

  it('serves members and visitors one kept page per distinct request until the version moves', async () => {
    await watched();
    const visitor = await feed({ search: 'kept' });
    const mine = await feed({ search: 'kept', offset: 0, limit: 20 }, member);
    expect(mine.body).toEqual(visitor.body);
    expect(visitor.headers.get('cache-control')).toBe('no-cache');
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(visitor.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(visitor.headers.get('etag')).toMatch(/^W\//);
    await feed({ search: 'kept' });
    expect(posts.callsTo('listPosts')).toHaveLength(1);
    await feed({ search: 'kept', offset: 20 });
    expect(posts.callsTo('listPosts')).toHaveLength(2);

    // Someone writes through another gateway: the version moves, and every page here goes within two seconds.
    posts.answer('listPosts', async () => ({ posts: [EVENT_POST, PLAIN_POST, EVENT_POST] }));
    posts.feedVersion.value++;
    const hasThree = (body: unknown) => (body as unknown[]).length === 3;
    expect(await until(() => feed({ search: 'kept' }, member), hasThree)).toBeLessThan(2000);
    expect(await until(() => feed({ search: 'kept' }), hasThree)).toBeLessThan(100);
  });

  it('makes readers arriving at once share one call', async () => {
    await watched();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => feed({ search: 'crowd' }, i % 2 ? member : {})),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  it.each([
    ['add-post', 'post', { post_title: 'Mine', post_body: '<p>New</p>', post_type: 1 }],
    ['update-post', 'post', { post_id: 7, post_title: 'Edited' }],
    ['delete-post', 'delete', { post_id: 7 }],
    ['add-comment', 'post', { post_id: 7, comment_body: 'Agreed' }],
    ['update-comment', 'post', { comment_id: 31, comment_body: 'Edited' }],
    ['delete-comment', 'delete', { comment_id: 31 }],
    ['add-like', 'post', { post_id: 7, liked: true }],
  ])('shows a member’s %s on their very next read, before the version moves', async (path, method, body) => {
    await watched();
    expect(await feed({ search: `own ${path}` }, member)).toMatchObject({ body: [{}, {}] });
    expect((await get(url('/api/posts/7/comments', cached.base), member)).body.comments).toHaveLength(1);
    // The service's pages after the write (the version has not moved yet: only this worker knows).
    posts.answer('listPosts', async () => ({ posts: [{ ...EVENT_POST, likes_count: 5 }] }));
    posts.answer('listComments', async () => ({ comments: [], has_earlier: false }));
    const res = await fetch(url(`/api/posts/${path}`, cached.base), {
      method: method === 'delete' ? 'DELETE' : 'POST',
      headers: { 'content-type': 'application/json', ...member },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    expect(await feed({ search: `own ${path}` }, member)).toMatchObject({ body: [{ likes_count: 5 }] });
    expect((await get(url('/api/posts/7/comments', cached.base), member)).body.comments).toEqual([]);
  });

  it('answers a member’s write with the version it produced; a gateway that has not seen it answers them fresh', async () => {
    await watched();
    const seen = posts.feedVersion.value;
    const res = await fetch(url('/api/posts/add-like', cached.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...member },
      body: JSON.stringify({ post_id: 7, liked: true }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^rotunda_feed_version=${seen}; Max-Age=5; Path=/api/posts; `));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    posts.reset();
    // A write through another gateway produced a version this one has not seen (the fake still answers `seen`).
    const wroteElsewhere = { ...member, cookie: `theme=dark; rotunda_feed_version=${seen + 1}` };
    await feed({ search: 'wrote elsewhere' }, wroteElsewhere);
    await feed({ search: 'wrote elsewhere' }, wroteElsewhere);
    expect(posts.callsTo('listPosts')).toHaveLength(2);
    // A version it has seen, a visitor, or a member without the cookie: the kept page.
    await feed({ search: 'wrote elsewhere' }, { ...member, cookie: `rotunda_feed_version=${seen}` });
    await feed({ search: 'wrote elsewhere' }, { cookie: `rotunda_feed_version=${seen + 1}` });
    await feed({ search: 'wrote elsewhere' }, member);
    expect(posts.callsTo('listPosts')).toHaveLength(3);
    // Once it has seen the version, the writer's reads are kept again.
    posts.feedVersion.value = seen + 1;
    const asked = posts.feedVersion.asked;
    while (posts.feedVersion.asked < asked + 2) await sleep(20);
    await feed({ search: 'wrote elsewhere' }, wroteElsewhere);
    await feed({ search: 'wrote elsewhere' }, wroteElsewhere);
    expect(posts.callsTo('listPosts')).toHaveLength(4);
  });

  it('answers a visitor’s revalidation of a comments page: 304 while the version holds, the new page once it moves', async () => {
    await watched();
    const path = url('/api/posts/7/comments?before=31', cached.base);
    const first = await get(path);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    // What a browser revalidating sends (fetch would add no-cache, which forbids a 304).
    const revalidate = () =>
      fetch(path, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
    expect((await revalidate()).status).toBe(304);
    expect(posts.callsTo('listComments')).toHaveLength(1);
    posts.answer('listComments', async () => ({ comments: [], has_earlier: true }));
    posts.feedVersion.value++;
    const started = Date.now();
    let res = await revalidate();
    while (res.status === 304 && Date.now() - started < 5000) {
      await sleep(20);
      res = await revalidate();
    }
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await res.json()).toEqual({ comments: [], has_earlier: true });
    expect(res.headers.get('etag')).not.toBe(etag);
  });

  it('when the version cannot be asked: members get fresh pages, visitors pages at most a second old', async () => {
    await watched();
    posts.feedVersion.failing = true;
    // Pages are trusted for a second after the last answer.
    await sleep(1300);
    posts.reset();
    posts.feedVersion.failing = true;
    await feed({ search: 'blind' }, member);
    await feed({ search: 'blind' }, member);
    expect(posts.callsTo('listPosts')).toHaveLength(2);
    await feed({ search: 'blind' });
    await feed({ search: 'blind' });
    expect(posts.callsTo('listPosts')).toHaveLength(3);
    await sleep(1100);
    await feed({ search: 'blind' });
    expect(posts.callsTo('listPosts')).toHaveLength(4);
    // It answers again: pages are kept again.
    posts.feedVersion.failing = false;
    const asked = posts.feedVersion.asked;
    while (posts.feedVersion.asked < asked + 2) await sleep(20);
    await feed({ search: 'blind' }, member);
    await feed({ search: 'blind' }, member);
    expect(posts.callsTo('listPosts')).toHaveLength(5);
  });

  it('sends kept pages brotli- or gzip-compressed as the client accepts, each the same JSON', async () => {
    await watched();
    posts.answer('listPosts', async () => ({ posts: Array.from({ length: 10 }, () => EVENT_POST) }));
    const body = JSON.stringify({ search: 'compressed' });
    const identity = await rawPost('/api/posts/all', body, {});
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(1024);
    const br = await rawPost('/api/posts/all', body, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(identity.body);
    const gzip = await rawPost('/api/posts/all', body, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body)).toEqual(identity.body);
    expect(br.body.length).toBeLessThan(identity.body.length / 3);
    for (const answer of [identity, br, gzip]) {
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.headers.etag).toBe(identity.headers.etag);
    }
    expect(posts.callsTo('listPosts')).toHaveLength(1);
  });

  /** POST through node:http, which (unlike fetch) leaves the body as sent. */
  function rawPost(path: string, body: string, headers: Record<string, string>) {
    return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const req = request(
        url(path, cached.base),
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('micro-caches the type lists', async () => {
    await get(url('/api/posts/post-types', cached.base));
    await get(url('/api/posts/post-types', cached.base));
    await get(url('/api/posts/event-types', cached.base), member);
    await get(url('/api/posts/event-types', cached.base));
    expect(posts.callsTo('listPostTypes')).toHaveLength(1);
    expect(posts.callsTo('listEventTypes')).toHaveLength(1);
  });

  it('answers 304 to a visitor who has the type list already', async () => {
    const first = await get(url('/api/posts/post-types', cached.base));
    expect(first.headers.get('cache-control')).toBe('public, max-age=10');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\//);
    const res = await fetch(url('/api/posts/post-types', cached.base), {
      // What a browser revalidating sends (fetch would add no-cache, which forbids a 304).
      headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' },
    });
    expect(res.status).toBe(304);
  });
});

describe('keyedMicroCache', () => {
  it('keeps at most maxKeys requests, dropping expired answers first, then the oldest', async () => {
    let now = 0;
    const cache = keyedMicroCache<string>(1000, 2, () => now);
    let loads = 0;
    const load = (value: string) => async () => {
      loads++;
      return value;
    };
    await cache.get('a', load('a'));
    now = 500;
    await cache.get('b', load('b'));
    await cache.get('c', load('c'));
    expect(cache.size()).toBe(2);
    expect(await cache.get('b', load('b2'))).toBe('b');
    expect(await cache.get('a', load('a2'))).toBe('a2');
    expect(loads).toBe(4);
    now = 2000;
    expect(await cache.get('c', load('c2'))).toBe('c2');
  });
});
