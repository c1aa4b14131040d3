// The Elasticsearch search adapter (production): the same every-word substring semantics as the Postgres
// adapter, on `wildcard` fields, with keyword filters, stable sorting and exact totals.
import { Client, errors, type estypes } from '@elastic/elasticsearch';
import type {
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
} from './port.ts';
import {
  assertIdentifier,
  definitionFingerprint,
  Fields,
  MAX_RESULT_WINDOW,
  type PreparedDocument,
  type PreparedQuery,
} from './semantics.ts';

export interface ElasticsearchIndexOptions extends SearchIndexDefinition {
  /** e.g. http://elasticsearch:9200 (credentials may ride in the URL). */
  node: string;
  index: string;
  /** Make every write visible to search before it returns (tests); production relies on the refresh interval. */
  refresh?: boolean;
}

/** Bumped when the mapping below changes, so ensure() rebuilds indices made by an older version. */
const MAPPING_VERSION = 'es-1';
const NORMALIZER = 'rotunda_lowercase';
/** Documents per bulk request. */
const BULK_BATCH = 1000;

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
): { settings: estypes.IndicesIndexSettings; mappings: estypes.MappingTypeMapping } {
  const properties = (entries: [string, estypes.MappingProperty][]) => ({
    properties: Object.fromEntries(entries),
  });
  return {
    settings: {
      // The port allows pages up to MAX_RESULT_WINDOW deep on both engines; Elasticsearch's default is 10,000.
      max_result_window: MAX_RESULT_WINDOW,
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

/** Escapes the wildcard query's metacharacters so a user's '*', '?' or '\' is literal. */
export function wildcardContains(word: string): string {
  return `*${word.replace(/[\\*?]/g, (character) => `\\${character}`)}*`;
}

/** The search request for one prepared query (a pure function, so it is unit-tested without a cluster). */
export function elasticsearchSearchRequest(
  definition: SearchIndexDefinition,
  index: string,
  query: PreparedQuery,
): estypes.SearchRequest {
  // One clause per word; each word may match any one text field (a should over the fields). Each field is
  // matched on its own, so a word never spans two fields.
  const must: estypes.QueryDslQueryContainer[] = query.words.map((word) => ({
    bool: {
      should: definition.textFields.map((field) => ({
        wildcard: { [`text.${field}`]: { value: wildcardContains(word) } },
      })),
      minimum_should_match: 1,
    },
  }));
  // terms = any of the values; an empty list matches nothing, as in the Postgres adapter.
  const filter: estypes.QueryDslQueryContainer[] = query.filters.map(({ field, values }) => ({
    terms: { [`keywords.${field}`]: values },
  }));
  const mustNot: estypes.QueryDslQueryContainer[] = query.exclude.map(({ field, values }) => ({
    terms: { [`keywords.${field}`]: values },
  }));
  const sort: estypes.SortCombinations[] = [
    ...query.sort.map((key) =>
      'random' in key
        ? // The score is the seeded random one (below), so sorting on it shuffles.
          { _score: { order: 'desc' as const } }
        : // Missing values last in both directions, as the Postgres adapter's NULLS LAST.
          { [`sort.${key.field.name}`]: { order: key.direction, missing: '_last' as const } },
    ),
    { id: { order: 'asc' as const } },
  ];
  const matching: estypes.QueryDslQueryContainer = { bool: { must, filter, must_not: mustNot } };
  const random = query.sort.find((key): key is { random: number } => 'random' in key);
  return {
    index,
    // A seeded random order replaces each match's score with a hash of its id and the seed: stable for the seed
    // on every page (the id, unlike the default _seq_no, never changes when a document is rewritten).
    query: random
      ? {
          function_score: {
            query: matching,
            functions: [{ random_score: { seed: random.random, field: 'id' } }],
            boost_mode: 'replace',
          },
        }
      : matching,
    from: query.offset,
    size: query.limit,
    sort,
    // Exact totals unless the caller set a bound (without this Elasticsearch stops counting at 10,000); none
    // when the caller asked for none.
    track_total_hits: query.countTotal ? (query.countUpTo ?? true) : false,
    _source: query.withStored ? ['stored'] : false,
  };
}

function source(document: PreparedDocument): Record<string, unknown> {
  const sort: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(document.sort)) if (value !== null) sort[name] = value;
  return {
    id: document.id,
    text: document.text,
    keywords: document.keywords,
    sort,
    ...(document.stored === null ? {} : { stored: document.stored }),
  };
}

function bulkFailure(response: estypes.BulkResponse): Error | undefined {
  if (!response.errors) return undefined;
  for (const item of response.items) {
    for (const result of Object.values(item)) {
      // Deleting a missing document answers 404 without an error: not a failure for remove().
      if (result?.error) {
        return new Error(
          `search: Elasticsearch refused ${result._id}: ${result.error.type}: ${result.error.reason}`,
        );
      }
    }
  }
  return undefined;
}

export function createElasticsearchIndex(options: ElasticsearchIndexOptions): SearchIndex {
  const fields = new Fields(options);
  const { definition } = fields;
  assertIdentifier('index', options.index);
  // Elasticsearch reserves names that start with '_' (e.g. _all).
  if (options.index.startsWith('_'))
    throw new TypeError('search: an Elasticsearch index name cannot start with _');
  const { index } = options;
  const fingerprint = definitionFingerprint(definition, MAPPING_VERSION);
  const refresh = options.refresh ?? false;
  const client = new Client({ node: options.node });

  async function ensure(): Promise<void> {
    if (await client.indices.exists({ index })) {
      const mappings = await client.indices.getMapping({ index });
      const current = Object.values(mappings)[0]?.mappings._meta?.rotunda_search;
      if (current === fingerprint) return;
      // Built for another definition: mappings cannot change in place, and the index is derived data, so it is
      // rebuilt empty and the owner reindexes.
      await client.indices.delete({ index });
    }
    try {
      await client.indices.create({ index, ...elasticsearchIndexBody(definition, fingerprint) });
    } catch (error) {
      // Another replica created it between our check and our create.
      if (
        error instanceof errors.ResponseError &&
        error.body?.error?.type === 'resource_already_exists_exception'
      ) {
        return;
      }
      throw error;
    }
  }

  async function bulk(operations: estypes.BulkRequest['operations']): Promise<void> {
    const response = await client.bulk({ operations, refresh });
    const failure = bulkFailure(response);
    if (failure) throw failure;
  }

  async function upsert(documents: SearchDocument[]): Promise<void> {
    const prepared = fields.prepareDocuments(documents);
    for (let start = 0; start < prepared.length; start += BULK_BATCH) {
      // `index` replaces the whole document, which is what upsert means here (no partial merge).
      await bulk(
        prepared
          .slice(start, start + BULK_BATCH)
          .flatMap((document) => [{ index: { _index: index, _id: document.id } }, source(document)]),
      );
    }
  }

  async function remove(ids: string[]): Promise<void> {
    const unique = fields.prepareIds(ids);
    for (let start = 0; start < unique.length; start += BULK_BATCH) {
      await bulk(
        unique.slice(start, start + BULK_BATCH).map((id) => ({ delete: { _index: index, _id: id } })),
      );
    }
  }

  async function search(query: SearchQuery): Promise<SearchResult> {
    const prepared = fields.prepareQuery(query);
    const response = await client.search(elasticsearchSearchRequest(definition, index, prepared));
    const total = response.hits.total;
    const lowerBound = typeof total === 'object' && total.relation === 'gte';
    return {
      ids: response.hits.hits.map((hit) => hit._id ?? ''),
      ...(prepared.withStored
        ? {
            stored: response.hits.hits.map(
              (hit) => (hit._source as { stored?: string } | undefined)?.stored ?? null,
            ),
          }
        : {}),
      total: !prepared.countTotal ? -1 : typeof total === 'number' ? total : (total?.value ?? 0),
      ...(prepared.countTotal && lowerBound ? { totalIsLowerBound: true as const } : {}),
    };
  }

  async function clear(): Promise<void> {
    // Delete-by-query only sees refreshed documents: refresh first so writes not yet visible are dropped too.
    await client.indices.refresh({ index });
    await client.deleteByQuery({ index, query: { match_all: {} }, conflicts: 'proceed', refresh: true });
  }

  async function close(): Promise<void> {
    await client.close();
  }

  return { ensure, upsert, remove, search, clear, close };
}
