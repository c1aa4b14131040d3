// The Elasticsearch adapter's requests, checked without a cluster: mapping, query shape, escaping and sorting.
import { describe, expect, it } from 'vitest';
import { type BulkItem, failedWith, throwOnRefusal } from '../src/elasticsearch/bulk.ts';
import { elasticsearchIndexBody } from '../src/elasticsearch/mapping.ts';
import { elasticsearchSearchRequest, wildcardContains } from '../src/elasticsearch/request.ts';
import { Fields } from '../src/semantics.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const fields = new Fields(CONTRACT_FIELDS);

describe('elasticsearch requests', () => {
  it('maps text as wildcard, keywords as keyword, sort keys as normalized keyword or double', () => {
    const { settings, mappings } = elasticsearchIndexBody(fields.definition, 'abc');
    expect(settings.max_result_window).toBe(100_000);
    expect(settings.analysis?.normalizer).toEqual({
      rotunda_lowercase: { type: 'custom', filter: ['lowercase'] },
    });
    expect(mappings).toEqual({
      dynamic: 'strict',
      _meta: { rotunda_search: 'abc' },
      properties: {
        id: { type: 'keyword' },
        text: { properties: { name: { type: 'wildcard' }, city: { type: 'wildcard' } } },
        keywords: { properties: { group: { type: 'keyword' }, tags: { type: 'keyword' } } },
        sort: {
          properties: {
            name: { type: 'keyword', normalizer: 'rotunda_lowercase' },
            score: { type: 'double' },
          },
        },
        stored: { type: 'keyword', index: false, doc_values: false },
      },
    });
  });

  it('escapes wildcard metacharacters', () => {
    expect(wildcardContains('100%')).toBe('*100%*');
    expect(wildcardContains('a*b?c\\d')).toBe('*a\\*b\\?c\\\\d*');
  });

  it('builds one must clause per folded word over every text field, filters, exclusions and paging', () => {
    const request = elasticsearchSearchRequest(
      fields.definition,
      'orgs',
      fields.prepareQuery({
        text: ' Nurses  JOSÉ nurses',
        filters: { group: 'Unions', tags: ['health', 'labor'] },
        exclude: { group: ['Other'], tags: [] },
        offset: 30,
        limit: 30,
      }),
    );
    const word = (value: string) => ({
      bool: {
        should: [{ wildcard: { 'text.name': { value } } }, { wildcard: { 'text.city': { value } } }],
        minimum_should_match: 1,
      },
    });
    expect(request).toEqual({
      index: 'orgs',
      query: {
        bool: {
          must: [word('*nurses*'), word('*josé*')],
          filter: [
            { terms: { 'keywords.group': ['Unions'] } },
            { terms: { 'keywords.tags': ['health', 'labor'] } },
          ],
          must_not: [{ terms: { 'keywords.group': ['Other'] } }],
        },
      },
      from: 30,
      size: 30,
      sort: [{ id: { order: 'asc' } }],
      track_total_hits: true,
      _source: false,
    });
  });

  it('sorts by the listed keys, missing last, then id ascending', () => {
    const request = elasticsearchSearchRequest(
      fields.definition,
      'orgs',
      fields.prepareQuery({
        sort: [
          { field: 'score', direction: 'desc' },
          { field: 'name', direction: 'asc' },
        ],
        offset: 0,
        limit: 10,
      }),
    );
    expect(request.sort).toEqual([
      { 'sort.score': { order: 'desc', missing: '_last' } },
      { 'sort.name': { order: 'asc', missing: '_last' } },
      { id: { order: 'asc' } },
    ]);
    expect(request.query).toEqual({ bool: { must: [], filter: [], must_not: [] } });
  });

  it('shuffles with a seeded random score on the id, sorted by score before the id', () => {
    const request = elasticsearchSearchRequest(
      fields.definition,
      'orgs',
      fields.prepareQuery({
        text: 'nurses',
        filters: { group: 'Unions' },
        sort: [{ field: 'score', direction: 'desc' }, { random: 42 }],
        offset: 20,
        limit: 20,
      }),
    );
    expect(request.query).toEqual({
      function_score: {
        query: {
          bool: {
            must: [
              {
                bool: {
                  should: [
                    { wildcard: { 'text.name': { value: '*nurses*' } } },
                    { wildcard: { 'text.city': { value: '*nurses*' } } },
                  ],
                  minimum_should_match: 1,
                },
              },
            ],
            filter: [{ terms: { 'keywords.group': ['Unions'] } }],
            must_not: [],
          },
        },
        functions: [{ random_score: { seed: 42, field: 'id' } }],
        boost_mode: 'replace',
      },
    });
    expect(request.sort).toEqual([
      { 'sort.score': { order: 'desc', missing: '_last' } },
      { _score: { order: 'desc' } },
      { id: { order: 'asc' } },
    ]);
    expect(request).toMatchObject({ from: 20, size: 20, track_total_hits: true });
  });

  it('asks for no total when the caller counts none', () => {
    const request = elasticsearchSearchRequest(
      fields.definition,
      'orgs',
      fields.prepareQuery({ offset: 0, limit: 20, countTotal: false }),
    );
    expect(request.track_total_hits).toBe(false);
  });

  it('counts up to the bound the caller set, as track_total_hits', () => {
    const request = elasticsearchSearchRequest(
      fields.definition,
      'orgs',
      fields.prepareQuery({ offset: 0, limit: 20, countUpTo: 1000 }),
    );
    expect(request.track_total_hits).toBe(1000);
  });
});

describe('Elasticsearch bulk answers', () => {
  const refused = (type: string) => ({
    _id: 'd01',
    _index: 'orgs',
    status: 400,
    error: { type, reason: 'no' },
  });
  const answer = (items: object[]) => ({ errors: true, took: 1, items }) as never;

  it("throws the first refusal a write does not expect, naming the document and Elasticsearch's reason", () => {
    expect(() => throwOnRefusal(answer([{ index: refused('mapper_parsing_exception') }]))).toThrow(
      'search: Elasticsearch refused d01: mapper_parsing_exception: no',
    );
  });

  it("passes over the refusals a write expects, and only those: a rebuild's generation not being there", () => {
    const missing = { index: refused('index_not_found_exception') };
    const onlyTheRebuilds = (item: BulkItem, at: number) =>
      at % 2 === 1 && failedWith(item.index, 'index_not_found_exception');
    expect(() =>
      throwOnRefusal(answer([{ index: { _id: 'd01', status: 200 } }, missing]), onlyTheRebuilds),
    ).not.toThrow();
    expect(() =>
      throwOnRefusal(answer([missing, { index: { _id: 'd01', status: 200 } }]), onlyTheRebuilds),
    ).toThrow('index_not_found_exception');
  });
});
