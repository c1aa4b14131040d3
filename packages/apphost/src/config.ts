// The one-machine stack's configuration: ports and data folder, validated before anything starts.
import { availableParallelism } from 'node:os';
import { envBoolean, envPort, envPositiveInt, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

export const REPO_ROOT = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');

export const apphostConfigSchema = z.object({
  PORT: envPort(8080),
  DATA_DIR: z.string().default(`${REPO_ROOT}/.data`),
  POSTGRES_PORT: envPort(54329),
  S3_PORT: envPort(9000),
  MAILDEV_WEB_PORT: envPort(1080),
  MAILDEV_SMTP_PORT: envPort(1025),
  /** The five services' gRPC ports are this one and the next four (auth, profile, org, post, news). */
  GRPC_PORT_BASE: envPort(50051),
  /** Serve the web apps from the gateway (and build them when missing); false for an API-only stack. */
  SERVE_WEB: envBoolean(true),
  SEED_DEMO: envBoolean(true),
  LOG_LEVEL: logLevel,
  /** Each service's hot-read pools: here every service shares this machine's cores with Postgres. */
  DATABASE_READ_POOL_SIZE: envPositiveInt(availableParallelism() + 1),
});

export type ApphostConfig = z.infer<typeof apphostConfigSchema>;

export const SERVICES = ['auth', 'profile', 'org', 'post', 'news'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Each service's gRPC port, in the order of SERVICES from the base (the gateway's defaults match 50051). */
export function servicePorts(base: number): Record<ServiceName, number> {
  return Object.fromEntries(SERVICES.map((name, index) => [name, base + index])) as Record<
    ServiceName,
    number
  >;
}

export const WEB_APPS = ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'] as const;
