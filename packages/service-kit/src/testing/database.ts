// A throwaway real PostgreSQL for integration tests: one embedded server per test run (vitest globalSetup),
// and a fresh database per test file so files never see each other's rows; a service's own roles on request.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseService, ensureEmbeddedServiceRoles } from '../postgres/roles.ts';

export const TEST_DATABASE_URL_ENV = 'ROTUNDA_TEST_DATABASE_URL';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** vitest globalSetup: starts PostgreSQL and hands its URL to the test files through the environment. */
export default async function setup(): Promise<() => Promise<void>> {
  // Loaded here only: the engine's package hooks process exit and signals, which no test's own process wants.
  const { startEmbeddedPostgres } = await import('../postgres/embedded.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'rotunda-test-pg-'));
  const running = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'rotunda_test',
    user: 'rotunda',
    password: 'rotunda',
  });
  process.env[TEST_DATABASE_URL_ENV] = running.adminUrl;
  return async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** A new empty database on the test server; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = process.env[TEST_DATABASE_URL_ENV];
  if (!serverUrl) throw new Error(`${TEST_DATABASE_URL_ENV} is not set: add the service kit's globalSetup`);
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The roles `service` runs and migrates as in the test database `databaseUrl` (made by createTestDatabase), made
 * as npm start makes them; answers the URLs a service's DATABASE_URL and MIGRATION_DATABASE_URL would hold.
 */
export async function createServiceRoles(
  databaseUrl: string,
  service: DatabaseService,
): Promise<{ appUrl: string; ownerUrl: string }> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { url, migrationUrl } = await ensureEmbeddedServiceRoles(admin, databaseUrl, service);
    return { appUrl: url, ownerUrl: migrationUrl };
  } finally {
    await admin.end();
  }
}
