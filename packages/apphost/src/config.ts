// The one-machine stack's configuration: ports and data folder, validated before anything starts.
import { envBoolean, envPort, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

export const REPO_ROOT = new URL('../../..', import.meta.url).pathname.replace(/\/$/, '');

export const apphostConfigSchema = z.object({
  PORT: envPort(8080),
  DATA_DIR: z.string().default(`${REPO_ROOT}/.data`),
  POSTGRES_PORT: envPort(54329),
  S3_PORT: envPort(9000),
  MAILDEV_WEB_PORT: envPort(1080),
  MAILDEV_SMTP_PORT: envPort(1025),
  SEED_DEMO: envBoolean(true),
  LOG_LEVEL: logLevel,
});

export type ApphostConfig = z.infer<typeof apphostConfigSchema>;

/** gRPC ports of the five services (their defaults; the gateway's defaults point at the same). */
export const SERVICE_PORTS = { auth: 50051, profile: 50052, org: 50053, post: 50054, news: 50055 } as const;
export type ServiceName = keyof typeof SERVICE_PORTS;

export const WEB_APPS = ['shell', 'mf-feed', 'mf-directory', 'mf-organizations', 'mf-profile'] as const;
