// Composition root of the org service: validated configuration, its own schema migrated, and the gRPC
// server with health checking. Its RPCs are wired here as the capability lands.
import { OrgServiceService } from '@rotunda/protos/org';
import {
  createLogger,
  createPostgresProbe,
  loadConfigOrExit,
  migrate,
  shutdownOnSignals,
  startGrpcServer,
} from '@rotunda/service-kit';
import { orgConfigSchema } from './config.ts';

const config = loadConfigOrExit(orgConfigSchema, 'org');
const logger = createLogger('org', config.LOG_LEVEL);

if (config.MIGRATE_ON_START) {
  await migrate({
    databaseUrl: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger,
  });
}

const database = createPostgresProbe(config.DATABASE_URL);
const server = await startGrpcServer({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  logger,
  services: [{ name: 'rotunda.org.v1.OrgService', definition: OrgServiceService, implementation: {} }],
  readiness: database.ready,
  onShutdown: database.close,
});
shutdownOnSignals(server.shutdown, logger);
