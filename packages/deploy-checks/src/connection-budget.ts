// The connection budget: the most PostgreSQL connections Rotunda can hold at once, from the settings that size
// its pools, written once. The deploy checks hold docker-compose.yml and the Kubernetes manifests to it, and a
// test holds a running service's real connections to its per-replica figure.
//
//   per replica = DATABASE_POOL_SIZE                      Prisma Client's pool (writes and ordinary reads)
//               + read pools × DATABASE_READ_POOL_SIZE    the hot-read driver; the search index's own pool when
//                                                         search is in Postgres (no ELASTICSEARCH_URL)
//               + listeners                               one LISTEN connection each: the change feed a service
//                                                         follows, the in-memory search copy's (SEARCH_IN_MEMORY),
//                                                         the notification service's unread counts
//               + 2 × event consumers                     each reader of recorded events (ADR 0042): its LISTEN
//                                                         connection and its one-connection pool
//               + outbox upkeep                           1 where the service keeps an outbox: the daily prune's
//                                                         connection, opened while everything else is open
//               + rebuild lock                            1 with a search index, on either engine: the advisory
//                                                         lock a rebuild holds on a connection of its own
//               + 1                                       the readiness probe
//   total       = Σ over services of (maxReplicas + maxSurge) × per replica
//               + migrations (the migrate Job's one connection; 0 where each replica migrates before its pools open)
//               + other clients of the same server (Keycloak's pool where its database shares it; a scheduled
//                 digest run's Prisma pool, one run at a time)
//               + headroom (operators' psql, monitoring)
//               ≤ max_connections − superuser_reserved_connections
// The gateways hold no database connection. maxSurge counts the extra pod a rolling update starts at the maximum.

export type ServiceName = 'auth' | 'profile' | 'org' | 'post' | 'news' | 'notification';

/** The settings of a service's parsed configuration that size its connections. */
export interface PoolSettings {
  DATABASE_POOL_SIZE: number;
  DATABASE_READ_POOL_SIZE: number;
  /** Set: search is in Elasticsearch, and the Postgres search index (its pool and listener) is not opened. */
  ELASTICSEARCH_URL?: string | undefined;
  SEARCH_IN_MEMORY?: boolean | undefined;
}

interface ServiceConnections {
  /** Has the hot-read driver (connectReadDriver). */
  readDriver: boolean;
  /**
   * Has a search index (packages/search): its rebuild lock's connection on either engine; in Postgres a pool too
   * and, in memory, a listener.
   */
  searchIndex: boolean;
  /**
   * LISTEN connections of its own besides search and event consumers (packages/events' listenForChanges, the
   * notification service's unread watch).
   */
  changeListeners: number;
  /** Readers of other services' recorded events (packages/events' consumeEvents). */
  eventConsumers: number;
  /**
   * Keeps an events outbox it prunes daily (pruneOutbox), on a connection of its own while the pools are open.
   * Making the tables at start (ensureEventTables) is not counted: it closes before the service takes calls.
   */
  prunesOutbox: boolean;
}

/** What each service's composition root opens (its src/wiring.ts and src/main.ts). */
export const SERVICE_CONNECTIONS: Record<ServiceName, ServiceConnections> = {
  // Records account deletions, reads nobody's.
  auth: { readDriver: false, searchIndex: false, changeListeners: 0, eventConsumers: 0, prunesOutbox: true },
  // Follows the org service's names; records claim decisions, reads the auth service's deletions.
  profile: { readDriver: true, searchIndex: true, changeListeners: 1, eventConsumers: 1, prunesOutbox: true },
  org: { readDriver: true, searchIndex: true, changeListeners: 0, eventConsumers: 0, prunesOutbox: false },
  // Follows authors' and organizations' names; records comments, likes, mentions; reads deletions.
  post: { readDriver: true, searchIndex: true, changeListeners: 1, eventConsumers: 1, prunesOutbox: true },
  news: { readDriver: false, searchIndex: false, changeListeners: 0, eventConsumers: 0, prunesOutbox: false },
  // Reads the post, profile and auth services' events in one consumer; hears unread counts change.
  notification: {
    readDriver: false,
    searchIndex: false,
    changeListeners: 1,
    eventConsumers: 1,
    prunesOutbox: false,
  },
};

