// Moderation of the public square (ADR 0041): members report posts and comments (a repeat report counts once,
// within each member's allowance; three members' open reports hide a target until a contributor decides);
// contributors read the queue, decide with a reason the author reads, suspend and lift; every decision and
// suspension is logged. A suspended member's writes are refused before any other check (refuseSuspended). What a
// decision changes on the pages moves the search index and the feed version, so kept pages drop within seconds.
import {
  MODERATION_ACTIONS,
  MODERATION_LOG_PAGE,
  MODERATION_REASON_MAX,
  type ModerationAction,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  type ReportReason,
  SUSPENSION_DAYS,
  suspendedMessage,
  waitInWords,
} from '@rotunda/rules';
import {
  type Caller,
  DomainError,
  invalidArgument,
  notFound,
  permissionDenied,
  requireContributor,
  requireMember,
} from '@rotunda/service-kit';
import { isId, MESSAGES } from './access.ts';
import type { FeedVersion } from './feed-version.ts';
import {
  type ModerationLogEntry,
  type ModerationTarget,
  type MyReport,
  REPORT_STATUSES,
  type ReportedTarget,
  type ReportStatus,
  type Suspension,
  TARGET_TYPES,
  type TargetRef,
  type TargetType,
} from './moderation-records.ts';
import { moderationEvents } from './notices.ts';
import type { CommentAllowance, ModerationStore, ProfileDirectory } from './ports.ts';
import type { PostIndex } from './post-index.ts';
import { cleanText } from './rules.ts';
import { canSee, type ModerationMark, type ModerationState, type Viewer, viewerOf } from './visibility.ts';

/** Different members whose open reports hide a target until a contributor decides. */
export const AUTO_HIDE_REPORTERS = 3;
export const AUTO_HIDE_REASON = 'Hidden after reports from several members, until a contributor reviews it.';
/** Each member's reports: 20 at once, then one every 3 minutes (20 an hour). */
export const REPORT_ALLOWANCE: CommentAllowance = { burst: 20, intervalMs: 3 * 60_000 };
/** The queue's excerpt of a target. */
export const EXCERPT_LENGTH = 200;
/** Targets the queue answers at most, per status. */
const QUEUE_LIMIT = 200;
/** A member's own reports answered at most, newest first. */
export const MY_REPORTS_LIMIT = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export const MODERATION_MESSAGES = {
  chooseTarget: 'Choose a post or a comment to report.',
  chooseReason: 'Choose a reason for your report.',
  ownPost: 'You cannot report your own post.',
  ownComment: 'You cannot report your own comment.',
  chooseStatus: 'Choose open or closed reports.',
  chooseAction: `Choose one of: ${MODERATION_ACTIONS.join(', ')}.`,
  decisionReason: 'Please give a reason for your decision.',
  chooseMember: 'Choose a member to suspend.',
  suspendSelf: 'You cannot suspend yourself.',
  suspensionDays: `Suspend for ${SUSPENSION_DAYS.min} to ${SUSPENSION_DAYS.max} days.`,
  suspensionReason: 'Please give a reason for the suspension.',
  noSuspension: 'No running suspension',
} as const;

/** The refusal past a member's report allowance; the gateway reads the wait for Retry-After. */
export function reportingTooQuickly(waitMs: number): string {
  return `You are reporting too quickly. Please try again in ${waitInWords(waitMs / 1000, 60)}.`;
}

/** Plain text of a title or comment, tags dropped and spaces collapsed, cut to EXCERPT_LENGTH. */
export function excerptOf(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length <= EXCERPT_LENGTH ? plain : `${plain.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…`;
}

/** What each decision makes of the target's moderation (ADR 0041). */
export function decided(action: ModerationAction, current: ModerationMark, reason: string): ModerationMark {
  switch (action) {
    case 'dismiss':
      // Only the automatic hiding is undone: a contributor's own hiding or removal stays.
      return current.state === 'hidden' && current.automatic
        ? { state: 'visible', reason: null, automatic: false }
        : current;
    case 'hide':
      return { state: 'hidden', reason, automatic: false };
    case 'restore':
      return { state: 'visible', reason: null, automatic: false };
    case 'remove':
      return { state: 'removed', reason, automatic: false };
  }
}

const targetNotFound = (type: TargetType) =>
  notFound(type === 'post' ? MESSAGES.postNotFound : MESSAGES.commentNotFound);

function targetRefOf(type: string, id: number): TargetRef {
  if (!(TARGET_TYPES as readonly string[]).includes(type))
    throw invalidArgument(MODERATION_MESSAGES.chooseTarget);
  const ref = { type: type as TargetType, id };
  if (!isId(id)) throw targetNotFound(ref.type);
  return ref;
}

