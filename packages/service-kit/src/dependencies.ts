// Dependencies every replica shares (the one PostgreSQL; Keycloak, the S3 server and the search engine, ADR 0048),
// when they go away and come back (ADR 0047): which thrown errors mean "cannot be reached" rather than a bug, what
// the caller is told then, how each process says whether it reaches the database (its gRPC health under
// `dependency/<name>`, and the metrics), and the hint a failed call gives the health check to look again at once
// instead of at its next poll.
import { EventEmitter } from 'node:events';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './telemetry/metrics.ts';

export type Dependency = 'database' | 'identity' | 'object-store' | 'search';

const DEPENDENCIES = new Set<string>([
  'database',
  'identity',
  'object-store',
  'search',
] satisfies Dependency[]);

/**
 * The gRPC trailer that names the dependency a call was refused for: the gateway shows the service's own words
 * for it (they are written for members) instead of its generic "the service is unavailable".
 */
export const UNAVAILABLE_DEPENDENCY_TRAILER = 'rotunda-unavailable-dependency';

/** The gRPC health service name that reports whether a process reaches `dependency`. */
export const dependencyHealthName = (dependency: Dependency) => `dependency/${dependency}`;

/**
 * What a call refused for an unreachable database answers with UNAVAILABLE. The gateway shows its own words
 * (the service is unavailable, try again shortly) and a Retry-After; these are for logs and other services.
 */
export const DEPENDENCY_MESSAGES = {
  database: 'The database cannot be reached. Please try again shortly.',
} as const;

/** Node's socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Prisma's codes for a database it cannot reach, time out on, lost, or whose pool had no connection in time;
 * PostgreSQL's for a server shutting down (57P01 admin, 57P02 crash), starting (57P03) or out of connections.
 */
const DATABASE_CODES = new Set([
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** Prisma driver adapters' error kinds for the same. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/** pg's own errors for a connection that ended or never came, which carry no code. */
const PG_MESSAGES = [
  /^Connection terminated/,
  // Its connection timeout (connectionTimeoutMillis) ran out before the server answered.
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
];

/**
 * Is `error` the database being unreachable (refused, reset, terminated, shutting down, starting up, timed out
 * connecting)? Looks through Prisma's wrappers: its error codes, its driver adapter's error kind, and the causes
 * and aggregated errors underneath.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors, meta, kind } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    meta?: { driverAdapterError?: unknown };
    kind?: unknown;
  };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || DATABASE_CODES.has(code))) return true;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  // A PostgreSQL error the driver adapter passed on under its own kind, with the server's code beside it.
  const original = (error as { originalCode?: unknown }).originalCode;
  if (typeof original === 'string' && DATABASE_CODES.has(original)) return true;
  if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
  const inner = [cause, meta?.driverAdapterError, ...(Array.isArray(errors) ? errors : [])];
  return inner.some((nested) => isDatabaseUnavailable(nested, depth + 1));
}

/**
 * An engine's adapter's own error for it being away (Keycloak's, the object store's, the search engine's): an
 * Error naming its `dependency`, with words a member may read. The outermost one found wins, so a socket error
 * underneath is not taken for the database's.
 */
function markedUnavailable(
  error: unknown,
  depth = 0,
): { dependency: Dependency; message: string } | undefined {
  if (depth > 5 || !(error instanceof Error)) return undefined;
  const { dependency } = error as { dependency?: unknown };
  if (typeof dependency === 'string' && DEPENDENCIES.has(dependency))
    return { dependency: dependency as Dependency, message: error.message };
  return markedUnavailable(error.cause, depth + 1);
}

/** The shared dependency `error` says is unreachable, if any, and what the caller is told. */
export function unavailableDependencyOf(
  error: unknown,
): { dependency: Dependency; message: string } | undefined {
  const marked = markedUnavailable(error);
  if (marked) return marked;
  return isDatabaseUnavailable(error)
    ? { dependency: 'database', message: DEPENDENCY_MESSAGES.database }
    : undefined;
}

export const dependencyUp = new Gauge({
  name: 'rotunda_dependency_up',
  help: 'Whether this process reaches each dependency it shares with the other replicas (1) or not (0), as its last health check found.',
  labelNames: ['dependency'] as const,
  registers: [metricsRegistry],
});

export const dependencyRefusals = new Counter({
  name: 'rotunda_dependency_refused_calls_total',
  help: 'gRPC calls answered UNAVAILABLE because a dependency could not be reached, by dependency.',
  labelNames: ['dependency'] as const,
  registers: [metricsRegistry],
});
// At 0 from the start, so a rate over it has a series before the first refusal.
for (const dependency of DEPENDENCIES) dependencyRefusals.inc({ dependency }, 0);

/** Told when a call failed on an unreachable dependency: the health checks look again now. */
const suspicions = new EventEmitter();

/** Counts a call refused for `dependency` and asks the health checks to look again. */
export function dependencyFailed(dependency: Dependency): void {
  dependencyRefusals.inc({ dependency });
  suspicions.emit('failed', dependency);
}

/** Calls `listener` whenever a call failed on an unreachable dependency; answers how to stop. */
export function onDependencyFailed(listener: (dependency: Dependency) => void): () => void {
  suspicions.on('failed', listener);
  return () => suspicions.off('failed', listener);
}
