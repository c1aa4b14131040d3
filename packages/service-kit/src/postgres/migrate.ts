// Applies a service's SQL migrations (Prisma's folder layout: migrations/<stamp>_<name>/migration.sql) to its
// own schema and records them in _prisma_migrations exactly as `prisma migrate deploy` does, so either tool
// can take over. Prisma's migrate engine is not available everywhere Rotunda runs; this step is.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.ts';

export interface MigrateOptions {
  databaseUrl: string;
  schema: string;
  migrationsDir: string;
  logger: Logger;
}

// The table as Prisma creates it (migration-engine's postgres flavour).
const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name "${schema}"`);
  return schema;
}

export function listMigrations(migrationsDir: string): { name: string; sql: string; checksum: string }[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(migrationsDir, name, 'migration.sql'));
      return {
        name,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}

/** Applies what is pending; answers the names it applied. Safe to run from several processes at once. */
export async function migrate({
  databaseUrl,
  schema,
  migrationsDir,
  logger,
}: MigrateOptions): Promise<string[]> {
  assertSchemaName(schema);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`rotunda.migrate.${schema}`]);
    // Made only when missing: CREATE SCHEMA IF NOT EXISTS asks for CREATE on the database first, which a schema's
    // owner role (ADR 0039) does not have; the role bootstrap made the schema for it.
    const present = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (present.rowCount === 0) await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`SET search_path TO "${schema}"`);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    const done: string[] = [];
    for (const migration of listMigrations(migrationsDir)) {
      const previous = applied.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          logger.warn({ schema, migration: migration.name }, 'migration was edited after it was applied');
        }
        continue;
      }
      if (previous) {
        throw new Error(
          `Migration ${schema}/${migration.name} failed earlier and was not rolled back; fix the database, then mark it rolled back.`,
        );
      }
      const id = randomUUID();
      await client.query(
        'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
        [id, migration.checksum, migration.name],
      );
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, String(error)]);
        throw new Error(`Migration ${schema}/${migration.name} failed: ${(error as Error).message}`);
      }
      await client.query(
        'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
        [id],
      );
      logger.info({ schema, migration: migration.name }, 'migration applied');
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.end();
  }
}
