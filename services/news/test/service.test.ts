// The news service against a real PostgreSQL and real gRPC: migrations match schema.prisma, the repository
// de-duplicates by url and answers newest first, the demo seed runs once, ListHeadlines caps its answer.
import { credentials } from '@grpc/grpc-js';
import { NewsServiceClient, NewsServiceService } from '@rotunda/protos/news';
import {
  createLogger,
  migrate,
  prismaAdapter,
  type RunningGrpcServer,
  startGrpcServer,
} from '@rotunda/service-kit';
import { createTestDatabase, diffSchemaAndDatabase, rpcCalls } from '@rotunda/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { grpcNewsService } from '../src/adapters/grpc-news-service.ts';
import { prismaHeadlineRepository } from '../src/adapters/prisma-headline-repository.ts';
import type { Headline } from '../src/domain/headline.ts';
import { seedDemoHeadlines } from '../src/seed/demo-headlines.ts';

const logger = createLogger('news-test', 'silent');
const root = new URL('..', import.meta.url).pathname;

const headline = (url: string, minutesAgo: number): Headline => ({
  title: `Story ${url}`,
  snippet: 'A snippet.',
  url,
  logo: '',
  publication: 'Statehouse Weekly',
  createdAt: new Date(Date.UTC(2026, 10, 20, 12) - minutesAgo * 60_000),
});

describe('news service', () => {
  let databaseUrl: string;
  let prisma: PrismaClient;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    await migrate({ databaseUrl, schema: 'news', migrationsDir: `${root}prisma/migrations`, logger });
    prisma = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'news') });
  });
  afterAll(async () => {
    await prisma.$disconnect();
  });

  it('has a migrated database that matches schema.prisma', async () => {
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: `${root}prisma/schema.prisma`,
        databaseUrl,
        schema: 'news',
      }),
    ).toEqual([]);
  });

  it('stores only headlines whose url is new and answers newest first', async () => {
    await prisma.headline.deleteMany();
    const repository = prismaHeadlineRepository(prisma);
    expect(
      await repository.addNew([headline('https://example.org/1', 30), headline('https://example.org/2', 10)]),
    ).toBe(2);
    expect(
      await repository.addNew([headline('https://example.org/2', 5), headline('https://example.org/3', 1)]),
    ).toBe(1);
    expect((await repository.latest(10)).map((h) => h.url)).toEqual([
      'https://example.org/3',
      'https://example.org/2',
      'https://example.org/1',
    ]);
    expect(await repository.latest(1)).toHaveLength(1);
  });

  it('seeds the demo headlines once', async () => {
    await prisma.headline.deleteMany();
    const repository = prismaHeadlineRepository(prisma);
    const first = await seedDemoHeadlines(repository);
    expect(first).toBeGreaterThanOrEqual(10);
    expect(await seedDemoHeadlines(repository)).toBe(0);
    expect(await prisma.headline.count()).toBe(first);
  });

  describe('over gRPC', () => {
    let server: RunningGrpcServer;
    let client: NewsServiceClient;
    const list = (limit: number) => rpcCalls(NewsServiceService, () => client)('listHeadlines', { limit });

    beforeAll(async () => {
      await prisma.headline.deleteMany();
      const repository = prismaHeadlineRepository(prisma);
      await repository.addNew(
        Array.from({ length: 230 }, (_, i) => headline(`https://example.org/many/${i}`, i)),
      );
      server = await startGrpcServer({
        host: '127.0.0.1',
        port: 0,
        logger,
        services: [
          {
            name: 'rotunda.news.v1.NewsService',
            definition: NewsServiceService,
            implementation: grpcNewsService(repository, logger),
          },
        ],
      });
      client = new NewsServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    });
    afterAll(async () => {
      client.close();
      await server.shutdown();
    });

    it('answers the newest 50 by default, with every field', async () => {
      const { headlines } = await list(0);
      expect(headlines).toHaveLength(50);
      expect(headlines[0]).toEqual({
        title: 'Story https://example.org/many/0',
        snippet: 'A snippet.',
        url: 'https://example.org/many/0',
        logo: '',
        publication: 'Statehouse Weekly',
        created_at: new Date(Date.UTC(2026, 10, 20, 12)),
      });
    });

    it('honours a smaller limit and caps a larger one at 200', async () => {
      expect((await list(5)).headlines).toHaveLength(5);
      expect((await list(10_000)).headlines).toHaveLength(200);
    });
  });
});
