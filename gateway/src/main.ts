// Composition root of the gateway: validated configuration, gRPC clients for the five services, the watch on
// sessions that ended, the Express app, and a graceful stop (finish requests in flight, then close the
// channels).
import { createLogger, loadConfigOrExit, stopWithParent } from '@rotunda/service-kit';
import { createApp } from './app.ts';
import { endedSessionsFromAuth, watchEndedSessions } from './auth/ended-sessions.ts';
import { gatewayConfigSchema } from './config.ts';
import { createServiceClients } from './grpc/clients.ts';
import { createHealthChecker } from './grpc/health.ts';

const config = loadConfigOrExit(gatewayConfigSchema, 'gateway');
const logger = createLogger('gateway', config.LOG_LEVEL);
const clients = createServiceClients(config);
const health = createHealthChecker(clients.addresses);
const endedSessions = watchEndedSessions({
  load: endedSessionsFromAuth(clients),
  intervalMs: config.ENDED_SESSIONS_POLL_MS,
  logger,
});
const app = createApp({ config, clients, services: health.check, logger, endedSessions });

const server = app.listen(config.PORT, config.HOST, (error) => {
  if (error) {
    logger.fatal({ err: error }, `cannot listen on ${config.HOST}:${config.PORT}`);
    process.exit(1);
  }
  logger.info({ url: `http://localhost:${config.PORT}` }, 'gateway listening');
});
server.keepAliveTimeout = 65_000;

const stop = (signal: NodeJS.Signals | 'parent gone') => {
  logger.info({ signal }, 'shutting down');
  endedSessions.close();
  server.close(() => {
    clients.close();
    health.close();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
stopWithParent(() => stop('parent gone'));
