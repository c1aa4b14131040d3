// Starts a service's gRPC server with standard health checking (grpc.health.v1) and graceful shutdown:
// on SIGTERM/SIGINT the service reports NOT_SERVING, stops taking calls, finishes those in flight within its
// grace (SHUTDOWN_GRACE_MS), then closes its resources and exits 0. Each dependency every replica shares (the
// database) has a health status of its own, `dependency/database`, which a lost database turns NOT_SERVING while
// the server itself stays SERVING: it still answers what needs no database, and refuses the rest fast (ADR 0047).
import {
  Server,
  ServerCredentials,
  type ServerInterceptor,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { z } from 'zod';
import { type Dependency, dependencyHealthName, dependencyUp, onDependencyFailed } from '../dependencies.ts';
import type { Logger } from '../logger.ts';
import { stopWithParent } from '../parent.ts';
import { serverTelemetryInterceptor } from '../telemetry/grpc.ts';
import type { CallerVerifier } from './caller-token.ts';
import { callGuard } from './guard.ts';
import { GRPC_OPTIONS } from './options.ts';

/**
 * How long a stopping process lets calls (or requests) in flight finish before it cuts them. Kubernetes kills
 * a pod terminationGracePeriodSeconds (30 s by default) after it starts stopping, preStop sleep included: 20 s
 * leaves the 5 s preStop sleep and closing the pools room within the default.
 */
export const drainConfigSchema = z.object({
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(20_000),
});

/**
 * Server connection options. A connection lives about a minute (grpc-js adds jitter) and then ends with a GOAWAY
 * that lets its calls finish for up to 30 s: the clients then reconnect, asking DNS again, so replicas that
 * started since get their share. The server sends no keepalive pings: grpc-js would ping a connection it is
 * draining and, refused, cut the calls still finishing on it (ADR 0063); the age and grace already end a dead
 * client's connection within 100 s.
 */
export const SERVER_CONNECTION_OPTIONS = {
  'grpc.max_connection_age_ms': 60_000,
  'grpc.max_connection_age_grace_ms': 30_000,
} as const;

export interface GrpcService {
  /** Fully qualified name, as health checks ask for it (e.g. rotunda.news.v1.NewsService). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /**
   * The methods that change something (the definition's names, e.g. `addPost`): a suspended member's calls of
   * them are refused before any handler (ADR 0041). Reads, and what a suspended member must still do, stay out.
   */
  writes?: readonly string[];
}

/** The full paths of every service's write methods; a name the definition lacks is a typo caught at start. */
function writePaths(services: GrpcService[]): Set<string> {
  const paths = new Set<string>();
  for (const { name, definition, writes = [] } of services)
    for (const method of writes) {
      const path = definition[method]?.path;
      if (!path) throw new Error(`${name} has no method ${method} to refuse to suspended members`);
      paths.add(path);
    }
  return paths;
}

export interface StartGrpcServerOptions {
  host: string;
  port: number;
  services: GrpcService[];
  logger: Logger;
  /** Checks the gateway's caller tokens; without it no call has a caller (every call is a visitor's). */
  callers?: CallerVerifier;
  /** Is every dependency reachable? Polled for the health status; defaults to always ready. */
  readiness?: () => Promise<boolean>;
  readinessIntervalMs?: number;
  /**
   * Can the process reach each dependency it shares with the other replicas? Polled (every second while one is
   * away), and asked again at once when a call failed on it; reported as `dependency/<name>`, never as the
   * server's own status.
   */
  dependencies?: Partial<Record<Dependency, () => Promise<boolean>>>;
  /** Runs after the server stopped taking calls: close pools, timers. */
  onShutdown?: () => Promise<void>;
  /** How long calls in flight may take to finish once shutdown starts (then they are cut). */
  shutdownGraceMs?: number;
  /** Interceptors run on every call after the caller guard. */
  interceptors?: ServerInterceptor[];
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  shutdown: () => Promise<void>;
}

export async function startGrpcServer(options: StartGrpcServerOptions): Promise<RunningGrpcServer> {
  const { logger, services, readiness } = options;
  // 16 MB: room for a 10 MB logo or picture upload plus its message framing; bigger requests are refused.
  const server = new Server({
    ...GRPC_OPTIONS,
    ...SERVER_CONNECTION_OPTIONS,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    // The telemetry sits closest to the wire, so the guard's refusals are counted and traced too.
    interceptors: [
      serverTelemetryInterceptor(),
      callGuard(options.callers, writePaths(services)),
      ...(options.interceptors ?? []),
    ],
  });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  for (const service of services) {
    // A contract whose RPCs have not landed yet still has a health status, but grpc-js refuses empty services.
    if (Object.keys(service.definition).length > 0)
      server.addService(service.definition, service.implementation);
  }

  const setAll = (serving: boolean) => {
    const value = serving ? 'SERVING' : 'NOT_SERVING';
    health.setStatus('', value);
    for (const service of services) health.setStatus(service.name, value);
  };

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );

  let ready = true;
  const check = async () => {
    const now = readiness ? await readiness().catch(() => false) : true;
    if (now !== ready) logger[now ? 'info' : 'warn']({ ready: now }, 'readiness changed');
    ready = now;
    setAll(now);
  };
  await check();
  const poll = setInterval(check, options.readinessIntervalMs ?? 5000);
  poll.unref();
  const dependencies = watchDependencies(options, (dependency, up, first) => {
    if (!(first && up))
      logger[up ? 'info' : 'warn'](
        { dependency },
        up ? 'dependency reachable again' : 'dependency unavailable',
      );
    health.setStatus(dependencyHealthName(dependency), up ? 'SERVING' : 'NOT_SERVING');
  });
  await dependencies.checkAll();
  logger.info({ port, services: services.map((s) => s.name) }, 'grpc server listening');

  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      clearInterval(poll);
      dependencies.stop();
      setAll(false);
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          logger.warn('calls still in flight after the grace period; closing them');
          server.forceShutdown();
          resolve();
        }, options.shutdownGraceMs ?? drainConfigSchema.parse({}).SHUTDOWN_GRACE_MS);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      await options.onShutdown?.();
      logger.info('stopped');
    })();
    return stopping;
  };
  return { port, health, shutdown };
}

