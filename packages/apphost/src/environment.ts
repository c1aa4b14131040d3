// What each process of `npm start` is told: the shared addresses and secrets, and which engines it uses — the
// embedded ones, or the real ones (Keycloak, an S3 server, Elasticsearch) that the configuration names.
import { type CallerKeys, callersOf, SERVICE_CALLS } from '@rotunda/service-kit';
import type { ApphostConfig, Replica, ServiceName } from './config.ts';

export interface Embedded {
  /** Each service's own role (url) and its schema owner's, which migrates it (migrationUrl): ADR 0039. */
  databases: Record<ServiceName, { url: string; migrationUrl: string }>;
  /** The gateway's pair: it signs the member each call is made for. */
  callerKeys: CallerKeys;
  /** Each service's own pair: it names itself to the services it calls, which trust its public half. */
  serviceKeys: Record<ServiceName, CallerKeys>;
  /** Signs captcha challenges: one per run, so a challenge one auth replica made is checked by any other. */
  captchaKey: string;
  /** The embedded S3 endpoint, when no real S3 server is configured. */
  s3?: { endpoint: string; accessKey: string; secretKey: string; bucket: string };
  /** Every service's replicas with their ports (replicaLayout). */
  replicas: Record<ServiceName, Replica[]>;
}

export interface ChildEnvironments {
  /** Each service's environment, one per replica. */
  services: Record<ServiceName, Record<string, string>[]>;
  gateway: Record<string, string>;
}

/** The S3 server every process reads and writes images through: the configured one, else the embedded one. */
function objectStore(config: ApphostConfig, embedded: Embedded): Record<string, string> {
  if (config.S3_ENDPOINT)
    return {
      S3_ENDPOINT: config.S3_ENDPOINT,
      S3_ACCESS_KEY: config.S3_ACCESS_KEY ?? '',
      S3_SECRET_KEY: config.S3_SECRET_KEY ?? '',
    };
  if (!embedded.s3) throw new Error('no S3 server: neither S3_ENDPOINT nor the embedded one');
  return {
    S3_ENDPOINT: embedded.s3.endpoint,
    S3_ACCESS_KEY: embedded.s3.accessKey,
    S3_SECRET_KEY: embedded.s3.secretKey,
    S3_BUCKET: embedded.s3.bucket,
  };
}

