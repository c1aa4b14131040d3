// The post service's ports: what its rules need from the outside world. Adapters implement them (Prisma on the
// post schema, the profile and org services over gRPC, DOMPurify on jsdom); the search index is @rotunda/search's.

import type { DomainEvent } from '@rotunda/events';
import type { ModerationAction } from '@rotunda/rules';
import type { MemberExport } from './member-export.ts';
import type {
  ModerationLogEntry,
  ModerationTarget,
  MyReportRow,
  NewReport,
  ReportedTargetRow,
  ReportStatus,
  Suspension,
  TargetRef,
} from './moderation-records.ts';
import type {
  Author,
  AuthorCopy,
  AuthorName,
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
  Sort,
} from './post.ts';
import type { ModerationMark, ModerationState, Viewer } from './visibility.ts';

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
  moderationState: ModerationState;
}

/**
 * What a write records in the post service's outbox for other services (ADR 0042), in the write's own transaction:
 * a rolled-back write records nothing. Built once the write knows the new row's id.
 */
export type EventsOf<T> = (written: T) => readonly DomainEvent[];

/** What a new post or comment names and records, written with it. */
export interface WrittenWith<T> {
  /** Profile ids the read copy knows, in the order written. */
  mentions?: readonly number[];
  events?: EventsOf<T>;
}

