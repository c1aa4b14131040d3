// The gateway's configuration, validated at start-up.
import { isIP } from 'node:net';
import { objectStoreConfigSchema } from '@rotunda/images';
import {
  envAddress,
  envBoolean,
  envCallerPrivateKey,
  envList,
  envOptionalPort,
  envPort,
  envPositiveInt,
  logLevel,
} from '@rotunda/service-kit';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional());

/** The named ranges Express' `trust proxy` knows (proxy-addr). */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR range (IPv4 /0–32, IPv6 /0–128) or a named range; false when it is none of these. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which peers' X-Forwarded-For and X-Forwarded-Proto the gateway believes (Express' `trust proxy`): a number of
 * proxy hops in front of it (0: none), or a comma-separated list of addresses, CIDR ranges and the names
 * loopback, linklocal, uniquelocal. `true` (every peer) is refused: any client could then pick the address its
 * login attempts are counted under.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((given, ctx): number | string[] => {
    const value = given?.trim() || 'loopback';
    if (/^\d+$/.test(value)) return Number(value);
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'cannot be true (every peer): any client could choose its own address; name the proxies or their hop count',
      });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isProxyAddress(entry));
    if (wrong.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a hop count (e.g. 1) or a comma-separated list of addresses, CIDR ranges, loopback, ' +
          `linklocal or uniquelocal (not ${wrong.map((entry) => JSON.stringify(entry)).join(', ')})`,
      });
      return z.NEVER;
    }
    return entries;
  });

export const gatewayConfigSchema = z
  .object({
    PORT: envPort(8080),
    HOST: z.string().default('127.0.0.1'),
    /** Where Prometheus text is served at /metrics (on HOST); unset: no metrics listener. */
    METRICS_PORT: envOptionalPort(),
    /**
     * The proxies in front (nginx, the Ingress controller) whose X-Forwarded-For names the client (the address
     * login and reset attempts are limited by).
     */
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: logLevel,
    AUTH_SERVICE_ADDR: envAddress('127.0.0.1:50051'),
    PROFILE_SERVICE_ADDR: envAddress('127.0.0.1:50052'),
    ORG_SERVICE_ADDR: envAddress('127.0.0.1:50053'),
    POST_SERVICE_ADDR: envAddress('127.0.0.1:50054'),
    NEWS_SERVICE_ADDR: envAddress('127.0.0.1:50055'),
    NOTIFICATION_SERVICE_ADDR: envAddress('127.0.0.1:50056'),
    /** Signs the caller tokens services verify (their CALLER_TOKEN_PUBLIC_KEY is its public half). */
    CALLER_TOKEN_PRIVATE_KEY: envCallerPrivateKey(),
    /** Deadline for one gRPC call; past it the caller gets 504, never a hang. */
    GRPC_DEADLINE_MS: envPositiveInt(3000),
    /**
     * Deadline of the calls that wait on Keycloak hashing a password (login, registration, password reset and
     * change): a deliberately slow hash that takes seconds on a loaded identity server, worth waiting for rather
     * than answering "try again". The auth service gives a sign-in up well within it (SIGN_IN_TIMEOUT_MS).
     */
    PASSWORD_DEADLINE_MS: envPositiveInt(10_000),
    /**
     * How often the gateway asks the auth service which sessions ended (logout, password change): the longest
     * an ended session's access token still works here.
     */
    ENDED_SESSIONS_POLL_MS: envPositiveInt(1000),
    /** How long public reads (headlines) may be served from the gateway's memory. */
    PUBLIC_CACHE_SECONDS: z.coerce.number().int().min(0).default(10),
    /**
     * How long a directory search page may be shared from the gateway's memory (every member gets the same
     * answer to the same query; ADR 0013); 0 turns it off.
     */
    DIRECTORY_CACHE_SECONDS: z.coerce.number().int().min(0).default(2),
    /**
     * How long a client may take to send a whole request, headers and body; past it the gateway answers 408 and
     * closes the connection (Node's own 300 s let a stalled body hold its connection and memory for 5 minutes).
     * Answers are not bounded by it: an export or a slow service answer takes as long as it takes.
     */
    REQUEST_TIMEOUT_MS: envPositiveInt(30_000),
    /** Image uploads (logos, pictures) read and handled at once by one gateway process; more answer 503. */
    UPLOADS_AT_ONCE: envPositiveInt(8),
    /** Image uploads one member may have under way at once in one gateway process; more answer 429. */
    UPLOADS_AT_ONCE_PER_MEMBER: envPositiveInt(2),
    /**
     * Live unread-count streams (GET /api/notifications/stream) one gateway process holds at once; more answer 503
     * with Retry-After, and the browser tries again (each member may hold NOTIFICATION_STREAMS_PER_MEMBER).
     */
    NOTIFICATION_STREAMS_AT_ONCE: envPositiveInt(10_000),
    /** Serve the shell and the micro-frontends' builds (the one-machine default; nginx does it in production). */
    SERVE_WEB: envBoolean(true),
    /** Folder holding the shell and micro-frontend folders with their dist builds. */
    WEB_ROOT: z.string().default(new URL('../..', import.meta.url).pathname),
    /** JSON file mapping remote names to their manifest URLs; default: each remote under /mf/<name>/. */
    REMOTES_CONFIG: z.string().optional(),
    /**
     * Without SERVE_WEB: the shell's index.html and mf-feed's mf-manifest.json on their own servers (nginx), which
     * the gateway fills to draw the public square and each post address (ADR 0053); unset, nginx must not send
     * those paths here.
     */
    SHELL_PAGE_URL: optionalUrl,
    FEED_MANIFEST_URL: optionalUrl,
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
    /**
     * The clients whose access tokens open the API (their `azp`), comma-separated. Default: the web client. With
     * Keycloak, also the auth service's client, which signs members in (`rotunda-web,rotunda-auth`).
     */
    TOKEN_CLIENT_IDS: envList(),
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
    TOKEN_CLIENT_IDS: config.TOKEN_CLIENT_IDS.length > 0 ? config.TOKEN_CLIENT_IDS : [config.WEB_CLIENT_ID],
  }));

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
