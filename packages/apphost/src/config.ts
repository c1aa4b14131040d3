// The one-machine stack's configuration: ports and data folder, and the real engines that may take over from
// the embedded ones (the environment `npm run engines` prints), validated before anything starts.
import { availableParallelism } from 'node:os';
import { connectionBudget, SUPERUSER_RESERVED } from '@rotunda/deploy-checks/connection-budget';
import { envBoolean, envPort, envPositiveInt, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

/** Replica r (from 0) of a service listens REPLICA_PORT_STEP·r above the first. */
const REPLICA_PORT_STEP = 10;
const MAX_REPLICAS = 4;
/** Below REPLICA_PORT_STEP: the gateway's workers' metrics ports stay clear of the services'. */
const MAX_GATEWAY_WORKERS = 8;

export const REPO_ROOT = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');

const optionalUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional();
const optionalText = z.string().min(1).optional();

export const apphostConfigSchema = z
  .object({
    PORT: envPort(8080),
    DATA_DIR: z.string().default(`${REPO_ROOT}/.data`),
    POSTGRES_PORT: envPort(54329),
    S3_PORT: envPort(9000),
    MAILDEV_WEB_PORT: envPort(1080),
    MAILDEV_SMTP_PORT: envPort(1025),
    /**
     * The six services' gRPC ports are this one and the next five (auth, profile, org, post, news,
     * notification); replica r (from 0) of each adds 10·r. Below Linux's ephemeral ports (32768–60999): a port
     * there may be held at start by the local end of any outgoing connection, and a service then cannot listen
     * (EADDRINUSE; the browser suite's product lost its profile service for 40 s so, at 50052).
     */
    GRPC_PORT_BASE: envPort(20051),
    /** How many processes of every service (`npm start -- --replicas N` sets it too). */
    REPLICAS: z.coerce
      .number({ error: 'must be a whole number from 1 to 4' })
      .int('must be a whole number from 1 to 4')
      .min(1, 'must be a whole number from 1 to 4')
      .max(MAX_REPLICAS, 'must be a whole number from 1 to 4')
      .default(1),
    /** The gateway's worker processes behind Node's cluster module, sharing PORT; default: REPLICAS. */
    GATEWAY_WORKERS: z.coerce
      .number({ error: 'must be a whole number from 1 to 8' })
      .int('must be a whole number from 1 to 8')
      .min(1, 'must be a whole number from 1 to 8')
      .max(MAX_GATEWAY_WORKERS, 'must be a whole number from 1 to 8')
      .optional(),
    /**
     * Each process's Prometheus /metrics port is counted from here (metricsPorts). Below Linux's ephemeral range
     * (32768–60999): a port there can be taken by any outgoing connection, e.g. one of the pools' to PostgreSQL,
     * between the check before start and the service binding it.
     */
    METRICS_PORT_BASE: envPort(9464),
    /** The wait before restarting a process that exited unexpectedly; each further exit in a row doubles it. */
    RESTART_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /**
     * Each service's and the gateway's V8 heap ceiling in MiB (`--max-old-space-size`); unset: V8's own, sized from
     * this machine's memory. A pod gets one from its memory limit; with gigabytes to spare and none set, a busy
     * process leaves hundreds of megabytes of garbage uncollected (ADR 0058).
     */
    NODE_MAX_OLD_SPACE_MIB: z.coerce
      .number({ error: 'must be a whole number of MiB from 64 to 16384' })
      .int('must be a whole number of MiB from 64 to 16384')
      .min(64, 'must be a whole number of MiB from 64 to 16384')
      .max(16_384, 'must be a whole number of MiB from 64 to 16384')
      .optional(),
    /** Serve the web apps from the gateway (and build them when missing); false for an API-only stack. */
    SERVE_WEB: envBoolean(true),
    SEED_DEMO: envBoolean(true),
    LOG_LEVEL: logLevel,
    /** Each service's hot-read pools: here every service shares this machine's cores with Postgres. */
    /** Each service's Prisma Client pool. */
    DATABASE_POOL_SIZE: envPositiveInt(10),
    DATABASE_READ_POOL_SIZE: envPositiveInt(availableParallelism() + 1),
    /** A real S3 server instead of the embedded one (with its keys); unset: the embedded s3rver on S3_PORT. */
    S3_ENDPOINT: optionalUrl,
    S3_ACCESS_KEY: optionalText,
    S3_SECRET_KEY: optionalText,
    /** Signs captcha challenges for every auth replica; unset: a new one per run. */
    CAPTCHA_HMAC_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
    /** builtin: the auth service's own accounts; keycloak: a Keycloak realm (KEYCLOAK_*, JWKS_URL, TOKEN_ISSUER). */
    IDENTITY_PROVIDER: z.enum(['builtin', 'keycloak']).default('builtin'),
    KEYCLOAK_URL: optionalUrl,
    KEYCLOAK_REALM: z.string().default('rotunda'),
    KEYCLOAK_CLIENT_ID: z.string().default('rotunda-auth'),
    KEYCLOAK_CLIENT_SECRET: optionalText,
    JWKS_URL: optionalUrl,
    TOKEN_ISSUER: optionalUrl,
    /** Elasticsearch for search; unset: each service's Postgres index. */
    ELASTICSEARCH_URL: optionalUrl,
    /** How often the due email digests are sent (`npm run admin -- send-digests`); 0 turns the schedule off. */
    DIGEST_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  })
  .superRefine((config, ctx) => {
    if (config.S3_ENDPOINT)
      for (const key of ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const)
        if (!config[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_ENDPOINT is set' });
    if (config.IDENTITY_PROVIDER === 'keycloak')
      for (const key of ['KEYCLOAK_URL', 'KEYCLOAK_CLIENT_SECRET', 'JWKS_URL', 'TOKEN_ISSUER'] as const)
        if (!config[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when IDENTITY_PROVIDER=keycloak',
          });
  })
  .transform((config) => ({
    ...config,
    GATEWAY_WORKERS: config.GATEWAY_WORKERS ?? config.REPLICAS,
  }));

export type ApphostConfig = z.infer<typeof apphostConfigSchema>;

export const SERVICES = ['auth', 'profile', 'org', 'post', 'news', 'notification'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** One process of a service: its name on the console and in the logs, its gRPC and its /metrics port. */
export interface Replica {
  /** The service's name alone with one replica; with several, numbered from 1 (profile-1, profile-2). */
  name: string;
  grpcPort: number;
  metricsPort: number;
}

/**
 * Every service's replicas. Service i's replica r (from 0) listens on GRPC_PORT_BASE + i + 10·r (given to
 * the gateway and the services) and serves /metrics on METRICS_PORT_BASE + 10 + i + 10·r, above the gateway's workers'
 * METRICS_PORT_BASE + w.
 */
export function replicaLayout(
  config: Pick<ApphostConfig, 'GRPC_PORT_BASE' | 'METRICS_PORT_BASE' | 'REPLICAS'>,
): Record<ServiceName, Replica[]> {
  return Object.fromEntries(
    SERVICES.map((service, index) => [
      service,
      Array.from({ length: config.REPLICAS }, (_, replica) => ({
        name: config.REPLICAS === 1 ? service : `${service}-${replica + 1}`,
        grpcPort: config.GRPC_PORT_BASE + index + REPLICA_PORT_STEP * replica,
        metricsPort: config.METRICS_PORT_BASE + REPLICA_PORT_STEP * (replica + 1) + index,
      })),
    ]),
  ) as Record<ServiceName, Replica[]>;
}

/** The gateway's workers' /metrics ports: the first worker's is METRICS_PORT_BASE, each next one 1 higher. */
export function gatewayMetricsPorts(config: Pick<ApphostConfig, 'METRICS_PORT_BASE' | 'GATEWAY_WORKERS'>) {
  return Array.from({ length: config.GATEWAY_WORKERS }, (_, worker) => config.METRICS_PORT_BASE + worker);
}

export const WEB_APPS = ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'] as const;

/**
 * The embedded PostgreSQL's max_connections: the connection budget (the deploy checks' formula) of REPLICAS
 * processes of every service with full pools, each holding one more connection while it wires, plus the tests'
 * and tools' connections; never below Postgres' default, 100, which a second set of replicas would exceed.
 */
export function postgresMaxConnections(
  config: Pick<
    ApphostConfig,
    'REPLICAS' | 'DATABASE_POOL_SIZE' | 'DATABASE_READ_POOL_SIZE' | 'ELASTICSEARCH_URL'
  >,
): number {
  const budget = connectionBudget({
    deployments: SERVICES.map((service) => ({
      service,
      maxReplicas: config.REPLICAS,
      // A restarted replica may wire while the one it replaces still holds its pools.
      maxSurge: 1,
      settings: {
        DATABASE_POOL_SIZE: config.DATABASE_POOL_SIZE,
        DATABASE_READ_POOL_SIZE: config.DATABASE_READ_POOL_SIZE,
        ELASTICSEARCH_URL: config.ELASTICSEARCH_URL,
        SEARCH_IN_MEMORY: true,
      },
    })),
    migrations: SERVICES.length,
    others: { 'wiring locks': SERVICES.length * (config.REPLICAS + 1), 'tests and tools': TOOL_CONNECTIONS },
    maxConnections: 0,
  });
  return Math.max(100, budget.total + SUPERUSER_RESERVED);
}

/** The admin CLI, a reindex, a benchmark's seed, the browser tests' database helpers. */
const TOOL_CONNECTIONS = 20;
