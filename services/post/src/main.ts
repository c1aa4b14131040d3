// Composition root of the post service: the Prisma repository on its own schema, the fixed post and event types,
// the search index (Postgres or Elasticsearch, by configuration) brought in step with the table, the read copies
// of authors', organizations' and divisions' names kept by change notifications (ADR 0012), its events outbox (made
// at start, pruned daily) and the auth service's recorded deletions of accounts (ADR 0042), the demo seed, the feed
// version moved once at start and for counted reads, and rotunda.post.v1.PostService over gRPC.
import { consumeEvents, eventsSchemaOf, keepOutbox, listenForChanges } from '@rotunda/events';
import { PostServiceService } from '@rotunda/protos/post';
import { idempotencyKeys, runService } from '@rotunda/service-kit';
import { grpcPostService } from './adapters/grpc-post-service.ts';
import { POST_EVENTS } from './adapters/prisma-sql.ts';
import { postConfigSchema } from './config.ts';
import { EVENT_TYPES, POST_TYPES } from './domain/post.ts';
import { seedDemoPosts } from './seed/demo-posts.ts';
import { wirePost } from './wiring.ts';

await runService({
  name: 'post',
  configSchema: postConfigSchema,
  migrationsDir: new URL('../prisma/migrations', import.meta.url),
  wire: async ({ config, logger }) => {
    const stopOutbox = await keepOutbox({ databaseUrl: config.DATABASE_URL, schema: POST_EVENTS, logger });
    const {
      prisma,
      repository,
      profiles,
      sanitizer,
      feedVersion,
      types,
      posts,
      comments,
      likes,
      moderation,
      membersData,
      copies,
      close,
    } = await wirePost(config);
    // The types are reference data every post points at, demo or not.
    await repository.ensureTypes(POST_TYPES, EVENT_TYPES);
    // Not awaited: the org and profile services start at the same time, and bylines only need the copy to
    // arrive, not to be there before the first call. The listener retries until they answer.
    const listener = listenForChanges({
      databaseUrl: config.DATABASE_URL,
      logger,
      onChange: copies.applyChange,
      onConnected: copies.catchUp,
      retryMs: 2000,
    });
    if (config.SEED_DEMO) {
      const seeded = await seedDemoPosts({ repository, profiles, sanitizer, logger });
      if (seeded > 0) logger.info({ posts: seeded }, 'demo posts seeded');
    }
    const indexed = await posts.syncSearchIndex();
    if (indexed > 0) logger.info({ posts: indexed }, 'search index rebuilt');
    await feedVersion.start((error) =>
      logger.warn({ err: error }, 'feed version: cannot move it; trying again each second'),
    );
    // A deleted account's posts, comments, likes and reports go whenever this service reads of it, from its cursor.
    const consumer = consumeEvents({
      databaseUrl: config.DATABASE_URL,
      logger,
      schema: POST_EVENTS,
      sources: [eventsSchemaOf('auth')],
      onEvent: membersData.onEvent,
    });
    return {
      services: [
        {
          name: 'rotunda.post.v1.PostService',
          definition: PostServiceService,
          implementation: grpcPostService(
            { types, posts, comments, likes, moderation, membersData, copies },
            logger,
            idempotencyKeys(prisma, config.DATABASE_SCHEMA),
          ),
          // A suspended member reads (AddRead counts a reading), but posts, comments, likes and reports nothing
          // (ADR 0041); a suspended contributor decides nothing either.
          writes: [
            'addPost',
            'updatePost',
            'deletePost',
            'addComment',
            'updateComment',
            'deleteComment',
            'setLike',
            'addReport',
            'decideReports',
            'suspendMember',
            'liftSuspension',
          ] satisfies (keyof typeof PostServiceService)[],
        },
      ],
      onShutdown: async () => {
        stopOutbox();
        await consumer.close();
        await listener.close();
        await close();
      },
    };
  },
});
