// The gateway's configuration, validated at start-up.
import { objectStoreConfigSchema } from '@rotunda/images';
import { envAddress, envBoolean, envPort, envPositiveInt, logLevel } from '@rotunda/service-kit';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional());

export const gatewayConfigSchema = z
  .object({
    PORT: envPort(8080),
    HOST: z.string().default('127.0.0.1'),
    LOG_LEVEL: logLevel,
    AUTH_SERVICE_ADDR: envAddress('127.0.0.1:50051'),
    PROFILE_SERVICE_ADDR: envAddress('127.0.0.1:50052'),
    ORG_SERVICE_ADDR: envAddress('127.0.0.1:50053'),
    POST_SERVICE_ADDR: envAddress('127.0.0.1:50054'),
    NEWS_SERVICE_ADDR: envAddress('127.0.0.1:50055'),
    /** Deadline for one gRPC call; past it the caller gets 504, never a hang. */
    GRPC_DEADLINE_MS: envPositiveInt(3000),
    /** How long public reads (headlines) may be served from the gateway's memory. */
    PUBLIC_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
    /**
     * How long a directory search page may be shared from the gateway's memory (every member gets the same
     * answer to the same query; ADR 0013); 0 turns it off.
     */
    DIRECTORY_CACHE_SECONDS: z.coerce.number().int().min(0).default(2),
    /** Serve the shell and the micro-frontends' builds (the one-machine default; nginx does it in production). */
    SERVE_WEB: envBoolean(true),
    /** Folder holding the shell and micro-frontend folders with their dist builds. */
    WEB_ROOT: z.string().default(new URL('../..', import.meta.url).pathname),
    /** JSON file mapping remote names to their manifest URLs; default: each remote under /mf/<name>/. */
    REMOTES_CONFIG: z.string().optional(),
    /**
     * Where the identity provider publishes its public keys (Keycloak: <issuer>/protocol/openid-connect/certs).
     * Unset: the built-in provider inside the auth service, whose keys come over gRPC.
     */
    JWKS_URL: optionalUrl,
    /** The `iss` every access token must carry. Default: the built-in provider's, on this port and realm. */
    TOKEN_ISSUER: optionalUrl,
    /** The app's public origin: links in mails point here (never at whatever Host a request claims). */
    PUBLIC_URL: optionalUrl,
    /** Where people who cannot register ask for access, shown by the register form. */
    ACCESS_EMAIL: z.email().default('membership@rotunda.example'),
    /** The browser's client id at the identity provider. */
    WEB_CLIENT_ID: z.string().default('rotunda-web'),
    /** The realm name in /realms/<realm>/ (and in the default issuer). */
    REALM: z
      .string()
      .regex(/^[\w-]{1,64}$/, 'must be letters, digits, "_" or "-"')
      .default('rotunda'),
    /** The object store /media/ is served from: S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET, S3_REGION. */
    ...objectStoreConfigSchema.shape,
  })
  .superRefine((config, ctx) => {
    // Keycloak's tokens carry Keycloak's issuer, which the default (the built-in provider's) never matches:
    // refuse to start rather than answer 401 to every member.
    if (config.JWKS_URL && !config.TOKEN_ISSUER)
      ctx.addIssue({
        code: 'custom',
        path: ['TOKEN_ISSUER'],
        message: 'is required when JWKS_URL is set (the realm URL tokens are issued for)',
      });
  })
  .transform((config) => ({
    ...config,
    TOKEN_ISSUER: config.TOKEN_ISSUER ?? `http://localhost:${config.PORT}/realms/${config.REALM}`,
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
  }));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
