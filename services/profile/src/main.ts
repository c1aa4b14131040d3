// Composition root of the profile service: validated configuration, its own schema migrated, and the gRPC
// server with health checking. Its RPCs are wired here as the capability lands.
import { ProfileServiceService } from '@rotunda/protos/profile';
import {
  createLogger,
  createPostgresProbe,
  loadConfigOrExit,
  migrate,
  shutdownOnSignals,
  startGrpcServer,
} from '@rotunda/service-kit';
import { profileConfigSchema } from './config.ts';

const config = loadConfigOrExit(profileConfigSchema, 'profile');
const logger = createLogger('profile', config.LOG_LEVEL);

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
  services: [
    { name: 'rotunda.profile.v1.ProfileService', definition: ProfileServiceService, implementation: {} },
  ],
  readiness: database.ready,
  onShutdown: database.close,
});
shutdownOnSignals(server.shutdown, logger);
