// Builds the post service's rules and adapters from its configuration; shared by the composition root and the
// scale seed, so both write through the same repository and search index. `createPostDomain` wires the rules'
// modules to each other and to their ports (the tests wire theirs with it too).
import { type SearchIndex, searchIndexFromConfig } from '@rotunda/search';
import { connectReadDriver, NO_SEARCH_OUTBOX, prismaAdapter, searchOutbox } from '@rotunda/service-kit';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createBodySanitizer } from './adapters/body-sanitizer.ts';
import { grpcOrgDirectory, grpcProfileDirectory } from './adapters/grpc-directories.ts';
import { postgresFeedVersionStore } from './adapters/postgres-feed-version.ts';
import { prismaPostRepository } from './adapters/prisma-post-repository.ts';
import type { PostConfig } from './config.ts';
import { createComments } from './domain/comments.ts';
import { createFeedVersion, type FeedVersion } from './domain/feed-version.ts';
import { createLikesAndReads } from './domain/likes-and-reads.ts';
import { createMembersData } from './domain/members-data.ts';
import { createModeration, REPORT_ALLOWANCE } from './domain/moderation.ts';
import type {
  BodySanitizer,
  CommentAllowance,
  OrgDirectory,
  PostRepository,
  ProfileDirectory,
} from './domain/ports.ts';
import { createPostIndex, POST_INDEX } from './domain/post-index.ts';
import { createPostService } from './domain/post-service.ts';
import { createPostTypes } from './domain/post-types.ts';
import { createReadCopies } from './domain/read-copies.ts';

export interface PostDomainDependencies {
  repository: PostRepository;
  index: SearchIndex;
  profiles: ProfileDirectory;
  orgs: OrgDirectory;
  sanitizer: BodySanitizer;
  /** Each member's comments: a burst, then a steady rate (configuration). */
  commentAllowance: CommentAllowance;
  /** Moved after each committed write that changes a page (feed-version.ts). */
  feedVersion: FeedVersion;
  /** Each member's reports (moderation.ts REPORT_ALLOWANCE unless told). */
  reportAllowance?: CommentAllowance;
}

export function createPostDomain({
  repository,
  index,
  profiles,
  orgs,
  sanitizer,
  commentAllowance,
  feedVersion,
  reportAllowance = REPORT_ALLOWANCE,
}: PostDomainDependencies) {
  const postIndex = createPostIndex({ posts: repository, index });
  const copies = createReadCopies({ copies: repository, profiles, orgs, postIndex, feedVersion });
  return {
    types: createPostTypes({ types: repository }),
    posts: createPostService({
      posts: repository,
      postIndex,
      profiles,
      authors: copies,
      sanitizer,
      feedVersion,
    }),
    comments: createComments({
      comments: repository,
      posts: repository,
      authors: copies,
      commentAllowance,
      feedVersion,
    }),
    likes: createLikesAndReads({
      likes: repository,
      posts: repository,
      postIndex,
      feedVersion,
      authors: copies,
    }),
    moderation: createModeration({ store: repository, postIndex, feedVersion, profiles, reportAllowance }),
    membersData: createMembersData({ store: repository, postIndex, feedVersion }),
    copies,
  };
}

export type PostDomain = ReturnType<typeof createPostDomain>;

export async function wirePost(config: PostConfig) {
  const prisma = new PrismaClient({
    adapter: prismaAdapter(config.DATABASE_URL, config.DATABASE_SCHEMA, config.DATABASE_POOL_SIZE),
  });
  const readDriver = await connectReadDriver(
    config.DATABASE_URL,
    config.DATABASE_READ_POOL_SIZE,
    'post.read',
  );
  // With Elasticsearch, every write that changes a post's document notes it in the outbox in its own transaction.
  const outbox = config.ELASTICSEARCH_URL
    ? searchOutbox(config.DATABASE_SCHEMA, config.SEARCH_INDEX)
    : NO_SEARCH_OUTBOX;
  const repository = prismaPostRepository(prisma, config.DATABASE_SCHEMA, readDriver, outbox);
  const index = outbox.clearing(prisma, searchIndexFromConfig(config, POST_INDEX));
  const profiles = grpcProfileDirectory(config.PROFILE_SERVICE_ADDR, config.GRPC_DEADLINE_MS);
  const orgs = grpcOrgDirectory(config.ORG_SERVICE_ADDR, config.GRPC_DEADLINE_MS);
  const sanitizer = createBodySanitizer();
  const feedVersion = createFeedVersion(postgresFeedVersionStore(prisma, config.DATABASE_SCHEMA));
  const domain = createPostDomain({
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
  return { prisma, repository, index, profiles, orgs, sanitizer, feedVersion, ...domain, close };
}
