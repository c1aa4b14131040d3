// The Elasticsearch index's generations: the index's name is an alias over a versioned concrete index
// (`<name>-v<version>-<timestamp>`). ensure() makes the first and tells one built for another definition; a rebuild
// fills a new one, writers writing to it too through a second alias, and moves the alias to it in one `_aliases`
// call; a generation left by a rebuild that died is dropped.
import { type Client, errors, type estypes } from '@elastic/elasticsearch';
import { tryRebuildLock } from '../lock.ts';
import type { IndexState, RebuildOutcome, RebuildSource, SearchDocument } from '../port.ts';
import { definitionFingerprint, type Fields } from '../semantics.ts';
import { BULK_BATCH, failedWith, sourceOf, throwOnRefusal } from './bulk.ts';
import { elasticsearchIndexBody, FILLING, type IndexLayout, MAPPING_VERSION } from './mapping.ts';

/** Hex digits of the definition's fingerprint in a concrete index's name. */
const VERSION_DIGITS = 12;

export function elasticsearchGenerations({
  client,
  fields,
  index,
  lockDatabaseUrl,
  retireAfterMs,
  refresh,
  layout,
  rebuildConcurrency,
}: {
  client: Client;
  fields: Fields;
  /** The alias searches and writes go through. */
  index: string;
  /** The PostgreSQL holding the rebuild lock. */
  lockDatabaseUrl: string;
  /** How long an old generation stays after the switch, for searches that already resolved the alias to it. */
  retireAfterMs: number;
  /** Make the rebuild's deletions visible to search before they return, as the adapter's writes. */
  refresh: boolean;
  /** Shards, replicas and refresh interval of each generation. */
  layout: IndexLayout;
  /** Pages a rebuild fills at once: the next page is read from the source while the engine indexes the last. */
  rebuildConcurrency: number;
}) {
  const { definition } = fields;
  /** The alias on the generation a rebuild is filling: writers write there too while it exists. */
  const building = `${index}-rebuilding`;
  const rebuildLockName = `elasticsearch:${index}`;
  const fingerprint = definitionFingerprint(definition, MAPPING_VERSION);
  const version = fingerprint.slice(0, VERSION_DIGITS);
  const body = () => elasticsearchIndexBody(definition, fingerprint, layout);

  /** The concrete indices behind `alias`. */
  async function indicesBehind(alias: string): Promise<string[]> {
    const aliases = await client.indices.getAlias({ name: alias }, { ignore: [404] });
    return Object.keys(aliases ?? {}).filter(
      (name) => (aliases as Record<string, { aliases?: Record<string, unknown> }>)[name]?.aliases?.[alias],
    );
  }

  /** The concrete indices the alias points at; `legacy` when `index` is itself a concrete index (earlier releases). */
  async function resolve(): Promise<{ concrete: string[]; legacy: boolean }> {
    const concrete = await indicesBehind(index);
    if (concrete.length > 0) return { concrete, legacy: false };
    return { concrete: [], legacy: await client.indices.exists({ index }) };
  }

  async function fingerprintOf(concrete: string): Promise<unknown> {
    const mappings = await client.indices.getMapping({ index: concrete });
    return Object.values(mappings)[0]?.mappings._meta?.rotunda_search;
  }

  /** The indices behind the building alias: a rebuild's, running or left by a process that died. */
  const buildingIndices = () => indicesBehind(building);

  /** A generation left by a rebuild whose process died (writers would go on writing to it), when none runs. */
  async function dropAbandonedRebuild(): Promise<void> {
    const abandoned = await buildingIndices();
    if (abandoned.length === 0) return;
    const lock = await tryRebuildLock(lockDatabaseUrl, rebuildLockName);
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

  /**
   * Fills `target` with every page of the source, up to rebuildConcurrency pages at once; the first failure stops
   * reading and is thrown once the pages under way have ended.
   */
  async function fillAll(target: string, from: RebuildSource): Promise<void> {
    const underWay = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    await from.eachPage(async (documents) => {
      if (failure) throw failure.error;
      const filling: Promise<void> = fill(target, from, documents).then(
        () => {
          underWay.delete(filling);
        },
        (error: unknown) => {
          underWay.delete(filling);
          failure ??= { error };
        },
      );
      underWay.add(filling);
      if (underWay.size >= rebuildConcurrency) await Promise.race(underWay);
    });
    await Promise.all(underWay);
    if (failure) throw failure.error;
  }

  async function rebuild(rebuildSource: RebuildSource): Promise<RebuildOutcome> {
    const lock = await tryRebuildLock(lockDatabaseUrl, rebuildLockName);
    if (!lock) return { rebuilt: false };
    const target = `${index}-v${version}-${Date.now()}`;
    try {
      await ensure();
      // A rebuild that died midway left its generation behind the building alias.
      const leftovers = await buildingIndices();
      if (leftovers.length > 0) await client.indices.delete({ index: leftovers });
      // Writers write here too from now on, before the source is read.
      const { settings, mappings } = body();
      await client.indices.create({
        index: target,
        settings: { ...settings, ...FILLING },
        mappings,
        aliases: { [building]: {} },
      });
      await fillAll(target, rebuildSource);
      // The layout the live generation serves with (null: the engine's default), then every copy in place.
      await client.indices.putSettings({
        index: target,
        // null resets a setting to the engine's default, which the client's types do not admit.
        settings: {
          number_of_replicas: layout.replicas ?? null,
          refresh_interval: layout.refreshInterval ?? null,
        } as unknown as estypes.IndicesIndexSettings,
      });
      await client.indices.refresh({ index: target });
      await client.cluster.health({
        index: target,
        wait_for_no_initializing_shards: true,
        wait_for_no_relocating_shards: true,
        timeout: '10m',
      });
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
        await new Promise((resolve) => setTimeout(resolve, retireAfterMs));
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

  return { building, ensure, rebuild };
}
