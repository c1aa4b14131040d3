// The scripts the images run besides the processes themselves, run as the container runs them: the gRPC health
// probe behind each service's HEALTHCHECK, and the migration step of the Kubernetes migrate Job, against a real
// gRPC server and a real PostgreSQL.
import { spawn } from 'node:child_process';
import { createLogger, listMigrations, probeGrpcHealth, startGrpcServer } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath, SERVICE_SCHEMAS } from './support/repo.ts';

const PROBE = repoPath('packages/service-kit/src/grpc/health-probe.ts');
const MIGRATE = repoPath('docker/migrate.ts');

/** Runs a script with only the given environment; asynchronously, as the gRPC server under test is in this process. */
function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('the gRPC health probe (HEALTHCHECK of every service image)', () => {
  let ready = true;
  let server: Awaited<ReturnType<typeof startGrpcServer>>;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [],
      logger: createLogger('probe-test', 'silent'),
      readiness: async () => ready,
      readinessIntervalMs: 50,
    });
  });
  afterAll(() => server.shutdown());

  it('exits 0 while the service reports SERVING, on the port GRPC_PORT names', async () => {
    const result = await run(PROBE, [], { GRPC_PORT: String(server.port) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('exits 1 and says why while the service reports NOT_SERVING', async () => {
    ready = false;
    await expect.poll(() => probeGrpcHealth(`127.0.0.1:${server.port}`)).toBe('NOT_SERVING');
    const result = await run(PROBE, [`127.0.0.1:${server.port}`], {});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NOT_SERVING');
    ready = true;
    await expect.poll(() => probeGrpcHealth(`127.0.0.1:${server.port}`)).toBe('SERVING');
  });

  it('exits 1 when nothing answers', async () => {
    const closed = await run(PROBE, ['127.0.0.1:1'], {});
    expect(closed.status).toBe(1);
    expect(closed.stderr).toContain('UNREACHABLE');
  });
});

describe('the migration step (the migrate Job, docker/migrate.ts)', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  it.each(Object.keys(SERVICE_SCHEMAS))(
    "applies every %s migration to the service's schema, recorded as Prisma does, and again applies none",
    async (service) => {
      const first = await run(MIGRATE, [service], { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      const expected = listMigrations(repoPath('services', service, 'prisma', 'migrations')).map(
        (m) => m.name,
      );
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ migration_name: string }>(
          `SELECT migration_name FROM "${service}"."_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY 1`,
        );
        expect(rows.map((row) => row.migration_name)).toEqual(expected);
      } finally {
        await client.end();
      }
      const again = await run(MIGRATE, [service], { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
      expect(again.status).toBe(0);
      expect(again.stdout).toContain('"applied":[]');
    },
  );

  it('refuses a service it does not know, and a database URL that is not one', async () => {
    const unknown = await run(MIGRATE, ['billing'], { DATABASE_URL: databaseUrl });
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toContain('usage: migrate.ts <auth|profile|org|post|news|notification>');
    const badUrl = await run(MIGRATE, ['news'], { DATABASE_URL: 'mysql://somewhere' });
    expect(badUrl.status).toBe(78);
    expect(badUrl.stderr).toContain('DATABASE_URL');
  });
});

describe('the roles step (compose db-roles, the migrate Job’s first container, docker/db-roles.ts)', () => {
  it("makes each service's roles from its URLs, which then migrate and use only their own schema", async () => {
    const superuser = await createTestDatabase();
    const as = (user: string) => {
      const url = new URL(superuser);
      url.username = user;
      url.password = `pw-${user}`;
      return url.toString();
    };
    // Roles belong to the whole server, which other test files share: names of this test's own, so that its
    // passwords never replace the ones their roles (`org`, `post_owner`, …) log in with.
    const role = (name: string) => `roles_step_${name}`;
    const env: Record<string, string> = { POSTGRES_ADMIN_URL: superuser };
    for (const service of Object.keys(SERVICE_SCHEMAS)) {
      env[`${service.toUpperCase()}_DATABASE_URL`] = as(role(service));
      env[`${service.toUpperCase()}_MIGRATION_DATABASE_URL`] = as(role(`${service}_owner`));
    }
    const made = await run(repoPath('docker/db-roles.ts'), [], env);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const migrated = await run(MIGRATE, ['news'], { MIGRATION_DATABASE_URL: as(role('news_owner')) });
    expect(migrated.status).toBe(0);
    const client = new pg.Client({ connectionString: as(role('news')) });
    await client.connect();
    try {
      await client.query('SELECT count(*) FROM news.headlines');
      await expect(client.query('SELECT 1 FROM auth.users')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
    const missing = await run(repoPath('docker/db-roles.ts'), [], { POSTGRES_ADMIN_URL: superuser });
    expect(missing.status).toBe(78);
    expect(missing.stderr).toContain('AUTH_DATABASE_URL');
  });
});
