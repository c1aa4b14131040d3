// Moderation's records (ADR 0041): what reports, the queue, a member's own reports, suspensions and the log hold,
// as the store reads and writes them and moderation.ts decides on them.
import { MODERATION_ACTIONS, type ModerationAction, type ReportReason } from '@rotunda/rules';
import type { ModerationMark, ModerationState } from './visibility.ts';

export const TARGET_TYPES = ['post', 'comment'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export interface TargetRef {
  type: TargetType;
  id: number;
}

/** A post or comment as moderation sees it: its author, its moderation, and the post it is (on). */
export interface ModerationTarget extends TargetRef {
  userId: string;
  moderation: ModerationMark;
  post: { postId: number; userId: string; state: ModerationState };
}

export interface NewReport extends TargetRef {
  reporterId: string;
  reason: ReportReason;
  note: string;
}

export const REPORT_STATUSES = ['open', 'closed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** One reported target as the store reads it; `text` is the post's title or the comment's body. */
export interface ReportedTargetRow extends TargetRef {
  /** Different members who reported it (in this status). */
  reportsCount: number;
  /** Each reason given, most given first. */
  reasons: string[];
  firstReportedAt: Date;
  text: string;
  author: { userId: string; profileId: number; firstName: string | null; lastName: string | null };
  /** Newest first; empty notes left out. */
  notes: string[];
  moderation: ModerationMark;
  postId: number;
}

export interface ReportedTarget extends Omit<ReportedTargetRow, 'text'> {
  /** Plain text, at most EXCERPT_LENGTH characters. */
  excerpt: string;
}

/** One of a member's own reports as the store reads it; `text` is the post's title or the comment's body. */
export interface MyReportRow extends TargetRef {
  reportId: number;
  /** For a comment, the post it is on; for a post, its own id. */
  postId: number;
  reason: string;
  note: string;
  createdAt: Date;
  /** When a decision closed it; null while open. */
  closedAt: Date | null;
  /** The decision that closed it. */
  outcome: ModerationAction | null;
  text: string;
  /** The target's state, and for a comment its post's (a post's own otherwise). */
  state: ModerationState;
  postState: ModerationState;
}

/** A member's own report and what became of it (ADR 0041: the closed report is the reporter's notice). */
export interface MyReport extends TargetRef {
  reportId: number;
  postId: number;
  reason: string;
  note: string;
  createdAt: Date;
  status: ReportStatus;
  /** The decision that closed it; null while open. */
  outcome: ModerationAction | null;
  decidedAt: Date | null;
  /** As the queue's; empty once the target, or the post a comment is on, is removed (its text is nobody's now). */
  excerpt: string;
}

export interface Suspension {
  userId: string;
  until: Date;
  reason: string;
  createdAt: Date;
  /** The contributor's user id. */
  suspendedBy: string;
}

export const LOG_ACTIONS = [...MODERATION_ACTIONS, 'auto_hide', 'suspend', 'lift'] as const;

export interface ModerationLogEntry {
  id: number;
  at: Date;
  /** Empty for the automatic hiding. */
  actorUserId: string;
  /** From the read copy of authors; null when it does not hold the actor. */
  actorFirstName: string | null;
  actorLastName: string | null;
  action: (typeof LOG_ACTIONS)[number];
  /** '' for a suspension. */
  targetType: TargetType | '';
  targetId: number;
  /** The member concerned: the target's author, or the one suspended. */
  userId: string;
  reason: string;
}