/** An event consumer: its LISTEN connection and its one-connection pool (packages/events/src/consume.ts). */
export const EVENT_CONSUMER_CONNECTIONS = 2;

/** The outbox's daily prune (packages/events' pruneOutbox), one short-lived connection. */
export const OUTBOX_PRUNE_CONNECTIONS = 1;

/** The search rebuild's advisory lock, held on a connection of its own (packages/search/src/lock.ts). */
export const REBUILD_LOCK_CONNECTIONS = 1;

/** The readiness probe's pool (packages/service-kit/src/postgres/probe.ts). */
export const PROBE_CONNECTIONS = 1;

/** PostgreSQL's default superuser_reserved_connections: slots ordinary roles never get. */
export const SUPERUSER_RESERVED = 3;

/** Connections kept free for operators and monitoring. */
export const HEADROOM = 10;

export interface ReplicaConnections {
  pool: number;
  readPools: number;
  listeners: number;
  eventConsumers: number;
  outbox: number;
  rebuildLock: number;
  probe: number;
  total: number;
}

/** One replica's most connections. */
export function perReplica(service: ServiceName, settings: PoolSettings): ReplicaConnections {
  const shape = SERVICE_CONNECTIONS[service];
  const searchInPostgres = shape.searchIndex && !settings.ELASTICSEARCH_URL;
  const readPools = (shape.readDriver ? 1 : 0) + (searchInPostgres ? 1 : 0);
  const listeners = shape.changeListeners + (searchInPostgres && settings.SEARCH_IN_MEMORY ? 1 : 0);
  const pool = settings.DATABASE_POOL_SIZE;
  const reads = readPools * settings.DATABASE_READ_POOL_SIZE;
  const rebuildLock = shape.searchIndex ? REBUILD_LOCK_CONNECTIONS : 0;
  const eventConsumers = shape.eventConsumers * EVENT_CONSUMER_CONNECTIONS;
  const outbox = shape.prunesOutbox ? OUTBOX_PRUNE_CONNECTIONS : 0;
  return {
    pool,
    readPools: reads,
    listeners,
    eventConsumers,
    outbox,
    rebuildLock,
    probe: PROBE_CONNECTIONS,
    total: pool + reads + listeners + eventConsumers + outbox + rebuildLock + PROBE_CONNECTIONS,
  };
}

export interface Deployment {
  service: ServiceName;
  /** The most replicas it runs (the autoscaler's maxReplicas, compose's deploy.replicas). */
  maxReplicas: number;
  /** Extra pods while a rolling update runs at the maximum. */
  maxSurge: number;
  settings: PoolSettings;
}

export interface BudgetInput {
  deployments: Deployment[];
  /** The migration step's connections while replicas run. */
  migrations: number;
  /** Other clients of the same server, by name (e.g. Keycloak's pool). */
  others: Record<string, number>;
  maxConnections: number;
  superuserReserved?: number;
  headroom?: number;
}

export interface Budget {
  lines: { service: ServiceName; replicas: number; perReplica: number; connections: number }[];
  total: number;
  limit: number;
  fits: boolean;
  /** The sum, term by term, for a failure message. */
  explanation: string;
}

export function connectionBudget(input: BudgetInput): Budget {
  const lines = input.deployments.map((d) => {
    const replicas = d.maxReplicas + d.maxSurge;
    const one = perReplica(d.service, d.settings).total;
    return { service: d.service, replicas, perReplica: one, connections: replicas * one };
  });
  const headroom = input.headroom ?? HEADROOM;
  const others = Object.values(input.others).reduce((sum, n) => sum + n, 0);
  const total = lines.reduce((sum, line) => sum + line.connections, 0) + input.migrations + others + headroom;
  const limit = input.maxConnections - (input.superuserReserved ?? SUPERUSER_RESERVED);
  const terms = [
    ...lines.map((l) => `${l.service} ${l.replicas}×${l.perReplica}`),
    `migrations ${input.migrations}`,
    ...Object.entries(input.others).map(([name, n]) => `${name} ${n}`),
    `headroom ${headroom}`,
  ];
  return {
    lines,
    total,
    limit,
    fits: total <= limit,
    explanation: `${terms.join(' + ')} = ${total}; max_connections − reserved = ${limit}`,
  };
}
