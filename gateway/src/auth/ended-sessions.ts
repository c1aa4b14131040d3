// The sessions that ended before their time (logout, password change or reset, a reused refresh token), learnt
// from the auth service: every gateway asks it every second or so what ended since its last question, and
// refuses the access tokens of those sessions, which would otherwise keep working until they expire. Each
// gateway replica asks for itself, so all of them learn it. Answers come in pages, followed until caught up; a
// poll that keeps failing shows in the metrics and in /healthz's detail.
import type { Logger } from '@rotunda/service-kit';
import { call, type ServiceClients } from '../grpc/clients.ts';
import {
  endedSessionsLastAnswer,
  endedSessionsPollFailing,
  endedSessionsPollFailures,
} from '../telemetry/ended-sessions.ts';

export interface EndedSessionsPage {
  sessionIds: string[];
  /** Where the next question starts. */
  cursor: string;
  /** How long an id matters: after that no access token of its session can be unexpired. */
  retainSeconds: number;
  /** More ids wait after this page: asked for at once with its cursor. */
  more?: boolean;
}

/** How the poll is doing, for /healthz. */
export interface EndedSessionsHealth {
  /** 'failing' while the latest question failed: tokens of sessions ending meanwhile still work here. */
  status: 'starting' | 'ok' | 'failing';
  /** Questions failed in a row. */
  failures: number;
  /** Seconds since the auth service last answered; absent before its first answer. */
  lastAnswerSecondsAgo?: number;
}

export interface EndedSessions {
  /** Did this session end? */
  has(sessionId: string): boolean;
  health(): EndedSessionsHealth;
  /** Stops asking. */
  close(): void;
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
  let failures = 0;
  let answeredAt: number | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

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

  async function ask(): Promise<void> {
    let behind = false;
    try {
      behind = await catchUp();
      if (failures > 0) logger.info({ failures }, 'ended sessions: the auth service answers again');
      failures = 0;
      answeredAt = now();
      endedSessionsPollFailing.set(0);
      endedSessionsLastAnswer.set(answeredAt / 1000);
    } catch (error) {
      // Said once per outage, not every second; tokens of sessions ending meanwhile live until it answers.
      if (failures === 0)
        logger.warn({ err: error }, 'ended sessions: cannot ask the auth service; will keep trying');
      failures += 1;
      endedSessionsPollFailing.set(1);
      endedSessionsPollFailures.inc();
    }
    const at = now();
    for (const [id, until] of ended) if (until <= at) ended.delete(id);
    if (closed) return;
    timer = setTimeout(ask, behind ? 0 : intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  }

  void ask();
  return {
    has: (sessionId) => ended.has(sessionId),
    health: () => ({
      status: failures > 0 ? 'failing' : answeredAt === undefined ? 'starting' : 'ok',
      failures,
      ...(answeredAt === undefined ? {} : { lastAnswerSecondsAgo: Math.round((now() - answeredAt) / 1000) }),
    }),
    close() {
      closed = true;
      clearTimeout(timer);
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
