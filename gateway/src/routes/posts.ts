// The /api/posts/* REST paths (docs/api.md's posts, docs/product.md#7-the-calls-it-makes): the feed,
// a post's earlier comments, the types and read counts are public; every write needs a member. A feed page
// carries each post's latest comments only (and the count of all); GET /api/posts/:id/comments pages back
// through the rest. Bodies are validated here (types and shapes; the post service owns the spec's rules,
// since a body's emptiness is only known once it is sanitized), then forwarded to the post service over gRPC,
// its answers shaped with the spec's names. Feed and comment pages (and a post read at its own address) are
// kept until the feed changes (http/feed-pages.ts); a visitor's kept feed page is answered ahead of the
// request pipeline (visitor-feed.ts). The types stay micro-cached for PUBLIC_CACHE_SECONDS (ADR 0007). "My
// issue areas" (`my_issues: true`) is for members only and never kept: it depends on who asks. So are a
// contributor's pages and those of a member with hidden posts or comments (ADR 0041): the post service sends
// them hidden targets, marked, which no one else may see; a page that holds one is never kept. Author,
// member, organization and division of a post are never taken from the body: the post service asks the
// profile service who the caller is (it must not trust a caller's word, and one place decides).
import type { Post } from '@rotunda/protos/post';
import {
  COMMENT_FIELD_NAMES,
  type CommentFieldName,
  EDITABLE_POST_FIELDS,
  MENTIONS_MAX,
  POST_COMMENTS,
  POST_FIELD_NAMES,
  POST_FIELDS,
  type PostBodyNameOf,
  type PostFieldName,
  type PostFieldValue,
  postBodyName,
  singleSpaced,
  TOO_MANY_MENTIONS,
} from '@rotunda/rules';
import { isContributor } from '@rotunda/service-kit';
import express, { type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { callerOf, refuseSuspended, requireMember } from '../auth/middleware.ts';
import type { ModerationSnapshotView } from '../auth/moderation-snapshot.ts';
import type { ServiceClients } from '../grpc/clients.ts';
import { serviceCaller } from '../grpc/request-calls.ts';
import { orNull } from '../http/answers.ts';
import { HttpError } from '../http/errors.ts';
import type { FeedPages } from '../http/feed-pages.ts';
import { type CachedAnswer, cachedAnswerOf, microCache, sendAnswer } from '../http/micro-cache.ts';
import { idField, MAX_ID, pagingParameter, parseBody, parseQuery, pathIdOf } from '../http/validation.ts';
import { keptThroughOutage } from '../telemetry/outage.ts';
import { commentJson, postJson } from './post-answers.ts';

/**
 * Feed pages (docs/product.md#9-business-constants-and-limits: 20 at a time); deeper than the search index
 * pages is refused.
 */
export const FEED_PAGE = { default: 20, max: 50, maxOffset: 99_950 } as const;
const SORTS = ['recent', 'popular', 'random'] as const;

export const POST_MESSAGES = {
  ownLikesOnly: 'You can only list your own likes',
} as const;

// ------------------------------------------------------------------------------------------- validation

/** A whole number in a range, sent as a number or as digits (a select's value). */
const wholeNumber = (field: string, min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/)
          .transform(Number),
      ],
      {
        error: `${field} must be a whole number`,
      },
    )
    .refine((value) => Number.isSafeInteger(value) && value >= min && value <= max, {
      message:
        max === MAX_ID
          ? `${field} must be a whole number`
          : `${field} must be a whole number from ${min} to ${max}`,
    });

const id = (field: string) => idField(field, `${field} must be a whole number`);

/** A type chosen in a select: its id, or nothing (absent, null or '' mean not chosen: 0). */
const chosenId = (field: string) =>
  z
    .union([z.literal(''), z.null(), id(field)], { error: `${field} must be a whole number` })
    .optional()
    .transform((value) => (typeof value === 'number' ? value : 0));

/** Text the service checks: absent stays absent (an edit keeps the stored value), null is blank. */
const text = (field: string) =>
  z
    .union([z.string(), z.null()], { error: `${field} must be text` })
    .optional()
    .transform((value) => (value === null ? '' : value));

