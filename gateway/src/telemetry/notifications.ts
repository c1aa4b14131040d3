// The gateway's live unread-count streams in its metrics (ADR 0042): the server-sent-event connections this process
// holds, its one watch of the notification service and how often that watch was opened again, and the streams
// refused at the caps, so an operator sees how many members a worker carries and whether their counts still flow.
import { metricsRegistry } from '@rotunda/service-kit';
import { Counter, Gauge } from 'prom-client';

export const unreadStreamsHeld = new Gauge({
  name: 'rotunda_notification_streams_held',
  help: 'Live unread-count streams (GET /api/notifications/stream) this gateway process holds.',
  registers: [metricsRegistry],
});

export const unreadWatchOpen = new Gauge({
  name: 'rotunda_notification_watch_open',
  help: "1 while this gateway process's watch of the notification service's unread counts is open, else 0.",
  registers: [metricsRegistry],
});

export const unreadWatchReopens = new Counter({
  name: 'rotunda_notification_watch_reopens_total',
  help: 'Times this gateway process opened its watch of unread counts again after it ended or failed.',
  registers: [metricsRegistry],
});

export const unreadStreamsRefused = new Counter({
  name: 'rotunda_notification_streams_refused_total',
  help: 'Live unread-count streams refused at the per-process or per-member cap.',
  labelNames: ['cap'],
  registers: [metricsRegistry],
});