/** The unreachable-dependency watch: each dependency checked on a timer, and again whenever a call failed on it. */
function watchDependencies(
  { dependencies = {}, readinessIntervalMs = 5000 }: StartGrpcServerOptions,
  changed: (dependency: Dependency, up: boolean, first: boolean) => void,
) {
  const checks = Object.entries(dependencies) as [Dependency, () => Promise<boolean>][];
  const up = new Map<Dependency, boolean>();
  const running = new Map<Dependency, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const checkOne = (dependency: Dependency, probe: () => Promise<boolean>) => {
    // One look at a time per dependency: a burst of failed calls asks once.
    let look = running.get(dependency);
    if (!look) {
      look = (async () => {
        const now = await probe().catch(() => false);
        dependencyUp.set({ dependency }, now ? 1 : 0);
        const before = up.get(dependency);
        if (before !== now) {
          up.set(dependency, now);
          changed(dependency, now, before === undefined);
          schedule();
        }
      })().finally(() => running.delete(dependency));
      running.set(dependency, look);
    }
    return look;
  };
  const checkAll = async () => {
    await Promise.all(checks.map(([dependency, probe]) => checkOne(dependency, probe)));
  };
  // Every second while something is away, so its return shows within a second; otherwise the readiness pace.
  const schedule = () => {
    clearTimeout(timer);
    if (stopped || checks.length === 0) return;
    const away = [...up.values()].some((reachable) => !reachable);
    timer = setTimeout(
      () => void checkAll().finally(schedule),
      away ? Math.min(1000, readinessIntervalMs) : readinessIntervalMs,
    );
    timer.unref();
  };
  const unsubscribe = onDependencyFailed((dependency) => {
    const probe = dependencies[dependency];
    if (probe && !stopped) void checkOne(dependency, probe);
  });
  return {
    checkAll,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}

/** Stops the service cleanly on SIGTERM (orchestrators) and SIGINT (Ctrl-C), and when the apphost goes. */
export function shutdownOnSignals(shutdown: () => Promise<void>, logger: Logger): void {
  const onSignal = (signal: NodeJS.Signals | 'parent gone') => {
    logger.info({ signal }, 'shutting down');
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  stopWithParent(() => onSignal('parent gone'));
}
