// The whole post schema through Prisma, one store per thing it keeps: the fixed types, posts (and what the search
// index reads of them), comments and allowances, likes and reads, the read copies of other services' names,
// moderation (reports, decisions, suspensions, the log), and each member's data (deleted, exported).
import { NO_SEARCH_OUTBOX, type ReadDriver, type SearchOutbox } from '@rotunda/service-kit';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { PostRepository } from '../domain/ports.ts';
import { prismaCommentStore } from './prisma-comments.ts';
import { prismaCopyStore } from './prisma-copies.ts';
import { prismaLikeStore } from './prisma-likes.ts';
import { prismaMembersDataStore } from './prisma-members-data.ts';
import { prismaModerationStore } from './prisma-moderation.ts';
import { prismaPostStore } from './prisma-posts.ts';
import { schemaTables } from './prisma-sql.ts';
import { prismaTypeStore } from './prisma-types.ts';

/**
 * `readDriver` serves the feed page's read when given (the composition root gives one); without it (tests, tools)
 * the same statement runs through Prisma Client. `outbox` notes each write that changes the search index in the
 * write's own transaction (with Elasticsearch; the Postgres index has none).
 */
export function prismaPostRepository(
  prisma: PrismaClient,
  schema: string,
  readDriver?: ReadDriver,
  outbox: SearchOutbox = NO_SEARCH_OUTBOX,
): PostRepository {
  const tables = schemaTables(schema);
  return {
    ...prismaTypeStore(prisma),
    ...prismaPostStore(prisma, tables, readDriver, outbox),
    ...prismaCommentStore(prisma, tables),
    ...prismaLikeStore(prisma, tables, outbox),
    ...prismaCopyStore(prisma, tables),
    ...prismaModerationStore(prisma, tables, outbox),
    ...prismaMembersDataStore(prisma, tables, outbox),
  };
}
