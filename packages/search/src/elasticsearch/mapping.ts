// The Elasticsearch index's settings and mapping: `wildcard` text fields, keyword filters and sort fields, and the
// definition's fingerprint that tells an index built for another definition.
import type { estypes } from '@elastic/elasticsearch';
import type { SearchIndexDefinition } from '../port.ts';
import { MAX_RESULT_WINDOW } from '../semantics.ts';

/** Bumped when the mapping below changes, so ensure() calls indices made by an older version outdated. */
export const MAPPING_VERSION = 'es-1';
const NORMALIZER = 'rotunda_lowercase';

/**
 * How an index is laid out on the cluster (production settings, ADR 0058); unset: the engine's defaults. Not part
 * of the fingerprint: a change takes effect at the next rebuild, it does not make the index outdated.
 */
export interface IndexLayout {
  /** Primary shards (number_of_shards). */
  shards?: number;
  /** Copies of each shard on other nodes (number_of_replicas). */
  replicas?: number;
  /** How often writes become searchable without an explicit refresh (refresh_interval), e.g. '1s'. */
  refreshInterval?: string;
}

/**
 * While a rebuild fills a generation nobody searches yet: no refreshes (each one writes a small segment to merge
 * later) and no replicas (every document would be indexed once per copy); the layout is restored before the switch.
 */
export const FILLING: estypes.IndicesIndexSettings = { number_of_replicas: 0, refresh_interval: '-1' };

/**
 * Index settings and mapping. Text fields are `wildcard` fields: Elasticsearch indexes each value's n-grams
 * (up to 3 characters) as an approximation and verifies candidates against the whole stored value, so
 * `*word*` is an exact substring match that spans spaces and punctuation like SQL's LIKE, and a leading
 * wildcard is cheap. An n-gram analyzer on a `text` field was the alternative: it either tokenizes on spaces
 * (so a word's n-grams may come from two different tokens and match falsely) or needs max_gram as long as the
 * longest word (a huge index). Values arrive already folded (fold() in semantics.ts), so no analyzer is
 * needed and case-insensitivity is identical to Postgres'.
 */
export function elasticsearchIndexBody(
  definition: SearchIndexDefinition,
  fingerprint: string,
  layout: IndexLayout = {},
): { settings: estypes.IndicesIndexSettings; mappings: estypes.MappingTypeMapping } {
  const properties = (entries: [string, estypes.MappingProperty][]) => ({
    properties: Object.fromEntries(entries),
  });
  return {
    settings: {
      // The port allows pages up to MAX_RESULT_WINDOW deep on both engines; Elasticsearch's default is 10,000.
      max_result_window: MAX_RESULT_WINDOW,
      ...(layout.shards === undefined ? {} : { number_of_shards: layout.shards }),
      ...(layout.replicas === undefined ? {} : { number_of_replicas: layout.replicas }),
      ...(layout.refreshInterval === undefined ? {} : { refresh_interval: layout.refreshInterval }),
      analysis: { normalizer: { [NORMALIZER]: { type: 'custom', filter: ['lowercase'] } } },
    },
    mappings: {
      // A field outside the definition is a bug: refuse it rather than map it dynamically.
      dynamic: 'strict',
      _meta: { rotunda_search: fingerprint },
      properties: {
        // _id cannot be sorted on by default (no fielddata), so the id is also a keyword for the tie-breaker.
        id: { type: 'keyword' },
        text: properties(definition.textFields.map((name) => [name, { type: 'wildcard' }])),
        keywords: properties(definition.keywordFields.map((name) => [name, { type: 'keyword' }])),
        sort: properties(
          definition.sortFields.map(({ name, type }) => [
            name,
            // Keyword sorting compares UTF-8 bytes (code point order), like the Postgres adapter's COLLATE "C";
            // the normalizer lower-cases even if a value skipped fold().
            type === 'number' ? { type: 'double' } : { type: 'keyword', normalizer: NORMALIZER },
          ]),
        ),
        // Kept in _source and answered, never searched or sorted on.
        ...(definition.stored ? { stored: { type: 'keyword', index: false, doc_values: false } } : {}),
      },
    },
  };
}
