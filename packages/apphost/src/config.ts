// The one-machine stack's configuration: ports and data folder, and the real engines that may take over from
// the embedded ones (the environment `npm run engines` prints), validated before anything starts.
import { availableParallelism } from 'node:os';
import { envBoolean, envPort, envPositiveInt, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

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
    /** The five services' gRPC ports are this one and the next four (auth, profile, org, post, news). */
    GRPC_PORT_BASE: envPort(50051),
    /** Serve the web apps from the gateway (and build them when missing); false for an API-only stack. */
    SERVE_WEB: envBoolean(true),
    SEED_DEMO: envBoolean(true),
    LOG_LEVEL: logLevel,
    /** Each service's hot-read pools: here every service shares this machine's cores with Postgres. */
    DATABASE_READ_POOL_SIZE: envPositiveInt(availableParallelism() + 1),
    /** A real S3 server instead of the embedded one (with its keys); unset: the embedded s3rver on S3_PORT. */
    S3_ENDPOINT: optionalUrl,
    S3_ACCESS_KEY: optionalText,
    S3_SECRET_KEY: optionalText,
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
