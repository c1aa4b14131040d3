// What `npm start` tells each process: on the embedded engines, the built-in identity provider, the embedded S3
// endpoint and PostgreSQL search; on the real engines (`npm run engines`' environment), Keycloak for the auth
// service and the gateway, the S3 server and Elasticsearch for every process; an incomplete engine environment
// is refused before anything starts. With --replicas N, every process is told every replica of every service, and
// each replica its own gRPC and metrics port.
import { describe, expect, it } from 'vitest';
import {
  apphostConfigSchema,
  gatewayMetricsPorts,
  postgresMaxConnections,
  replicaLayout,
  SERVICES,
} from '../src/config.ts';
import { childEnvironments, engineLines } from '../src/environment.ts';

const embedded = {
  databases: Object.fromEntries(
    SERVICES.map((name) => [
      name,
      {
        url: `postgres://${name}:${name}@127.0.0.1:54329/rotunda`,
        migrationUrl: `postgres://${name}_owner:${name}_owner@127.0.0.1:54329/rotunda`,
      },
    ]),
  ) as Record<(typeof SERVICES)[number], { url: string; migrationUrl: string }>,
  callerKeys: { publicKey: 'public', privateKey: 'private' },
  serviceKeys: Object.fromEntries(
    SERVICES.map((name) => [name, { publicKey: `${name}-public`, privateKey: `${name}-private` }]),
  ) as Record<(typeof SERVICES)[number], { publicKey: string; privateKey: string }>,
  captchaKey: 'one-captcha-key-for-every-auth-replica',
  s3: {
    endpoint: 'http://127.0.0.1:9000',
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: 'rotunda-media',
  },
  replicas: replicaLayout(apphostConfigSchema.parse({})),
};

const engines = {
  IDENTITY_PROVIDER: 'keycloak',
  KEYCLOAK_URL: 'http://127.0.0.1:7100',
  KEYCLOAK_REALM: 'rotunda',
  KEYCLOAK_CLIENT_ID: 'rotunda-auth',
  KEYCLOAK_CLIENT_SECRET: 'client-secret',
  JWKS_URL: 'http://127.0.0.1:7100/realms/rotunda/protocol/openid-connect/certs',
  TOKEN_ISSUER: 'http://127.0.0.1:7100/realms/rotunda',
  ELASTICSEARCH_URL: 'http://127.0.0.1:7102',
  S3_ENDPOINT: 'http://127.0.0.1:7105',
  S3_ACCESS_KEY: 'access',
  S3_SECRET_KEY: 'secret',
};