export function childEnvironments(config: ApphostConfig, embedded: Embedded): ChildEnvironments {
  const keycloak = config.IDENTITY_PROVIDER === 'keycloak';
  // The built-in provider's issuer is the realm URL the gateway serves; Keycloak's is its own realm URL.
  const issuer = keycloak
    ? (config.TOKEN_ISSUER ?? '')
    : `http://localhost:${config.PORT}/realms/${config.KEYCLOAK_REALM}`;
  const store = objectStore(config, embedded);
  const search: Record<string, string> = config.ELASTICSEARCH_URL
    ? { ELASTICSEARCH_URL: config.ELASTICSEARCH_URL }
    : {};
  // Every process finds every service here, every replica of it (the clients balance over the list): the
  // gateway calls all six, and services call each other for the names they keep read copies of and for their
  // demo seeds.
  const serviceAddresses = Object.fromEntries(
    Object.entries(embedded.replicas).map(([name, replicas]) => [
      `${name.toUpperCase()}_SERVICE_ADDR`,
      replicas.map((replica) => `127.0.0.1:${replica.grpcPort}`).join(','),
    ]),
  );
  const shared: Record<string, string> = {
    CALLER_TOKEN_PUBLIC_KEY: embedded.callerKeys.publicKey,
    DATABASE_POOL_SIZE: String(config.DATABASE_POOL_SIZE),
    DATABASE_READ_POOL_SIZE: String(config.DATABASE_READ_POOL_SIZE),
    ...serviceAddresses,
    SEED_DEMO: String(config.SEED_DEMO),
    LOG_LEVEL: config.LOG_LEVEL,
    TOKEN_ISSUER: issuer,
    SMTP_URL: `smtp://127.0.0.1:${config.MAILDEV_SMTP_PORT}`,
    ...store,
    ...search,
  };
  const identity: Record<string, string> = keycloak
    ? {
        IDENTITY_PROVIDER: 'keycloak',
        CAPTCHA_HMAC_KEY: embedded.captchaKey,
        KEYCLOAK_URL: config.KEYCLOAK_URL ?? '',
        KEYCLOAK_REALM: config.KEYCLOAK_REALM,
        KEYCLOAK_CLIENT_ID: config.KEYCLOAK_CLIENT_ID,
        KEYCLOAK_CLIENT_SECRET: config.KEYCLOAK_CLIENT_SECRET ?? '',
      }
    : { IDENTITY_PROVIDER: 'builtin', CAPTCHA_HMAC_KEY: embedded.captchaKey };
  /** A service's database roles, its own key when it calls others, and the keys of those that call it. */
  const own = (name: ServiceName): Record<string, string> => ({
    DATABASE_URL: embedded.databases[name].url,
    MIGRATION_DATABASE_URL: embedded.databases[name].migrationUrl,
    ...(SERVICE_CALLS[name].length > 0
      ? { SERVICE_TOKEN_PRIVATE_KEY: embedded.serviceKeys[name].privateKey }
      : {}),
    SERVICE_TOKEN_PUBLIC_KEYS: callersOf(name)
      .map((caller) => `${caller}:${embedded.serviceKeys[caller as ServiceName].publicKey}`)
      .join(','),
  });
  const services = Object.fromEntries(
    (Object.entries(embedded.replicas) as [ServiceName, Replica[]][]).map(([name, replicas]) => [
      name,
      replicas.map(
        (replica): Record<string, string> => ({
          ...shared,
          ...own(name),
          ...(name === 'auth' ? identity : {}),
          // The notification service's mails link to the app and its one-click unsubscribe.
          ...(name === 'notification' ? { PUBLIC_URL: `http://localhost:${config.PORT}` } : {}),
          GRPC_PORT: String(replica.grpcPort),
          METRICS_PORT: String(replica.metricsPort),
        }),
      ),
    ]),
  ) as Record<ServiceName, Record<string, string>[]>;
  const gateway = {
    PORT: String(config.PORT),
    // With several workers, the first's; each further worker takes the next port (gateway/src/main.ts).
    METRICS_PORT: String(config.METRICS_PORT_BASE),
    GATEWAY_WORKERS: String(config.GATEWAY_WORKERS),
    LOG_LEVEL: config.LOG_LEVEL,
    CALLER_TOKEN_PRIVATE_KEY: embedded.callerKeys.privateKey,
    TOKEN_ISSUER: issuer,
    REALM: config.KEYCLOAK_REALM,
    SERVE_WEB: String(config.SERVE_WEB),
    ...store,
    ...serviceAddresses,
    // With Keycloak, members' tokens are issued to the auth service's client, which signs them in.
    ...(keycloak
      ? { JWKS_URL: config.JWKS_URL ?? '', TOKEN_CLIENT_IDS: `rotunda-web,${config.KEYCLOAK_CLIENT_ID}` }
      : {}),
  };
  return { services, gateway };
}

/** One line per engine: which one runs, real or embedded. */
export function engineLines(config: ApphostConfig): string[] {
  return [
    config.IDENTITY_PROVIDER === 'keycloak'
      ? `Identity     Keycloak ${config.KEYCLOAK_URL} (realm ${config.KEYCLOAK_REALM})`
      : 'Identity     built-in (the auth service)',
    config.S3_ENDPOINT ? `S3           ${config.S3_ENDPOINT}` : `S3           embedded on :${config.S3_PORT}`,
    config.ELASTICSEARCH_URL
      ? `Search       Elasticsearch ${config.ELASTICSEARCH_URL}`
      : 'Search       PostgreSQL (each service’s index)',
  ];
}
