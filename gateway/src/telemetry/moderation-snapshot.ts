// The moderation snapshot poll in the gateway's metrics: whether its latest question to the post service failed,
// how many have failed, and when one last succeeded. While it fails, a new suspension reaches the other services'
// guards only once it answers again (the post service refuses at once either way), so an operator must see it.
import { metricsRegistry } from '@rotunda/service-kit';
import { Counter, Gauge } from 'prom-client';

export const moderationSnapshotPollFailing = new Gauge({
  name: 'rotunda_moderation_snapshot_poll_failing',
  help: "1 while the gateway's latest question to the post service for the moderation snapshot failed, else 0.",
  registers: [metricsRegistry],
});

export const moderationSnapshotPollFailures = new Counter({
  name: 'rotunda_moderation_snapshot_poll_failures_total',
  help: 'Questions to the post service for the moderation snapshot that failed (each retried after the interval).',
  registers: [metricsRegistry],
});

export const moderationSnapshotLastAnswer = new Gauge({
  name: 'rotunda_moderation_snapshot_last_answer_timestamp_seconds',
  help: 'When the post service last answered the moderation snapshot (Unix time); 0 before its first answer.',
  registers: [metricsRegistry],
});
