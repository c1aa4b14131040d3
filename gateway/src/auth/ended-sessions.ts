// The sessions that ended before their time (logout, password change or reset, a reused refresh token), learnt
// from the auth service: every gateway asks it every second or so what ended since its last question, and
// refuses the access tokens of those sessions, which would otherwise keep working until they expire. Each
// gateway replica asks for itself, so all of them learn it. Answers come in pages, followed until caught up; a
// poll that keeps failing shows in the metrics and in /healthz's detail.
import type { Logger } from '@rotunda/service-kit';
import { call, type ServiceClients } from '../grpc/clients.ts';
import { endedSessionsPoll } from '../telemetry/polls.ts';
import { type Poll, poll } from './poll.ts';

export interface EndedSessionsPage {
  sessionIds: string[];
  /** Where the next question starts. */
  cursor: string;
  /** How long an id matters: after that no access token of its session can be unexpired. */
  retainSeconds: number;
  /** More ids wait after this page: asked for at once with its cursor. */
  more?: boolean;
}

/** Its health()'s 'failing' means tokens of sessions ending meanwhile still work here. */
export interface EndedSessions extends Poll {
  /** Did this session end? */
  has(sessionId: string): boolean;
  /**
   * Ends a session here at once, until `untilMs` (when its last access token expires), without waiting for the
   * next poll: this gateway itself saw it end (the member deleted their account).
   */
  end(sessionId: string, untilMs: number): void;
}

/** Ids asked for per page; the auth service cuts a larger ask to its own page size. */
export const ENDED_SESSIONS_PAGE = 1000;
/** Pages followed in one round before the next round goes on at once (never one endless loop). */
const PAGES_PER_ROUND = 50;

export interface WatchOptions {
  /** One question: at most `limit` sessions ended since `cursor` ('' for every one that still matters). */
  load: (cursor: string, limit: number) => Promise<EndedSessionsPage>;
  intervalMs: number;
  logger: Logger;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/** Asks at once, then `intervalMs` after each answer (never two questions at a time). */
export function watchEndedSessions({
  load,
  intervalMs,
  logger,
  now = Date.now,
}: WatchOptions): EndedSessions {
  /** Ended session ids, each with the moment it stops mattering. */
  const ended = new Map<string, number>();
  let cursor = '';

  /** Follows the pages from the cursor; answers whether more are left for the next round. */
  async function catchUp(): Promise<boolean> {
    for (let pages = 0; pages < PAGES_PER_ROUND; pages += 1) {
      const page = await load(cursor, ENDED_SESSIONS_PAGE);
      const until = now() + page.retainSeconds * 1000;
      for (const id of page.sessionIds) ended.set(id, until);
      cursor = page.cursor;
      if (!page.more) return false;
    }
    return true;
  }

  const watch = poll({
    // Answered or not, ids that no longer matter go.
    round: () =>
      catchUp().finally(() => {
        const at = now();
        for (const [id, until] of ended) if (until <= at) ended.delete(id);
      }),
    intervalMs,
    metrics: endedSessionsPoll,
    logger,
    what: 'ended sessions',
    service: 'auth',
    now,
  });
  return {
    ...watch,
    has: (sessionId) => ended.has(sessionId),
    end: (sessionId, untilMs) => {
      ended.set(sessionId, Math.max(untilMs, ended.get(sessionId) ?? 0));
    },
  };
}

/** The auth service's ListEndedSessions, as a `load` for watchEndedSessions. */
export function endedSessionsFromAuth(
  clients: Pick<ServiceClients, 'auth' | 'deadlineMs'>,
): WatchOptions['load'] {
  return async (cursor, limit) => {
    const answer = await call(
      'auth',
      clients.auth,
      clients.auth.listEndedSessions,
      { cursor, limit },
      { requestId: 'ended-sessions', deadlineMs: clients.deadlineMs },
    );
    return {
      sessionIds: answer.session_ids,
      cursor: answer.cursor,
      retainSeconds: answer.retain_seconds,
      more: answer.more,
    };
  };
}
