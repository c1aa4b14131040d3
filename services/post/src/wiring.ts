// Builds the post service's rules and adapters from its configuration; shared by the composition root and the
// scale seed, so both write through the same repository and search index.
import { searchIndexFromConfig } from '@rotunda/search';
import { connectReadDriver, prismaAdapter } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBodySanitizer } from './adapters/body-sanitizer.ts';
import { grpcOrgDirectory, grpcProfileDirectory } from './adapters/grpc-directories.ts';
import { postgresFeedVersionStore } from './adapters/postgres-feed-version.ts';
import { prismaPostRepository } from './adapters/prisma-post-repository.ts';
import type { PostConfig } from './config.ts';
import { createFeedVersion } from './domain/feed-version.ts';
import { createPostService, POST_INDEX } from './domain/post-service.ts';

export async function wirePost(config: PostConfig) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const readDriver = await connectReadDriver(
    config.DATABASE_URL,
    config.DATABASE_READ_POOL_SIZE,
    'post.read',
  );
  const repository = prismaPostRepository(prisma, config.DATABASE_SCHEMA, readDriver);
  const index = searchIndexFromConfig(config, POST_INDEX);
  const profiles = grpcProfileDirectory(config.PROFILE_SERVICE_ADDR, config.GRPC_DEADLINE_MS);
  const orgs = grpcOrgDirectory(config.ORG_SERVICE_ADDR, config.GRPC_DEADLINE_MS);
  const sanitizer = createBodySanitizer();
  const feedVersion = createFeedVersion(postgresFeedVersionStore(prisma, config.DATABASE_SCHEMA));
  const posts = createPostService({
    repository,
    index,
    profiles,
    orgs,
    sanitizer,
    commentAllowance: {
      burst: config.COMMENT_BURST,
      intervalMs: 60_000 / config.COMMENT_RATE_PER_MINUTE,
    },
    feedVersion,
  });
  const close = async () => {
    feedVersion.stop();
    profiles.close();
    orgs.close();
    sanitizer.close();
    await index.close();
    await readDriver.dispose();
    await prisma.$disconnect();
  };
  return { prisma, repository, index, profiles, orgs, sanitizer, feedVersion, posts, close };
}