/** The profiles a post or comment names (absent or null: none), each once; more than MENTIONS_MAX is refused. */
const mentions = z
  .union([z.array(id('mentions'), { error: 'mentions must be a list of profile ids' }), z.null()], {
    error: 'mentions must be a list of profile ids',
  })
  .optional()
  .transform((value) => [...new Set(value ?? [])])
  .refine((value) => value.length <= MENTIONS_MAX, TOO_MANY_MENTIONS);

/** A type's id in an edit: absent keeps it, '' or null clears it (0). */
const editedId = (field: string) =>
  z
    .union([z.literal(''), z.null(), id(field)], { error: `${field} must be a whole number` })
    .optional()
    .transform((value) => (value === undefined ? undefined : typeof value === 'number' ? value : 0));

/** A post field's entry in a body, under the body's name (POST_FIELDS): a type's id, or text. */
const postField = (name: PostFieldName, edit: boolean) =>
  POST_FIELDS[name].kind === 'type'
    ? (edit ? editedId : chosenId)(postBodyName(name))
    : text(postBodyName(name));

type PostShape<N extends PostFieldName, Edit extends boolean> = {
  [M in N as PostBodyNameOf<M>]: PostFieldValue<M> extends number
    ? ReturnType<Edit extends true ? typeof editedId : typeof chosenId>
    : ReturnType<typeof text>;
};

const shapeOf = <N extends PostFieldName, Edit extends boolean>(names: readonly N[], edit: Edit) =>
  Object.fromEntries(names.map((name) => [postBodyName(name), postField(name, edit)])) as PostShape<N, Edit>;

/** add-post's fields; update-post's, all but the type, which does not change. */
const postShape = shapeOf(POST_FIELD_NAMES, false);
const editShape = shapeOf(EDITABLE_POST_FIELDS, true);
const commentShape = Object.fromEntries(COMMENT_FIELD_NAMES.map((name) => [name, text(name)])) as {
  [N in CommentFieldName]: ReturnType<typeof text>;
};

/** The comment fields of a valid body as the message names them: a text left out is blank. */
const commentFieldsMessage = (body: Partial<Record<CommentFieldName, string | undefined>>) =>
  Object.fromEntries(COMMENT_FIELD_NAMES.map((name) => [name, body[name] ?? ''])) as Record<
    CommentFieldName,
    string
  >;

type PostFieldsMessage<N extends PostFieldName, Blank> = {
  [M in N]: Blank extends '' ? PostFieldValue<M> : PostFieldValue<M> | undefined;
};

/**
 * The post fields of a valid body as the post service's message names them (posttype_id for post_type); a text
 * left out is `blank` (a new post's: '', the service names it if required; an edit's: absent, kept).
 */
function postFieldsMessage<N extends PostFieldName, Blank extends '' | undefined>(
  names: readonly N[],
  body: Partial<Record<PostBodyNameOf<N>, string | number | undefined>>,
  blank: Blank,
): PostFieldsMessage<N, Blank> {
  const fields: Partial<Record<PostFieldName, unknown>> = {};
  for (const name of names) fields[name] = body[postBodyName(name)] ?? blank;
  return fields as PostFieldsMessage<N, Blank>;
}

const bodies = {
  list: z.object({
    offset: wholeNumber('offset', 0, FEED_PAGE.maxOffset).optional(),
    limit: wholeNumber('limit', 1, FEED_PAGE.max).optional(),
    sort: z
      .union([z.enum(SORTS), z.literal(''), z.null()], { error: `sort must be one of ${SORTS.join(', ')}` })
      .optional(),
    seed: wholeNumber('seed', -(2 ** 31), 2 ** 31 - 1)
      .nullable()
      .optional(),
    posttype_id: z
      .union([z.literal(''), id('posttype_id')], { error: 'posttype_id must be a whole number' })
      .nullable()
      .optional(),
    search: z
      .union([z.string(), z.null()], { error: 'search must be text' })
      .optional()
      .refine((value) => (value ?? '').length <= 200, 'search is too long'),
    my_issues: z.boolean({ error: 'my_issues must be true or false' }).nullable().optional(),
  }),
  addPost: z.object({ ...postShape, mentions }),
  updatePost: z.object({ post_id: id('post_id'), ...editShape }),
  postId: z.object({ post_id: id('post_id') }),
  addComment: z.object({ post_id: id('post_id'), ...commentShape, mentions }),
  updateComment: z.object({ comment_id: id('comment_id'), ...commentShape }),
  commentId: z.object({ comment_id: id('comment_id') }),
  like: z.object({
    post_id: id('post_id'),
    liked: z.boolean({ error: 'liked must be true or false' }),
  }),
};

