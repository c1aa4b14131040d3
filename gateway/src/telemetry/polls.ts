// The gateway's polls of other services in its metrics: for the ended sessions (auth service, ADR 0036) and the
// moderation snapshot (post service, ADR 0041), whether the latest question failed, how many have failed, and when
// one last succeeded. While a poll fails the gateway works from what it last learnt (tokens of sessions ending
// meanwhile still work here; a new suspension reaches the other services' guards only once the post service
// answers again), so an operator must be able to see it.
import { metricsRegistry } from '@rotunda/service-kit';
import { Counter, Gauge } from 'prom-client';

export interface PollMetrics {
  /** 1 while the latest question failed, else 0. */
  failing: Gauge;
  failures: Counter;
  /** Unix time of the latest answer; 0 before the first. */
  lastAnswer: Gauge;
}

/** The three metrics of one poll, named `<prefix>_…`; `question` says what is asked of whom. */
function pollMetrics(prefix: string, question: string): PollMetrics {
  return {
    failing: new Gauge({
      name: `${prefix}_poll_failing`,
      help: `1 while the gateway's latest question to ${question} failed, else 0.`,
      registers: [metricsRegistry],
    }),
    failures: new Counter({
      name: `${prefix}_poll_failures_total`,
      help: `Questions to ${question} that failed (each retried after the poll interval).`,
      registers: [metricsRegistry],
    }),
    lastAnswer: new Gauge({
      name: `${prefix}_last_answer_timestamp_seconds`,
      help: `When a question to ${question} was last answered (Unix time); 0 before its first answer.`,
      registers: [metricsRegistry],
    }),
  };
}

export const endedSessionsPoll = pollMetrics(
  'rotunda_ended_sessions',
  'the auth service about ended sessions',
);

export const moderationSnapshotPoll = pollMetrics(
  'rotunda_moderation_snapshot',
  'the post service for the moderation snapshot',
);
