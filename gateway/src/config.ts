// The gateway's configuration, validated at start-up.
import { envBoolean, envPort, envPositiveInt, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

const address = (defaultValue: string) =>
  z
    .string()
    .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
    .default(defaultValue);

export const gatewayConfigSchema = z.object({
  PORT: envPort(8080),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: logLevel,
  AUTH_SERVICE_ADDR: address('127.0.0.1:50051'),
  PROFILE_SERVICE_ADDR: address('127.0.0.1:50052'),
  ORG_SERVICE_ADDR: address('127.0.0.1:50053'),
  POST_SERVICE_ADDR: address('127.0.0.1:50054'),
  NEWS_SERVICE_ADDR: address('127.0.0.1:50055'),
  /** Deadline for one gRPC call; past it the caller gets 504, never a hang. */
  GRPC_DEADLINE_MS: envPositiveInt(3000),
  /** How long public reads (headlines) may be served from the gateway's memory. */
  PUBLIC_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
  /** Serve the shell and the micro-frontends' builds (the one-machine default; nginx does it in production). */
  SERVE_WEB: envBoolean(true),
  /** Folder holding the shell and micro-frontend folders with their dist builds. */
  WEB_ROOT: z.string().default(new URL('../..', import.meta.url).pathname),
  /** JSON file mapping remote names to their manifest URLs; default: each remote under /mf/<name>/. */
  REMOTES_CONFIG: z.string().optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
