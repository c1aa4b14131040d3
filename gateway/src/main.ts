// Composition root of the gateway: validated configuration, tracing (OTEL_*) and /metrics (METRICS_PORT), gRPC
// clients for the six services, the watch on sessions that ended, the Express app, and a graceful stop (finish
// requests in flight, then close the channels). With GATEWAY_WORKERS above 1 this process is a cluster primary
// instead: it forks that many workers (each the gateway below) sharing PORT through Node's cluster module, forks
// a new one when one dies (the others then hand back their kept-alive connections, so the clients' new ones are
// shared out again), and on SIGTERM lets each drain before it exits.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import {
  createLogger,
  drainConfigSchema,
  loadConfigOrExit,
  serveMetrics,
  startTracing,
  stopWithParent,
  tracingConfigSchema,
} from '@rotunda/service-kit';
import { z } from 'zod';
import { createApp } from './app.ts';
import { endedSessionsFromAuth, watchEndedSessions } from './auth/ended-sessions.ts';
import { gatewayConfigSchema } from './config.ts';
import { createServiceClients } from './grpc/clients.ts';
import { createHealthChecker } from './grpc/health.ts';
import { drainable } from './http/drain.ts';
import { unreadStreams } from './http/unread-streams.ts';

const workersConfigSchema = z.object({
  /** Worker processes sharing PORT (Node's cluster module); 1: this process serves, no cluster. */
  GATEWAY_WORKERS: z.coerce
    .number({ error: 'must be a whole number from 1 to 64' })
    .int('must be a whole number from 1 to 64')
    .min(1, 'must be a whole number from 1 to 64')
    .max(64, 'must be a whole number from 1 to 64')
    .default(1),
});
/** A worker that died is forked again after this pause, so one failing at start does not spin. */
const REFORK_DELAY_MS = 1000;
/** What the primary tells the other workers once a worker forked again listens (drain.ts, rebalance). */
const REBALANCE = { rotunda: 'rebalance' } as const;
const config = loadConfigOrExit(gatewayConfigSchema, 'gateway');
const workers = loadConfigOrExit(workersConfigSchema, 'gateway');
const { SHUTDOWN_GRACE_MS } = loadConfigOrExit(drainConfigSchema, 'gateway');
const { exporters } = loadConfigOrExit(tracingConfigSchema, 'gateway');
/** A worker's own drain deadline is SHUTDOWN_GRACE_MS (below); the primary waits a little longer for them all. */
const DRAIN_DEADLINE_MS = SHUTDOWN_GRACE_MS + 3000;

function serve() {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const tracing = startTracing({ serviceName: 'gateway', exporters });
  if (config.METRICS_PORT !== undefined)
    serveMetrics(config.METRICS_PORT, config.HOST).then(
      (metrics) =>
        logger.info({ metricsUrl: `http://${config.HOST}:${metrics.port}/metrics` }, 'metrics listening'),
      (error: unknown) => {
        logger.fatal({ err: error }, `cannot serve metrics on ${config.HOST}:${config.METRICS_PORT}`);
        process.exit(1);
      },
    );
  const clients = createServiceClients(config);
  const health = createHealthChecker(clients.addresses);
  const endedSessions = watchEndedSessions({
    load: endedSessionsFromAuth(clients),
    intervalMs: config.ENDED_SESSIONS_POLL_MS,
    logger,
  });
  const streams = unreadStreams({
    clients,
    logger,
    atOnce: config.NOTIFICATION_STREAMS_AT_ONCE,
    endedSessions,
  });
  const app = createApp({
    config,
    clients,
    services: health.check,
    dependencies: health.dependencies,
    logger,
    endedSessions,
    streams,
  });

  // A request still arriving after REQUEST_TIMEOUT_MS (a stalled upload body, headers dribbled in) is answered
  // 408 and closed: the timeout covers receiving the request only, never the answer (exports, slow services).
  // Node looks for such requests every connectionsCheckingInterval (30 s by default, which would double the wait).
  const server = createServer(
    {
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      headersTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, config.REQUEST_TIMEOUT_MS),
    },
    app,
  );
  server.once('error', (error) => {
    logger.fatal({ err: error }, `cannot listen on ${config.HOST}:${config.PORT}`);
    process.exit(1);
  });
  server.listen(config.PORT, config.HOST, () => {
    logger.info({ url: `http://localhost:${config.PORT}` }, 'gateway listening');
  });
  server.keepAliveTimeout = 65_000;
  const http = drainable(server);
  if (cluster.isWorker)
    process.on('message', (message: unknown) => {
      if ((message as { rotunda?: unknown } | null)?.rotunda === REBALANCE.rotunda) http.rebalance();
    });

  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'parent gone') => {
    // Ctrl-C reaches a worker twice (from the terminal and from its primary): one drain.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    endedSessions.close();
    // Live streams never finish by themselves: they end now, and their browsers reconnect to another replica.
    streams.close();
    void http.drain(SHUTDOWN_GRACE_MS).then(async () => {
      clients.close();
      health.close();
      // The spans still buffered are sent before the process goes.
      await tracing.shutdown();
      process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A cluster worker's channel is its primary's, and the cluster module already ends a worker whose primary died.
  if (!cluster.isWorker) stopWithParent(() => stop('parent gone'));
}

function runPrimary(count: number) {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const running = new Map<number, ReturnType<typeof cluster.fork>>();
  const reforks = new Set<NodeJS.Timeout>();
  let stopping = false;

  const fork = (index: number, again = false) => {
    const worker = cluster.fork(
      // Each worker serves its own /metrics: worker n (from 1) on METRICS_PORT + n − 1.
      config.METRICS_PORT === undefined ? {} : { METRICS_PORT: String(config.METRICS_PORT + index) },
    );
    running.set(index, worker);
    // While it was away, its twins took every connection the clients made: they hand them back.
    if (again)
      worker.once('listening', () => {
        for (const other of running.values())
          if (other !== worker && other.isConnected()) other.send(REBALANCE);
      });
    worker.once('exit', (code, signal) => {
      running.delete(index);
      if (stopping) {
        if (running.size === 0) process.exit(0);
        return;
      }
      logger.error(
        { worker: index + 1, pid: worker.process.pid, code, signal },
        `gateway worker ${index + 1} exited; forking another in ${REFORK_DELAY_MS / 1000} s`,
      );
      const refork = setTimeout(() => {
        reforks.delete(refork);
        fork(index, true);
      }, REFORK_DELAY_MS);
      reforks.add(refork);
    });
  };
  for (let index = 0; index < count; index++) fork(index);
  logger.info({ workers: count, port: config.PORT }, 'gateway primary forked its workers');

  const stop = (signal: NodeJS.Signals | 'parent gone') => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: each worker finishes its requests in flight');
    for (const refork of reforks) clearTimeout(refork);
    for (const worker of running.values()) worker.process.kill('SIGTERM');
    if (running.size === 0) process.exit(0);
    setTimeout(() => process.exit(0), DRAIN_DEADLINE_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  stopWithParent(() => stop('parent gone'));
}

if (workers.GATEWAY_WORKERS > 1 && cluster.isPrimary) runPrimary(workers.GATEWAY_WORKERS);
else serve();
