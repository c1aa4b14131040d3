// The Elasticsearch search adapter (production): the same every-word substring semantics as the Postgres
// adapter, on `wildcard` fields (elasticsearch/mapping.ts), with keyword filters, stable sorting and exact totals
// (elasticsearch/request.ts). The index's name is an alias over a versioned concrete index
// (`<name>-v<version>-<timestamp>`); a rebuild fills a new one and moves the alias to it in one `_aliases` call.
import { Client, errors, type estypes } from '@elastic/elasticsearch';
import { BULK_BATCH, failedWith, sourceOf, throwOnRefusal } from './elasticsearch/bulk.ts';
import { elasticsearchIndexBody, MAPPING_VERSION } from './elasticsearch/mapping.ts';
import { elasticsearchSearchRequest, searchResultOf } from './elasticsearch/request.ts';
import { tryRebuildLock } from './lock.ts';
import type {
  IndexState,
  RebuildOutcome,
  RebuildSource,
  SearchDocument,
  SearchIndex,
  SearchIndexDefinition,
  SearchQuery,
  SearchResult,
} from './port.ts';
import { assertIdentifier, definitionFingerprint, Fields } from './semantics.ts';

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
}

/** Hex digits of the definition's fingerprint in a concrete index's name. */
const VERSION_DIGITS = 12;