/** A new post as its events need it: the issue areas the read copy files it under ("My issue areas"). */
export interface WrittenPost {
  postId: number;
  createdAt: Date;
  authorIssueAreaIds: number[];
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

/** Where a post everyone may see lives, for the sitemap. */
export interface PostAddress {
  postId: number;
  updatedAt: Date;
}

export interface PostStore {
  count(): Promise<number>;
  /**
   * The posts of these ids that exist and `viewer` may see (visibility.ts), in the order of `ids`, with bylines,
   * the count of their comments `viewer` may see and the latest `latestComments` of those (oldest first).
   */
  findByIds(ids: readonly number[], latestComments: number, viewer: Viewer): Promise<Post[]>;
  findStored(postId: number): Promise<StoredPost | null>;
  /** The newest `limit` posts everyone may see (visibility.ts), newest first: each one's id and last change. */
  visibleAddresses(limit: number): Promise<PostAddress[]>;
  /**
   * Answers the new post's id. `createdAt` and `reads` let seeds write history; a member's post is now, unread. Its
   * mentions and events are written in the same transaction.
   */
  create(
    post: NewPost,
    options?: { createdAt?: Date; reads?: number } & WrittenWith<WrittenPost>,
  ): Promise<number>;
  /** False when the post does not exist (any more). */
  update(postId: number, changes: PostChanges): Promise<boolean>;
  /** Deletes the post with its comments and likes; false when it did not exist. */
  delete(postId: number): Promise<boolean>;
}

export interface CommentStore {
  findComment(commentId: number): Promise<Comment | null>;
  /**
   * The post's `limit` comments `viewer` may see written just before `before` (all when null), in the order they
   * were written (created_at, then comment_id), oldest first; and whether there are earlier ones.
   */
  commentsBefore(
    postId: number,
    before: { createdAt: Date; commentId: number } | null,
    limit: number,
    viewer: Viewer,
  ): Promise<CommentsPage>;
  /**
   * Spends one comment of the member's allowance (`burst` at once, then one per `intervalMs`), counted in the
   * database so every replica shares it: 0 when spent, else the milliseconds until one is free (nothing spent).
   */
  spendCommentAllowance(userId: string, allowance: CommentAllowance): Promise<number>;
  /**
   * Answers the comment's id, or null when the post does not exist (any more). Its mentions and events are written
   * in the same transaction.
   */
  addComment(
    comment: NewComment,
    options?: { createdAt?: Date; updatedAt?: Date } & WrittenWith<{ commentId: number }>,
  ): Promise<number | null>;
  updateComment(commentId: number, body: string): Promise<boolean>;
  deleteComment(commentId: number): Promise<boolean>;
}

export interface LikeStore {
  /**
   * Likes (once) or unlikes the post for the member, counting atomically: one like per member and post whatever
   * runs at the same time. Null when the post does not exist. `onLiked` is recorded in the same transaction when
   * this call set the like (not when it was set already, nor for an unlike).
   */
  setLike(
    postId: number,
    userId: string,
    liked: boolean,
    onLiked?: readonly DomainEvent[],
  ): Promise<{ likesCount: number } | null>;
  /** The posts the member likes and may see, newest like first. */
  likedPostIds(viewer: Viewer & { userId: string }): Promise<number[]>;
  /** One more read, atomically; the new count, or null when the post does not exist or `viewer` may not see it. */
  addRead(postId: number, viewer: Viewer): Promise<number | null>;
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
  /** Every author the copy holds (post and comment authors, and the people they mention). */
  authorIds(): Promise<number[]>;
  /** The authors of these ids the copy holds. */
  authorsByIds(profileIds: readonly number[]): Promise<AuthorName[]>;
  saveOrganizations(organizations: readonly OrganizationName[]): Promise<void>;
  saveDivisions(divisions: readonly DivisionName[]): Promise<void>;
}

/** What the search index is built from. */
/** A feed page without search words, read from the table while the search engine is away. */
export interface TableFeedPage {
  viewer: Viewer;
  /** 0: every type. */
  postTypeId: number;
  /** Only authors sharing one of these ("My issue areas"); null: every author. */
  issueAreaIds: number[] | null;
  sort: Sort;
  seed: number;
  offset: number;
  limit: number;
}

export interface IndexedPostStore {
  count(): Promise<number>;
  /**
   * The ids of one feed page from the table, in the feed's order (the random one seeded its own way): what the
   * feed answers without search words while the search engine is away.
   */
  feedPageIds(page: TableFeedPage): Promise<number[]>;
  /** What the search index holds of these posts. */
  indexedPosts(ids: readonly number[]): Promise<IndexedPost[]>;
  /** Visits every post (or one author's), in id order, `batchSize` at a time (to build the search index). */
  forEachIndexBatch(
    batchSize: number,
    visit: (batch: IndexedPost[]) => Promise<void>,
    authorId?: number,
  ): Promise<void>;
}

/** Reports, moderation states, suspensions and the log (moderation.ts). */
export interface ModerationStore {
  /** The post or comment with its author and moderation; null when it does not exist. */
  findTarget(target: TargetRef): Promise<ModerationTarget | null>;
  /** The member's open report of the target, if any. */
  openReportId(target: TargetRef, reporterId: string): Promise<number | null>;
  /** As CommentStore.spendCommentAllowance, for reports. */
  spendReportAllowance(userId: string, allowance: CommentAllowance): Promise<number>;
  /**
   * Writes the report, at most one open per reporter and target whatever runs at the same time (the open one's id
   * then); then, under the target's row lock, when `autoHide.after` different members have open reports on it and
   * it is visible, hides it automatically with `autoHide.reason` and logs 'auto_hide' (no actor). One transaction.
   * Null when the target does not exist (any more). `onHidden` is recorded in the same transaction when it hid it.
   */
  addReport(
    report: NewReport,
    autoHide: { after: number; reason: string },
    onHidden?: EventsOf<DecidedTarget>,
  ): Promise<{ reportId: number; hidden: boolean } | null>;
  /** One entry per target with open reports ('open') or only closed ones ('closed'), most reported first. */
  reportedTargets(status: ReportStatus, limit: number): Promise<ReportedTargetRow[]>;
  /** The member's own reports of posts and comments that still exist, newest first. */
  reportsBy(reporterId: string, limit: number): Promise<MyReportRow[]>;
  /**
   * Under the target's row lock: its moderation becomes `next(current)`, its open reports close with the decision
   * as their outcome and the decision is logged, in one transaction with what `events` makes of it. Null when the
   * target does not exist.
   */
  decide(
    target: TargetRef,
    next: (current: ModerationMark) => ModerationMark,
    log: { actorUserId: string; action: ModerationAction; reason: string },
    events?: EventsOf<DecidedTarget>,
  ): Promise<{ moderation: ModerationMark; closedReports: number; postId: number } | null>;
  runningSuspension(userId: string): Promise<Suspension | null>;
  runningSuspensions(): Promise<Suspension[]>;
  /** Writes (or replaces) the suspension and logs it. */
  suspend(suspension: Suspension): Promise<void>;
  /** Ends the running suspension and logs it; false when none was running. */
  lift(userId: string, actorUserId: string): Promise<boolean>;
  /** Members with at least one hidden post or comment. */
  hiddenAuthors(): Promise<string[]>;
  /** Entries older than `before` (0: the newest), newest first, with the actors' names from the read copy. */
  moderationLog(before: number, limit: number): Promise<ModerationLogEntry[]>;
}

/** A moderated target as its events need it: its author, its post, and the members whose reports it closed. */
export interface DecidedTarget {
  authorUserId: string;
  postId: number;
  postTitle: string;
  /** Different members whose open reports the decision closed (none for an automatic hiding). */
  reporterIds: string[];
}

/** Everything the schema holds of one member: deleted with their account, exported at their request. */
export interface MembersDataStore {
  /**
   * Deletes, in one transaction, the member's posts (with their comments, likes and mentions), comments, likes
   * (their posts' counts follow), reports they made and reports of what is gone, mentions of their profiles,
   * suspensions, allowances, and their names from the read copy. Idempotent.
   */
  deleteMemberData(userId: string): Promise<{ deletedPostIds: number[]; changedPostIds: number[] }>;
  /** The member's own posts, comments, likes and reports. */
  exportMemberData(userId: string): Promise<MemberExport>;
}

/** The whole post schema: every store above (the composition root and the seeds hold it whole). */
export interface PostRepository
  extends TypeStore,
    PostStore,
    CommentStore,
    LikeStore,
    CopyStore,
    IndexedPostStore,
    ModerationStore,
    MembersDataStore {}

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
