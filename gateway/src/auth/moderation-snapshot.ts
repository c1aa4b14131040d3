// The running suspensions and the members with a hidden post or comment, learnt from the post service (ADR 0041):
// every gateway asks it for the whole moderation snapshot every second or so, as it asks the auth service about
// ended sessions. Authentication signs a member's running suspension into the caller token, so every service's
// guard refuses the member's writes; the feed answers a hidden author's pages fresh. A poll that fails keeps the
// last snapshot (a suspension ending meanwhile still ends on time) and shows in the metrics and /healthz.
import type { Logger, Suspension } from '@rotunda/service-kit';
import { call, type ServiceClients } from '../grpc/clients.ts';
import { moderationSnapshotPoll } from '../telemetry/polls.ts';
import { type Poll, poll } from './poll.ts';

/** How often the post service is asked: a suspension reaches the other services' guards within this. */
export const MODERATION_POLL_MS = 1000;

/** One answer of the post service. */
export interface ModerationSnapshotAnswer {
  suspensions: (Suspension & { userId: string })[];
  /** Members with at least one hidden post or comment. */
  hiddenAuthors: string[];
}

/** What the routes read of the snapshot. */
export interface ModerationSnapshotView {
  /** The member's suspension while it runs. */
  suspensionOf(userId: string): Suspension | undefined;
  /** Has the member a hidden post or comment (which only they and contributors see)? */
  hasHiddenPosts(userId: string): boolean;
}

/** Its health()'s 'failing' means the last snapshot is still in use. */
export interface ModerationSnapshot extends ModerationSnapshotView, Poll {}

export interface WatchModerationOptions {
  load: () => Promise<ModerationSnapshotAnswer>;
  intervalMs?: number;
  logger: Logger;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/** Asks at once, then `intervalMs` after each answer (never two questions at a time). */
export function watchModerationSnapshot({
  load,
  intervalMs = MODERATION_POLL_MS,
  logger,
  now = Date.now,
}: WatchModerationOptions): ModerationSnapshot {
  let suspensions = new Map<string, Suspension>();
  let hiddenAuthors = new Set<string>();
  const watch = poll({
    round: async () => {
      const answer = await load();
      suspensions = new Map(
        answer.suspensions.map(({ userId, until, reason }) => [userId, { until, reason }]),
      );
      hiddenAuthors = new Set(answer.hiddenAuthors);
      return false;
    },
    intervalMs,
    metrics: moderationSnapshotPoll,
    logger,
    what: 'moderation snapshot',
    service: 'post',
    now,
  });
  return {
    ...watch,
    suspensionOf(userId) {
      const suspension = suspensions.get(userId);
      return suspension && suspension.until.getTime() > now() ? suspension : undefined;
    },
    hasHiddenPosts: (userId) => hiddenAuthors.has(userId),
  };
}

/** The post service's GetModerationSnapshot, as a `load` for watchModerationSnapshot. */
export function moderationSnapshotFromPost(
  clients: Pick<ServiceClients, 'post' | 'deadlineMs'>,
): WatchModerationOptions['load'] {
  return async () => {
    const answer = await call(
      'post',
      clients.post,
      clients.post.getModerationSnapshot,
      {},
      { requestId: 'moderation-snapshot', deadlineMs: clients.deadlineMs },
    );
    return {
      suspensions: answer.suspensions.flatMap(({ user_id, until, reason }) =>
        until ? [{ userId: user_id, until, reason }] : [],
      ),
      hiddenAuthors: answer.hidden_authors,
    };
  };
}
