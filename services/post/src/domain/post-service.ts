// The posts (docs/product.md#5-validation-rules, #6-roles-and-permissions, ADR 0020): the feed
// searched, filtered, sorted and paged through the search index, each post carrying only its latest comments;
// posts written by members with a profile, sanitized before storage, changed or deleted by their author only;
// the index and then the feed version moved after every write, so the gateways may keep pages until it moves.
// Comments, likes and reads, the types and the read copies of names are their own modules; none knows gRPC,
// HTTP or Prisma: they work through their ports.
import {
  type EditablePostField,
  POST_COMMENTS,
  type PostFieldKeyOf,
  type PostFieldValues,
} from '@rotunda/rules';
import { MAX_RESULT_WINDOW, type RebuildOutcome } from '@rotunda/search';
import { type Caller, invalidArgument, notFound, requireMember } from '@rotunda/service-kit';
import { isId, MESSAGES, requireAuthor, visiblePostOrThrow } from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import { checkMentions, eventActor, mentionEvents } from './notices.ts';
import type { BodySanitizer, PostAddress, PostStore, ProfileDirectory } from './ports.ts';
import {
  type Author,
  EVENT_TYPES,
  type NewPost,
  POST_TYPES,
  type Post,
  type PostType,
  SORTS,
  type Sort,
} from './post.ts';
import { feedOrder, type PostIndex } from './post-index.ts';
import type { ReadCopies } from './read-copies.ts';
import { checkBodyLength, checkPost, cleanTitle, PAGE, searchWords } from './rules.ts';
import { seenByFilter, type Viewer, viewerOf } from './visibility.ts';

/** A sitemap lists at most 50,000 addresses (sitemaps.org). */
export const SITEMAP_MAX = 50_000;

