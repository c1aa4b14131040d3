// The running suspensions and the members with a hidden post or comment, learnt from the post service (ADR 0041):
// every gateway asks it for the whole moderation snapshot every second or so, as it asks the auth service about
// ended sessions. Authentication signs a member's running suspension into the caller token, so every service's
// guard refuses the member's writes; the feed answers a hidden author's pages fresh. When the feed moves (a hiding
// among its changes) the gateway asks at once, and members' feed reads wait for that answer: the pages kept after
// the move no longer hold the newly hidden post, and its author must not be given them as if nothing of theirs
// were hidden. A poll that fails keeps the last snapshot (a suspension ending meanwhile still ends on time) and
// shows in the metrics and /healthz.
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
  /** The feed moved (a target may have been hidden since the last answer): asks again at once. */
  outdated(): void;
  /** Resolves once a question asked after the latest outdated() is answered (or has failed: the last snapshot stays). */
  current(): Promise<void>;
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
  /** outdated() calls so far, and how many of them the latest finished question was asked after. */
  let moves = 0;
  let answeredMoves = 0;
  let waiting: { moves: number; resolve: () => void }[] = [];
  const watch = poll({
    round: async () => {
      const asking = moves;
      try {
        const answer = await load();
        suspensions = new Map(
          answer.suspensions.map(({ userId, until, reason }) => [userId, { until, reason }]),
        );
        hiddenAuthors = new Set(answer.hiddenAuthors);
      } finally {
        answeredMoves = Math.max(answeredMoves, asking);
        const ready = waiting.filter((w) => w.moves <= answeredMoves);
        waiting = waiting.filter((w) => w.moves > answeredMoves);
        for (const w of ready) w.resolve();
      }
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
    outdated() {
      moves += 1;
      watch.askSoon();
    },
    current() {
      if (answeredMoves >= moves) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push({ moves, resolve }));
    },
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
