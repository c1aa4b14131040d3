// Composition root of the post service: validated configuration, its own schema migrated, and the gRPC
// server with health checking. Its RPCs are wired here as the capability lands.
import { PostServiceService } from '@rotunda/protos/post';
import {
  createLogger,
  createPostgresProbe,
  loadConfigOrExit,
  migrate,
  shutdownOnSignals,
  startGrpcServer,
} from '@rotunda/service-kit';
import { postConfigSchema } from './config.ts';

const config = loadConfigOrExit(postConfigSchema, 'post');
const logger = createLogger('post', config.LOG_LEVEL);

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
  services: [{ name: 'rotunda.post.v1.PostService', definition: PostServiceService, implementation: {} }],
  readiness: database.ready,
  onShutdown: database.close,
});
shutdownOnSignals(server.shutdown, logger);
