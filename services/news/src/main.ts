// Composition root of the news service: the demo seed, the feed reader on its schedule, and
// rotunda.news.v1.NewsService over gRPC.
import { NewsServiceService } from '@rotunda/protos/news';
import { runService } from '@rotunda/service-kit';
import { grpcNewsService } from './adapters/grpc-news-service.ts';
import { newsConfigSchema } from './config.ts';
import { ingestFeeds, scheduleIngestion } from './domain/ingest.ts';
import { seedDemoHeadlines } from './seed/demo-headlines.ts';
import { wireNews } from './wiring.ts';

await runService({
  name: 'news',
  configSchema: newsConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    const { repository, reader, close } = wireNews(config);
    if (config.SEED_DEMO) {
      const seeded = await seedDemoHeadlines(repository);
      if (seeded > 0) logger.info({ headlines: seeded }, 'demo headlines seeded');
    }
    const schedule =
      config.NEWS_FEEDS.length > 0
        ? scheduleIngestion({
            intervalMs: config.NEWS_REFRESH_MINUTES * 60_000,
            run: () => ingestFeeds({ feeds: config.NEWS_FEEDS, reader, repository, logger }),
            logger,
          })
        : undefined;
    return {
      services: [
        {
          name: 'rotunda.news.v1.NewsService',
          definition: NewsServiceService,
          implementation: grpcNewsService(repository, logger),
        },
      ],
      onShutdown: async () => {
        await schedule?.stop();
        await close();
      },
    };
  },
});
