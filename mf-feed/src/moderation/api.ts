// The contributors' moderation calls (docs/product.md#moderation, ADR 0041) and their answers'
// shapes, sent with @rotunda/ui's client (errors carry the status and the server's own message).
import type { ModerationAction, ReportReason } from '@rotunda/rules';
import { asList, call } from '@rotunda/ui';

export type TargetType = 'post' | 'comment';
export type TargetState = 'visible' | 'hidden' | 'removed';
export type ReportStatus = 'open' | 'closed';

/** One reported post or comment, with every report of it in the status asked for. */
export interface ReportedTarget {
  target_type: TargetType;
  target_id: number;
  /** For a comment, the post it is on; for a post, its own id. */
  post_id: number;
  /** Different members who reported it. */
  reports_count: number;
  /** Each reason given at least once, most given first. */
  reasons: ReportReason[];
  /** The reporters' notes, newest first. */
  notes: string[];
  /** Hidden because several members reported it, no contributor having decided yet. */
  automatic: boolean;
  state: TargetState;
  first_reported_at: string;
  /** A post's title or the start of a comment's text. */
  excerpt: string;
  /** profile_id is null when the author has no profile. */
  author: { user_id: string; profile_id: number | null; first_name: string; last_name: string };
}

export interface Decision {
  state: TargetState;
  closed_reports: number;
}

export interface Suspension {
  user_id: string;
  until: string;
  reason: string;
}

/** 'dismiss', 'hide', 'restore', 'remove', 'auto_hide', 'suspend' or 'lift'. */
export type LogAction = ModerationAction | 'auto_hide' | 'suspend' | 'lift';

export interface LogEntry {
  id: number;
  at: string;
  actor: { user_id: string; first_name: string; last_name: string };
  action: LogAction;
  /** Both null for a suspension or its lifting. */
  target_type: TargetType | null;
  target_id: number | null;
  /** The member concerned: the target's author, or the one suspended. */
  user_id: string;
  reason: string;
}

/** The reported targets with open reports, or those whose reports are all closed; most reported first. */
export async function fetchReports(status: ReportStatus, signal?: AbortSignal): Promise<ReportedTarget[]> {
  const path = `/api/reports?status=${status}`;
  return asList<ReportedTarget>(await call<unknown>('GET', path, { signal }), `GET ${path}`);
}

/** Decides on a target, with the reason its author reads; closes its open reports. */
export const decide = (
  target: Pick<ReportedTarget, 'target_type' | 'target_id'>,
  action: ModerationAction,
  reason: string,
) =>
  call<Decision>('POST', '/api/reports/decide', {
    body: { target_type: target.target_type, target_id: target.target_id, action, reason },
  });

export const suspend = (userId: string, days: number, reason: string) =>
  call<Suspension>('POST', '/api/moderation/suspensions', { body: { user_id: userId, days, reason } });

export const liftSuspension = (userId: string) =>
  call<void>('DELETE', `/api/moderation/suspensions/${encodeURIComponent(userId)}`);

/** The latest decisions and suspensions, newest first (the gateway's first page of the log). */
export async function fetchLog(signal?: AbortSignal): Promise<LogEntry[]> {
  return asList<LogEntry>(
    await call<unknown>('GET', '/api/moderation/log', { signal }),
    'GET /api/moderation/log',
  );
}