/** A post, or a comment on a post, the viewer may see. */
const seenByViewer = (viewer: Viewer, target: ModerationTarget) =>
  canSee(viewer, { userId: target.userId, state: target.moderation.state }) &&
  canSee(viewer, { userId: target.post.userId, state: target.post.state });

export interface ModerationDependencies {
  store: ModerationStore;
  postIndex: Pick<PostIndex, 'postsChanged'>;
  feedVersion: Pick<FeedVersion, 'changed'>;
  /** For the log's actors the read copy does not hold. */
  profiles: Pick<ProfileDirectory, 'authorOfMember'>;
  /** Each member's reports: a burst, then a steady rate. */
  reportAllowance: CommentAllowance;
}

export function createModeration({
  store,
  postIndex,
  feedVersion,
  profiles,
  reportAllowance,
}: ModerationDependencies) {
  /** After a target's moderation changed: its post's place in search (who may find it), then the pages. */
  const moderationChanged = async (target: TargetRef, postId: number) => {
    if (target.type === 'post') await postIndex.postsChanged([postId]);
    await feedVersion.changed();
  };

  return {
    /** Every write of a suspended member is refused with the suspension's end and reason, before any other check. */
    async refuseSuspended(caller: Caller | undefined): Promise<void> {
      if (!caller) return;
      const suspension = await store.runningSuspension(caller.userId);
      if (suspension) throw permissionDenied(suspendedMessage(suspension.until, suspension.reason));
    },

    /**
     * A member reports a post or comment they can see (a member without a profile too), not their own. A repeat
     * report of one target counts once and answers the same id, spending no allowance; three different members'
     * open reports hide it at once.
     */
    async addReport(
      caller: Caller | undefined,
      input: { targetType: string; targetId: number; reason: string; note: string },
    ): Promise<number> {
      const member = requireMember(caller);
      const ref = targetRefOf(input.targetType, input.targetId);
      if (!(REPORT_REASONS as readonly string[]).includes(input.reason))
        throw invalidArgument(MODERATION_MESSAGES.chooseReason);
      const note = cleanText(input.note, 'Note', REPORT_NOTE_MAX);
      const target = await store.findTarget(ref);
      if (!target || !seenByViewer(viewerOf(member), target)) throw targetNotFound(ref.type);
      if (target.userId === member.userId)
        throw invalidArgument(
          ref.type === 'post' ? MODERATION_MESSAGES.ownPost : MODERATION_MESSAGES.ownComment,
        );
      const open = await store.openReportId(ref, member.userId);
      if (open !== null) return open;
      const waitMs = await store.spendReportAllowance(member.userId, reportAllowance);
      if (waitMs > 0) throw new DomainError('resource_exhausted', reportingTooQuickly(waitMs));
      const added = await store.addReport(
        { ...ref, reporterId: member.userId, reason: input.reason as ReportReason, note },
        { after: AUTO_HIDE_REPORTERS, reason: AUTO_HIDE_REASON },
        (hidden) =>
          moderationEvents(ref, hidden, { action: 'auto_hide', reason: AUTO_HIDE_REASON, actorUserId: '' }),
      );
      if (!added) throw targetNotFound(ref.type);
      if (added.hidden) await moderationChanged(ref, target.post.postId);
      return added.reportId;
    },

    /** Contributors: the queue, one entry per target, most reported first. */
    async listReports(caller: Caller | undefined, status: string): Promise<ReportedTarget[]> {
      requireContributor(caller);
      const wanted = (status.trim() || 'open') as ReportStatus;
      if (!REPORT_STATUSES.includes(wanted)) throw invalidArgument(MODERATION_MESSAGES.chooseStatus);
      const rows = await store.reportedTargets(wanted, QUEUE_LIMIT);
      return rows.map(({ text, ...row }) => ({ ...row, excerpt: excerptOf(text) }));
    },

    /**
     * Members: their own reports, newest first, each with the decision that closed it. A removed target's text is
     * never answered; a hidden one's excerpt is only its title or the start of the comment, as the reporter read it.
     */
    async myReports(caller: Caller | undefined): Promise<MyReport[]> {
      const member = requireMember(caller);
      const rows = await store.reportsBy(member.userId, MY_REPORTS_LIMIT);
      return rows.map(({ text, state, postState, closedAt, ...row }) => ({
        ...row,
        status: closedAt ? 'closed' : 'open',
        decidedAt: closedAt,
        excerpt: state === 'removed' || postState === 'removed' ? '' : excerptOf(text),
      }));
    },

    /**
     * Contributors: a decision with a reason on any post or comment (reported or not): closes its open reports,
     * logs it, and moves the index and the feed version so that pages follow within seconds.
     */
    async decideReports(
      caller: Caller | undefined,
      input: { targetType: string; targetId: number; action: string; reason: string },
    ): Promise<{ state: ModerationState; closedReports: number }> {
      const contributor = requireContributor(caller);
      const ref = targetRefOf(input.targetType, input.targetId);
      if (!(MODERATION_ACTIONS as readonly string[]).includes(input.action))
        throw invalidArgument(MODERATION_MESSAGES.chooseAction);
      const action = input.action as ModerationAction;
      const reason = cleanText(input.reason, 'Reason', MODERATION_REASON_MAX);
      if (!reason) throw invalidArgument(MODERATION_MESSAGES.decisionReason);
      const result = await store.decide(
        ref,
        (current) => decided(action, current, reason),
        { actorUserId: contributor.userId, action, reason },
        (target) => moderationEvents(ref, target, { action, reason, actorUserId: contributor.userId }),
      );
      if (!result) throw targetNotFound(ref.type);
      await moderationChanged(ref, result.postId);
      return { state: result.moderation.state, closedReports: result.closedReports };
    },

    /** Contributors: suspends a member (not themselves) for 1 to 365 days, replacing a running suspension. */
    async suspendMember(
      caller: Caller | undefined,
      input: { userId: string; days: number; reason: string },
    ): Promise<Suspension> {
      const contributor = requireContributor(caller);
      const userId = input.userId.trim();
      if (!userId) throw invalidArgument(MODERATION_MESSAGES.chooseMember);
      if (userId === contributor.userId) throw invalidArgument(MODERATION_MESSAGES.suspendSelf);
      if (
        !Number.isInteger(input.days) ||
        input.days < SUSPENSION_DAYS.min ||
        input.days > SUSPENSION_DAYS.max
      )
        throw invalidArgument(MODERATION_MESSAGES.suspensionDays);
      const reason = cleanText(input.reason, 'Reason', MODERATION_REASON_MAX);
      if (!reason) throw invalidArgument(MODERATION_MESSAGES.suspensionReason);
      const now = new Date();
      const suspension: Suspension = {
        userId,
        until: new Date(now.getTime() + input.days * DAY_MS),
        reason,
        createdAt: now,
        suspendedBy: contributor.userId,
      };
      await store.suspend(suspension);
      return suspension;
    },

    /** Contributors: ends a member's running suspension. */
    async liftSuspension(caller: Caller | undefined, userId: string): Promise<void> {
      const contributor = requireContributor(caller);
      if (!(await store.lift(userId.trim(), contributor.userId)))
        throw notFound(MODERATION_MESSAGES.noSuspension);
    },

    /**
     * Contributors: the log, newest first, a page at a time; the actors' names from the read copy, else asked of the
     * profile service (names are only a label: an entry whose actor it cannot name keeps empty names).
     */
    async moderationLog(
      caller: Caller | undefined,
      input: { before: number; limit: number },
    ): Promise<ModerationLogEntry[]> {
      requireContributor(caller);
      const limit =
        input.limit > 0
          ? Math.min(Math.floor(input.limit), MODERATION_LOG_PAGE.max)
          : MODERATION_LOG_PAGE.default;
      const entries = await store.moderationLog(Math.max(0, Math.floor(input.before)), limit);
      const unnamed = [
        ...new Set(
          entries.filter((e) => e.actorUserId && e.actorFirstName === null).map((e) => e.actorUserId),
        ),
      ];
      const names = new Map(
        await Promise.all(
          unnamed.map(
            async (userId) => [userId, await profiles.authorOfMember(userId).catch(() => null)] as const,
          ),
        ),
      );
      return entries.map((entry) => {
        const author = names.get(entry.actorUserId);
        return author
          ? { ...entry, actorFirstName: author.firstName, actorLastName: author.lastName }
          : entry;
      });
    },

    /** Anyone (the gateways, every second or so): running suspensions and members with hidden posts or comments. */
    async snapshot(): Promise<{ suspensions: Suspension[]; hiddenAuthors: string[] }> {
      const [suspensions, hiddenAuthors] = await Promise.all([
        store.runningSuspensions(),
        store.hiddenAuthors(),
      ]);
      return { suspensions, hiddenAuthors };
    },
  };
}

export type Moderation = ReturnType<typeof createModeration>;