describe('each process of npm start', () => {
  it("runs each service as its own database role, migrating as its schema's owner, and names it to others", () => {
    const { services, gateway } = childEnvironments(apphostConfigSchema.parse({}), embedded);
    for (const name of SERVICES)
      expect(services[name][0]).toMatchObject({
        DATABASE_URL: `postgres://${name}:${name}@127.0.0.1:54329/rotunda`,
        MIGRATION_DATABASE_URL: `postgres://${name}_owner:${name}_owner@127.0.0.1:54329/rotunda`,
      });
    expect(gateway).not.toHaveProperty('DATABASE_URL');
    // profile, post and notification call others as themselves; auth, org and news call nobody.
    expect(services.profile[0]?.SERVICE_TOKEN_PRIVATE_KEY).toBe('profile-private');
    expect(services.post[0]?.SERVICE_TOKEN_PRIVATE_KEY).toBe('post-private');
    expect(services.notification[0]?.SERVICE_TOKEN_PRIVATE_KEY).toBe('notification-private');
    for (const name of ['auth', 'org', 'news'] as const)
      expect(services[name][0]).not.toHaveProperty('SERVICE_TOKEN_PRIVATE_KEY');
    // Each trusts exactly the services that call it, each for its own name.
    expect(services.auth[0]?.SERVICE_TOKEN_PUBLIC_KEYS).toBe(
      'profile:profile-public,notification:notification-public',
    );
    expect(services.org[0]?.SERVICE_TOKEN_PUBLIC_KEYS).toBe('profile:profile-public,post:post-public');
    expect(services.profile[0]?.SERVICE_TOKEN_PUBLIC_KEYS).toBe(
      'post:post-public,notification:notification-public',
    );
    expect(services.notification[0]?.SERVICE_TOKEN_PUBLIC_KEYS).toBe('');
    // Its mails link to the app as npm start serves it.
    expect(services.notification[0]?.PUBLIC_URL).toBe('http://localhost:8080');
    expect(services.news[0]?.SERVICE_TOKEN_PUBLIC_KEYS).toBe('');
  });

  it('uses the built-in provider, the embedded S3 endpoint and PostgreSQL search by default', () => {
    const config = apphostConfigSchema.parse({ PORT: '8190' });
    const { services, gateway } = childEnvironments(config, embedded);
    for (const name of SERVICES) {
      expect(services[name]).toHaveLength(1);
      expect(services[name][0]).toMatchObject({
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY: 'S3RVER',
        TOKEN_ISSUER: 'http://localhost:8190/realms/rotunda',
      });
      expect(services[name][0]).not.toHaveProperty('ELASTICSEARCH_URL');
      expect(services[name][0]).not.toHaveProperty('KEYCLOAK_URL');
    }
    expect(services.auth[0]?.IDENTITY_PROVIDER).toBe('builtin');
    expect(gateway).toMatchObject({
      PORT: '8190',
      TOKEN_ISSUER: 'http://localhost:8190/realms/rotunda',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(gateway).not.toHaveProperty('JWKS_URL');
    expect(gateway).not.toHaveProperty('TOKEN_CLIENT_IDS');
    expect(engineLines(config)).toEqual([
      'Identity     built-in (the auth service)',
      'S3           embedded on :9000',
      'Search       PostgreSQL (each service’s index)',
    ]);
  });

  it('uses Keycloak, the S3 server and Elasticsearch that the engines’ environment names', () => {
    const config = apphostConfigSchema.parse({ PORT: '8190', ...engines });
    const { services, gateway } = childEnvironments(config, { ...embedded, s3: undefined });
    for (const name of SERVICES)
      expect(services[name][0]).toMatchObject({
        S3_ENDPOINT: 'http://127.0.0.1:7105',
        S3_ACCESS_KEY: 'access',
        S3_SECRET_KEY: 'secret',
        ELASTICSEARCH_URL: 'http://127.0.0.1:7102',
      });
    expect(services.auth[0]).toMatchObject({
      IDENTITY_PROVIDER: 'keycloak',
      KEYCLOAK_URL: 'http://127.0.0.1:7100',
      KEYCLOAK_REALM: 'rotunda',
      KEYCLOAK_CLIENT_ID: 'rotunda-auth',
      KEYCLOAK_CLIENT_SECRET: 'client-secret',
      TOKEN_ISSUER: 'http://127.0.0.1:7100/realms/rotunda',
    });
    // Only the auth service talks to Keycloak.
    expect(services.post[0]).not.toHaveProperty('KEYCLOAK_CLIENT_SECRET');
    expect(gateway).toMatchObject({
      JWKS_URL: 'http://127.0.0.1:7100/realms/rotunda/protocol/openid-connect/certs',
      TOKEN_ISSUER: 'http://127.0.0.1:7100/realms/rotunda',
      TOKEN_CLIENT_IDS: 'rotunda-web,rotunda-auth',
      S3_ENDPOINT: 'http://127.0.0.1:7105',
    });
    expect(gateway).not.toHaveProperty('KEYCLOAK_CLIENT_SECRET');
    expect(engineLines(config)).toEqual([
      'Identity     Keycloak http://127.0.0.1:7100 (realm rotunda)',
      'S3           http://127.0.0.1:7105',
      'Search       Elasticsearch http://127.0.0.1:7102',
    ]);
  });

  it('refuses Keycloak mode without its realm, keys and issuer, and an S3 server without its keys', () => {
    const keycloakOnly = apphostConfigSchema.safeParse({ IDENTITY_PROVIDER: 'keycloak' });
    expect(keycloakOnly.success).toBe(false);
    expect(keycloakOnly.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'JWKS_URL',
      'KEYCLOAK_CLIENT_SECRET',
      'KEYCLOAK_URL',
      'TOKEN_ISSUER',
    ]);
    const s3Only = apphostConfigSchema.safeParse({ S3_ENDPOINT: 'http://127.0.0.1:7105' });
    expect(s3Only.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
    ]);
    expect(apphostConfigSchema.safeParse({ ELASTICSEARCH_URL: 'not a url' }).success).toBe(false);
  });
});

