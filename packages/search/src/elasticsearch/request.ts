// The Elasticsearch search request for one prepared query, and its response as the port's result: pure functions,
// unit-tested without a cluster.
import type { estypes } from '@elastic/elasticsearch';
import type { SearchIndexDefinition, SearchResult } from '../port.ts';
import type { PreparedQuery } from '../semantics.ts';

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

/** The port's result from a search response to `query`. */
export function searchResultOf(query: PreparedQuery, response: estypes.SearchResponse): SearchResult {
  const total = response.hits.total;
  const lowerBound = typeof total === 'object' && total.relation === 'gte';
  return {
    ids: response.hits.hits.map((hit) => hit._id ?? ''),
    ...(query.withStored
      ? {
          stored: response.hits.hits.map(
            (hit) => (hit._source as { stored?: string } | undefined)?.stored ?? null,
          ),
        }
      : {}),
    total: !query.countTotal ? -1 : typeof total === 'number' ? total : (total?.value ?? 0),
    ...(query.countTotal && lowerBound ? { totalIsLowerBound: true as const } : {}),
  };
}
