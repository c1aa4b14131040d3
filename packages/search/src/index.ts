// @rotunda/search: the search-index port and its adapters (Postgres by default, optionally searched from an in-memory
// replica; Elasticsearch in production).
export { type SearchConfig, searchConfigSchema, searchIndexFromConfig } from './config.ts';
export { SEARCH_UNAVAILABLE, SearchUnavailableError } from './elasticsearch/outage.ts';
export { createElasticsearchIndex, type ElasticsearchIndexOptions } from './elasticsearch.ts';
export { createMemorySearchIndex, type MemorySearchIndex } from './memory.ts';
export { type OutboxOptions, withOutbox } from './outbox.ts';
export type {
  IndexState,
  RebuildOutcome,
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
  SortFieldDefinition,
  SortKey,
} from './port.ts';
export {
  createPostgresSearchIndex,
  type PostgresSearchIndex,
  type PostgresSearchIndexOptions,
} from './postgres.ts';
export { type ReindexWiring, runReindexCommand } from './reindex-command.ts';
export { createReplicatedSearchIndex, type ReplicatedSearchIndexOptions } from './replica.ts';
export { MAX_RESULT_WINDOW } from './semantics.ts';
export { type StoredCodec, storedCodec } from './stored.ts';
export { type IndexSyncOptions, type IndexSyncOutcome, syncIndex } from './sync.ts';