describe('npm start --replicas', () => {
  it('runs one process of each service on the default ports, a gateway without workers, metrics from 9464', () => {
    const config = apphostConfigSchema.parse({});
    expect(config).toMatchObject({ REPLICAS: 1, GATEWAY_WORKERS: 1, RESTART_DELAY_MS: 1000 });
    const { services, gateway } = childEnvironments(config, embedded);
    expect(services.profile).toEqual([expect.objectContaining({ GRPC_PORT: '20052', METRICS_PORT: '9475' })]);
    expect(gateway).toMatchObject({
      AUTH_SERVICE_ADDR: '127.0.0.1:20051',
      NEWS_SERVICE_ADDR: '127.0.0.1:20055',
      GATEWAY_WORKERS: '1',
      METRICS_PORT: '9464',
    });
    expect(replicaLayout(config).post).toEqual([{ name: 'post', grpcPort: 20054, metricsPort: 9477 }]);
  });

  it('with 2 replicas, tells every process every replica, and gives each its own gRPC and metrics port', () => {
    const config = apphostConfigSchema.parse({
      REPLICAS: '2',
      GRPC_PORT_BASE: '51500',
      METRICS_PORT_BASE: '52500',
    });
    const replicas = replicaLayout(config);
    const { services, gateway } = childEnvironments(config, { ...embedded, replicas });
    expect(replicas.profile).toEqual([
      { name: 'profile-1', grpcPort: 51501, metricsPort: 52511 },
      { name: 'profile-2', grpcPort: 51511, metricsPort: 52521 },
    ]);
    const addresses = {
      AUTH_SERVICE_ADDR: '127.0.0.1:51500,127.0.0.1:51510',
      PROFILE_SERVICE_ADDR: '127.0.0.1:51501,127.0.0.1:51511',
      ORG_SERVICE_ADDR: '127.0.0.1:51502,127.0.0.1:51512',
      POST_SERVICE_ADDR: '127.0.0.1:51503,127.0.0.1:51513',
      NEWS_SERVICE_ADDR: '127.0.0.1:51504,127.0.0.1:51514',
    };
    expect(gateway).toMatchObject({ ...addresses, GATEWAY_WORKERS: '2', METRICS_PORT: '52500' });
    for (const name of SERVICES) {
      expect(services[name]).toHaveLength(2);
      for (const env of services[name]) expect(env).toMatchObject(addresses);
    }
    // A challenge one auth replica made is checked by the other.
    expect(services.auth.map((env) => env.CAPTCHA_HMAC_KEY)).toEqual([
      embedded.captchaKey,
      embedded.captchaKey,
    ]);
    expect(services.post.map((env) => [env.GRPC_PORT, env.METRICS_PORT])).toEqual([
      ['51503', '52513'],
      ['51513', '52523'],
    ]);
    // No two processes share a port: twelve replicas' gRPC and metrics, and the gateway's two workers' metrics.
    const ports = [
      ...Object.values(replicas).flatMap((list) => list.flatMap((r) => [r.grpcPort, r.metricsPort])),
      ...gatewayMetricsPorts(config),
    ];
    expect(ports).toHaveLength(26);
    expect(new Set(ports).size).toBe(26);
  });

  it("starts PostgreSQL with room for every replica's full pools, past Postgres' default of 100", () => {
    const sized = (settings: Record<string, string>) =>
      postgresMaxConnections(apphostConfigSchema.parse({ DATABASE_READ_POOL_SIZE: '3', ...settings }));
    // One set of full pools with read pools of 3: auth 12, profile 23, org 19, post 22, news 11, notification 14
    // connections (the event consumers' two each, the outboxes' daily prune, the unread counts' listener).
    const set = 12 + 23 + 19 + 22 + 11 + 14;
    expect(sized({})).toBeGreaterThan(100);
    // Each replica more, and a restarted one wiring beside the one it replaces.
    expect(sized({ REPLICAS: '2' })).toBeGreaterThanOrEqual(3 * set);
    expect(sized({ REPLICAS: '2' }) - sized({})).toBeGreaterThanOrEqual(set);
    expect(sized({ REPLICAS: '2', DATABASE_POOL_SIZE: '20' })).toBe(sized({ REPLICAS: '2' }) + 3 * 6 * 10);
    expect(
      childEnvironments(apphostConfigSchema.parse({ DATABASE_POOL_SIZE: '20' }), embedded).services.org[0],
    ).toMatchObject({ DATABASE_POOL_SIZE: '20' });
  });

  it('takes GATEWAY_WORKERS and RESTART_DELAY_MS as given', () => {
    const config = apphostConfigSchema.parse({
      REPLICAS: '4',
      GATEWAY_WORKERS: '1',
      RESTART_DELAY_MS: '20000',
    });
    expect(config).toMatchObject({ REPLICAS: 4, GATEWAY_WORKERS: 1, RESTART_DELAY_MS: 20_000 });
    expect(replicaLayout(config).news.map((replica) => replica.grpcPort)).toEqual([
      20055, 20065, 20075, 20085,
    ]);
  });

  it('refuses a replica count outside 1 to 4, and gateway workers outside 1 to 8', () => {
    for (const REPLICAS of ['0', '5', 'two', '1.5']) {
      const result = apphostConfigSchema.safeParse({ REPLICAS });
      expect(result.success, REPLICAS).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be a whole number from 1 to 4');
    }
    for (const GATEWAY_WORKERS of ['0', '9'])
      expect(apphostConfigSchema.safeParse({ GATEWAY_WORKERS }).success, GATEWAY_WORKERS).toBe(false);
    expect(apphostConfigSchema.safeParse({ RESTART_DELAY_MS: '-1' }).success).toBe(false);
  });

  it('takes a heap ceiling of 64 to 16384 MiB, and none by default', () => {
    expect(apphostConfigSchema.parse({}).NODE_MAX_OLD_SPACE_MIB).toBeUndefined();
    expect(apphostConfigSchema.parse({ NODE_MAX_OLD_SPACE_MIB: '256' }).NODE_MAX_OLD_SPACE_MIB).toBe(256);
    for (const NODE_MAX_OLD_SPACE_MIB of ['32', '20000', 'half', '1.5']) {
      const result = apphostConfigSchema.safeParse({ NODE_MAX_OLD_SPACE_MIB });
      expect(result.success, NODE_MAX_OLD_SPACE_MIB).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must be a whole number of MiB from 64 to 16384');
    }
  });
});
