// @rotunda/search: the search-index port and its two adapters (Postgres by default, Elasticsearch in production).
export { type SearchConfig, searchConfigSchema, searchIndexFromConfig } from './config.ts';
export { createElasticsearchIndex, type ElasticsearchIndexOptions } from './elasticsearch.ts';
export type {
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
  SortFieldDefinition,
  SortKey,
} from './port.ts';
export { createPostgresSearchIndex, type PostgresSearchIndexOptions } from './postgres.ts';
export { MAX_RESULT_WINDOW } from './semantics.ts';