export interface PostServiceDependencies {
  posts: PostStore;
  postIndex: PostIndex;
  profiles: Pick<ProfileDirectory, 'authorOfMember'>;
  authors: Pick<ReadCopies, 'authorOf' | 'mentioned'>;
  sanitizer: BodySanitizer;
  /** Moved after each committed write that changes a page (feed-version.ts). */
  feedVersion: Pick<FeedVersion, 'changed' | 'current'>;
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

/** A post as a member writes it (@rotunda/rules' POST_FIELDS): the body is the editor's HTML; 0 is no type. */
export type PostInput = PostFieldValues;

/** An edit: only what was sent changes; the type never does. */
export type PostEdit = Partial<Pick<PostInput, PostFieldKeyOf<EditablePostField>>>;

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
  const title = cleanTitle(input.title);
  checkBodyLength(input.body);
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

/**
 * The post by `author`: their profile, member and current job's organization and division
 * (docs/product.md#7-the-calls-it-makes add-post).
 */
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
  posts,
  postIndex,
  profiles,
  authors,
  sanitizer,
  feedVersion,
}: PostServiceDependencies) {
  const getPost = async (postId: number, viewer: Viewer): Promise<Post> => {
    const [post] = isId(postId) ? await posts.findByIds([postId], POST_COMMENTS.latest, viewer) : [];
    if (!post) throw notFound(MESSAGES.postNotFound);
    return post;
  };

  return {
    /**
     * One post at its own address, public as the feed is: a hidden one only for its author and contributors, a
     * removed or unknown one for nobody (NOT_FOUND).
     */
    getPost: (caller: Caller | undefined, postId: number): Promise<Post> => getPost(postId, viewerOf(caller)),

    /** The posts everyone may see, newest first, at most `limit` (0: SITEMAP_MAX), for the sitemap. */
    listPostAddresses(limit: number): Promise<PostAddress[]> {
      return posts.visibleAddresses(limit > 0 ? Math.min(Math.floor(limit), SITEMAP_MAX) : SITEMAP_MAX);
    },

    /**
     * One page of the feed, public (docs/product.md#6-roles-and-permissions): searched, filtered and sorted
     * by the index, then read in order. "My issue areas" is a member's: only posts of authors sharing one of
     * the caller's issue areas (none without). Hidden posts and comments only for their authors and
     * contributors, removed ones for nobody.
     */
    async listPosts(caller: Caller | undefined, input: ListPostsInput): Promise<Post[]> {
      const member = input.myIssues ? requireMember(caller) : undefined;
      const viewer = viewerOf(caller);
      const words = searchWords(input.search);
      const sort = (input.sort.trim() || 'recent') as Sort;
      if (!SORTS.includes(sort)) throw invalidArgument(MESSAGES.unknownSort);
      const limit = input.limit > 0 ? Math.min(Math.floor(input.limit), PAGE.max) : PAGE.default;
      const offset = Math.max(0, Math.floor(input.offset));
      if (offset + limit > MAX_RESULT_WINDOW)
        throw invalidArgument(`The feed goes at most ${MAX_RESULT_WINDOW} posts deep; search to narrow it.`);
      const filters: Record<string, string | string[]> = { seen_by: seenByFilter(viewer) };
      const postTypeId = Math.max(input.postTypeId, 0);
      if (postTypeId > 0) filters.type = String(postTypeId);
      let issueAreaIds: number[] | null = null;
      if (member) {
        // Asked of the owner at each page: a member's own issue areas count the moment they change them.
        issueAreaIds = (await profiles.authorOfMember(member.userId))?.issueAreaIds ?? [];
        if (issueAreaIds.length === 0) return [];
        filters.issue = issueAreaIds.map(String);
      }
      const ids = await postIndex.search(
        {
          text: words.join(' '),
          filters,
          sort: feedOrder(sort, input.seed),
          offset,
          limit,
          // The feed pages on until a short page: counting every match would be most of a page's cost.
          countTotal: false,
        },
        words.length === 0
          ? { viewer, postTypeId, issueAreaIds, sort, seed: input.seed, offset, limit }
          : undefined,
      );
      return posts.findByIds(ids, POST_COMMENTS.latest, viewer);
    },

    /**
     * A member with a profile (docs/product.md#6-roles-and-permissions); whatever author or counts were sent,
     * the server decides them. The people it mentions whom the profiles know are stored with it and told (ADR
     * 0042), as are the members following its author's issue areas (their digests).
     */
    async addPost(
      caller: Caller | undefined,
      input: PostInput,
      mentionIds: readonly number[] = [],
    ): Promise<Post> {
      const member = requireMember(caller);
      // The form is checked before the profile is asked for, so a refused one costs no call.
      const content = postContent(sanitizer, input);
      const wanted = checkMentions(mentionIds);
      const author = await authors.authorOf(member, MESSAGES.profileRequired);
      const mentioned = await authors.mentioned(wanted);
      const actor = eventActor(member.userId, author);
      // The post belongs to the caller whatever the profile service answered.
      const postId = await posts.create(newPost(content, { ...author, userId: member.userId }), {
        mentions: mentioned.map((person) => person.profileId),
        events: ({ postId, createdAt, authorIssueAreaIds }) => [
          {
            topic: 'post.published',
            post_id: postId,
            title: content.title,
            // As the read copy files the post for "My issue areas".
            issue_area_ids: authorIssueAreaIds,
            author_user_id: member.userId,
            created_at: createdAt.toISOString(),
          },
          ...mentionEvents(mentioned, { postId, postTitle: content.title, commentId: null }, actor),
        ],
      });
      await postIndex.postsChanged([postId]);
      await feedVersion.changed();
      return getPost(postId, viewerOf(member));
    },

    /**
     * The author only (a hidden post too, which they still see); fields not sent keep their value, and the result
     * must still be a complete post.
     */
    async updatePost(caller: Caller | undefined, postId: number, edit: PostEdit): Promise<Post> {
      const member = requireMember(caller);
      const stored = await visiblePostOrThrow(posts, postId, viewerOf(member));
      requireAuthor(member, stored, MESSAGES.onlyAuthorPost);
      const title = edit.title === undefined ? stored.title : cleanTitle(edit.title);
      if (edit.body !== undefined) checkBodyLength(edit.body);
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
      const updated = await posts.update(postId, {
        title,
        body: body.html,
        bodyText: body.text,
        ...eventFields,
      });
      if (!updated) throw notFound(MESSAGES.postNotFound);
      await postIndex.postsChanged([postId]);
      await feedVersion.changed();
      return getPost(postId, viewerOf(member));
    },

    async deletePost(caller: Caller | undefined, postId: number): Promise<void> {
      const member = requireMember(caller);
      requireAuthor(
        member,
        await visiblePostOrThrow(posts, postId, viewerOf(member)),
        MESSAGES.onlyAuthorDeletePost,
      );
      if (!(await posts.delete(postId))) throw notFound(MESSAGES.postNotFound);
      await postIndex.postRemoved(postId);
      await feedVersion.changed();
    },

    /** The feed version: pages taken while it holds one value stay current until it moves. */
    feedVersion(): Promise<number> {
      return feedVersion.current();
    },

    /** Brings the search index in step when a replica starts (see PostIndex.sync): how many were indexed. */
    syncSearchIndex: (): Promise<number> => postIndex.sync(),

    /** The operator's `reindex`: rebuilds the index from the table whatever it holds (see PostIndex.rebuild). */
    reindexAll: (): Promise<RebuildOutcome> => postIndex.rebuild(),
  };
}

export type PostService = ReturnType<typeof createPostService>;
