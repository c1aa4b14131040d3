// A question asked of another service for the life of the process: at once, then `intervalMs` after each answer
// (never two at a time), with what /healthz and the metrics say of it. The ended sessions (auth service) and the
// moderation snapshot (post service) are each one. A failing question is logged once per outage, not every time,
// and once more when the service answers again.
import type { Logger } from '@rotunda/service-kit';
import type { PollMetrics } from '../telemetry/polls.ts';

/** How the poll is doing, for /healthz. */
export interface PollHealth {
  /** 'failing' while the latest question failed: what was learnt before is still in use. */
  status: 'starting' | 'ok' | 'failing';
  /** Questions failed in a row. */
  failures: number;
  /** Seconds since the service last answered; absent before its first answer. */
  lastAnswerSecondsAgo?: number;
}

export interface Poll {
  health(): PollHealth;
  /** Asks again at once, or right after the question in flight is answered, instead of after the interval. */
  askSoon(): void;
  /** Stops asking. */
  close(): void;
}

export interface PollOptions {
  /** One round of questions; answers true when more wait, asked at once instead of after the interval. */
  round: () => Promise<boolean>;
  intervalMs: number;
  metrics: PollMetrics;
  logger: Logger;
  /** For the logs: what is learnt ('ended sessions') and from which service ('auth'). */
  what: string;
  service: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export function poll({ round, intervalMs, metrics, logger, what, service, now }: PollOptions): Poll {
  let failures = 0;
  let answeredAt: number | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  /** askSoon() was called while a question was in flight: its answer may predate what the caller waits for. */
  let again = false;

  async function ask(): Promise<void> {
    inFlight = true;
    again = false;
    let behind = false;
    try {
      behind = await round();
      if (failures > 0) logger.info({ failures }, `${what}: the ${service} service answers again`);
      failures = 0;
      answeredAt = now();
      metrics.failing.set(0);
      metrics.lastAnswer.set(answeredAt / 1000);
    } catch (error) {
      if (failures === 0)
        logger.warn({ err: error }, `${what}: cannot ask the ${service} service; will keep trying`);
      failures += 1;
      metrics.failing.set(1);
      metrics.failures.inc();
    }
    inFlight = false;
    if (closed) return;
    timer = setTimeout(ask, behind || again ? 0 : intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  }

  void ask();
  return {
    health: () => ({
      status: failures > 0 ? 'failing' : answeredAt === undefined ? 'starting' : 'ok',
      failures,
      ...(answeredAt === undefined ? {} : { lastAnswerSecondsAgo: Math.round((now() - answeredAt) / 1000) }),
    }),
    askSoon() {
      if (closed) return;
      if (inFlight) {
        again = true;
        return;
      }
      clearTimeout(timer);
      void ask();
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
