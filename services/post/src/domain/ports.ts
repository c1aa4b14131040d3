// The post service's ports: what its rules need from the outside world. Adapters implement them (Prisma on the
// post schema, the profile and org services over gRPC, DOMPurify on jsdom); the search index is @rotunda/search's.
import type {
  Author,
  AuthorCopy,
  Comment,
  CommentsPage,
  DivisionName,
  EventType,
  IndexedPost,
  NewPost,
  OrganizationName,
  Post,
  PostChanges,
  PostType,
} from './post.ts';

/** The stored fields of a post that ownership and edits are checked against. */
export interface StoredPost {
  postId: number;
  userId: string;
  postTypeId: number;
  title: string;
  body: string;
  bodyText: string;
  eventTypeId: number | null;
  eventLocation: string | null;
  eventDate: string | null;
  eventStart: string | null;
  eventEnd: string | null;
}

/** How many comments a member may write: `burst` at once, then one every `intervalMs`. */
export interface CommentAllowance {
  burst: number;
  intervalMs: number;
}

export interface NewComment {
  postId: number;
  authorId: number;
  userId: string;
  body: string;
}

/** The fixed post and event types (reference data every post points at). */
export interface TypeStore {
  /** Writes the fixed post and event types (idempotent). */
  ensureTypes(postTypes: readonly PostType[], eventTypes: readonly EventType[]): Promise<void>;
  listPostTypes(): Promise<PostType[]>;
  listEventTypes(): Promise<EventType[]>;
}

export interface PostStore {
  count(): Promise<number>;
  /**
   * The posts of these ids that exist, in the order of `ids`, with bylines, the count of their comments and the
   * latest `latestComments` of them (oldest first).
   */
  findByIds(ids: readonly number[], latestComments: number): Promise<Post[]>;
  findStored(postId: number): Promise<StoredPost | null>;
  /** Answers the new post's id. `createdAt` and `reads` let seeds write history; a member's post is now, unread. */
  create(post: NewPost, options?: { createdAt?: Date; reads?: number }): Promise<number>;
  /** False when the post does not exist (any more). */
  update(postId: number, changes: PostChanges): Promise<boolean>;
  /** Deletes the post with its comments and likes; false when it did not exist. */
  delete(postId: number): Promise<boolean>;
}

export interface CommentStore {
  findComment(commentId: number): Promise<Comment | null>;
  /**
   * The post's `limit` comments written just before `before` (all when null), in the order they were written
   * (created_at, then comment_id), oldest first; and whether there are earlier ones.
   */
  commentsBefore(
    postId: number,
    before: { createdAt: Date; commentId: number } | null,
    limit: number,
  ): Promise<CommentsPage>;
  /**
   * Spends one comment of the member's allowance (`burst` at once, then one per `intervalMs`), counted in the
   * database so every replica shares it: 0 when spent, else the milliseconds until one is free (nothing spent).
   */
  spendCommentAllowance(userId: string, allowance: CommentAllowance): Promise<number>;
  /** Answers the comment's id, or null when the post does not exist (any more). */
  addComment(comment: NewComment, options?: { createdAt?: Date; updatedAt?: Date }): Promise<number | null>;
  updateComment(commentId: number, body: string): Promise<boolean>;
  deleteComment(commentId: number): Promise<boolean>;
}

export interface LikeStore {
  /**
   * Likes (once) or unlikes the post for the member, counting atomically: one like per member and post whatever
   * runs at the same time. Null when the post does not exist.
   */
  setLike(postId: number, userId: string, liked: boolean): Promise<{ likesCount: number } | null>;
  /** The posts the member likes, newest like first. */
  likedPostIds(userId: string): Promise<number[]>;
  /** One more read, atomically; the new count, or null when the post does not exist. */
  addRead(postId: number): Promise<number | null>;
}

/** The read copies of other services' names (ADR 0012). */
export interface CopyStore {
  /**
   * Writes the author into the read copy (insert or update); answers whether their names or issue areas changed
   * (a new author's too), so that their posts the search index holds must be learned again.
   */
  saveAuthor(author: AuthorCopy): Promise<boolean>;
  /**
   * Updates the copy's authors among these (others are not referenced here and are left out); answers the ids
   * whose first or last name or issue areas changed, whose posts the search index must learn again.
   */
  updateKnownAuthors(authors: readonly AuthorCopy[]): Promise<number[]>;
  /** Every author the copy holds (post and comment authors). */
  authorIds(): Promise<number[]>;
  saveOrganizations(organizations: readonly OrganizationName[]): Promise<void>;
  saveDivisions(divisions: readonly DivisionName[]): Promise<void>;
}

/** What the search index is built from. */
export interface IndexedPostStore {
  count(): Promise<number>;
  /** What the search index holds of these posts. */
  indexedPosts(ids: readonly number[]): Promise<IndexedPost[]>;
  /** Visits every post (or one author's), in id order, `batchSize` at a time (to build the search index). */
  forEachIndexBatch(
    batchSize: number,
    visit: (batch: IndexedPost[]) => Promise<void>,
    authorId?: number,
  ): Promise<void>;
}

/** The whole post schema: every store above (the composition root and the seeds hold it whole). */
export interface PostRepository
  extends TypeStore,
    PostStore,
    CommentStore,
    LikeStore,
    CopyStore,
    IndexedPostStore {}

/** The profile service, as far as posts need it (contract: rotunda.profile.v1 GetAuthorByUser, GetAuthors, ListAuthors). */
export interface ProfileDirectory {
  /** The member's profile as an author; null when the member has none. */
  authorOfMember(userId: string): Promise<Author | null>;
  /** Authors by profile id; unknown ids are left out. */
  authors(profileIds: readonly number[]): Promise<Author[]>;
  /** Owned profiles after a profile id, at most `limit` (≤ 1000), by profile id. */
  listAuthors(afterProfileId: number, limit: number): Promise<Author[]>;
}

/** The org service's names for the read copies (contract: rotunda.org.v1 ExportNames). */
export interface OrgDirectory {
  exportNames(): Promise<{ organizations: OrganizationName[]; divisions: DivisionName[] }>;
}

/** Where the feed version is kept, shared by every replica (see feed-version.ts). */
export interface FeedVersionStore {
  /** Moves the version; answers the new one. */
  bump(): Promise<number>;
  current(): Promise<number>;
}

/** Cleans a rich-text body to the editor's formats (RICH_TEXT_PURIFY_CONFIG) and answers its visible text. */
export interface BodySanitizer {
  sanitize(html: string): { html: string; text: string };
}
