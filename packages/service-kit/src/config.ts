// Validated configuration: every process reads its environment once, through a zod schema, and fails fast
// with a message that names each bad variable.
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { addressProblem } from './grpc/addresses.ts';
import { callerPrivateKeyOf, callerPublicKeyOf } from './grpc/caller-token.ts';
import { serviceRoleNames } from './postgres/roles.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
    return `  ${variable}: ${issue.message}${value === undefined ? '' : ` (got "${value}")`}`;
  });
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** Environment booleans: "true"/"1"/"yes" and "false"/"0"/"no", case-insensitive. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return defaultValue;
      if (['true', '1', 'yes'].includes(value)) return true;
      if (['false', '0', 'no'].includes(value)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

/** A TCP port, 1–65535 (0 is allowed where the OS may pick one). */
export const envPort = (defaultValue: number) =>
  z.coerce.number().int().min(0).max(65535).default(defaultValue);

/** A TCP port that may be left unset (or empty): then what it would open stays closed. */
export const envOptionalPort = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? Number(value) : undefined))
    .pipe(z.number({ error: 'must be a port number' }).int().min(0).max(65535).optional());

/**
 * Where another service answers: `host:port`, its replicas as a comma-separated list of `address:port`, or a
 * `dns:///name:port` whose every address is a replica (grpc/clients.ts).
 */
export const envAddress = (defaultValue: string) =>
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = addressProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default(defaultValue);

/** A positive whole number, e.g. a timeout in milliseconds. */
export const envPositiveInt = (defaultValue: number) =>
  z.coerce.number().int().positive().default(defaultValue);

/** A comma-separated list, blanks dropped. */
export const envList = () =>
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

/** A key given as base64 DER, parsed at start-up so a bad one stops the process with a reason. */
const envKey = (parse: (base64: string) => KeyObject, what: string) =>
  z
    .string({ error: `is required: ${what}` })
    .trim()
    .min(1, `is required: ${what}`)
    .transform((value, ctx) => {
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `must be ${what} (${(error as Error).message})` });
        return z.NEVER;
      }
    });

/** The gateway's key for signing caller tokens (Ed25519, PKCS#8 DER in base64). */
export const envCallerPrivateKey = () =>
  envKey(callerPrivateKeyOf, 'an Ed25519 private key, PKCS#8 DER in base64');

/** A service's own key for naming itself to the services it calls; unset: its calls name no caller. */
export const envServicePrivateKey = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(envCallerPrivateKey().optional());

/**
 * The services allowed to call this one as themselves: `name:key` pairs, comma-separated, each key an Ed25519
 * public key (SPKI DER in base64); a name may be listed twice while its key is rolled.
 */
export const envServiceCallerKeys = () =>
  envList().transform((entries, ctx) => {
    const keys: Record<string, KeyObject[]> = {};
    for (const entry of entries) {
      const [name, key] = entry.split(':', 2);
      if (!name || !/^[a-z]+$/.test(name) || !key) {
        ctx.addIssue({ code: 'custom', message: `must list service:key pairs (got an entry "${name}…")` });
        return z.NEVER;
      }
      try {
        keys[name] = [...(keys[name] ?? []), callerPublicKeyOf(key)];
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: `${name}'s key must be an Ed25519 public key, SPKI DER in base64 (${(error as Error).message})`,
        });
        return z.NEVER;
      }
    }
    return keys;
  });

/** The keys services accept caller tokens from: comma-separated Ed25519 public keys, SPKI DER in base64. */
export const envCallerPublicKeys = () =>
  envList().pipe(
    z
      .array(envKey(callerPublicKeyOf, 'an Ed25519 public key, SPKI DER in base64'))
      .min(1, 'is required: the gateway’s Ed25519 public key(s), SPKI DER in base64, comma-separated'),
  );

export const logLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');

/** A PostgreSQL connection URL (postgresql:// or postgres://). */
export const envPostgresUrl = () =>
  z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgresql:// URL');

/**
 * `npm start`'s embedded PostgreSQL as `role` (postgres/roles.ts makes each service's two roles there, their
 * passwords their names: it listens on loopback only, and its data folder is readable to whoever could use them).
 */
export const embeddedDatabaseUrl = (role: string) => `postgresql://${role}:${role}@127.0.0.1:54329/rotunda`;

/** The settings every gRPC service shares (eShop's "service defaults"). */
export const serviceDefaults = {
  GRPC_HOST: z.string().default('127.0.0.1'),
  /** The service's own role: reads and writes in its own schema, nothing else (ADR 0039). */
  DATABASE_URL: envPostgresUrl().default(embeddedDatabaseUrl('rotunda')),
  /**
   * Connections in the pool of a service's Prisma Client (its writes and ordinary reads). Prisma's own default is
   * 10; every replica holds up to this many, so it is one of the terms of the connection budget
   * (docs/production.md, "Connection budget"; packages/deploy-checks/src/connection-budget.ts).
   */
  DATABASE_POOL_SIZE: envPositiveInt(10),
  /**
   * Connections in each pool of a service's hot reads (its search index and its page reads). Postgres does best
   * with about as many queries running as it has cores: on one machine, where every service shares Postgres'
   * cores, the apphost sets the cores plus one, which served more pages than either fewer or many more (ADR 0033).
   */
  DATABASE_READ_POOL_SIZE: envPositiveInt(10),
  MIGRATE_ON_START: envBoolean(true),
  SEED_DEMO: envBoolean(true),
  LOG_LEVEL: logLevel,
};

/**
 * What a service's gRPC server needs beyond its defaults (its tools — seeds, reindex, admin — need not have it):
 * whose caller tokens it believes, the gateway's public key (keys, while a new one is rolled out) and the keys of
 * the services that call it, its own key for the calls it makes, and where its metrics are served.
 */
export const serverConfigSchema = z.object({
  CALLER_TOKEN_PUBLIC_KEY: envCallerPublicKeys(),
  SERVICE_TOKEN_PRIVATE_KEY: envServicePrivateKey(),
  SERVICE_TOKEN_PUBLIC_KEYS: envServiceCallerKeys(),
  /** Where Prometheus text is served at /metrics (on GRPC_HOST); unset: no metrics listener. */
  METRICS_PORT: envOptionalPort(),
});

/** loadConfig for a process's composition root: prints the problems and exits instead of a stack trace. */
export function loadConfigOrExit<Schema extends z.ZodType>(
  schema: Schema,
  processName: string,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${processName}: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}

/**
 * A service's configuration: the defaults every service shares, its gRPC port and its own schema, reached as its
 * own role (DATABASE_URL, by default the one `npm start` makes: postgres/roles.ts) and migrated as the schema's
 * owner (MIGRATION_DATABASE_URL).
 */
export const serviceConfigSchema = (name: string, grpcPort: number) =>
  z.object({
    ...serviceDefaults,
    DATABASE_URL: envPostgresUrl().default(embeddedDatabaseUrl(serviceRoleNames(name).app)),
    /** Unset: migrations run as DATABASE_URL's role (a test's own database, a single-role install). */
    MIGRATION_DATABASE_URL: envPostgresUrl().optional(),
    GRPC_PORT: envPort(grpcPort),
    DATABASE_SCHEMA: z.string().default(name),
  });

export type ServiceConfig = z.infer<ReturnType<typeof serviceConfigSchema>>;
