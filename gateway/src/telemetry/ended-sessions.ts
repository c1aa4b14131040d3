// The ended-sessions poll in the gateway's metrics: whether its latest question to the auth service failed, how
// many have failed, and when one last succeeded. While it fails, tokens of sessions ending meanwhile keep working
// here, so an operator must be able to see it (ADR 0036).
import { metricsRegistry } from '@rotunda/service-kit';
import { Counter, Gauge } from 'prom-client';

export const endedSessionsPollFailing = new Gauge({
  name: 'rotunda_ended_sessions_poll_failing',
  help: "1 while the gateway's latest question to the auth service about ended sessions failed, else 0.",
  registers: [metricsRegistry],
});

export const endedSessionsPollFailures = new Counter({
  name: 'rotunda_ended_sessions_poll_failures_total',
  help: 'Questions to the auth service about ended sessions that failed (each retried after the poll interval).',
  registers: [metricsRegistry],
});

export const endedSessionsLastAnswer = new Gauge({
  name: 'rotunda_ended_sessions_last_answer_timestamp_seconds',
  help: 'When the auth service last answered which sessions ended (Unix time); 0 before its first answer.',
  registers: [metricsRegistry],
});
