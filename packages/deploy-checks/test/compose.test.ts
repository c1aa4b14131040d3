// docker-compose.yml, the production-like stack: it parses, builds every image from its Dockerfile or pins an
// official engine image, starts in health-checked order, and gives each process an environment its own
// configuration schema accepts, wired to the real adapters (Keycloak, Elasticsearch, MinIO).
import { existsSync } from 'node:fs';
import { testCallers } from '@rotunda/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  DEPLOYABLES,
  deployable,
  grpcPortOf,
  imageProblem,
  readRepoFile,
  repoPath,
  SERVICE_SCHEMAS,
  schemaKeys,
} from './support/repo.ts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  command?: unknown;
  entrypoint?: unknown;
}

/** What `docker compose` makes of ${VAR}, ${VAR:-default} and ${VAR:?error} (and $$), for the given shell. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?::([-?])([^}]*))?\}/g, (match, name, operator, operand) => {
    if (match === '$$') return '$';
    const given = shell[name];
    if (given) return given;
    if (operator === '?') throw new Error(`${name} must be set: ${operand}`);
    return operator === '-' ? operand : '';
  });
}

const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
/** What a person puts in .env before `docker compose up` (README). */
const SHELL = {
  ROTUNDA_AUTH_CLIENT_SECRET: 'compose-test-client-secret',
  CALLER_TOKEN_PRIVATE_KEY: testCallers.keys.privateKey,
  CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.publicKey,
};
const environmentOf = (name: string) =>
  Object.fromEntries(
    Object.entries(services[name]?.environment ?? {}).map(([key, value]) => [
      key,
      interpolate(String(value), SHELL),
    ]),
  );

describe('docker-compose.yml', () => {
  it('builds every deployable from its Dockerfile, with the repository root as context', () => {
    for (const target of DEPLOYABLES) {
      const service = services[target.name];
      expect(service?.build, target.name).toEqual({ context: '.', dockerfile: `${target.dir}/Dockerfile` });
      expect(service?.image).toBe(`rotunda/${target.name}:local`);
      expect(existsSync(repoPath(target.dir, 'Dockerfile'))).toBe(true);
    }
  });

  it('runs only images built here or pinned official engine images', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, `${name} names its image`).toBeDefined();
      expect(imageProblem(service.image ?? '')).toBeNull();
    }
  });

  it('refuses to start without the Keycloak client secret, and gives Keycloak and the auth service the same one', () => {
    const unset = () => interpolate(services.auth?.environment?.KEYCLOAK_CLIENT_SECRET ?? '', {});
    expect(unset).toThrow(/ROTUNDA_AUTH_CLIENT_SECRET must be set/);
    expect(environmentOf('auth').KEYCLOAK_CLIENT_SECRET).toBe(SHELL.ROTUNDA_AUTH_CLIENT_SECRET);
    expect(environmentOf('keycloak').ROTUNDA_AUTH_CLIENT_SECRET).toBe(SHELL.ROTUNDA_AUTH_CLIENT_SECRET);
  });

  it('gives every process an environment its own configuration schema accepts, and no unknown variable', () => {
    for (const target of DEPLOYABLES.filter((d) => d.schema)) {
      const env = environmentOf(target.name);
      const result = target.schema?.safeParse(env);
      expect(result?.error?.issues ?? [], target.name).toEqual([]);
      const known = target.schema ? schemaKeys(target.schema) : [];
      for (const key of Object.keys(env)) expect(known, `${target.name}: ${key}`).toContain(key);
    }
  });

  it('wires the production adapters: Keycloak identity, Elasticsearch search, MinIO images', () => {
    expect(environmentOf('auth').IDENTITY_PROVIDER).toBe('keycloak');
    expect(environmentOf('auth').KEYCLOAK_URL).toBe('http://keycloak:8080');
    expect(environmentOf('gateway').JWKS_URL).toBe(
      `${environmentOf('gateway').TOKEN_ISSUER}/protocol/openid-connect/certs`,
    );
    for (const name of ['org', 'profile', 'post'])
      expect(environmentOf(name).ELASTICSEARCH_URL, name).toBe('http://elasticsearch:9200');
    for (const name of ['gateway', 'org', 'profile']) {
      expect(environmentOf(name).S3_ENDPOINT, name).toBe('http://minio:9000');
      expect(environmentOf(name).S3_SECRET_KEY).toBe(environmentOf('minio').MINIO_ROOT_PASSWORD);
    }
    expect(String(services['minio-setup']?.entrypoint)).toContain(
      `mc mb --ignore-existing local/${environmentOf('org').S3_BUCKET}`,
    );
  });

  it("points every service address at the service's own port, and starts callers after what they call", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(environmentOf(name))) {
        if (!key.endsWith('_SERVICE_ADDR')) continue;
        const [host, port] = value.split(':');
        const target = host as keyof typeof SERVICE_SCHEMAS;
        expect(Object.keys(SERVICE_SCHEMAS), `${name}: ${key}`).toContain(target);
        expect(Number(port), `${name}: ${key}`).toBe(grpcPortOf(target));
        expect(service.depends_on?.[target]?.condition, `${name} waits for ${target}`).toBe(
          'service_healthy',
        );
      }
    }
  });

  it('starts in health-checked order: every dependency is healthy, or a one-shot that finished', () => {
    const healthChecked = (name: string) => {
      if (services[name]?.healthcheck) return true;
      const own = deployable(name);
      return own !== undefined && /^HEALTHCHECK /m.test(readRepoFile(own.dir, 'Dockerfile'));
    };
    for (const [name, service] of Object.entries(services))
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        expect(condition, `${name} → ${dependency}`).toBe(
          healthChecked(dependency) ? 'service_healthy' : 'service_completed_successfully',
        );
      }
    expect(Object.keys(services.edge?.depends_on ?? {}).sort()).toEqual(
      DEPLOYABLES.filter((d) => d.kind !== 'service')
        .map((d) => d.name)
        .sort(),
    );
  });

  it('migrates and seeds each schema from its own service (one replica each)', () => {
    for (const name of Object.keys(SERVICE_SCHEMAS)) {
      expect(environmentOf(name).MIGRATE_ON_START, name).toBe('true');
      expect(environmentOf(name).SEED_DEMO, name).toBe('true');
    }
  });
});
