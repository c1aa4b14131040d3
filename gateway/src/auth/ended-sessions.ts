// The sessions that ended before their time (logout, password change or reset, a reused refresh token), learnt
// from the auth service: every gateway asks it every second or so what ended since its last question, and
// refuses the access tokens of those sessions, which would otherwise keep working until they expire. Each
// gateway replica asks for itself, so all of them learn it.
import type { Logger } from '@rotunda/service-kit';
import { call, type ServiceClients } from '../grpc/clients.ts';

export interface EndedSessionsPage {
  sessionIds: string[];
  /** Where the next question starts. */
  cursor: string;
  /** How long an id matters: after that no access token of its session can be unexpired. */
  retainSeconds: number;
}

export interface EndedSessions {
  /** Did this session end? */
  has(sessionId: string): boolean;
  /** Stops asking. */
  close(): void;
}

export interface WatchOptions {
  /** One question: the sessions ended since `cursor` ('' for every one that still matters). */
  load: (cursor: string) => Promise<EndedSessionsPage>;
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
  let failing = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function ask(): Promise<void> {
    try {
      const page = await load(cursor);
      const until = now() + page.retainSeconds * 1000;
      for (const id of page.sessionIds) ended.set(id, until);
      cursor = page.cursor;
      if (failing) logger.info('ended sessions: the auth service answers again');
      failing = false;
    } catch (error) {
      // Said once per outage, not every second; tokens of sessions ending meanwhile live until it answers.
      if (!failing)
        logger.warn({ err: error }, 'ended sessions: cannot ask the auth service; will keep trying');
      failing = true;
    }
    const at = now();
    for (const [id, until] of ended) if (until <= at) ended.delete(id);
    if (closed) return;
    timer = setTimeout(ask, intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  }

  void ask();
  return {
    has: (sessionId) => ended.has(sessionId),
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
  return async (cursor) => {
    const answer = await call(
      'auth',
      clients.auth,
      clients.auth.listEndedSessions,
      { cursor },
      { requestId: 'ended-sessions', deadlineMs: clients.deadlineMs },
    );
    return { sessionIds: answer.session_ids, cursor: answer.cursor, retainSeconds: answer.retain_seconds };
  };
}
