// What `npm start` tells each process: on the embedded engines, the built-in identity provider, the embedded S3
// endpoint and PostgreSQL search; on the real engines (`npm run engines`' environment), Keycloak for the auth
// service and the gateway, the S3 server and Elasticsearch for every process; an incomplete engine environment
// is refused before anything starts.
import { describe, expect, it } from 'vitest';
import { apphostConfigSchema, SERVICES, servicePorts } from '../src/config.ts';
import { childEnvironments, engineLines } from '../src/environment.ts';

const embedded = {
  databaseUrl: 'postgres://rotunda:rotunda@127.0.0.1:54329/rotunda',
  callerKeys: { publicKey: 'public', privateKey: 'private' },
  s3: {
    endpoint: 'http://127.0.0.1:9000',
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: 'rotunda-media',
  },
  ports: servicePorts(50051),
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
  it('uses the built-in provider, the embedded S3 endpoint and PostgreSQL search by default', () => {
    const config = apphostConfigSchema.parse({ PORT: '8190' });
    const { services, gateway } = childEnvironments(config, embedded);
    for (const name of SERVICES) {
      expect(services[name]).toMatchObject({
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY: 'S3RVER',
        TOKEN_ISSUER: 'http://localhost:8190/realms/rotunda',
      });
      expect(services[name]).not.toHaveProperty('ELASTICSEARCH_URL');
      expect(services[name]).not.toHaveProperty('KEYCLOAK_URL');
    }
    expect(services.auth.IDENTITY_PROVIDER).toBe('builtin');
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
      expect(services[name]).toMatchObject({
        S3_ENDPOINT: 'http://127.0.0.1:7105',
        S3_ACCESS_KEY: 'access',
        S3_SECRET_KEY: 'secret',
        ELASTICSEARCH_URL: 'http://127.0.0.1:7102',
      });
    expect(services.auth).toMatchObject({
      IDENTITY_PROVIDER: 'keycloak',
      KEYCLOAK_URL: 'http://127.0.0.1:7100',
      KEYCLOAK_REALM: 'rotunda',
      KEYCLOAK_CLIENT_ID: 'rotunda-auth',
      KEYCLOAK_CLIENT_SECRET: 'client-secret',
      TOKEN_ISSUER: 'http://127.0.0.1:7100/realms/rotunda',
    });
    // Only the auth service talks to Keycloak.
    expect(services.post).not.toHaveProperty('KEYCLOAK_CLIENT_SECRET');
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