/** GET /api/posts/:id/comments?before=<comment_id>&limit=<n>: digits only, as a query string sends them. */
const commentsQuery = z.object({
  before: pagingParameter('before', 1, MAX_ID),
  limit: pagingParameter('limit', 1, POST_COMMENTS.page.max),
});

/** The post service's request for a valid feed body: equal pages ask alike, and so share one kept page. */
function feedRequestOf(body: z.infer<typeof bodies.list>) {
  const sort = body.sort || 'recent';
  return {
    offset: body.offset ?? 0,
    limit: body.limit ?? FEED_PAGE.default,
    sort,
    // Only a random order depends on the seed; leaving it out of the others shares their cached answers.
    seed: sort === 'random' ? (body.seed ?? 0) : 0,
    posttype_id: typeof body.posttype_id === 'number' ? body.posttype_id : 0,
    search: singleSpaced(body.search ?? ''),
    my_issues: body.my_issues === true,
  };
}

type FeedRequest = ReturnType<typeof feedRequestOf>;

/** The kept feed page of `request`, in FeedPages.feed. */
export const feedPageKey = (request: FeedRequest) => JSON.stringify(request);

/** The feed request of a body, when the body is valid (else undefined: the route answers why). */
export function validFeedRequest(body: unknown): FeedRequest | undefined {
  const parsed = bodies.list.safeParse(body ?? {});
  return parsed.success ? feedRequestOf(parsed.data) : undefined;
}

// ---------------------------------------------------------------------------------------------- caching

function sendCached(req: Request, res: Response, answer: CachedAnswer, cacheSeconds: number) {
  sendAnswer(req, res, answer, `public, max-age=${cacheSeconds}`);
}

/** A page as the post service answered it, and whether it holds a hidden target (marked for its author). */
interface LoadedPage {
  page: unknown;
  marked: boolean;
}

/** Whether a post, or one of the comments it carries, is hidden (only its author and contributors get it). */
const markedPost = (post: Post) => post.moderation !== undefined || post.comments.some((c) => c.moderation);

/**
 * A load meant for the kept pages turned out to hold a hidden target: the member asking has hidden posts that this
 * gateway's snapshot does not know of yet (it is a second old at most). Nothing is kept of it.
 */
class OwnPage extends Error {
  readonly req: Request;
  readonly page: unknown;
  constructor(req: Request, page: unknown) {
    super('a page with hidden posts is its reader’s own');
    this.req = req;
    this.page = page;
  }
}

// ------------------------------------------------------------------------------------------------ router

