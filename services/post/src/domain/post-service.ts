// The post service's rules (spec §3–§6, DESIGN's fixes): the feed searched, filtered, sorted and paged through the
// search index, each post carrying only its latest comments (the earlier ones a page at a time); posts and
// comments written by members with a profile, sanitized before storage, changed or deleted by their author only,
// comments within each member's allowance; one like per member and post and reads counted by the server; and the read
// copies of authors', organizations' and divisions' names and authors' issue areas kept current (ADR 0012),
// re-indexing an author's posts when their name or issue areas change (a member's "My issue areas" filters on them); the feed version moved after every write that changes what a page shows, so the
// gateways may keep pages until it moves. Knows nothing of gRPC, HTTP or Prisma: it works through its ports.
import type { Change } from '@rotunda/events';
import { POST_COMMENTS } from '@rotunda/rules';
import {
  MAX_RESULT_WINDOW,
  type RebuildOutcome,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  type SortKey,
  syncIndex,
} from '@rotunda/search';
import {
  ACCESS_MESSAGES,
  type Caller,
  DomainError,
  invalidArgument,
  notFound,
  permissionDenied,
  requireMember,
} from '@rotunda/service-kit';
import type { FeedVersion } from './feed-version.ts';
import type {
  BodySanitizer,
  CommentAllowance,
  OrgDirectory,
  PostRepository,
  ProfileDirectory,
  StoredPost,
} from './ports.ts';
import {
  type Author,
  type AuthorCopy,
  type Comment,
  type CommentsPage,
  EVENT_TYPES,
  type EventType,
  eventTypeOrder,
  type IndexedPost,
  type NewPost,
  POST_TYPES,
  type Post,
  type PostType,
  SORTS,
  type Sort,
} from './post.ts';
import { checkPost, cleanText, LABELS, LIMITS, PAGE, searchWords } from './rules.ts';

export const MESSAGES = {
  loginRequired: ACCESS_MESSAGES.loginRequired,
  profileRequired: 'Please create your profile before posting',
  profileRequiredToComment: 'Please create your profile before commenting',
  profileNotFound: 'Profile not found',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
  postTypeNotFound: 'Post type not found',
  eventTypeNotFound: 'Event type not found',
  onlyAuthorPost: 'Only the author can change this post',
  onlyAuthorDeletePost: 'Only the author can delete this post',
  onlyAuthorComment: 'Only the author can change this comment',
  onlyAuthorDeleteComment: 'Only the author can delete this comment',
  emptyComment: 'Please write a comment first',
  unknownPostType: 'Please choose one of the types of post.',
  unknownEventType: 'Please choose one of the types of event.',
  unknownSort: `Sort by ${SORTS.join(', ')}.`,
} as const;