export function createElasticsearchIndex(options: ElasticsearchIndexOptions): SearchIndex {
  const fields = new Fields(options);
  const { definition } = fields;
  assertIdentifier('index', options.index);
  // Elasticsearch reserves names that start with '_' (e.g. _all).
  if (options.index.startsWith('_'))
    throw new TypeError('search: an Elasticsearch index name cannot start with _');
  const { index } = options;
  /** The alias on the generation a rebuild is filling: writers write there too while it exists. */
  const building = `${index}-rebuilding`;
  const rebuildLockName = `elasticsearch:${index}`;
  const fingerprint = definitionFingerprint(definition, MAPPING_VERSION);
  const version = fingerprint.slice(0, VERSION_DIGITS);
  const refresh = options.refresh ?? false;
  const client = new Client({ node: options.node });
  const body = () => elasticsearchIndexBody(definition, fingerprint);

  /** The concrete indices the alias points at; `legacy` when `index` is itself a concrete index (earlier releases). */
  async function resolve(): Promise<{ concrete: string[]; legacy: boolean }> {
    const aliases = await client.indices.getAlias({ name: index }, { ignore: [404] });
    const concrete = Object.keys(aliases ?? {}).filter(
      (name) => (aliases as Record<string, { aliases?: Record<string, unknown> }>)[name]?.aliases?.[index],
    );
    if (concrete.length > 0) return { concrete, legacy: false };
    return { concrete: [], legacy: await client.indices.exists({ index }) };
  }

  async function fingerprintOf(concrete: string): Promise<unknown> {
    const mappings = await client.indices.getMapping({ index: concrete });
    return Object.values(mappings)[0]?.mappings._meta?.rotunda_search;
  }

  /** The indices behind the building alias: a rebuild's, running or left by a process that died. */
  async function buildingIndices(): Promise<string[]> {
    const aliases = await client.indices.getAlias({ name: building }, { ignore: [404] });
    return Object.keys(aliases ?? {}).filter(
      (name) => (aliases as Record<string, { aliases?: Record<string, unknown> }>)[name]?.aliases?.[building],
    );
  }

  /** A generation left by a rebuild whose process died (writers would go on writing to it), when none runs. */
  async function dropAbandonedRebuild(): Promise<void> {
    const abandoned = await buildingIndices();
    if (abandoned.length === 0) return;
    const lock = await tryRebuildLock(options.lockDatabaseUrl, rebuildLockName);
    if (!lock) return;
    try {
      await client.indices.delete({ index: abandoned, ignore_unavailable: true });
    } finally {
      await lock.release();
    }
  }

  async function ensure(): Promise<IndexState> {
    await dropAbandonedRebuild();
    const { concrete, legacy } = await resolve();
    // A concrete index by the alias's name (an earlier release's) keeps answering until a rebuild moves it behind
    // the alias.
    if (legacy) return 'outdated';
    if (concrete.length > 0)
      return (await fingerprintOf(concrete[0] as string)) === fingerprint ? 'current' : 'outdated';
    try {
      // The first generation's name is fixed, so replicas starting together create one index, not one each.
      await client.indices.create({ index: `${index}-v${version}-0`, ...body(), aliases: { [index]: {} } });
    } catch (error) {
      if (
        !(error instanceof errors.ResponseError) ||
        error.body?.error?.type !== 'resource_already_exists_exception'
      )
        throw error;
    }
    return 'current';
  }

  async function bulk(operations: estypes.BulkRequest['operations']): Promise<void> {
    throwOnRefusal(await client.bulk({ operations, refresh }));
  }

  async function upsert(documents: SearchDocument[]): Promise<void> {
    const prepared = fields.prepareDocuments(documents);
    for (let start = 0; start < prepared.length; start += BULK_BATCH) {
      // `index` replaces the whole document, which is what upsert means here (no partial merge). Each document
      // also goes to the generation a rebuild is filling, if one is: require_alias keeps that write from
      // creating an index when none is, and its refusal is then no failure.
      const response = await client.bulk({
        refresh,
        operations: prepared
          .slice(start, start + BULK_BATCH)
          .flatMap((document) => [
            { index: { _index: index, _id: document.id } },
            sourceOf(document),
            { index: { _index: building, _id: document.id, require_alias: true } },
            sourceOf(document),
          ]),
      });
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
      const response = await client.bulk({
        refresh,
        operations: unique
          .slice(start, start + BULK_BATCH)
          .flatMap((id) => [
            { delete: { _index: index, _id: id } },
            { delete: { _index: building, _id: id } },
          ]),
      });
      throwOnRefusal(
        response,
        (item, at) => at % 2 === 1 && failedWith(item.delete, 'index_not_found_exception'),
      );
    }
  }

  async function search(query: SearchQuery): Promise<SearchResult> {
    const prepared = fields.prepareQuery(query);
    return searchResultOf(
      prepared,
      await client.search(elasticsearchSearchRequest(definition, index, prepared)),
    );
  }

  /**
   * Fills the new generation with a page, creating only documents a writer has not written there meanwhile (a
   * writer's copy is as new or newer), then reads the page's ids again from the source and deletes those gone: a
   * document removed after the page was read but before it was filled would otherwise come back.
   */
  async function fill(target: string, from: RebuildSource, documents: SearchDocument[]): Promise<void> {
    const prepared = fields.prepareDocuments(documents);
    for (let start = 0; start < prepared.length; start += BULK_BATCH) {
      const batch = prepared.slice(start, start + BULK_BATCH);
      const response = await client.bulk({
        operations: batch.flatMap((document) => [
          { create: { _index: target, _id: document.id } },
          sourceOf(document),
        ]),
      });
      throwOnRefusal(response, (item) => failedWith(item.create, 'version_conflict_engine_exception'));
      const ids = batch.map((document) => document.id);
      const present = new Set((await from.documents(ids)).map((document) => document.id));
      const gone = ids.filter((id) => !present.has(id));
      if (gone.length > 0) await bulk(gone.map((id) => ({ delete: { _index: target, _id: id } })));
    }
  }

  async function rebuild(rebuildSource: RebuildSource): Promise<RebuildOutcome> {
    const lock = await tryRebuildLock(options.lockDatabaseUrl, rebuildLockName);
    if (!lock) return { rebuilt: false };
    const target = `${index}-v${version}-${Date.now()}`;
    try {
      await ensure();
      // A rebuild that died midway left its generation behind the building alias.
      const leftovers = await buildingIndices();
      if (leftovers.length > 0) await client.indices.delete({ index: leftovers });
      // Writers write here too from now on, before the source is read.
      await client.indices.create({ index: target, ...body(), aliases: { [building]: {} } });
      await rebuildSource.eachPage((documents) => fill(target, rebuildSource, documents));
      await client.indices.refresh({ index: target });
      const { concrete, legacy } = await resolve();
      // One call: readers and writers move from the old generation to the new one at once. An earlier release's
      // concrete index by the alias's name is deleted in the same call, so the name is free for the alias.
      await client.indices.updateAliases({
        actions: [
          ...(legacy
            ? [{ remove_index: { index } }]
            : concrete.map((name) => ({ remove: { index: name, alias: index } }))),
          { add: { index: target, alias: index } },
          { remove: { index: target, alias: building } },
        ],
      });
      const { count } = await client.count({ index: target });
      if (!legacy && concrete.length > 0) {
        // Searches that resolved the alias just before the switch finish on the old generation first.
        await new Promise((resolve) => setTimeout(resolve, options.retireAfterMs ?? 2000));
        await client.indices.delete({ index: concrete, ignore_unavailable: true });
      }
      return { rebuilt: true, documents: count };
    } catch (error) {
      // The live generation stands as it was; the unfinished one goes, so writers stop writing to it.
      await client.indices.delete({ index: target, ignore_unavailable: true }).catch(() => {});
      throw error;
    } finally {
      await lock.release();
    }
  }

  async function clear(): Promise<void> {
    // Delete-by-query only sees refreshed documents: refresh first so writes not yet visible are dropped too.
    await client.indices.refresh({ index });
    await client.deleteByQuery({ index, query: { match_all: {} }, conflicts: 'proceed', refresh: true });
  }

  async function close(): Promise<void> {
    await client.close();
  }

  return { ensure, upsert, remove, search, rebuild, clear, close };
}
