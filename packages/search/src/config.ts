// The search engine a service uses, chosen by configuration: Elasticsearch when ELASTICSEARCH_URL is set, else
// the pg_trgm index in the service's own PostgreSQL, searched there or (SEARCH_IN_MEMORY) from each replica's
// in-memory copy of it. One schema and one factory for every service with an index.
import { envBoolean, type Logger } from '@rotunda/service-kit';
import { z } from 'zod';
import { createElasticsearchIndex } from './elasticsearch.ts';
import { withOutbox } from './outbox.ts';
import type { SearchIndex, SearchIndexDefinition } from './port.ts';
import { createPostgresSearchIndex } from './postgres.ts';
import { createReplicatedSearchIndex } from './replica.ts';

/** The variables, with a service's own defaults for the Postgres schema and the index's name. */
export function searchConfigSchema(defaults: { schema: string; index: string; inMemory?: boolean }) {
  return z.object({
    /** Elasticsearch's URL (credentials may ride in it); unset: the pg_trgm index in PostgreSQL. */
    ELASTICSEARCH_URL: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    /** The Postgres index's schema, apart from the Prisma-managed one. */
    SEARCH_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
      .default(defaults.schema),
    /** The index (Postgres table or Elasticsearch index). */
    SEARCH_INDEX: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case identifier')
      .default(defaults.index),
    /**
     * Without Elasticsearch: search each replica's in-memory copy of the Postgres index (kept current through
     * LISTEN/NOTIFY) rather than Postgres itself. Costs memory per replica; saves the round trip (ADR 0015).
     */
    SEARCH_IN_MEMORY: envBoolean(defaults.inMemory ?? false),
  });
}

export interface SearchConfig {
  DATABASE_URL: string;
  /** The owner's schema: with Elasticsearch, where its outbox table is (outbox.ts). */
  DATABASE_SCHEMA?: string | undefined;
  /** Connections of the Postgres index's pool (the service defaults' DATABASE_READ_POOL_SIZE). */
  DATABASE_READ_POOL_SIZE?: number | undefined;
  ELASTICSEARCH_URL?: string | undefined;
  SEARCH_SCHEMA: string;
  SEARCH_INDEX: string;
  SEARCH_IN_MEMORY?: boolean | undefined;
}

/**
 * The configured engine's index. Elasticsearch refreshes after each write: a member expects what they just
 * changed to be found when they search again. `logger` hears an in-memory copy losing its change feed: searches
 * go on from the copy, which may lag other replicas' writes until it listens again; and Elasticsearch going away
 * and coming back, with the writes kept meanwhile in the owner's outbox table.
 */
export function searchIndexFromConfig(
  config: SearchConfig,
  definition: SearchIndexDefinition,
  logger?: Pick<Logger, 'warn' | 'info'>,
): SearchIndex {
  if (config.ELASTICSEARCH_URL) {
    if (!config.DATABASE_SCHEMA)
      throw new TypeError('search: Elasticsearch needs DATABASE_SCHEMA for its outbox');
    return withOutbox(
      createElasticsearchIndex({
        node: config.ELASTICSEARCH_URL,
        index: config.SEARCH_INDEX,
        refresh: true,
        lockDatabaseUrl: config.DATABASE_URL,
        ...definition,
      }),
      {
        databaseUrl: config.DATABASE_URL,
        schema: config.DATABASE_SCHEMA,
        index: config.SEARCH_INDEX,
        ...(logger ? { logger } : {}),
      },
    );
  }
  const postgres = {
    databaseUrl: config.DATABASE_URL,
    schema: config.SEARCH_SCHEMA,
    index: config.SEARCH_INDEX,
    ...(config.DATABASE_READ_POOL_SIZE === undefined ? {} : { poolSize: config.DATABASE_READ_POOL_SIZE }),
    ...definition,
  };
  return config.SEARCH_IN_MEMORY
    ? createReplicatedSearchIndex({
        ...postgres,
        onListenError: (error) =>
          logger?.warn(
            { err: error, index: config.SEARCH_INDEX },
            'search index copy lost its change feed; listening again, then reloading',
          ),
      })
    : createPostgresSearchIndex(postgres);
}