/** The refusal past a member's comment allowance; the gateway reads the seconds for Retry-After. */
export function commentingTooQuickly(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return `You are commenting too quickly. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
}

/** Documents re-indexed per batch when the index is rebuilt or an author is renamed. */
const REINDEX_BATCH = 500;
/** Authors asked of the profile service per call (its limit). */
const AUTHORS_PER_CALL = 1000;

/**
 * The search index's fields for posts: every word of a search must be in the title, the author's first or last
 * name, or the body's text (spec §5); the type filter and "My issue areas" (the author's issue area ids); the feed
 * sorts on the creation time and the like count.
 */
export const POST_INDEX = {
  textFields: ['title', 'first_name', 'last_name', 'body'],
  keywordFields: ['type', 'issue'],
  sortFields: [
    { name: 'created_at', type: 'number' as const },
    { name: 'likes', type: 'number' as const },
  ],
};

export function searchDocumentOf(post: IndexedPost): SearchDocument {
  return {
    id: String(post.postId),
    text: {
      title: post.title,
      first_name: post.authorFirstName,
      last_name: post.authorLastName,
      body: post.bodyText,
    },
    keywords: { type: [String(post.postTypeId)], issue: post.authorIssueAreaIds.map(String) },
    sort: { created_at: post.createdAt.getTime(), likes: post.likesCount },
  };
}

/** The feed's orders (spec §4): recent = newest first; popular = most liked, then newest; random = seeded. */
export function feedOrder(sort: Sort, seed: number): SortKey[] {
  if (sort === 'popular')
    return [
      { field: 'likes', direction: 'desc' },
      { field: 'created_at', direction: 'desc' },
    ];
  if (sort === 'random') return [{ random: seed }];
  return [{ field: 'created_at', direction: 'desc' }];
}

export interface PostServiceDependencies {
  repository: PostRepository;
  index: SearchIndex;
  profiles: ProfileDirectory;
  orgs: OrgDirectory;
  sanitizer: BodySanitizer;
  /** Each member's comments: a burst, then a steady rate (configuration). */
  commentAllowance: CommentAllowance;
  /** Moved after each committed write that changes a page (feed-version.ts). */
  feedVersion: FeedVersion;
}

export interface ListCommentsInput {
  postId: number;
  /** 0: the latest. */
  beforeCommentId: number;
  /** 0: the default page. */
  limit: number;
}

export interface ListPostsInput {
  offset: number;
  /** 0: the default page. */
  limit: number;
  /** '' means recent. */
  sort: string;
  seed: number;
  /** 0: every type. */
  postTypeId: number;
  search: string;
  /** Only posts whose author shares an issue area with the caller (a member). */
  myIssues: boolean;
}

export interface PostInput {
  title: string;
  /** HTML from the editor. */
  body: string;
  /** 0 when not chosen. */
  postTypeId: number;
  eventLocation: string;
  eventDate: string;
  eventStart: string;
  eventEnd: string;
  /** 0 for none. */
  eventTypeId: number;
}

/** An edit: only what was sent changes. */
export type PostEdit = Partial<Omit<PostInput, 'postTypeId'>>;

const isId = (id: number) => Number.isSafeInteger(id) && id > 0;

function postTypeOf(postTypeId: number): PostType | undefined {
  return POST_TYPES.find((type) => type.postTypeId === postTypeId);
}

/** The event type, null for none (0); a 400 for one that does not exist. */
function eventTypeIdOf(eventTypeId: number | null | undefined): number | null {
  if (!eventTypeId) return null;
  if (!EVENT_TYPES.some((type) => type.eventTypeId === eventTypeId))
    throw invalidArgument(MESSAGES.unknownEventType);
  return eventTypeId;
}

/** What a member writes of a post, as it will be stored. */
export type PostContent = Omit<NewPost, 'authorId' | 'userId' | 'organizationId' | 'divisionId'>;

/**
 * A post's content as it will be stored: text cleaned, body sanitized (a body with no visible text left is
 * missing), the spec's required fields checked. The one path new posts take, the demo seed's included.
 */
export function postContent(sanitizer: BodySanitizer, input: PostInput): PostContent {
  const title = cleanText(input.title, LABELS.title, LIMITS.title);
  if (input.body.length > LIMITS.body)
    throw invalidArgument(`${LABELS.body} must be at most ${LIMITS.body} characters.`);
  const body = sanitizer.sanitize(input.body);
  if (input.postTypeId && !postTypeOf(input.postTypeId)) throw invalidArgument(MESSAGES.unknownPostType);
  const eventFields = checkPost({
    title,
    bodyText: body.text,
    postTypeId: input.postTypeId,
    eventTypeId: eventTypeIdOf(input.eventTypeId),
    eventLocation: input.eventLocation,
    eventDate: input.eventDate,
    eventStart: input.eventStart,
    eventEnd: input.eventEnd,
  });
  return { title, body: body.html, bodyText: body.text, postTypeId: input.postTypeId, ...eventFields };
}

/** The post by `author`: their profile, member and current job's organization and division (spec §7 add-post). */
export function newPost(content: PostContent, author: Author): NewPost {
  return {
    ...content,
    authorId: author.profileId,
    userId: author.userId,
    organizationId: author.organizationId,
    divisionId: author.divisionId,
  };
}

export function createPostService({
  repository,
  index,
  profiles,
  orgs,
  sanitizer,
  commentAllowance,
  feedVersion,
}: PostServiceDependencies) {
  const getPost = async (postId: number): Promise<Post> => {
    const [post] = isId(postId) ? await repository.findByIds([postId], POST_COMMENTS.latest) : [];
    if (!post) throw notFound(MESSAGES.postNotFound);
    return post;
  };

  const getStored = async (postId: number): Promise<StoredPost> => {
    const post = isId(postId) ? await repository.findStored(postId) : null;
    if (!post) throw notFound(MESSAGES.postNotFound);
    return post;
  };

  const getComment = async (commentId: number): Promise<Comment> => {
    const comment = isId(commentId) ? await repository.findComment(commentId) : null;
    if (!comment) throw notFound(MESSAGES.commentNotFound);
    return comment;
  };

  /** The author as the read copy keeps them. */
  const authorCopyOf = (author: Author): AuthorCopy => ({
    profileId: author.profileId,
    userId: author.userId || null,
    firstName: author.firstName,
    lastName: author.lastName,
    issueAreaIds: author.issueAreaIds,
  });

  /**
   * The caller's profile as an author, kept in the read copy for the byline (their posts re-indexed when the copy
   * was behind); `missing` when there is none.
   */
  const authorOf = async (caller: Caller, missing: string): Promise<Author> => {
    const author = await profiles.authorOfMember(caller.userId);
    if (!author) throw new DomainError('failed_precondition', missing);
    if (await repository.saveAuthor(authorCopyOf(author))) await reindexAuthors([author.profileId]);
    return author;
  };

  /** Brings the index's documents of these posts in step with the table (after a write that shows in search). */
  const reindex = async (postIds: readonly number[]) => {
    const posts = await repository.indexedPosts(postIds);
    if (posts.length > 0) await index.upsert(posts.map(searchDocumentOf));
  };

  const reindexAuthors = async (authorIds: readonly number[]) => {
    for (const authorId of authorIds) {
      await repository.forEachIndexBatch(
        REINDEX_BATCH,
        async (batch) => index.upsert(batch.map(searchDocumentOf)),
        authorId,
      );
    }
  };

  /** What a rebuild reads: every post a batch at a time, and the current ones of ids written meanwhile. */
  const indexSource: RebuildSource = {
    eachPage: (handle) =>
      repository.forEachIndexBatch(REINDEX_BATCH, (batch) => handle(batch.map(searchDocumentOf))),
    documents: async (ids) =>
      (await repository.indexedPosts(ids.map(Number).filter(Number.isSafeInteger))).map(searchDocumentOf),
  };

  /**
   * Rebuilds the index from the table whatever it holds (the operator's `reindex`): a new generation, switched to
   * at once, searches answering from the old one meanwhile. `rebuilt: false` when another process is rebuilding it.
   */
  const reindexAll = (): Promise<RebuildOutcome> => index.rebuild(indexSource);

  const checkCommentBody = (body: string) => {
    const text = cleanText(body, 'Comment', LIMITS.comment);
    if (!text) throw invalidArgument(MESSAGES.emptyComment);
    return text;
  };

  return {
    listPostTypes(): Promise<PostType[]> {
      return repository.listPostTypes();
    },

    async listEventTypes(): Promise<EventType[]> {
      return (await repository.listEventTypes()).sort(eventTypeOrder);
    },

    async getPostType(postTypeId: number): Promise<PostType> {
      const type = (await repository.listPostTypes()).find((t) => t.postTypeId === postTypeId);
      if (!type) throw notFound(MESSAGES.postTypeNotFound);
      return type;
    },

    async getEventType(eventTypeId: number): Promise<EventType> {
      const type = (await repository.listEventTypes()).find((t) => t.eventTypeId === eventTypeId);
      if (!type) throw notFound(MESSAGES.eventTypeNotFound);
      return type;
    },

    /**
     * One page of the feed, public (spec §6): searched, filtered and sorted by the index, then read in order. "My
     * issue areas" is a member's: only posts of authors sharing one of the caller's issue areas (none without).
     */
    async listPosts(caller: Caller | undefined, input: ListPostsInput): Promise<Post[]> {
      const member = input.myIssues ? requireMember(caller) : undefined;
      const words = searchWords(input.search);
      const sort = (input.sort.trim() || 'recent') as Sort;
      if (!SORTS.includes(sort)) throw invalidArgument(MESSAGES.unknownSort);
      const limit = input.limit > 0 ? Math.min(Math.floor(input.limit), PAGE.max) : PAGE.default;
      const offset = Math.max(0, Math.floor(input.offset));
      if (offset + limit > MAX_RESULT_WINDOW)
        throw invalidArgument(`The feed goes at most ${MAX_RESULT_WINDOW} posts deep; search to narrow it.`);
      const filters: Record<string, string | string[]> = {};
      if (input.postTypeId > 0) filters.type = String(input.postTypeId);
      if (member) {
        // Asked of the owner at each page: a member's own issue areas count the moment they change them.
        const issueAreaIds = (await profiles.authorOfMember(member.userId))?.issueAreaIds ?? [];
        if (issueAreaIds.length === 0) return [];
        filters.issue = issueAreaIds.map(String);
      }
      const { ids } = await index.search({
        text: words.join(' '),
        filters,
        sort: feedOrder(sort, input.seed),
        offset,
        limit,
        // The feed pages on until a short page: counting every match would be most of a page's cost.
        countTotal: false,
      });
      return repository.findByIds(ids.map(Number), POST_COMMENTS.latest);
    },

    /** Public, as the feed is: a post's comments written before one of them (the read modal's earlier ones). */
    async listComments(input: ListCommentsInput): Promise<CommentsPage> {
      const limit =
        input.limit > 0
          ? Math.min(Math.floor(input.limit), POST_COMMENTS.page.max)
          : POST_COMMENTS.page.default;
      await getStored(input.postId);
      let before: Comment | null = null;
      if (input.beforeCommentId !== 0) {
        before = await getComment(input.beforeCommentId);
        if (before.postId !== input.postId) throw notFound(MESSAGES.commentNotFound);
      }
      return repository.commentsBefore(input.postId, before, limit);
    },

    /** A member with a profile (spec §6); whatever author or counts were sent, the server decides them. */
    async addPost(caller: Caller | undefined, input: PostInput): Promise<Post> {
      const member = requireMember(caller);
      // The form is checked before the profile is asked for, so a refused one costs no call.
      const content = postContent(sanitizer, input);
      const author = await authorOf(member, MESSAGES.profileRequired);
      // The post belongs to the caller whatever the profile service answered.
      const postId = await repository.create(newPost(content, { ...author, userId: member.userId }));
      await reindex([postId]);
      await feedVersion.changed();
      return getPost(postId);
    },

    /** The author only; fields not sent keep their value, and the result must still be a complete post. */
    async updatePost(caller: Caller | undefined, postId: number, edit: PostEdit): Promise<Post> {
      const member = requireMember(caller);
      const stored = await getStored(postId);
      if (stored.userId !== member.userId) throw permissionDenied(MESSAGES.onlyAuthorPost);
      const title =
        edit.title === undefined ? stored.title : cleanText(edit.title, LABELS.title, LIMITS.title);
      if (edit.body !== undefined && edit.body.length > LIMITS.body)
        throw invalidArgument(`${LABELS.body} must be at most ${LIMITS.body} characters.`);
      const body =
        edit.body === undefined
          ? { html: stored.body, text: stored.bodyText }
          : sanitizer.sanitize(edit.body);
      const eventFields = checkPost({
        title,
        bodyText: body.text,
        postTypeId: stored.postTypeId,
        eventTypeId: edit.eventTypeId === undefined ? stored.eventTypeId : eventTypeIdOf(edit.eventTypeId),
        eventLocation: edit.eventLocation ?? stored.eventLocation,
        eventDate: edit.eventDate ?? stored.eventDate,
        eventStart: edit.eventStart ?? stored.eventStart,
        eventEnd: edit.eventEnd ?? stored.eventEnd,
      });
      const updated = await repository.update(postId, {
        title,
        body: body.html,
        bodyText: body.text,
        ...eventFields,
      });
      if (!updated) throw notFound(MESSAGES.postNotFound);
      await reindex([postId]);
      await feedVersion.changed();
      return getPost(postId);
    },

    async deletePost(caller: Caller | undefined, postId: number): Promise<void> {
      const member = requireMember(caller);
      const stored = await getStored(postId);
      if (stored.userId !== member.userId) throw permissionDenied(MESSAGES.onlyAuthorDeletePost);
      if (!(await repository.delete(postId))) throw notFound(MESSAGES.postNotFound);
      await index.remove([String(postId)]);
      await feedVersion.changed();
    },

    /**
     * A member with a profile, within their allowance (a burst, then a steady rate; a refused comment spends
     * none); an empty comment is refused (spec §5).
     */
    async addComment(caller: Caller | undefined, postId: number, body: string): Promise<Comment> {
      const member = requireMember(caller);
      const text = checkCommentBody(body);
      await getStored(postId);
      const author = await authorOf(member, MESSAGES.profileRequiredToComment);
      const waitMs = await repository.spendCommentAllowance(member.userId, commentAllowance);
      if (waitMs > 0) throw new DomainError('resource_exhausted', commentingTooQuickly(waitMs));
      const commentId = await repository.addComment({
        postId,
        authorId: author.profileId,
        userId: member.userId,
        body: text,
      });
      if (commentId === null) throw notFound(MESSAGES.postNotFound);
      await feedVersion.changed();
      return getComment(commentId);
    },

    async updateComment(caller: Caller | undefined, commentId: number, body: string): Promise<Comment> {
      const member = requireMember(caller);
      const comment = await getComment(commentId);
      if (comment.userId !== member.userId) throw permissionDenied(MESSAGES.onlyAuthorComment);
      const text = checkCommentBody(body);
      if (!(await repository.updateComment(commentId, text))) throw notFound(MESSAGES.commentNotFound);
      await feedVersion.changed();
      return getComment(commentId);
    },

    async deleteComment(caller: Caller | undefined, commentId: number): Promise<void> {
      const member = requireMember(caller);
      const comment = await getComment(commentId);
      if (comment.userId !== member.userId) throw permissionDenied(MESSAGES.onlyAuthorDeleteComment);
      if (!(await repository.deleteComment(commentId))) throw notFound(MESSAGES.commentNotFound);
      await feedVersion.changed();
    },

    /** A member likes a post once, or stops; the count is the server's (DESIGN: client counts are ignored). */
    async setLike(caller: Caller | undefined, postId: number, liked: boolean) {
      const member = requireMember(caller);
      const result = isId(postId) ? await repository.setLike(postId, member.userId, liked) : null;
      if (!result) throw notFound(MESSAGES.postNotFound);
      // Popular sorts on the count: the index learns it at once.
      await reindex([postId]);
      await feedVersion.changed();
      return { postId, liked, userId: member.userId, likesCount: result.likesCount };
    },

    async listMyLikes(caller: Caller | undefined): Promise<number[]> {
      const member = requireMember(caller);
      return repository.likedPostIds(member.userId);
    },

    /**
     * Anyone, visitors too: exactly one more read per call, whatever count was sent. Pages show the count, but reads
     * are frequent: the version moves for them at most once a second.
     */
    async addRead(postId: number): Promise<number> {
      const reads = isId(postId) ? await repository.addRead(postId) : null;
      if (reads === null) throw notFound(MESSAGES.postNotFound);
      feedVersion.readCounted();
      return reads;
    },

    /** The feed version: pages taken while it holds one value stay current until it moves. */
    feedVersion(): Promise<number> {
      return feedVersion.current();
    },

    /** The caller's profile as an author (spec §7 profile-info); NOT_FOUND when they have none. */
    async profileInfo(caller: Caller | undefined): Promise<Author> {
      const member = requireMember(caller);
      const author = await profiles.authorOfMember(member.userId);
      if (!author) throw notFound(MESSAGES.profileNotFound);
      return author;
    },

    /**
     * One announcement from another service's write (ADR 0012): the copy takes it, the index follows names and
     * issue areas.
     */
    async applyChange(change: Change): Promise<void> {
      if (change.kind === 'organization') {
        await repository.saveOrganizations([
          { organizationId: change.organization_id, organizationName: change.organization_name },
        ]);
      } else if (change.kind === 'division') {
        await repository.saveDivisions([
          {
            divisionId: change.division_id,
            divisionName: change.division_name,
            organizationId: change.organization_id,
          },
        ]);
      } else {
        const changed = await repository.updateKnownAuthors([
          {
            profileId: change.profile_id,
            userId: change.user_id,
            firstName: change.first_name,
            lastName: change.last_name,
            ...(change.issue_area_ids ? { issueAreaIds: change.issue_area_ids } : {}),
          },
        ]);
        await reindexAuthors(changed);
      }
      await feedVersion.changed();
    },

    /**
     * Copies the owners' current names and authors' issue areas (on every (re)connection of the change listener, before the changes heard
     * on it): every organization and division, and the authors this schema references.
     */
    async catchUp(): Promise<void> {
      const names = await orgs.exportNames();
      await repository.saveOrganizations(names.organizations);
      await repository.saveDivisions(names.divisions);
      const ids = await repository.authorIds();
      for (let start = 0; start < ids.length; start += AUTHORS_PER_CALL) {
        const authors = await profiles.authors(ids.slice(start, start + AUTHORS_PER_CALL));
        await reindexAuthors(await repository.updateKnownAuthors(authors.map(authorCopyOf)));
      }
      await feedVersion.changed();
    },

    /**
     * Brings the search index in step when a replica starts: rebuilt into a new generation when it was built for
     * another definition or does not hold as many posts as the table, by whichever replica takes the lock (the
     * others serve the live index meanwhile). Answers how many were indexed (0 when it was in step, or when another
     * replica is rebuilding it).
     */
    async syncSearchIndex(): Promise<number> {
      const result = await syncIndex(index, { source: indexSource, count: () => repository.count() });
      return result.outcome === 'rebuilt' ? result.documents : 0;
    },

    reindexAll,
  };
}

export type PostService = ReturnType<typeof createPostService>;