export function postsRouter(
  clients: Pick<ServiceClients, 'post' | 'deadlineMs'>,
  cacheSeconds: number,
  pages: FeedPages,
  snapshot: ModerationSnapshotView,
): Router {
  const router = express.Router();
  const { post } = clients;
  const rpc = serviceCaller(clients, 'post');
  // The types are fixed reference data: everyone may share one cached answer, also while the service is away.
  const postTypes = microCache<CachedAnswer>(cacheSeconds * 1000, Date.now, keptThroughOutage('post types'));
  const eventTypes = microCache<CachedAnswer>(
    cacheSeconds * 1000,
    Date.now,
    keptThroughOutage('event types'),
  );

  /**
   * Whether the caller is sent hidden targets: a contributor, or a member with hidden posts or comments. A member
   * asks after the moderation snapshot has caught up with the feed's latest move, so the author of a post hidden
   * moments ago is not given the shared pages that no longer hold it.
   */
  const seesHidden = async (req: Request) => {
    if (req.caller === undefined) return false;
    if (isContributor(req.caller)) return true;
    await snapshot.current();
    return snapshot.hasHiddenPosts(req.caller.userId);
  };

  /** Answers a page fresh, kept neither here nor by the browser. */
  const sendOwn = (req: Request, res: Response, page: unknown) =>
    sendAnswer(req, res, cachedAnswerOf(page), 'private, no-store');

  /**
   * A feed or comments page: the kept one everyone shares, unless the caller sees hidden targets. A loaded page
   * holding one is its loader's own; whoever was waiting for the same load asks again for theirs.
   */
  async function sendPage(
    req: Request,
    res: Response,
    kept: FeedPages['feed'],
    key: string,
    load: () => Promise<LoadedPage>,
  ) {
    if (await seesHidden(req)) return sendOwn(req, res, (await load()).page);
    try {
      await pages.send(req, res, kept, key, async () => {
        const { page, marked } = await load();
        if (marked) throw new OwnPage(req, page);
        return page;
      });
    } catch (error) {
      if (!(error instanceof OwnPage)) throw error;
      sendOwn(req, res, error.req === req ? error.page : (await load()).page);
    }
  }

  router.post('/all', async (req, res) => {
    const request = feedRequestOf(parseBody(bodies.list, req));
    if (request.my_issues) {
      // "My issue areas" is a member's own view (a visitor is asked to log in). Its page depends on who asks, so
      // it is answered fresh and kept neither here nor by the browser: a page kept per member serves no one else,
      // would push the shared pages everyone reads out of FEED_CACHE_KEYS, and would have to follow that
      // member's issue areas too; the post service asks the profile service for them at each page instead.
      callerOf(req);
      sendOwn(req, res, (await rpc(req, post.listPosts, request)).posts.map(postJson));
      return;
    }
    await sendPage(req, res, pages.feed, feedPageKey(request), async () => {
      const { posts } = await rpc(req, post.listPosts, request);
      return { page: posts.map(postJson), marked: posts.some(markedPost) };
    });
  });

  // The earlier comments of a post, for the read modal: the `limit` (default 20, at most 50) written just before
  // comment `before` (the latest when absent), oldest first, and whether there are earlier ones still.
  router.get('/:id/comments', async (req, res) => {
    const query = parseQuery(commentsQuery, req.query);
    const request = {
      post_id: pathIdOf(req.params.id, 'Post not found'),
      before_comment_id: query.before ?? 0,
      limit: query.limit ?? POST_COMMENTS.page.default,
    };
    await sendPage(req, res, pages.comments, JSON.stringify(request), async () => {
      const { comments, has_earlier } = await rpc(req, post.listComments, request);
      return {
        page: { comments: comments.map(commentJson), has_earlier },
        marked: comments.some((comment) => comment.moderation),
      };
    });
  });

  router.get('/post-types', async (req, res) => {
    const answer = await postTypes.get(async () =>
      cachedAnswerOf(
        (await rpc(req, post.listPostTypes, {})).post_types.map((type) => ({
          posttype_id: type.posttype_id,
          post_type: type.post_type,
        })),
      ),
    );
    sendCached(req, res, answer, cacheSeconds);
  });

  router.get('/event-types', async (req, res) => {
    const answer = await eventTypes.get(async () =>
      cachedAnswerOf(
        (await rpc(req, post.listEventTypes, {})).event_types.map((type) => ({
          eventtype_id: type.eventtype_id,
          event_type: type.event_type,
        })),
      ),
    );
    sendCached(req, res, answer, cacheSeconds);
  });

  router.get('/post-type/:id', async (req, res) => {
    const type = await rpc(req, post.getPostType, {
      posttype_id: pathIdOf(req.params.id, 'Post type not found'),
    });
    res.json({ posttype_id: type.posttype_id, post_type: type.post_type });
  });

  router.get('/event-type/:id', async (req, res) => {
    const type = await rpc(req, post.getEventType, {
      eventtype_id: pathIdOf(req.params.id, 'Event type not found'),
    });
    res.json({ eventtype_id: type.eventtype_id, event_type: type.event_type });
  });

  // One post at its own address (/public-square/post/:id): as the feed shows it, with its latest comments. Kept
  // with the comment pages until the feed moves, so a post hidden or removed leaves it as it leaves the feed.
  router.get('/:id', async (req, res) => {
    const request = { post_id: pathIdOf(req.params.id, 'Post not found') };
    await sendPage(req, res, pages.comments, JSON.stringify({ post: request.post_id }), async () => {
      const found = await rpc(req, post.getPost, request);
      return { page: postJson(found), marked: markedPost(found) };
    });
  });

  // Public: a visitor opening Keep Reading counts too; the count is the server's, a sent `reads` is ignored.
  router.post('/update-read-count', async (req, res) => {
    const { post_id } = parseBody(bodies.postId, req);
    const answer = await rpc(req, post.addRead, { post_id });
    res.json({ post_id: answer.post_id, reads: answer.reads });
  });

  // Everything below writes or reads a member's own data: a visitor is refused before the body is read, and a
  // suspended member's writes too (refuseSuspended, ADR 0041).
  router.post('/add-post', requireMember, refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addPost, req);
    const created = await pages.write(req, res, post.addPost, {
      ...postFieldsMessage(POST_FIELD_NAMES, body, ''),
      mentions: body.mentions,
    });
    res.status(201).json(postJson(created));
  });

  router.post('/update-post', requireMember, refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.updatePost, req);
    const updated = await pages.write(req, res, post.updatePost, {
      post_id: body.post_id,
      ...postFieldsMessage(EDITABLE_POST_FIELDS, body, undefined),
    });
    res.json(postJson(updated));
  });

  router.delete('/delete-post', requireMember, refuseSuspended, async (req, res) => {
    const { post_id } = parseBody(bodies.postId, req);
    await pages.write(req, res, post.deletePost, { post_id });
    res.status(204).end();
  });

  router.post('/add-comment', requireMember, refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.addComment, req);
    const comment = await pages.write(req, res, post.addComment, {
      post_id: body.post_id,
      ...commentFieldsMessage(body),
      mentions: body.mentions,
    });
    res.status(201).json(commentJson(comment));
  });

  router.post('/update-comment', requireMember, refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.updateComment, req);
    const comment = await pages.write(req, res, post.updateComment, {
      comment_id: body.comment_id,
      ...commentFieldsMessage(body),
    });
    res.json(commentJson(comment));
  });

  router.delete('/delete-comment', requireMember, refuseSuspended, async (req, res) => {
    const { comment_id } = parseBody(bodies.commentId, req);
    await pages.write(req, res, post.deleteComment, { comment_id });
    res.status(204).end();
  });

  // A sent likes_count or user_id is ignored: the member is the caller and the count the server's.
  router.post('/add-like', requireMember, refuseSuspended, async (req, res) => {
    const body = parseBody(bodies.like, req);
    const like = await pages.write(req, res, post.setLike, { post_id: body.post_id, liked: body.liked });
    res.json({
      post_id: like.post_id,
      liked: like.liked,
      user_id: like.user_id,
      likes_count: like.likes_count,
    });
  });

  router.post('/get-likes/:id', requireMember, async (req, res) => {
    const caller = callerOf(req);
    if (req.params.id !== caller.userId) throw new HttpError(403, POST_MESSAGES.ownLikesOnly);
    const answer = await rpc(req, post.listMyLikes, {});
    res.json(answer.post_ids.map((post_id) => ({ post_id, user_id: caller.userId, liked: true })));
  });

  // The body's `data` (the as-built client's user id) is ignored: the caller is who the token says.
  router.post('/profile-info', requireMember, async (req, res) => {
    const info = await rpc(req, post.getProfileInfo, {});
    res.json({
      profile_id: info.profile_id,
      first_name: info.first_name,
      last_name: info.last_name,
      user_id: info.user_id,
      organization_id: orNull(info.organization_id),
      division_id: orNull(info.division_id),
      // Whether the square offers "My issue areas" to this member.
      has_issue_areas: info.has_issue_areas,
    });
  });

  return router;
}
