// Builds the news service's adapters from its configuration: the Prisma repository on its own schema and the
// feed reader that fetches only public addresses (or those configured as allowed).
import { prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createFeedReader } from './adapters/feed-reader.ts';
import { prismaHeadlineRepository } from './adapters/prisma-headline-repository.ts';
import type { NewsConfig } from './config.ts';

export function wireNews(config: NewsConfig) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const repository = prismaHeadlineRepository(prisma);
  const reader = createFeedReader({
    timeoutMs: config.NEWS_FETCH_TIMEOUT_MS,
    allowedPrivateAddresses: config.NEWS_ALLOW_PRIVATE_ADDRESSES,
  });
  const close = () => prisma.$disconnect();
  return { repository, reader, close };
}
