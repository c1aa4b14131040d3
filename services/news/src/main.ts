// Composition root of the news service: reads its configuration, migrates its schema, wires the Prisma
// repository, the feed reader and the schedule, and serves rotunda.news.v1.NewsService over gRPC.
import { NewsServiceService } from '@rotunda/protos/news';
import {
  createLogger,
  loadConfigOrExit,
  migrate,
  prismaAdapter,
  shutdownOnSignals,
  startGrpcServer,
} from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createFeedReader } from './adapters/feed-reader.ts';
import { grpcNewsService } from './adapters/grpc-news-service.ts';
import { prismaHeadlineRepository } from './adapters/prisma-headline-repository.ts';
import { newsConfigSchema } from './config.ts';
import { ingestFeeds, scheduleIngestion } from './domain/ingest.ts';
import { seedDemoHeadlines } from './seed/demo-headlines.ts';

const config = loadConfigOrExit(newsConfigSchema, 'news');
const logger = createLogger('news', config.LOG_LEVEL);

if (config.MIGRATE_ON_START) {
  await migrate({
    databaseUrl: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: new URL('../prisma/migrations', import.meta.url).pathname,
    logger,
  });
}

const prisma = new PrismaClient({ adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA) });
const repository = prismaHeadlineRepository(prisma);
if (config.SEED_DEMO) {
  const seeded = await seedDemoHeadlines(repository);
  if (seeded > 0) logger.info({ headlines: seeded }, 'demo headlines seeded');
}

const reader = createFeedReader({ timeoutMs: config.NEWS_FETCH_TIMEOUT_MS });
const schedule =
  config.NEWS_FEEDS.length > 0
    ? scheduleIngestion({
        intervalMs: config.NEWS_REFRESH_MINUTES * 60_000,
        run: async () => {
          const summary = await ingestFeeds({ feeds: config.NEWS_FEEDS, reader, repository, logger });
          logger.info(summary, 'news: feeds ingested');
        },
        logger,
      })
    : undefined;

const server = await startGrpcServer({
  host: config.GRPC_HOST,
  port: config.GRPC_PORT,
  logger,
  services: [
    {
      name: 'rotunda.news.v1.NewsService',
      definition: NewsServiceService,
      implementation: grpcNewsService(repository, logger),
    },
  ],
  readiness: async () => {
    await prisma.$queryRaw`SELECT 1`;
    return true;
  },
  onShutdown: async () => {
    schedule?.stop();
    await prisma.$disconnect();
  },
});
shutdownOnSignals(server.shutdown, logger);
