// The Elasticsearch search adapter (production): the same every-word substring semantics as the Postgres
// adapter, on `wildcard` fields (elasticsearch/mapping.ts), with keyword filters, stable sorting and exact totals
// (elasticsearch/request.ts). The index's name is an alias over versioned concrete indices, which a rebuild
// replaces (elasticsearch/generations.ts); writes go to the generation a rebuild is filling too. While the engine
// is away, searches and writes fail at once (elasticsearch/outage.ts, ADR 0048); the outbox (outbox.ts, ADR 0055)
// keeps the writes and sends them once it is back.
import { Client } from '@elastic/elasticsearch';
import { BULK_BATCH, failedWith, sourceOf, throwOnRefusal } from './elasticsearch/bulk.ts';
import { elasticsearchGenerations } from './elasticsearch/generations.ts';
import type { IndexLayout } from './elasticsearch/mapping.ts';
import {
  ENGINE_CALL_TIMEOUT_MS,
  engineBreaker,
  isEngineUnreachable,
  SearchUnavailableError,
} from './elasticsearch/outage.ts';
import { elasticsearchSearchRequest, searchResultOf } from './elasticsearch/request.ts';
import type { SearchDocument, SearchIndex, SearchIndexDefinition } from './port.ts';
import { assertIdentifier, Fields } from './semantics.ts';

export interface ElasticsearchIndexOptions extends SearchIndexDefinition {
  /** e.g. http://elasticsearch:9200 (credentials may ride in the URL). */
  node: string;
  /** The alias searches and writes go through. */
  index: string;
  /** Make every write visible to search before it returns (tests); production relies on the refresh interval. */
  refresh?: boolean;
  /** The PostgreSQL holding the rebuild lock (the owning service's database). */
  lockDatabaseUrl: string;
  /** How long an old generation stays after the switch, for searches that already resolved the alias to it. */
  retireAfterMs?: number;
  /** After the engine was found away, between the probes that try it again (default 1 s). */
  awayRecheckMs?: number;
  /** Shards, replicas and refresh interval of each generation (default: the engine's). */
  layout?: IndexLayout;
  /** Pages a rebuild fills at once (default 2: one read from the source while the engine indexes the other). */
  rebuildConcurrency?: number;
  /** Most connections the client keeps open to the engine (default 256, the client's own). */
  connections?: number;
}

/** A search or a write: given up on in time to answer "try again shortly" within the deadline. */
const CALL_OPTIONS = { requestTimeout: ENGINE_CALL_TIMEOUT_MS, maxRetries: 0 };

export function createElasticsearchIndex(options: ElasticsearchIndexOptions): SearchIndex {
  const fields = new Fields(options);
  const { definition } = fields;
  assertIdentifier('index', options.index);
  // Elasticsearch reserves names that start with '_' (e.g. _all).
  if (options.index.startsWith('_'))
    throw new TypeError('search: an Elasticsearch index name cannot start with _');
  const { index } = options;
  const refresh = options.refresh ?? false;
  const client = new Client({
    node: options.node,
    ...(options.connections === undefined ? {} : { agent: { connections: options.connections } }),
  });
  // One per index (each service has one): searches and writes learn together that the engine is away. The probe
  // asks what a search asks of it: the alias answering, not merely the node's HTTP.
  const engine = engineBreaker(() => client.count({ index }, CALL_OPTIONS), options.awayRecheckMs);
  const { building, ensure, rebuild } = elasticsearchGenerations({
    client,
    fields,
    index,
    lockDatabaseUrl: options.lockDatabaseUrl,
    retireAfterMs: options.retireAfterMs ?? 2000,
    refresh,
    layout: options.layout ?? {},
    rebuildConcurrency: options.rebuildConcurrency ?? 2,
  });

  async function upsert(documents: SearchDocument[]): Promise<void> {
    const prepared = fields.prepareDocuments(documents);
    for (let start = 0; start < prepared.length; start += BULK_BATCH) {
      // `index` replaces the whole document, which is what upsert means here (no partial merge). Each document
      // also goes to the generation a rebuild is filling, if one is: require_alias keeps that write from
      // creating an index when none is, and its refusal is then no failure.
      const response = await engine.call(() =>
        client.bulk(
          {
            refresh,
            operations: prepared
              .slice(start, start + BULK_BATCH)
              .flatMap((document) => [
                { index: { _index: index, _id: document.id } },
                sourceOf(document),
                { index: { _index: building, _id: document.id, require_alias: true } },
                sourceOf(document),
              ]),
          },
          CALL_OPTIONS,
        ),
      );
      throwOnRefusal(
        response,
        (item, at) => at % 2 === 1 && failedWith(item.index, 'index_not_found_exception'),
      );
    }
  }

  async function remove(ids: string[]): Promise<void> {
    const unique = fields.prepareIds(ids);
    for (let start = 0; start < unique.length; start += BULK_BATCH) {
      // Deleting never creates an index: one from a generation that is not there is answered 404, no failure.
      const response = await engine.call(() =>
        client.bulk(
          {
            refresh,
            operations: unique
              .slice(start, start + BULK_BATCH)
              .flatMap((id) => [
                { delete: { _index: index, _id: id } },
                { delete: { _index: building, _id: id } },
              ]),
          },
          CALL_OPTIONS,
        ),
      );
      throwOnRefusal(
        response,
        (item, at) => at % 2 === 1 && failedWith(item.delete, 'index_not_found_exception'),
      );
    }
  }

  const search: SearchIndex['search'] = async (query) => {
    const prepared = fields.prepareQuery(query);
    try {
      return searchResultOf(
        prepared,
        await engine.call(() =>
          client.search(elasticsearchSearchRequest(definition, index, prepared), CALL_OPTIONS),
        ),
      );
    } catch (error) {
      throw isEngineUnreachable(error) ? new SearchUnavailableError(error) : error;
    }
  };

  async function clear(): Promise<void> {
    // Delete-by-query only sees refreshed documents: refresh first so writes not yet visible are dropped too.
    await client.indices.refresh({ index });
    await client.deleteByQuery({ index, query: { match_all: {} }, conflicts: 'proceed', refresh: true });
  }

  async function close(): Promise<void> {
    engine.close();
    await client.close();
  }

  return { ensure, upsert, remove, search, rebuild, clear, close };
}
