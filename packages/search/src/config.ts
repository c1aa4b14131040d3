// The search engine a service uses, chosen by configuration: Elasticsearch when ELASTICSEARCH_URL is set, else
// the pg_trgm index in the service's own PostgreSQL, searched there or (SEARCH_IN_MEMORY) from each replica's
// in-memory copy of it. One schema and one factory for every service with an index.
import { envBoolean, envPositiveInt, type Logger } from '@rotunda/service-kit';
import { z } from 'zod';
import { createElasticsearchIndex } from './elasticsearch.ts';
import { withOutbox } from './outbox.ts';
import type { SearchIndex, SearchIndexDefinition } from './port.ts';
import { createPostgresSearchIndex } from './postgres.ts';
import { createReplicatedSearchIndex } from './replica.ts';

/** A whole number from `min` that may be left unset (or empty). */
const optionalWhole = (min: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? Number(value) : undefined))
    .pipe(z.number({ error: 'must be a whole number' }).int().min(min).optional());

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
    /**
     * With SEARCH_IN_MEMORY: an index holding more documents than this at start is searched in Postgres, not
     * copied (a copy of 100,000 people costs a replica about 180 MB of heap; ADR 0058).
     */
    SEARCH_IN_MEMORY_MAX_DOCUMENTS: envPositiveInt(200_000),
    /** Elasticsearch: primary shards of each generation (unset: the engine's default). */
    SEARCH_SHARDS: optionalWhole(1),
    /** Elasticsearch: copies of each shard on other nodes (unset: the engine's default). */
    SEARCH_REPLICAS: optionalWhole(0),
    /** Elasticsearch: how soon a write is searchable without an explicit refresh, e.g. 1s (unset: the engine's). */
    SEARCH_REFRESH_INTERVAL: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || undefined)
      .pipe(
        z
          .string()
          .regex(/^\d+(ms|s|m)$/, 'must be a duration such as 1s or 500ms')
          .optional(),
      ),
    /** Elasticsearch: pages a rebuild fills at once. */
    SEARCH_REBUILD_CONCURRENCY: envPositiveInt(2),
    /** Elasticsearch: most connections each process keeps open to the engine. */
    SEARCH_CONNECTIONS: envPositiveInt(256),
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
  SEARCH_IN_MEMORY_MAX_DOCUMENTS?: number | undefined;
  SEARCH_SHARDS?: number | undefined;
  SEARCH_REPLICAS?: number | undefined;
  SEARCH_REFRESH_INTERVAL?: string | undefined;
  SEARCH_REBUILD_CONCURRENCY?: number | undefined;
  SEARCH_CONNECTIONS?: number | undefined;
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
        layout: {
          ...(config.SEARCH_SHARDS === undefined ? {} : { shards: config.SEARCH_SHARDS }),
          ...(config.SEARCH_REPLICAS === undefined ? {} : { replicas: config.SEARCH_REPLICAS }),
          ...(config.SEARCH_REFRESH_INTERVAL === undefined
            ? {}
            : { refreshInterval: config.SEARCH_REFRESH_INTERVAL }),
        },
        ...(config.SEARCH_REBUILD_CONCURRENCY === undefined
          ? {}
          : { rebuildConcurrency: config.SEARCH_REBUILD_CONCURRENCY }),
        ...(config.SEARCH_CONNECTIONS === undefined ? {} : { connections: config.SEARCH_CONNECTIONS }),
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
        ...(config.SEARCH_IN_MEMORY_MAX_DOCUMENTS === undefined
          ? {}
          : { maxDocuments: config.SEARCH_IN_MEMORY_MAX_DOCUMENTS }),
        onTooLarge: (documents) =>
          logger?.info(
            { index: config.SEARCH_INDEX, documents, max: config.SEARCH_IN_MEMORY_MAX_DOCUMENTS },
            'search index too large to copy into memory; searching it in PostgreSQL',
          ),
        onListenError: (error) =>
          logger?.warn(
            { err: error, index: config.SEARCH_INDEX },
            'search index copy lost its change feed; listening again, then reloading',
          ),
      })
    : createPostgresSearchIndex(postgres);
}
