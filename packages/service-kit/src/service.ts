// Runs one service the same way every time: validated configuration, its own schema migrated, its wiring done
// by one replica at a time, its gRPC contracts served with health checking (its database's reach reported as
// `dependency/database`, ADR 0047), and a graceful stop on SIGTERM/SIGINT; traced (OTEL_*) and measured
// (/metrics on METRICS_PORT). Each service's composition root only says what to wire.
import pg from 'pg';
import type { z } from 'zod';
import { loadConfigOrExit, type ServiceConfig, serverConfigSchema } from './config.ts';
import {
  type CallerVerifier,
  createCallerVerifier,
  createServiceSigner,
  useServiceIdentity,
} from './grpc/caller-token.ts';
import {
  drainConfigSchema,
  type GrpcService,
  type RunningGrpcServer,
  shutdownOnSignals,
  startGrpcServer,
} from './grpc/server.ts';
import { createLogger, type Logger } from './logger.ts';
import { migrate } from './postgres/migrate.ts';
import { createPostgresProbe } from './postgres/probe.ts';
import { serveMetrics } from './telemetry/metrics.ts';
import { startTracing, type Tracing, tracingConfigSchema } from './telemetry/tracing.ts';

export interface ServiceWiring {
  services: GrpcService[];
  /** Closes what the wiring opened (clients, schedules), after calls in flight have finished. */
  onShutdown?: () => Promise<void>;
}

export async function runService<Schema extends z.ZodType<ServiceConfig>>(options: {
  name: string;
  configSchema: Schema;
  migrationsDir: URL;
  wire: (context: { config: z.infer<Schema>; logger: Logger }) => ServiceWiring | Promise<ServiceWiring>;
}): Promise<RunningGrpcServer> {
  const config = loadConfigOrExit(options.configSchema, options.name);
  const { CALLER_TOKEN_PUBLIC_KEY, SERVICE_TOKEN_PRIVATE_KEY, SERVICE_TOKEN_PUBLIC_KEYS, METRICS_PORT } =
    loadConfigOrExit(serverConfigSchema, options.name);
  // Every call this service makes names it, signed with its own key, to the service called.
  if (SERVICE_TOKEN_PRIVATE_KEY)
    useServiceIdentity(createServiceSigner(options.name, SERVICE_TOKEN_PRIVATE_KEY));
  const { SHUTDOWN_GRACE_MS } = loadConfigOrExit(drainConfigSchema, options.name);
  const { exporters } = loadConfigOrExit(tracingConfigSchema, options.name);
  const logger = createLogger(options.name, config.LOG_LEVEL);
  // Before anything runs a query, so the wiring's own statements are traced too.
  const tracing = startTracing({ serviceName: options.name, exporters });
  try {
    return await start(
      options,
      config,
      createCallerVerifier(CALLER_TOKEN_PUBLIC_KEY, { services: SERVICE_TOKEN_PUBLIC_KEYS }),
      logger,
      SHUTDOWN_GRACE_MS,
      { tracing, metricsPort: METRICS_PORT },
    );
  } catch (error) {
    const where = new URL(config.DATABASE_URL);
    logger.fatal(
      { err: error, database: `${where.hostname}:${where.port}${where.pathname}` },
      'could not start',
    );
    process.exit(1);
  }
}

async function start<Schema extends z.ZodType<ServiceConfig>>(
  options: Parameters<typeof runService<Schema>>[0],
  config: z.infer<Schema>,
  callers: CallerVerifier,
  logger: Logger,
  shutdownGraceMs: number,
  telemetry: { tracing: Tracing; metricsPort: number | undefined },
): Promise<RunningGrpcServer> {
  if (config.MIGRATE_ON_START) {
    // As the schema's owner; the service itself then runs as a role that may only read and write rows.
    await migrate({
      databaseUrl: config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL,
      schema: config.DATABASE_SCHEMA,
      migrationsDir: options.migrationsDir.pathname,
      logger,
    });
  }
  const wiring = await oneReplicaAtATime(config, () => options.wire({ config, logger }));
  const database = createPostgresProbe(config.DATABASE_URL);
  const metrics =
    telemetry.metricsPort === undefined
      ? undefined
      : await serveMetrics(telemetry.metricsPort, config.GRPC_HOST);
  if (metrics)
    logger.info({ metricsUrl: `http://${config.GRPC_HOST}:${metrics.port}/metrics` }, 'metrics listening');
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: wiring.services,
    callers,
    dependencies: { database: database.ready },
    shutdownGraceMs,
    onShutdown: async () => {
      await wiring.onShutdown?.();
      await database.close();
      await metrics?.close();
      await telemetry.tracing.shutdown();
    },
  });
  shutdownOnSignals(server.shutdown, logger);
  return server;
}

/**
 * Runs `work` holding the schema's wiring lock (a session advisory lock on a connection of its own), so replicas
 * starting together seed demo rows and sync their search index one after the other, never at once. Migrations
 * take a lock of their own before this.
 */
async function oneReplicaAtATime<T>(config: ServiceConfig, work: () => Promise<T> | T): Promise<T> {
  const client = new pg.Client({ connectionString: config.DATABASE_URL, application_name: 'rotunda.wiring' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`rotunda.wire.${config.DATABASE_SCHEMA}`]);
    return await work();
  } finally {
    // Ending the session releases the lock, also when the work failed.
    await client.end();
  }
}
