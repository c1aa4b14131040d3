// The replicated index: the Postgres index stays the durable copy every write goes to, and each service replica
// answers searches from its own in-memory copy of it (memory.ts), with no database round trip. Writes notify a
// channel in their transaction (postgres/changes.ts); every replica listens and re-reads the ids named, so a write on one
// replica reaches the others within milliseconds, and the writer's own searches see it before its write returns.
// A rebuild's switch notifies '*': each copy loads the new generation whole, answering from its old copy meanwhile.
// An index larger than `maxDocuments` at start is not copied: Postgres answers its searches.
import pg from 'pg';
import { createMemorySearchIndex } from './memory.ts';
import type { SearchDocument, SearchIndex } from './port.ts';
import { changeChannelOf, EVERYTHING_CHANGED } from './postgres/changes.ts';
import { createPostgresSearchIndex, type PostgresSearchIndexOptions } from './postgres.ts';

export interface ReplicatedSearchIndexOptions extends PostgresSearchIndexOptions {
  /** Wait before listening again after the listening connection is lost (the copy is reloaded then). */
  reconnectDelayMs?: number;
  /** Told when the listening connection fails; searches go on from the copy, which may lag until it is back. */
  onListenError?: (error: Error) => void;
  /**
   * An index holding more documents than this when ensure() runs is not copied: Postgres answers its searches,
   * so a replica's memory stays bounded however large the directory grows (ADR 0058). Unset: always copied.
   */
  maxDocuments?: number;
  /** Told when the index is too large to copy, with its size. */
  onTooLarge?: (documents: number) => void;
}

export function createReplicatedSearchIndex(options: ReplicatedSearchIndexOptions): SearchIndex {
  const channel = changeChannelOf(options.schema, options.index);
  const durable = createPostgresSearchIndex(options);
  const memory = createMemorySearchIndex(options);
  let loaded = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;

  // Refreshes run one after another, each reading the rows as committed when it runs: whatever order writes and
  // notifications arrive in, the last refresh of an id leaves the copy as Postgres has it.
  let refreshes: Promise<void> = Promise.resolve();
  const enqueue = (refresh: () => Promise<void>): Promise<void> => {
    const next = refreshes.then(refresh);
    refreshes = next.catch(() => {});
    return next;
  };
  const refreshIds = (ids: string[]) =>
    enqueue(async () => {
      const current: SearchDocument[] = await durable.documents(ids);
      const present = new Set(current.map((document) => document.id));
      memory.apply(
        current,
        ids.filter((id) => !present.has(id)),
      );
    });
  const reloadAll = () =>
    enqueue(async () => {
      await memory.replaceAll(durable.allDocuments());
    });

  function onNotification(payload: string | undefined): void {
    if (!payload || payload === EVERYTHING_CHANGED) void reloadAll().catch(() => scheduleListen());
    else void refreshIds(JSON.parse(payload) as string[]).catch(() => scheduleListen());
  }

  function scheduleListen(): void {
    if (closed || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      listen().catch((error: Error) => {
        options.onListenError?.(error);
        scheduleListen();
      });
    }, options.reconnectDelayMs ?? 1000);
    reconnect.unref();
  }

  /** Listens, then reloads: every write committed before the reload is in it, every later one is notified. */
  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === channel) onNotification(message.payload);
    });
    client.on('error', (error) => {
      options.onListenError?.(error);
      if (listener === client) listener = undefined;
      client.end().catch(() => {});
      scheduleListen();
    });
    await client.connect();
    try {
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end();
      return;
    }
    // A failed refresh listens anew while the old connection may still be open: one listener, never two.
    const previous = listener;
    listener = client;
    await previous?.end().catch(() => {});
    await reloadAll();
  }

  return {
    async ensure() {
      const state = await durable.ensure();
      // A live index of another definition is not loaded (its rows lack this one's fields): Postgres answers until
      // a rebuild has replaced it and ensure() is called again.
      if (state === 'outdated') return state;
      if (options.maxDocuments !== undefined && !loaded) {
        const { total } = await durable.search({ offset: 0, limit: 0 });
        if (total > options.maxDocuments) {
          options.onTooLarge?.(total);
          return state;
        }
      }
      if (!listener) await listen();
      loaded = true;
      return state;
    },
    async upsert(documents) {
      await durable.upsert(documents);
      if (loaded) await refreshIds(documents.map((document) => document.id));
    },
    async remove(ids) {
      await durable.remove(ids);
      if (loaded) await refreshIds(ids);
    },
    async rebuild(source) {
      const outcome = await durable.rebuild(source);
      // Every copy reloads on the switch's notification; this one before answering, so its next search sees it.
      if (outcome.rebuilt && loaded) await reloadAll();
      return outcome;
    },
    // Before ensure() has loaded the copy, Postgres answers.
    search: (query) => (loaded ? memory.search(query) : durable.search(query)),
    async clear() {
      await durable.clear();
      if (loaded) await reloadAll();
    },
    async close() {
      closed = true;
      clearTimeout(reconnect);
      await listener?.end().catch(() => {});
      await durable.close();
    },
  };
}
