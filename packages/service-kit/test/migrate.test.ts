// The migration step: applies pending SQL migrations into the service's schema, records them as Prisma
// does, is idempotent and safe to run concurrently, and the schema check catches drift.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger, listMigrations, migrate } from '../src/index.ts';
import { createTestDatabase, diffSchemaAndDatabase } from '../src/testing/index.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const logger = createLogger('test', 'silent');

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('migrate', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  it('applies every migration into the schema and records it the way Prisma does', async () => {
    const applied = await migrate({
      databaseUrl,
      schema: 'notes',
      migrationsDir: join(fixtures, 'migrations'),
      logger,
    });
    expect(applied).toEqual(['20260101000000_init', '20260102000000_more']);

    const records = await query<{ migration_name: string; checksum: string; applied_steps_count: number }>(
      databaseUrl,
      'SELECT migration_name, checksum, applied_steps_count FROM notes._prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    const expected = listMigrations(join(fixtures, 'migrations'));
    expect(records).toEqual(
      expected.map((m) => ({ migration_name: m.name, checksum: m.checksum, applied_steps_count: 1 })),
    );
    expect(records[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
    await query(
      databaseUrl,
      "INSERT INTO notes.notes (id, body, title) VALUES (gen_random_uuid(), 'b', 't')",
    );
  });

  it('applies nothing the second time, even from several processes at once', async () => {
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        migrate({ databaseUrl, schema: 'notes', migrationsDir: join(fixtures, 'migrations'), logger }),
      ),
    );
    expect(runs).toEqual([[], [], []]);
  });

  it('applies pending migrations concurrently exactly once', async () => {
    const fresh = await createTestDatabase();
    const runs = await Promise.all(
      [1, 2].map(() =>
        migrate({ databaseUrl: fresh, schema: 'notes', migrationsDir: join(fixtures, 'migrations'), logger }),
      ),
    );
    expect(runs.flat().sort()).toEqual(['20260101000000_init', '20260102000000_more']);
  });

  it('rolls back a failing migration, records the failure and refuses to go on until it is resolved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotunda-migrations-'));
    cpSync(join(fixtures, 'migrations'), dir, { recursive: true });
    cpSync(join(dir, '20260102000000_more'), join(dir, '20260103000000_broken'), { recursive: true });
    writeFileSync(
      join(dir, '20260103000000_broken', 'migration.sql'),
      'ALTER TABLE "notes" ADD COLUMN "x" TEXT;\nALTER TABLE "missing" ADD COLUMN "y" TEXT;',
    );
    const fresh = await createTestDatabase();
    await expect(
      migrate({ databaseUrl: fresh, schema: 'notes', migrationsDir: dir, logger }),
    ).rejects.toThrow(/20260103000000_broken failed: relation "missing" does not exist/);
    const columns = await query<{ column_name: string }>(
      fresh,
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'notes' AND table_name = 'notes' AND column_name = 'x'",
    );
    expect(columns).toEqual([]);
    const [record] = await query<{ finished_at: Date | null; logs: string }>(
      fresh,
      "SELECT finished_at, logs FROM notes._prisma_migrations WHERE migration_name = '20260103000000_broken'",
    );
    expect(record?.finished_at).toBeNull();
    expect(record?.logs).toContain('missing');
    await expect(
      migrate({ databaseUrl: fresh, schema: 'notes', migrationsDir: dir, logger }),
    ).rejects.toThrow(/failed earlier and was not rolled back/);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(
      migrate({ databaseUrl, schema: 'x"; DROP', migrationsDir: join(fixtures, 'migrations'), logger }),
    ).rejects.toThrow(/Invalid schema name/);
  });
});

describe('schema check', () => {
  it('finds no difference between a schema and its migrations', async () => {
    const databaseUrl = await createTestDatabase();
    await migrate({ databaseUrl, schema: 'notes', migrationsDir: join(fixtures, 'migrations'), logger });
    expect(
      await diffSchemaAndDatabase({
        prismaSchemaPath: join(fixtures, 'schema.prisma'),
        databaseUrl,
        schema: 'notes',
      }),
    ).toEqual([]);
  });

  it('reports a column missing, a wrong type, a wrong nullability and an extra column', async () => {
    const databaseUrl = await createTestDatabase();
    await migrate({ databaseUrl, schema: 'notes', migrationsDir: join(fixtures, 'migrations'), logger });
    await query(
      databaseUrl,
      'ALTER TABLE notes.notes DROP COLUMN title, ALTER COLUMN body DROP NOT NULL, ALTER COLUMN created_at TYPE timestamp(3), ADD COLUMN extra int',
    );
    const differences = await diffSchemaAndDatabase({
      prismaSchemaPath: join(fixtures, 'schema.prisma'),
      databaseUrl,
      schema: 'notes',
    });
    expect(differences).toEqual([
      'notes.body: nullable in the database, required in schema.prisma',
      'notes.title: in schema.prisma, missing from the database',
      'notes.created_at: type timestamp without time zone in the database, timestamp with time zone in schema.prisma',
      'notes.extra: in the database, missing from schema.prisma',
    ]);
  });
});
